"""What every test shares: the default output, and the git repository of a catalog's story."""

from __future__ import annotations

import pytest

from build_tools.cli.report import FORMAT_ENV
from tests.history_repo import StoryRepo, tell


@pytest.fixture(autouse=True)
def text_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests read rolecat's default output: a ROLECAT_FORMAT set in the shell must not change it."""
    monkeypatch.delenv(FORMAT_ENV, raising=False)


@pytest.fixture(scope="session")
def story(tmp_path_factory: pytest.TempPathFactory) -> StoryRepo:
    """The repository of tests/history_repo.py: its root and the commit id of each step.

    Shared by the core, site and browser tests, so none may change it: work on a clone or a copy.
    """
    root = tmp_path_factory.mktemp("story")
    _repo, ids = tell(root)
    return root, ids
