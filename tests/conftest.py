"""What the test packages share: the git repository of a catalog's story, written once."""

from __future__ import annotations

import pytest

from tests.history_repo import StoryRepo, tell


@pytest.fixture(scope="session")
def story(tmp_path_factory: pytest.TempPathFactory) -> StoryRepo:
    """The repository of tests/history_repo.py: its root and the commit id of each step.

    Shared by the core, site and browser tests, so none may change it: work on a clone or a copy.
    """
    root = tmp_path_factory.mktemp("story")
    _repo, ids = tell(root)
    return root, ids
