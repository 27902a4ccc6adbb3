"""Git repositories for the toolchain tests: a snapshot of this working tree, catalog repos."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.commits import commit_all, git
from tests.support.paths import REPO


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
