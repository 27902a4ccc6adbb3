"""A role's exports in Chromium, on a desktop and a phone: each downloaded from its links on the
role page (the action bar's Download panel and the tool's own panel) under the name its tool
expects, read as the tool reads it, and byte for byte what ``rolecat export`` writes for that
tool."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from build_tools.exports import DIRECTORIES, TOOLS
from site_plugins.pages.labels import labels
from tests.support.cli import run
from tests.support.export_files import front_matter, split
from tests.support.paths import OUR_CATALOG
from tests.support.site_builds import PAYLOAD_INSTRUCTIONS

WIDTHS = [1280, 390]
NAMES = {"claude-code": "{}.md", "copilot": "{}.agent.md", "cursor": "{}.mdc"}
PANELS = {"claude-code": "claude", "copilot": "copilot", "cursor": "cursor"}
"""The action bar's panel of each tool, which offers its file beside its commands."""
CHATS = {"chatgpt": "https://chatgpt.com/", "claude": "https://claude.ai/new"}


def opened(page: Page, action: str) -> Locator:
    """The action bar's panel ``action``, opened by its button as a reader opens it."""
    panel = page.locator(f"details.rolecat-action[data-rolecat-action='{action}']")
    if panel.get_attribute("open") is None:
        panel.locator("summary").click()
    expect(panel).to_have_attribute("open", "")
    return panel


def places(page: Page, tool: str) -> Iterator[Locator]:
    """Each link on the role page that downloads ``tool``'s file, its panel opened (one panel
    is open at a time)."""
    for action in ("download", PANELS[tool]):
        link = opened(page, action).locator(f"a.rolecat-export[data-rolecat-tool='{tool}']")
        expect(link).to_have_count(1)
        yield link


def exported(tmp_path: Path, language: str) -> Path:
    """What ``rolecat export`` writes for every tool from our catalog in ``language``."""
    project = tmp_path / f"project-{language}"
    project.mkdir()
    for tool in TOOLS:
        options = ["--catalog", str(OUR_CATALOG), "--to", tool, "--language", language]
        result = run("export", *options, str(project))
        assert result.code == 0, result.err
    return project


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(
    ("language", "slug", "name"),
    [("en", "code-reviewer", "Code Reviewer"), ("ru", "translator", "Переводчик")],
)
def test_each_export_downloads_from_its_link_and_reads_as_its_tool(
    browser: Browser,
    our_url: str,
    tmp_path: Path,
    width: int,
    language: str,
    slug: str,
    name: str,
) -> None:
    bundle = "engineering" if slug == "code-reviewer" else "writing"
    project = exported(tmp_path, language)
    context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.goto(f"{our_url}{language}/{bundle}/{slug}/")
    instructions = page.evaluate(
        "JSON.parse(document.getElementById('rolecat-instructions').textContent)"
    )
    for tool in TOOLS:
        for link in places(page, tool):
            link.scroll_into_view_if_needed()
            expect(link).to_be_visible()
            with page.expect_download() as info:
                link.click()
            download = info.value
            expected_name = NAMES[tool].format(slug)
            assert download.suggested_filename == expected_name
            data = Path(download.path()).read_bytes()
            fields = front_matter(data)
            assert split(data)[1] == instructions.encode("utf-8")
            assert fields["description"]
            if tool == "claude-code":
                assert fields["name"] == slug
            if tool == "copilot":
                assert fields["name"] == name
            if tool == "cursor":
                assert fields["alwaysApply"] is False
            # Byte for byte what `rolecat export` writes where the tool looks.
            assert data == (project / DIRECTORIES[tool] / expected_name).read_bytes()
    # The Download panel also gives the instructions as plain text, exactly.
    text = opened(page, "download").locator("a.rolecat-export[data-rolecat-tool='text']")
    with page.expect_download() as info:
        text.click()
    assert info.value.suggested_filename == f"{slug}.txt"
    assert Path(info.value.path()).read_bytes().decode("utf-8-sig") == instructions
    chats = opened(page, "open_in").locator("a.rolecat-open-in")
    expect(chats).to_have_count(2)
    for chat, (key, start) in zip(chats.all(), CHATS.items(), strict=True):
        expect(chat).to_be_visible()
        expect(chat).to_have_attribute("target", "_blank")
        expect(chat).to_have_attribute("data-rolecat-chat", key)
        href = str(chat.get_attribute("href"))
        assert href.startswith(start), href
        asked = parse_qs(urlsplit(href).query)["q"]
        if language == "en":  # the instructions themselves, prefilled
            assert asked == [instructions]
        else:  # too long for a link in Cyrillic: the chat reads them from this site
            text_url = f"{our_url}{language}/{bundle}/{slug}.txt"
            assert asked == [labels(language)["open_in_prompt"] % {"url": text_url}]
    short = page.locator(".rolecat-open-in-short")
    if language == "en":
        expect(short).to_have_count(0)
    else:
        expect(short).to_be_visible()
    sizes = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert sizes[0] <= sizes[1], f"the page scrolls sideways at {width} px: {sizes}"
    context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_payload_role_downloads_as_text_and_runs_nothing(
    browser: Browser, payload_url: str, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (errors.append(f"dialog: {d.message}"), d.dismiss()))
    page.goto(f"{payload_url}en/payload/injector/")
    for tool in TOOLS:
        for link in places(page, tool):
            with page.expect_download() as info:
                link.click()
            data = Path(info.value.path()).read_bytes()
            assert split(data)[1] == (PAYLOAD_INSTRUCTIONS + "en").encode("utf-8")
            description = front_matter(data)["description"]
            assert description.startswith("<script>window.__pwned = 1</script>")
    with page.expect_download() as info:
        opened(page, "download").locator("a.rolecat-export[data-rolecat-tool='text']").click()
    text = Path(info.value.path()).read_bytes().decode("utf-8-sig")
    assert text == PAYLOAD_INSTRUCTIONS + "en"  # its leading newline and \r\n kept
    assert page.evaluate("window.__pwned") is None
    assert errors == []
    sizes = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert sizes[0] <= sizes[1]
    context.close()
