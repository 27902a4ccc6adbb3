"""Git repositories for the toolchain tests: a snapshot of this working tree, catalog repos."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support import REPO

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "rolecat tests",
    "GIT_AUTHOR_EMAIL": "tests@rolecat.invalid",
    "GIT_COMMITTER_NAME": "rolecat tests",
    "GIT_COMMITTER_EMAIL": "tests@rolecat.invalid",
}


def git(directory: Path, *argv: str) -> str:
    """stdout and stderr together (a commit's hooks write to both); raises on failure."""
    found = subprocess.run(
        ["git", "-C", str(directory), *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=True,
        env={**os.environ, **GIT_IDENTITY},
        timeout=600,
    )
    return found.stdout.strip()


def commit_all(directory: Path, message: str = "commit") -> str:
    """``git init`` (once), add everything, commit; the new commit's id."""
    if not (directory / ".git").exists():
        git(directory, "init", "-q")
    git(directory, "add", "-A")
    git(directory, "commit", "-q", "--allow-empty", "-m", message)
    return git(directory, "rev-parse", "HEAD")


@pytest.fixture(scope="session")
def rolecat_snapshot(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This working tree as it is (tracked and new files, not ignored ones), committed in a
    repository of its own: what a catalog repository's hook would fetch at some ``rev``."""
    target = tmp_path_factory.mktemp("rolecat") / "rolecat"
    listed = git(REPO, "ls-files", "--cached", "--others", "--exclude-standard", "-z")
    for relpath in filter(None, listed.split("\0")):
        source = REPO / relpath
        if source.is_file():  # a file deleted but not yet staged is listed too
            (target / relpath).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / relpath)
    return target, commit_all(target, "snapshot")
