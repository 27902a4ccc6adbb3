"""What every test shares: the default output, the git repositories of a catalog's history, and
a static host on loopback."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from build_tools.cli.report import FORMAT_ENV
from tests.support.history_repo import (
    CYRILLIC_AUTHOR,
    GitRepo,
    Story,
    StoryRepo,
    commit,
    tell,
)
from tests.support.remote_hosts import StaticServer


@pytest.fixture(autouse=True)
def text_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests read rolecat's default output: a ROLECAT_FORMAT set in the shell must not change it."""
    monkeypatch.delenv(FORMAT_ENV, raising=False)


@pytest.fixture(scope="session")
def story(tmp_path_factory: pytest.TempPathFactory) -> StoryRepo:
    """The repository of tests/support/history_repo.py: its root and the commit id of each step.

    Shared by the core, site and browser tests, so none may change it: work on a clone or a copy.
    """
    root = tmp_path_factory.mktemp("story")
    _repo, ids = tell(root)
    return root, ids


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two versions of a role, the first committed (as the root commit) by a Cyrillic name."""
    root = tmp_path_factory.mktemp("configured")
    GitRepo(root)
    story = Story(root / "catalog")
    story.write()
    commit(root, "Первые роли", author=CYRILLIC_AUTHOR)
    story.versions["reviewer"] = 2
    story.roles["reviewer"]["en"]["name"] = "Reviewer, revised"
    story.write()
    commit(root, "reviewer 2", when="1770292800 +0000")
    return root


@pytest.fixture
def static_server() -> Iterator[Callable[[Path], StaticServer]]:
    """Start ``python -m http.server 0`` on loopback for a directory; stopped after the test."""
    processes: list[subprocess.Popen[str]] = []

    def start(directory: Path) -> StaticServer:
        process = subprocess.Popen(
            [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1"],
            cwd=directory,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        processes.append(process)
        assert process.stdout is not None
        # Readiness: the server prints its port once it listens.
        line = process.stdout.readline()
        found = re.search(r"port (\d+)", line)
        assert found, f"http.server did not start: {line!r}"
        return StaticServer(f"http://127.0.0.1:{found.group(1)}")

    yield start
    for process in processes:
        process.terminate()
        process.wait(timeout=5)
        if process.stdout is not None:
            process.stdout.close()
