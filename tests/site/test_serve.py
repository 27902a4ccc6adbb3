"""``mkdocs serve`` watches the catalog: a bad edit shows the problems, a fix recovers, no restart.

Waiting uses MkDocs' own live-reload long poll (``/livereload/<epoch>/<id>`` answers once a newer
build is visible), the same signal a browser reloads on: no sleeping, no guessing.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape

from build_tools.check import check_catalog, update_lock
from tests.support.paths import OUR_CATALOG
from tests.support.site_builds import Served, copy_catalog, serve


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return str(response.read().decode("utf-8"))


def epoch(html: str) -> int:
    found = re.search(r"livereload\((\d+), \d+\)", html)
    assert found, "no live-reload script in the page"
    return int(found.group(1))


def next_build(served: Served, after: int) -> int:
    """Block until the server shows a build newer than ``after`` (the browser's reload signal)."""
    while True:
        seen = int(get(f"{served.url}livereload/{after}/1"))
        if seen > after:
            return seen


@pytest.mark.parametrize("make", [False, True], ids=["mkdocs-serve", "make-serve-dirty"])
def test_serve_shows_problems_and_recovers(tmp_path: Path, make: bool) -> None:
    catalog = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    ru = catalog / "bundles/engineering/ru.json"
    good = ru.read_text(encoding="utf-8")
    with serve(catalog, make=make) as served:
        role = f"{served.url}en/engineering/code-reviewer/"
        page = get(role)
        assert "Code Reviewer" in page
        first = epoch(page)

        ru.write_text(good.replace('"emoji": "🔎"', '"emoji": "🔍"', 1), encoding="utf-8")
        problems = [str(d) for d in check_catalog(catalog).diagnostics]
        assert problems
        broken = next_build(served, first)
        page = get(role)
        assert "The catalog has problems" in page
        for line in problems:
            assert str(escape(line)) in page
        served.wait_for(problems[0])  # the log carries the same one-line diagnostics
        assert "Code Reviewer" not in page
        assert "The catalog has problems" in get(served.url)

        ru.write_text(good, encoding="utf-8")
        next_build(served, broken)
        page = get(role)
        assert "Code Reviewer" in page and "The catalog has problems" not in page
    assert not any("Traceback" in line for line in served.lines), "\n".join(served.lines)
    assert not any("appear stuck" in line for line in served.lines)


def without_reload(html: str) -> str:
    """A served page less the live-reload call, which carries the moment of the request."""
    return re.sub(r"livereload\(\d+, \d+\)", "", html)


def sidebar(html: str) -> str:
    return html[html.index("md-sidebar--primary") : html.index("md-sidebar--secondary")]


def edit(path: Path, change: object) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)  # type: ignore[operator]
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def test_make_serve_rebuilds_only_what_an_edit_changed(tmp_path: Path) -> None:
    """`make serve` runs `mkdocs serve --dirty`: the edited pages change, the rest stays right."""
    catalog = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    en = catalog / "bundles/engineering/en.json"
    with serve(catalog, make=True) as served:
        edited, untouched = (
            f"{served.url}en/engineering/{slug}/" for slug in ("code-reviewer", "test-engineer")
        )
        before = without_reload(get(untouched))
        build = epoch(get(edited))

        # An unbumped edit is previewed with a banner (the lock is only logged), and only the
        # pages that show the role change.
        edit(
            en,
            lambda d: d["roles"][0].update(
                instructions=d["roles"][0]["instructions"] + " Zanzibar quokka."
            ),
        )
        build = next_build(served, build)
        page = get(edited)
        assert "Zanzibar quokka." in page and "Not publishable yet" in page
        for suffix in (".txt", ".claude.md", ".agent.md", ".mdc"):  # its files follow the edit
            assert get(f"{served.url}en/engineering/code-reviewer{suffix}").endswith("quokka.")
        assert "Пока нельзя опубликовать" in get(f"{served.url}ru/engineering/code-reviewer/")
        assert without_reload(get(untouched)) == before
        assert "None" not in sidebar(page) and "None" not in sidebar(get(untouched))
        served.wait_for("`make site` refuses them")

        # A rename with a version bump changes several pages; the search index stays whole.
        edit(en, lambda d: d["roles"][0].update(name="Code Critic"))
        edit(catalog / "index.json", lambda d: d["bundles"][0]["roles"][0].update(version=2))
        assert update_lock(catalog).diagnostics == []
        build = next_build(served, build)
        assert "Code Critic" in get(f"{served.url}en/engineering/")
        assert "Code Critic" in get(f"{served.url}ru/engineering/code-reviewer/")
        assert "Not publishable yet" not in get(edited)

        # A removed role leaves no page behind, nor any of its files.
        for path in (en, catalog / "bundles/engineering/ru.json"):
            edit(path, lambda d: d["roles"].pop(1))
        edit(catalog / "index.json", lambda d: d["bundles"][0]["roles"].pop(1))
        assert update_lock(catalog).diagnostics == []
        next_build(served, build)
        with pytest.raises(urllib.error.HTTPError):
            get(untouched)
        for suffix in (".txt", ".claude.md", ".agent.md", ".mdc"):
            with pytest.raises(urllib.error.HTTPError):
                get(f"{served.url}en/engineering/test-engineer{suffix}")
    assert not any("Traceback" in line for line in served.lines), "\n".join(served.lines)


