"""A role's exports in Chromium, on a desktop and a phone: each downloaded from its link on the
role page under the name its tool expects, read as the tool reads it, and byte for byte what
``rolecat export`` writes for that tool."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from build_tools.exports import DIRECTORIES, TOOLS
from tests.support.cli import run
from tests.support.export_files import front_matter, split
from tests.support.paths import OUR_CATALOG
from tests.support.site_builds import PAYLOAD_INSTRUCTIONS

WIDTHS = [1280, 390]
NAMES = {"claude-code": "{}.md", "copilot": "{}.agent.md", "cursor": "{}.mdc"}


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
        link = page.locator(f"a.rolecat-export[data-rolecat-tool='{tool}']")
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
    chats = page.locator("a.rolecat-open-in")
    if language == "en":
        expect(chats).to_have_count(2)
        for chat in chats.all():
            expect(chat).to_be_visible()
            expect(chat).to_have_attribute("target", "_blank")
    else:  # too long for a link in Cyrillic
        expect(chats).to_have_count(0)
        expect(page.locator(".rolecat-open-in-too-long")).to_be_visible()
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
        with page.expect_download() as info:
            page.locator(f"a.rolecat-export[data-rolecat-tool='{tool}']").click()
        data = Path(info.value.path()).read_bytes()
        assert split(data)[1] == (PAYLOAD_INSTRUCTIONS + "en").encode("utf-8")
        assert front_matter(data)["description"].startswith("<script>window.__pwned = 1</script>")
    assert page.evaluate("window.__pwned") is None
    assert errors == []
    sizes = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert sizes[0] <= sizes[1]
    context.close()
