"""A translation left behind says so wherever the role travels: the agent files `rolecat export`
writes, in the translation's own language (the story of tests/support/history_repo.py leaves
the Russian writer at version 1 while the English one is at 2, and the Russian helper at 2
while the English one is at 3)."""

# ruff: noqa: RUF001

from __future__ import annotations

import shutil
from pathlib import Path

from ruamel.yaml import YAML

from tests.support.cli import run
from tests.support.history_repo import StoryRepo

BEHIND = {
    "writer": "What the writer does (ru). (переведено с версии 1; оригинал уже в версии 2)",
    "helper": "What the helper does (ru). (переведено с версии 2; оригинал уже в версии 3)",
    "reviewer": "What the reviewer does (ru).",
}


def descriptions(folder: Path) -> dict[str, str]:
    found = {}
    for file in sorted(folder.glob("*.md")):
        front = file.read_text(encoding="utf-8").split("---\n")[1]
        found[file.name.split(".")[0]] = YAML(typ="safe").load(front)["description"]
    return found


def test_an_export_of_a_translation_left_behind_says_from_which_version(
    story: StoryRepo, tmp_path: Path
) -> None:
    catalog = str(story[0] / "catalog")
    done = run("export", "--to", "copilot", "--language", "ru", "--catalog", catalog, str(tmp_path))
    assert done.code == 0, done.err
    assert descriptions(tmp_path / ".github" / "agents") == BEHIND


def test_the_original_language_carries_no_note(story: StoryRepo, tmp_path: Path) -> None:
    catalog = str(story[0] / "catalog")
    done = run("export", "--to", "claude-code", "--catalog", catalog, str(tmp_path))
    assert done.code == 0, done.err
    assert not any("version" in d for d in descriptions(tmp_path / ".claude" / "agents").values())


def test_without_history_nothing_is_said_to_be_behind(story: StoryRepo, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(story[0] / "catalog", copy)  # the files alone, without their git history
    target = tmp_path / "project"
    target.mkdir()
    done = run("export", "--to", "copilot", "--language", "ru", "--catalog", str(copy), str(target))
    assert done.code == 0, done.err
    assert descriptions(target / ".github" / "agents") == {
        slug: f"What the {slug} does (ru)." for slug in BEHIND
    }
