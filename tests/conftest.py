"""What every test shares: the default output, and the git repository of a catalog's story."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from build_tools import cache
from build_tools.cli.report import FORMAT_ENV
from tests.history_repo import StoryRepo, tell


@pytest.fixture(autouse=True, scope="session")
def own_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """rolecat's cache (build_tools/cache.py) in the session's temporary directory, for every
    process the tests start too: never the user's."""
    before = os.environ.get(cache.ENV)
    os.environ[cache.ENV] = str(tmp_path_factory.mktemp("rolecat-cache"))
    yield
    if before is None:
        os.environ.pop(cache.ENV, None)
    else:
        os.environ[cache.ENV] = before


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
