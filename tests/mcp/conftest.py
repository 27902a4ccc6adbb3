"""The fixtures of the MCP server's tests: a small catalog, and sessions with the server."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import pytest

from tests.support.catalogs import Catalog
from tests.support.mcp_sessions import Client, connect, require_sdk, write_catalog


@pytest.fixture
def catalog(tmp_path: Path) -> Catalog:
    return write_catalog(tmp_path / "catalog")


@pytest.fixture
def mcp_server(tmp_path: Path) -> Callable[..., AbstractAsyncContextManager[Client]]:
    """``mcp_server("--catalog", DIR)``: a session with a server started with those arguments,
    in a directory of its own (no default ``catalog`` there to be found by chance)."""
    require_sdk()
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    started = [0]

    def start(*args: str) -> AbstractAsyncContextManager[Client]:
        started[0] += 1
        return connect(args, cwd, tmp_path / f"stderr-{started[0]}.txt")

    return start
