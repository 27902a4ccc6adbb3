"""git for the toolchain tests: a command under a fixed identity, and everything committed."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

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
