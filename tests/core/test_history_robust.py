"""The history reads the same whatever the user's git configuration, and survives any commit.

A commit it cannot read (a date Python cannot hold, a lock nested too deep to parse) is skipped
with its reason, as a commit whose catalog fails its check is; the rest of the history stands.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from build_tools.history.replay import read_history
from build_tools.history.versions import History
from tests.support.history_repo import CYRILLIC_AUTHOR, SETTINGS, Story, commit, git


def summary(history: History) -> dict[str, Any]:
    return {
        "reach": (history.reach.start, history.reach.unavailable),
        "skipped": [(c.id, c.unreadable) for c in history.skipped],
        "roles": {
            slug: [
                (
                    v.number,
                    v.commit and (v.commit.id, v.commit.author, v.commit.date, v.commit.subject),
                    v.content,
                )
                for v in role.versions
            ]
            for slug, role in history.roles.items()
        },
    }


@pytest.mark.parametrize("setting", SETTINGS)
def test_the_users_git_configuration_changes_nothing(
    repository: Path, tmp_path: Path, setting: str
) -> None:
    plain = summary(read_history(repository / "catalog"))
    assert plain["roles"]["reviewer"][0][1][1] == CYRILLIC_AUTHOR
    assert len(plain["roles"]["reviewer"]) == 2 and plain["skipped"] == []
    configured = Path(shutil.copytree(repository, tmp_path / "copy"))
    for key, value in SETTINGS[setting].items():
        git(configured, "config", key, value)
    assert summary(read_history(configured / "catalog")) == plain


def crafted_commit(root: Path, seconds: str, message: str) -> str:
    """A commit object git itself will not make: its dates are ``seconds`` since 1970."""
    tree = git(root, "write-tree")
    parent = git(root, "rev-parse", "HEAD")
    body = (
        f"tree {tree}\nparent {parent}\nauthor Ada <a@b> {seconds} +0000\n"
        f"committer Ada <a@b> {seconds} +0000\n\n{message}\n"
    )
    made = git(root, "hash-object", "-t", "commit", "-w", "--stdin", "--literally", stdin=body)
    git(root, "update-ref", "HEAD", made)
    return made


@pytest.mark.parametrize("seconds", ["253402300800", "99999999999999999999"])
def test_a_commit_dated_beyond_python_is_skipped_with_its_reason(
    repository: Path, tmp_path: Path, seconds: str
) -> None:
    root = Path(shutil.copytree(repository, tmp_path / "copy"))
    story = Story(root / "catalog")
    story.versions["reviewer"] = 2
    story.roles["reviewer"]["en"]["name"] = "Reviewer, revised"
    story.versions["writer"] = 2
    story.roles["writer"]["en"]["name"] = "Writer, from the far future"
    story.write()
    git(root, "add", "-A")
    odd = crafted_commit(root, seconds, "writer 2, dated oddly")
    history = read_history(root / "catalog")
    assert [(c.id, c.unreadable) for c in history.skipped] == [
        (odd, f"its date ({seconds} seconds since 1970) is out of range")
    ]
    assert [v.number for v in history.roles["reviewer"].versions] == [1, 2]


def test_a_lock_nested_too_deep_to_parse_skips_its_commit(repository: Path, tmp_path: Path) -> None:
    root = Path(shutil.copytree(repository, tmp_path / "copy"))
    lock = root / "catalog" / "content-hashes.json"
    good = lock.read_bytes()
    lock.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    deep = commit(root, "a lock no parser can read", when="1772971200 +0000")
    lock.write_bytes(good)
    commit(root, "the lock back", when="1773057600 +0000")
    history = read_history(root / "catalog")
    assert [c.id for c in history.skipped] == [deep]
    assert [v.number for v in history.roles["reviewer"].versions] == [1, 2]
    json.dumps(summary(history), default=str)  # everything in it can be shown
