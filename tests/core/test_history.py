"""The history reader on a real git repository: versions, dates, staleness, shallow and no git."""

# Russian text is meant to be Cyrillic: RUF001 (letters that look Latin) does not apply here.
# ruff: noqa: RUF001

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from build_tools.check import check_catalog, update_lock
from build_tools.history.replay import Reading, read_history
from build_tools.history.versions import History, RoleHistory, Version, changed_fields
from build_tools.model.catalog import load_catalog
from tests.support.history_repo import AUTHOR, LONG_LINK, GitRepo, Story, StoryRepo, instructions


@pytest.fixture(scope="module")
def history(story: StoryRepo) -> History:
    return read_history(story[0] / "catalog")


def numbers(role: RoleHistory) -> list[int | float]:
    return [v.number for v in role.versions]


def day(version: Version) -> str:
    assert version.commit is not None
    return version.commit.date.strftime("%Y-%m-%d")


def test_every_version_with_its_commit_and_date(history: History, story: StoryRepo) -> None:
    ids = story[1]
    assert history.reach.unavailable is None and not history.reach.truncated
    assert history.reach.start == datetime(2026, 1, 5, 12, tzinfo=UTC)
    reviewer = history.roles["reviewer"]
    assert numbers(reviewer) == [1, 2, 3, 4]
    assert [day(v) for v in reviewer.versions] == [
        "2026-01-05",
        "2026-02-01",
        "2026-03-01",
        "2026-06-01",
    ]
    assert [v.commit.id for v in reviewer.versions if v.commit] == [
        ids["start"],
        ids["both"],
        ids["behind"],
        ids["caught-up"],
    ]
    commit = reviewer.versions[1].commit
    assert commit is not None
    assert commit.author == AUTHOR and commit.subject == "reviewer: be brief, in both languages"
    assert reviewer.versions[3].content["en"]["instructions"] == instructions("reviewer", "en", 2)
    assert reviewer.versions[0].content["ru"]["name"] == "Reviewer (ru)"


def test_a_broken_commit_is_skipped(history: History, story: StoryRepo) -> None:
    assert [c.id for c in history.skipped] == [story[1]["broken"]]


def test_a_renamed_bundle_file_is_no_new_version(history: History) -> None:
    # en.json became en.yaml on 2026-03-15 with the same content: nothing was published anew.
    dates = {day(v) for role in history.roles.values() for v in role.versions}
    assert "2026-03-15" not in dates
    # The YAML file is read with the project's own YAML reader, later versions too.
    writer = history.roles["writer"]
    assert writer.versions[-1].content["en"]["instructions"].endswith(LONG_LINK)
    assert changed_fields(writer.versions[0].content["en"], writer.versions[1].content["en"]) == [
        "description",
        "instructions",
    ]


def test_a_role_removed_and_added_again(history: History) -> None:
    helper = history.roles["helper"]
    assert numbers(helper) == [1, 2, 3]
    first, back, prompt = helper.versions
    assert first.removed is not None and day(first) == "2026-01-05"
    assert first.removed.date.strftime("%Y-%m-%d") == "2026-04-02"
    assert day(back) == "2026-05-01" and back.removed is None
    assert helper.previous(back) is first
    # Its English instructions come from prompts/helper.md, less the final newline; the next
    # version changed only that file.
    assert back.content["en"]["instructions"] == instructions("helper", "en", 1)
    assert prompt.content["en"]["instructions"] == instructions("helper", "en", 2)
    assert "instructionsFile" not in prompt.content["en"]
    assert helper.changed_languages(prompt) == ["en"]


def test_translations_left_behind_are_stale_until_they_change(history: History) -> None:
    reviewer = history.roles["reviewer"]
    v1, v2, v3, v4 = reviewer.versions
    assert reviewer.stale(v1) == {} and reviewer.stale(v2) == {}
    assert reviewer.changed_languages(v2) == ["en", "ru"]
    stale = reviewer.stale(v3)
    assert list(stale) == ["ru"] and stale["ru"].since is v3 and stale["ru"].changed == ("en",)
    # Russian catching up makes nobody stale: English did not fall behind.
    assert reviewer.changed_languages(v4) == ["ru"] and reviewer.stale(v4) == {}
    writer = history.roles["writer"]
    assert list(writer.stale(writer.versions[-1])) == ["ru"]
    helper = history.roles["helper"]
    # Re-added with both languages new: nothing stale; then English alone changed.
    assert helper.stale(helper.versions[1]) == {}
    assert list(helper.stale(helper.versions[2])) == ["ru"]


def test_staleness_lasts_over_later_bumps_and_new_languages() -> None:
    def version(**content: str) -> Version:
        return Version(
            1, "b", {lang: {"instructions": text} for lang, text in content.items()}, None
        )

    versions = [
        version(en="a", ru="а"),
        version(en="b", ru="а"),  # ru falls behind
        version(en="c", ru="а"),  # still behind, since the first bump
        version(en="c", ru="а", de="c"),  # a new language makes nobody stale
        version(en="d", ru="а", de="c"),  # en leads again: de falls behind, ru stays behind
        version(en="d", ru="д", de="d"),  # both catch up
    ]
    role = RoleHistory("x", versions)
    stale = [{lang: why.since for lang, why in role.stale(v).items()} for v in versions]
    assert stale == [
        {},
        {"ru": versions[1]},
        {"ru": versions[1]},
        {"ru": versions[1]},
        {"ru": versions[1], "de": versions[4]},
        {},
    ]


