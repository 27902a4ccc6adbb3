"""The MCP server over stdio, with the official SDK's low-level ``Server``: it gives exact control
of each prompt's name and text, where FastMCP would derive them from Python functions.

The only module that imports the SDK (some 0.3 s), and only ``rolecat mcp`` imports it.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import anyio.to_thread
from mcp import types
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.session import ServerSession
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import McpError

from build_tools import __version__
from build_tools.diagnostics import one_line
from build_tools.mcp.catalogs import PromptSource
from build_tools.mcp.prompts import RolePrompt, Served

POLL_SECONDS = 2.0
"""How often a watched catalog's files are looked at between requests, so that a client hears
of an edit (``notifications/prompts/list_changed``) without asking first."""


def serve(source: PromptSource, where: str) -> None:
    """Answer MCP requests on stdin and stdout until the client closes them.

    Anything printed meanwhile goes to stderr: stdout carries the protocol alone."""
    anyio.run(_serve, source, where)


class _Prompts:
    """The session's view of ``source``: one look at the files at a time, and a notification
    to the client whenever what is served changed."""

    def __init__(self, source: PromptSource) -> None:
        self.source = source
        self.lock = anyio.Lock()
        self.session: ServerSession | None = None
        """The client's session, once it has asked anything (the SDK creates it out of reach)."""

    async def current(self, session: ServerSession | None = None) -> Served:
        self.session = session or self.session
        if self.source.watching:
            async with self.lock:
                changed = await anyio.to_thread.run_sync(self.source.refresh)
            if changed and self.session is not None:
                with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                    await self.session.send_prompt_list_changed()  # unless the client left
        return self.source.served

    async def poll(self) -> None:
        while True:
            await anyio.sleep(POLL_SECONDS)
            try:
                await self.current()
            except Exception as error:  # a bug: said in one line, and the session goes on
                message = f"rolecat mcp: internal error: {type(error).__name__}: {error}"
                print(one_line(message), file=sys.stderr)


def _listed(prompt: RolePrompt) -> types.Prompt:
    return types.Prompt(
        name=prompt.name, title=prompt.title, description=prompt.description, arguments=[]
    )


def _message(prompt: RolePrompt) -> types.GetPromptResult:
    """Exactly one user message: the role's instructions, unchanged."""
    text = types.TextContent(type="text", text=prompt.text)
    return types.GetPromptResult(
        description=prompt.description,
        messages=[types.PromptMessage(role="user", content=text)],
    )


def _server(prompts: _Prompts, instructions: str) -> Server[Any, Any]:
    server: Server[Any, Any] = Server("rolecat", version=__version__, instructions=instructions)

    async def list_prompts(_request: types.ListPromptsRequest) -> types.ServerResult:
        served = await prompts.current(server.request_context.session)
        listed = [_listed(prompt) for prompt in served.prompts]
        return types.ServerResult(types.ListPromptsResult(prompts=listed))

    async def get_prompt(request: types.GetPromptRequest) -> types.ServerResult:
        served = await prompts.current(server.request_context.session)
        found = served.by_name.get(request.params.name)
        if found is None:
            raise McpError(
                types.ErrorData(
                    code=types.INVALID_PARAMS,
                    message=f"no prompt named {request.params.name!r}: prompts/list names "
                    f"the {len(served.prompts)} this server offers",
                )
            )
        return types.ServerResult(_message(found))

    handlers: dict[type, Callable[..., Awaitable[types.ServerResult]]] = {
        types.ListPromptsRequest: list_prompts,
        types.GetPromptRequest: get_prompt,
    }
    server.request_handlers.update(handlers)  # the decorators are untyped; this is what they do
    return server


async def _serve(source: PromptSource, where: str) -> None:
    prompts = _Prompts(source)
    instructions = (
        f"The roles of the agent-roles catalog at {where}, in {source.served.language}: each "
        "prompt is one role's system prompt, as its author wrote it."
    )
    server = _server(prompts, instructions)
    options = server.create_initialization_options(
        NotificationOptions(prompts_changed=source.watching)
    )
    # The SDK would wrap stdin and stdout itself, and its wrappers close the process's own
    # streams when they are collected: these are detached instead, once the session ends.
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
    try:
        async with stdio_server(anyio.wrap_file(stdin), anyio.wrap_file(stdout)) as (read, write):
            with contextlib.redirect_stdout(sys.stderr):  # a stray print() must not reach stdout
                async with anyio.create_task_group() as tasks:
                    if source.watching:
                        tasks.start_soon(prompts.poll)
                    await server.run(read, write, options)
                    tasks.cancel_scope.cancel()
    finally:
        for stream in (stdin, stdout):
            with contextlib.suppress(ValueError, OSError):
                stream.detach()
