"""The site built from a repository's history: the same whatever the user's git configuration,
and no credential of an old version in any file of it (the core side is in
``tests/core/test_history_robust.py``; site builds stay out of ``make mutate``'s fast tests)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from build_tools.history.replay import read_history
from tests.support.history_repo import CYRILLIC_AUTHOR, SETTINGS, GitRepo, Story, commit, git


def test_the_build_of_a_configured_repository_is_the_same_site(
    repository: Path, tmp_path: Path
) -> None:
    from tests.support.site_builds import build

    configured = Path(shutil.copytree(repository, tmp_path / "copy"))
    for values in SETTINGS.values():
        for key, value in values.items():
            git(configured, "config", key, value)
    git(configured, "config", "i18n.logOutputEncoding", "cp1251")
    plain = build(repository / "catalog", tmp_path / "plain")
    odd = build(configured / "catalog", tmp_path / "odd")
    assert plain.returncode == 0 and odd.returncode == 0, odd.output

    def files(site: Path) -> dict[str, bytes]:
        found = {}
        for path in site.rglob("*"):
            if path.is_file() and "pagefind" not in path.parts:
                found[path.relative_to(site).as_posix()] = path.read_bytes().replace(
                    os.fsencode(configured), os.fsencode(repository)
                )
        return found

    ours, theirs = files(plain.site), files(odd.site)
    assert ours.keys() == theirs.keys()
    assert [p for p in ours if ours[p] != theirs[p]] == []
    assert CYRILLIC_AUTHOR.encode() in ours["feed.xml"]


def test_a_credential_in_an_old_version_never_reaches_the_site(tmp_path: Path) -> None:
    """Committed once, removed since: its version's text is left out of pages, diffs and feeds,
    and the page and the build log say so."""
    from tests.support.catalog_files import lock_as_is
    from tests.support.fake_credentials import SECRETS
    from tests.support.site_builds import build

    secret = SECRETS["GitHub Token"]
    root = tmp_path / "repo"
    GitRepo(root)
    story = Story(root / "catalog")
    story.roles["reviewer"]["en"]["instructions"] += f"\n\nDeploy with {secret}."
    story.write(lock=False)
    lock_as_is(root / "catalog")  # a check would refuse it today; an old commit was not checked
    commit(root, "reviewer: with a deploy token")
    story.versions["reviewer"] = 2
    story.roles["reviewer"]["en"]["instructions"] = "You review. The token is gone."
    story.write()
    commit(root, f"reviewer: token removed (was {secret})", when="1770292800 +0000")

    history = read_history(root / "catalog")
    first, second = history.roles["reviewer"].versions
    assert first.withheld == ("en instructions",) and second.withheld == ()
    assert second.commit is not None and secret not in second.commit.subject

    built = build(root / "catalog", tmp_path / "site")
    assert built.returncode == 0, built.output
    assert secret not in built.output
    assert "role reviewer version 1: en instructions left out of the site" in built.output
    leaked = [
        p.relative_to(built.site).as_posix()
        for p in built.site.rglob("*")
        if p.is_file() and secret.encode() in p.read_bytes()
    ]
    assert leaked == []
    page = (built.site / "en/team/reviewer/v2/index.html").read_text(encoding="utf-8")
    assert "it held a credential (en instructions)" in page
