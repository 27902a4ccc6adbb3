"""``rolecat mcp`` started as an MCP client starts it: a subprocess driven by the official SDK's
stdio client, and a small catalog of English and Russian roles to serve."""

# ruff: noqa: RUF001

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pytest

from tests.support.catalogs import Catalog, small_catalog
from tests.support.upstream_fixtures import in_ci

RUSSIAN = (
    "\nТы — рецензент кода.\r\nОтвечай по-русски: «ёлка», 🧭 и 𝔘.\n\n"
    "\tПравило 1: будь точен.  \nКонец"
)
"""A leading newline, CRLF, a tab, trailing spaces, guillemets, an emoji and a letter outside
the BMP: a client must get every one of them."""


T = TypeVar("T")


def run_session(session: Callable[[], Awaitable[T]]) -> T:
    """Run one client session to its end in a thread of its own: the browser tests' Playwright
    keeps an event loop running in the main thread for the whole test session, and
    ``anyio.run`` refuses to start a second one there."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(anyio.run, session).result()


def require_sdk() -> None:
    """The SDK comes with the test extra: without it the tests skip, and fail under CI."""
    if importlib.util.find_spec("mcp") is None:
        message = "the MCP SDK is not installed (pip install -e '.[mcp]')"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)


def write_catalog(root: Path) -> Catalog:
    """Two bundles in English and Russian, three roles (one Russian text is :data:`RUSSIAN`);
    written, locked and passing."""
    catalog = small_catalog(root)
    catalog.files[("alpha", "ru")]["roles"][0].update(
        name="Рецензент", description="Проверяет изменения.", instructions=RUSSIAN
    )
    return catalog.write().lock()


def command(*args: str) -> list[str]:
    """``rolecat mcp`` with ``args``, as this interpreter runs it."""
    return [sys.executable, "-m", "build_tools", "mcp", *args]


@dataclass
class Client:
    """A session with ``rolecat mcp``; what the server printed on stderr is in ``errlog``."""

    session: Any  # mcp.ClientSession: the SDK is imported only once it is known to be there
    errlog: Path
    notifications: list[str] = field(default_factory=list)
    changed: Any = None  # an anyio.Event, set at each notifications/prompts/list_changed

    def stderr(self) -> str:
        return self.errlog.read_text(encoding="utf-8")


@asynccontextmanager
async def connect(args: tuple[str, ...], cwd: Path, errlog: Path) -> AsyncIterator[Client]:
    """An initialized session with a server started in ``cwd`` with ``args``."""
    import anyio
    from mcp import ClientSession, StdioServerParameters, types
    from mcp.client.stdio import stdio_client

    client = Client(None, errlog, changed=anyio.Event())

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ServerNotification):
            client.notifications.append(message.root.method)
            if isinstance(message.root, types.PromptListChangedNotification):
                client.changed.set()

    executable, *rest = command(*args)
    server = StdioServerParameters(command=executable, args=rest, cwd=cwd, env=dict(os.environ))
    with errlog.open("w", encoding="utf-8") as log:
        async with (
            stdio_client(server, errlog=log) as (read, write),
            ClientSession(read, write, message_handler=on_message) as session,
        ):
            await session.initialize()
            client.session = session
            yield client