def append_to(slug: str, text: str) -> Callable[[dict[str, Any]], None]:
    """An edit: ``text`` at the end of one role's instructions."""

    def change(data: dict[str, Any]) -> None:
        role = next(r for r in data["roles"] if r["slug"] == slug)
        role["instructions"] += " " + text

    return change


def test_make_serve_sees_every_edit_while_reusing_unchanged_files(tmp_path: Path) -> None:
    """A rebuild takes over what it read of the files an edit left alone: an edit to one file,
    then to another, each shows and neither undoes the other; a rule across files still sees the
    whole catalog; a broken file shows the problems and its fix recovers with both edits."""
    catalog = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    engineering = catalog / "bundles/engineering/en.json"
    writing = catalog / "bundles/writing/ru.json"
    with serve(catalog, make=True) as served:
        reviewer = f"{served.url}en/engineering/code-reviewer/"
        translator = f"{served.url}ru/writing/translator/"
        build = epoch(get(reviewer))

        edit(engineering, append_to("code-reviewer", "Zanzibar quokka."))
        build = next_build(served, build)
        assert "Zanzibar quokka." in get(reviewer)

        edit(writing, append_to("translator", "Квокка из Занзибара."))
        build = next_build(served, build)
        assert "Квокка из Занзибара." in get(translator)
        assert "Zanzibar quokka." in get(reviewer)
        good = writing.read_text(encoding="utf-8")

        # The emoji of a role is the same in every language: only the Russian file changes, and
        # the English one it disagrees with is the one the last rebuild read.
        edit(
            writing,
            lambda d: next(r for r in d["roles"] if r["slug"] == "translator").update(emoji="🦘"),
        )
        problems = [str(d) for d in check_catalog(catalog).diagnostics]
        assert any("must be the same in every language" in line for line in problems)
        build = next_build(served, build)
        page = get(translator)
        assert "The catalog has problems" in page
        for line in problems:
            assert str(escape(line)) in page

        writing.write_text("{ not JSON", encoding="utf-8")
        build = next_build(served, build)
        assert "The catalog has problems" in get(reviewer)

        writing.write_text(good, encoding="utf-8")
        next_build(served, build)
        page = get(translator)
        assert "Квокка из Занзибара." in page and "The catalog has problems" not in page
        assert "Zanzibar quokka." in get(reviewer)
    assert not any("Traceback" in line for line in served.lines), "\n".join(served.lines)
