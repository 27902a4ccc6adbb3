"""What every test shares: the default output, and the git repository of a catalog's story."""

from __future__ import annotations

import pytest

from build_tools import schema
from build_tools.report import FORMAT_ENV
from tests.history_repo import StoryRepo, tell


@pytest.fixture(autouse=True)
def text_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests read rolecat's default output: a ROLECAT_FORMAT set in the shell must not change it."""
    monkeypatch.delenv(FORMAT_ENV, raising=False)


@pytest.fixture(autouse=True, scope="session")
def schemas_compiled_in_this_session() -> None:
    """The schemas' screen and validator are compiled once per process and cached. `make mutate`
    runs each mutant in a process forked from one that compiled them already: compiled again
    here, a mutant of the compiler is tested rather than reported as surviving unseen."""
    schema.screen.cache_clear()
    schema.validator.cache_clear()


@pytest.fixture(scope="session")
def story(tmp_path_factory: pytest.TempPathFactory) -> StoryRepo:
    """The repository of tests/history_repo.py: its root and the commit id of each step.

    Shared by the core, site and browser tests, so none may change it: work on a clone or a copy.
    """
    root = tmp_path_factory.mktemp("story")
    _repo, ids = tell(root)
    return root, ids
