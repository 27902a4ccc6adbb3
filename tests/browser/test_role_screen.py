"""Issue 35, parts 2 and 4: a role page is an app screen, worked by keyboard. In the first screen
at 1280 x 900 and 390 x 844, in both languages: the title, the description, the facts and the
action bar, whose every action copies or downloads exactly what it says; Copy is three Tabs into
the content; Escape and focus leaving close the search and a panel; the sidebar shows where you
are."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from site_plugins.pages.labels import labels
from tests.support.paths import OUR_CATALOG
from tests.support.screenshots import save

SCREENS = {"1280": (1280, 900), "390": (390, 844)}
ROLE = "engineering/code-reviewer"
NAMES = {"en": "Code Reviewer", "ru": "Ревьюер кода"}


@pytest.fixture(params=list(SCREENS))
def screen(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    width, height = SCREENS[request.param]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        permissions=["clipboard-read", "clipboard-write"],
    )
    yield context.new_page()
    context.close()


def in_first_screen(page: Page, element: Locator) -> None:
    box = element.bounding_box()
    height = page.viewport_size["height"] if page.viewport_size else 0
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, element


def instructions(language: str) -> str:
    data = json.loads((OUR_CATALOG / f"bundles/engineering/{language}.json").read_text("utf-8"))
    return str(next(r for r in data["roles"] if r["slug"] == "code-reviewer")["instructions"])


def fetched(url: str) -> bytes:
    with urllib.request.urlopen(url) as answer:
        data: bytes = answer.read()
        return data


def clipboard(page: Page) -> str:
    return str(page.evaluate("navigator.clipboard.readText()"))


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_first_screen_holds_the_role_and_its_actions(
    screen: Page, our_url: str, language: str
) -> None:
    words = labels(language)
    screen.goto(f"{our_url}{language}/{ROLE}/")
    expect(screen.locator("article h1 .rolecat-name")).to_have_text(NAMES[language])
    for element in (
        screen.locator("article h1"),
        screen.locator("article .rolecat-lead"),
        screen.locator(".rolecat-facts"),
        screen.locator(".rolecat-actions"),
    ):
        in_first_screen(screen, element)
    bar = screen.locator(".rolecat-actions")
    expected = [
        words["copy_button"],
        words["action_claude"],
        words["action_vscode"],
        words["action_copilot"],
        words["action_cursor"],
        words["action_mcp"],
        words["action_download"],
        words["action_open_in"],
    ]
    shown = bar.locator(":scope > button.rolecat-copy .rolecat-label-idle, :scope > a, summary")
    assert [text.strip() for text in shown.all_inner_texts()] == expected
    for index in range(shown.count()):
        in_first_screen(screen, shown.nth(index))
    # Words a reader understands: the model by what it is good for, who starts the conversation.
    facts = screen.locator(".rolecat-facts").inner_text()
    assert words["model_default"] in facts and words["starts_itself"] in facts
    for jargon in ("autoStart", "chatModel", "Launch message", "Starts on its own"):
        assert (
            jargon
            not in screen.locator(".md-content").inner_text().split(words["server_details"])[0]
        ), jargon
    save(screen, f"role-{language}-{screen.viewport_size['width'] if screen.viewport_size else 0}")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_action_copies_or_downloads_what_it_says(
    screen: Page, our_url: str, language: str
) -> None:
    screen.goto(f"{our_url}{language}/{ROLE}/")
    copy = screen.locator("button.rolecat-copy")
    width = copy.bounding_box()
    copy.click()
    expect(copy).to_have_attribute("data-rolecat-copied", "")
    assert clipboard(screen) == instructions(language)
    assert copy.bounding_box() == width  # "Copied" takes the place of the label, not its width
    expect(screen.locator("[data-rolecat-status]")).to_have_text(labels(language)["copied"])
    for key in ("claude", "copilot", "mcp"):
        panel = screen.locator(f"details[data-rolecat-action='{key}']")
        panel.locator("summary").click()
        expect(panel.locator(".rolecat-action-panel")).to_be_visible()
        for index in range(panel.locator("code[id]").count()):
            code = panel.locator("code[id]").nth(index)
            panel.locator("button.rolecat-copy-command").nth(index).click()
            assert clipboard(screen) == code.inner_text()
            if key == "mcp":  # the site's address, from where the page is served
                assert f"--url {our_url.rstrip('/')} --language {language}" in code.inner_text()
    # Each file downloads exactly what the site publishes under the tool's own name.
    panel = screen.locator("details[data-rolecat-action='download']")
    panel.locator("summary").click()
    links = panel.locator("a.rolecat-export")
    expect(links).to_have_count(4)
    for index in range(4):
        link = links.nth(index)
        with screen.expect_download() as started:
            link.click()
        download = started.value
        assert download.suggested_filename == link.get_attribute("download")
        path = download.path()
        assert path is not None
        url = screen.evaluate("a => a.href", link.element_handle())
        assert path.read_bytes() == fetched(url)
    # VS Code installs the Copilot agent from the published file, here the served one.
    vscode = screen.locator("a.rolecat-install")
    expect(vscode).to_be_visible()
    href = vscode.get_attribute("href") or ""
    assert href.startswith("https://vscode.dev/redirect?url=")
    inner = unquote(parse_qs(urlsplit(href).query)["url"][0])
    assert inner == (
        f"vscode:chat-agent/install?url={our_url}{language}/engineering/code-reviewer.agent.md"
    )


def focused(page: Page) -> str:
    return str(page.evaluate("document.activeElement.outerHTML.slice(0, 160)"))


@pytest.mark.parametrize("language", ["en", "ru"])
def test_copy_is_three_tabs_into_the_content(screen: Page, our_url: str, language: str) -> None:
    screen.goto(f"{our_url}{language}/{ROLE}/")
    screen.keyboard.press("Tab")
    skip = screen.locator("a.md-skip")
    expect(skip).to_be_focused()
    expect(skip).to_be_visible()
    screen.keyboard.press("Enter")
    expect(screen.locator("#rolecat-content")).to_be_focused()
    for _ in range(3):
        screen.keyboard.press("Tab")
    copy = screen.locator("button.rolecat-copy")
    expect(copy).to_be_focused()
    # Focus is visible: an outline of its own on every control we draw.
    outline = copy.evaluate("b => getComputedStyle(b).outlineStyle")
    assert outline != "none", focused(screen)
    screen.keyboard.press("Enter")
    expect(copy).to_have_attribute("data-rolecat-copied", "")


def test_a_panel_opens_and_closes_by_keyboard(screen: Page, our_url: str) -> None:
    screen.goto(f"{our_url}en/{ROLE}/")
    summary = screen.locator("details[data-rolecat-action='claude'] summary")
    summary.focus()
    screen.keyboard.press("Enter")
    panel = screen.locator("details[data-rolecat-action='claude'] .rolecat-action-panel")
    expect(panel).to_be_visible()
    screen.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(summary).to_be_focused()
    # One panel at a time.
    summary.click()
    screen.locator("details[data-rolecat-action='cursor'] summary").click()
    expect(panel).to_be_hidden()
    expect(
        screen.locator("details[data-rolecat-action='cursor'] .rolecat-action-panel")
    ).to_be_visible()


def search_is_open(page: Page) -> bool:
    return bool(page.evaluate("document.getElementById('__search').checked"))


def test_escape_and_focus_leaving_close_the_search(screen: Page, our_url: str) -> None:
    screen.goto(f"{our_url}en/{ROLE}/")
    screen.keyboard.press("/")
    expect(screen.locator("input.md-search__input")).to_be_focused()
    screen.keyboard.type("incident")
    expect(screen.locator(".md-search-result__list a").first).to_be_visible()
    assert search_is_open(screen)
    screen.keyboard.press("Escape")
    expect(screen.locator(".md-search__output")).to_be_hidden()
    assert not search_is_open(screen)
    # Tabbing past the search's last control leaves it closed and the page undimmed.
    screen.keyboard.press("/")
    assert search_is_open(screen)
    for _ in range(40):
        screen.keyboard.press("Tab")
        if not screen.evaluate(
            "document.querySelector('[data-rolecat-search]').contains(document.activeElement)"
        ):
            break
    screen.wait_for_function("!document.getElementById('__search').checked")
    # The dimming overlay fades out (it stays in the layout, transparent, on a phone).
    screen.wait_for_function(
        "getComputedStyle(document.querySelector('.md-search__overlay')).opacity === '0'"
    )
    # And Escape works from a result too.
    screen.keyboard.press("/")
    screen.keyboard.press("ArrowDown")
    expect(screen.locator(".md-search-result__list a").first).to_be_focused()
    screen.keyboard.press("Escape")
    assert not search_is_open(screen)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_sidebar_shows_the_current_bundle_and_role(
    screen: Page, our_url: str, language: str
) -> None:
    screen.goto(f"{our_url}{language}/{ROLE}/")
    if screen.viewport_size and screen.viewport_size["width"] < 1220:
        screen.locator("label.md-header__button[for='__drawer']").click()
    active = screen.locator(".md-sidebar--primary .md-nav__link--active")
    expect(active).to_have_text(NAMES[language])
    expect(active).to_be_visible()
    bundle = screen.locator(".md-sidebar--primary .md-nav__item--active > .md-nav__link").first
    expect(bundle).to_contain_text("Engineering" if language == "en" else "Разработка")
