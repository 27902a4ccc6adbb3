"""``rolecat mcp`` as an MCP client sees it: one prompt per role, each role's instructions byte
for byte, an unknown name refused while the session goes on, an edit on disk served once it
passes its check (and the client told), and a published site served as the server reads it."""

# ruff: noqa: RUF001

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.support.catalogs import Catalog
from tests.support.history_repo import StoryRepo
from tests.support.mcp_sessions import RUSSIAN, Client, run_session
from tests.support.remote_hosts import StaticServer, publish

Serve = Callable[..., AbstractAsyncContextManager[Client]]


def instructions(catalog: Catalog, language: str) -> dict[str, str]:
    """Every role's instructions in ``language``, as the catalog's files hold them."""
    return {
        role["slug"]: role["instructions"]
        for (_bundle, lang), file in catalog.files.items()
        if lang == language
        for role in file["roles"]
    }


async def listed(client: Client) -> list[tuple[Any, ...]]:
    prompts = (await client.session.list_prompts()).prompts
    return [(p.name, p.title, p.description, p.arguments) for p in prompts]


async def text(client: Client, name: str) -> str:
    """The prompt's one message, which must be a user's."""
    got = await client.session.get_prompt(name)
    assert [message.role for message in got.messages] == ["user"]
    assert got.messages[0].content.type == "text"
    return str(got.messages[0].content.text)


async def texts(client: Client) -> dict[str, str]:
    return {name: await text(client, name) for name, *_ in await listed(client)}


def test_one_prompt_per_role_named_by_its_slug(catalog: Catalog, mcp_server: Serve) -> None:
    async def session() -> list[tuple[Any, ...]]:
        async with mcp_server("--catalog", str(catalog.root)) as client:
            return await listed(client)

    assert run_session(session) == [
        ("one", "one (en)", "What one does, in en.", []),
        ("two", "two (en)", "What two does, in en.", []),
        ("three", "three (en)", "What three does, in en.", []),
    ]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_each_prompt_is_its_role_s_instructions_byte_for_byte(
    catalog: Catalog, mcp_server: Serve, language: str
) -> None:
    async def session() -> tuple[list[tuple[Any, ...]], dict[str, str]]:
        async with mcp_server("--catalog", str(catalog.root), "--language", language) as client:
            return await listed(client), await texts(client)

    prompts, found = run_session(session)
    assert found == instructions(catalog, language)
    if language == "ru":
        assert found["one"] == RUSSIAN
        assert prompts[0] == ("one", "Рецензент", "Проверяет изменения.", [])


def test_an_unknown_name_is_an_error_and_the_session_goes_on(
    catalog: Catalog, mcp_server: Serve
) -> None:
    from mcp.shared.exceptions import McpError
    from mcp.types import INVALID_PARAMS

    async def session() -> tuple[Any, str, int]:
        async with mcp_server("--catalog", str(catalog.root)) as client:
            with pytest.raises(McpError) as refused:
                await client.session.get_prompt("no-such-role")
            return refused.value.error, await text(client, "two"), len(await listed(client))

    error, two, count = run_session(session)
    assert error.code == INVALID_PARAMS and "no-such-role" in error.message
    assert (two, count) == (instructions(catalog, "en")["two"], 3)


def test_an_edit_is_served_once_it_passes_its_check(catalog: Catalog, mcp_server: Serve) -> None:
    """Unbumped, the edit fails the check: the last catalog that passed stays in service and
    the problems go to stderr. Bumped and recorded in the lock, it is served, and the client is
    told (notifications/prompts/list_changed)."""
    before = instructions(catalog, "en")["one"]
    edited = "You are one, edited.\nНовая строка."

    async def session() -> tuple[str, bool, str, str]:
        async with mcp_server("--catalog", str(catalog.root)) as client:
            assert await text(client, "one") == before
            catalog.files[("alpha", "en")]["roles"][0]["instructions"] = edited
            catalog.write()
            unbumped, told = await text(client, "one"), client.changed.is_set()
            catalog.index["bundles"][0]["roles"][0]["version"] = 2
            catalog.write().lock()
            await listed(client)  # an edit is looked for at every request
            with anyio.fail_after(30):
                await client.changed.wait()
            return unbumped, told, await text(client, "one"), client.stderr()

    unbumped, told, after, stderr = run_session(session)
    assert (unbumped, told) == (before, False)
    assert after == edited
    assert 'index.json:21:22: role "one" changed since content-hashes.json recorded it' in stderr
    assert "but 1 problem (see `rolecat check --catalog" in stderr
    assert "still serving it as it last passed" in stderr
    assert "changed: serving 3 prompts in en" in stderr.splitlines()[-1]


def test_a_role_removed_on_disk_leaves_the_list(catalog: Catalog, mcp_server: Serve) -> None:
    async def session() -> list[str]:
        async with mcp_server("--catalog", str(catalog.root)) as client:
            await listed(client)
            del catalog.index["bundles"][1]
            del catalog.files[("beta", "en")], catalog.files[("beta", "ru")]
            for language in ("en", "ru"):
                (catalog.root / "bundles" / "beta" / f"{language}.json").unlink()
            catalog.write().lock()
            names = [name for name, *_ in await listed(client)]
            assert client.changed.is_set()
            return names

    assert run_session(session) == ["one", "two"]


def test_a_published_site_is_served_as_the_server_reads_it(
    catalog: Catalog,
    mcp_server: Serve,
    static_server: Callable[[Path], StaticServer],
    tmp_path: Path,
) -> None:
    site = static_server(publish(catalog.root, tmp_path / "site"))

    async def session() -> tuple[dict[str, str], str]:
        async with mcp_server("--url", site.url + "/", "--language", "ru") as client:
            return await texts(client), client.stderr()

    found, stderr = run_session(session)
    assert found == instructions(catalog, "ru") and found["one"] == RUSSIAN
    assert stderr == f"rolecat mcp: serving 3 prompts in ru from {site.url}\n"


BEHIND = {
    "writer": "What the writer does (ru). (переведено с версии 1; оригинал уже в версии 2)",
    "helper": "What the helper does (ru). (переведено с версии 2; оригинал уже в версии 3)",
    "reviewer": "What the reviewer does (ru).",
}
"""tests/support/history_repo.py's story leaves two Russian translations behind their originals."""


def test_a_translation_behind_its_original_says_so(story: StoryRepo, mcp_server: Serve) -> None:
    async def session() -> dict[str, str]:
        async with mcp_server("--catalog", str(story[0] / "catalog"), "--language", "ru") as c:
            return {name: description for name, _title, description, _ in await listed(c)}

    assert run_session(session) == BEHIND