def test_a_shallow_clone_says_where_history_starts(story: StoryRepo, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{story[0]}", str(clone)], check=True
    )
    history = read_history(clone / "catalog")
    assert history.reach.truncated and history.reach.unavailable is None
    assert history.reach.start == datetime(2026, 8, 1, 12, tzinfo=UTC)
    for role in history.roles.values():
        (only,) = role.versions
        assert only.at_start and role.stale(only) == {} and role.changed_languages(only) == []
    assert numbers(history.roles["reviewer"]) == [4]


def test_no_git_repository(tmp_path: Path, story: StoryRepo) -> None:
    catalog = shutil.copytree(story[0] / "catalog", tmp_path / "catalog")
    history = read_history(catalog)
    assert history.reach.unavailable == "not-a-repository" and history.roles == {}
    loaded = check_catalog(catalog).catalog
    assert loaded is not None
    current = history.including(loaded)
    assert numbers(current.roles["reviewer"]) == [4]
    assert current.roles["reviewer"].versions[0].commit is None


def test_no_git_at_all(tmp_path: Path, story: StoryRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert read_history(story[0] / "catalog").reach.unavailable == "no-git"


def test_a_repository_without_commits(tmp_path: Path) -> None:
    GitRepo(tmp_path)
    Story(tmp_path / "catalog").write()
    assert read_history(tmp_path / "catalog").reach.unavailable == "no-commits"


def test_a_catalog_never_committed(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path)
    (tmp_path / "README.md").write_text("x\n", encoding="utf-8")
    repo.commit("Start", "2026-01-01")
    Story(tmp_path / "catalog").write()
    assert read_history(tmp_path / "catalog").reach.unavailable == "not-committed"


def test_a_commit_with_a_stale_lock_is_not_published(tmp_path: Path) -> None:
    """An edit committed before its bump is published only by the commit that bumps it."""
    repo = GitRepo(tmp_path)
    story = Story(tmp_path / "catalog")
    story.write()
    repo.commit("Start", "2026-01-01")
    story.roles["reviewer"]["en"]["instructions"] += " Use short words."
    story.write(lock=False)  # `rolecat check --fix` refuses an unbumped change
    unbumped = repo.commit("Work in progress", "2026-01-02")
    index = tmp_path / "catalog/index.json"
    index.write_text(
        index.read_text("utf-8").replace('"version": 1', '"version": 2', 1), encoding="utf-8"
    )
    assert update_lock(tmp_path / "catalog").diagnostics == []
    repo.commit("Bump", "2026-01-03")
    history = read_history(tmp_path / "catalog")
    assert [c.id for c in history.skipped] == [unbumped]
    reviewer = history.roles["reviewer"]
    assert [day(v) for v in reviewer.versions] == ["2026-01-01", "2026-01-03"]
    assert "short words" in reviewer.versions[1].content["en"]["instructions"]
    assert "short words" not in reviewer.versions[0].content["en"]["instructions"]


def test_the_working_tree_is_the_newest_state(story: StoryRepo, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", f"file://{story[0]}", str(clone)], check=True)
    catalog = clone / "catalog"
    committed = read_history(catalog)
    assert read_history(catalog, reuse=committed) is committed  # same HEAD: read once

    # An edit previewed before its bump: the newest version shows it, the cache is untouched.
    ru = catalog / "bundles/team/ru.json"
    data = json.loads(ru.read_text("utf-8"))
    data["roles"][1]["instructions"] = "Новый текст."
    ru.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    loaded, problems = load_catalog(catalog)
    assert loaded is not None and problems == []
    previewed = committed.including(loaded)
    writer = previewed.roles["writer"]
    assert numbers(writer) == [1, 2] and writer.versions[-1].commit is not None
    assert writer.versions[-1].content["ru"]["instructions"] == "Новый текст."
    assert committed.roles["writer"].versions[-1].content["ru"]["instructions"] != "Новый текст."
    # Bumped but not committed: a version without a commit, compared with the last committed one.
    index = catalog / "index.json"
    value = json.loads(index.read_text("utf-8"))
    value["bundles"][0]["roles"][1]["version"] = 3
    index.write_text(json.dumps(value), encoding="utf-8")
    loaded, problems = load_catalog(catalog)
    assert loaded is not None and problems == []
    writer = committed.including(loaded).roles["writer"]
    assert numbers(writer) == [1, 2, 3] and writer.versions[-1].commit is None
    assert writer.changed_languages(writer.versions[-1]) == ["ru"]
    assert writer.stale(writer.versions[-1]) == {}  # Russian caught up


def test_reading_in_another_process_gives_the_same_history(story: StoryRepo) -> None:
    catalog = story[0] / "catalog"
    here = read_history(catalog)
    there = Reading(catalog, None, None).result()
    assert there.key == here.key and there.reach == here.reach
    assert {
        slug: [(v.number, v.commit, v.content) for v in role.versions]
        for slug, role in there.roles.items()
    } == {
        slug: [(v.number, v.commit, v.content) for v in role.versions]
        for slug, role in here.roles.items()
    }
    assert Reading(catalog, None, here).result() is here  # the same HEAD: nothing is read again
