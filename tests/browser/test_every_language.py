"""Issue 35, part 1: every page exists in every language of the catalog, and a reader of one
language never lands in another: the sidebar, the logo, the site's name, the footer, the health,
about, "for servers and tools" and 404 pages, and "Open in" a chat, at 1280 and 390 px."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from site_plugins.pages.labels import labels
from tests.support.screenshots import save

WIDTHS = {"1280": (1280, 900), "390": (390, 844)}

NAMES = {"en": "Agent roles catalog", "ru": "Каталог ролей агентов"}
"""The site's name in each language (mkdocs.yml: site_name, and the plugin's site_names)."""


@pytest.fixture(params=list(WIDTHS))
def screen(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    width, height = WIDTHS[request.param]
    context = browser.new_context(viewport={"width": width, "height": height})
    yield context.new_page()
    context.close()


def width(page: Page) -> int:
    return page.viewport_size["width"] if page.viewport_size else 0


def pages(language: str) -> dict[str, str]:
    """Every kind of page of our site in ``language``, by name."""
    return {
        "home": f"{language}/",
        "bundle": f"{language}/engineering/",
        "role": f"{language}/engineering/code-reviewer/",
        "health": f"health/{language}/",
        "connect": f"connect/{language}/",
        "about": "about/" if language == "en" else f"about/{language}/",
    }


def sidebar_links(page: Page) -> list[str]:
    """Where the sidebar's links lead, as site paths (the drawer on a phone)."""
    hrefs = page.locator(".md-sidebar--primary a.md-nav__link").evaluate_all(
        "links => links.map(a => a.href)"
    )
    return [urlsplit(href).path for href in hrefs]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_page_speaks_its_readers_language(
    screen: Page, published_url: str, language: str
) -> None:
    other = "ru" if language == "en" else "en"
    words = labels(language)
    root = urlsplit(published_url).path
    for kind, path in pages(language).items():
        screen.goto(published_url + path)
        where = f"{kind} /{path}"
        assert screen.locator("html").get_attribute("lang") == language, where
        # The site's name and the page's title, in the page's language.
        expect(screen.locator(".md-header__topic").first).to_contain_text(NAMES[language])
        assert screen.title().endswith(NAMES[language]), where
        # The sidebar holds only this language's pages; the logo leads to its home.
        links = [link.removeprefix(root) for link in sidebar_links(screen)]
        assert f"{language}/" in links and f"health/{language}/" in links, where
        assert f"connect/{language}/" in links, where
        strays = [
            link
            for link in links
            if link.startswith((f"{other}/", f"health/{other}/", f"connect/{other}/"))
        ]
        assert strays == [], where
        logo = screen.locator(".md-header a.md-logo").get_attribute("href") or ""
        assert urlsplit(screen.url).path.endswith(path)
        assert screen.evaluate("href => new URL(href, location.href).pathname", logo) == (
            f"{root}{language}/"
        ), where
        # The footer leads to this language's pages.
        footer = screen.locator(".rolecat-footer a")
        expect(footer.first).to_have_text(words["home"])
        expect(footer.nth(1)).to_have_text(words["health"])
        expect(footer.nth(2)).to_have_text(words["connect"])
    save(screen, f"about-{language}-{width(screen)}")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_404_page_speaks_the_language_of_the_address(
    screen: Page, published_url: str, language: str
) -> None:
    words = labels(language)
    response = screen.goto(f"{published_url}{language}/engineering/no-such-role/")
    assert response is not None and response.status == 404
    expect(screen.locator("html")).to_have_attribute("lang", language)
    shown = screen.locator("[data-rolecat-404-language]:visible")
    expect(shown).to_have_count(1)
    expect(shown.locator("h1")).to_have_text(words["not_found"])
    # Search, in the language's own index, and the way home.
    search = shown.get_by_role("button", name=words["not_found_search"])
    search.click()
    expect(screen.locator("input.md-search__input")).to_be_focused()
    screen.keyboard.type("review" if language == "en" else "ревью")
    expect(screen.locator(".md-search-result__list a").first).to_be_visible()
    first = screen.locator(".md-search-result__list a").first.get_attribute("href") or ""
    assert f"/{language}/" in first
    screen.keyboard.press("Escape")
    shown.get_by_role("link", name=words["not_found_home"]).click()
    expect(screen).to_have_url(f"{published_url}{language}/")
    save(screen, f"404-home-{language}-{width(screen)}")


def test_the_switcher_leads_to_the_same_page_in_the_other_language(
    screen: Page, published_url: str
) -> None:
    for kind, path in pages("en").items():
        screen.goto(published_url + path)
        switcher = screen.locator(".md-header__option .md-select")
        switcher.hover()
        switcher.locator("a.md-select__link[lang='ru']").click()
        expect(screen).to_have_url(published_url + pages("ru")[kind])


@pytest.mark.parametrize("language", ["en", "ru"])
def test_open_in_a_chat_works_in_every_language(screen: Page, our_url: str, language: str) -> None:
    """Where the instructions fit in a link, the chat gets them; where not (Cyrillic is six
    characters a letter), it is asked to read the role's published plain text, whose address the
    page takes from where it is served (no site_url in this build)."""
    screen.goto(f"{our_url}{language}/engineering/code-reviewer/")
    panel = screen.locator("details[data-rolecat-action='open_in']")
    panel.locator("summary").click()
    chats = panel.locator("a.rolecat-open-in")
    expect(chats).to_have_count(2)
    text_url = f"{our_url}{language}/engineering/code-reviewer.txt"
    with urllib.request.urlopen(text_url) as answer:
        published = answer.read().decode("utf-8-sig")
    for index in range(2):
        expect(chats.nth(index)).to_be_visible()
        href = chats.nth(index).get_attribute("href") or ""
        assert href.startswith(("https://chatgpt.com/?q=", "https://claude.ai/new?q="))
        [prompt] = parse_qs(urlsplit(href).query)["q"]
        if language == "en":
            assert prompt == published
        else:
            assert prompt == labels(language)["open_in_prompt"] % {"url": text_url}
            expect(panel.locator(".rolecat-open-in-short")).to_be_visible()


def test_a_translation_left_behind_names_the_language_in_the_pages_words(
    page: Page, history_url: str
) -> None:
    page.goto(f"{history_url}ru/team/writer/")
    stale = page.locator(".rolecat-stale")
    expect(stale).to_contain_text("(английский)")
    assert "English" not in stale.inner_text()
    page.goto(f"{history_url}ru/team/reviewer/v3/")
    expect(page.locator(".rolecat-stale")).to_contain_text("английский")


def test_every_language_has_every_kind_of_page(published_site_dir: Path) -> None:
    """Each language's home, bundle, role, health, servers and about pages are written, and its
    search index."""
    site = published_site_dir
    for language in ("en", "ru"):
        for path in pages(language).values():
            assert (site / path / "index.html").is_file(), path
        entry = json.loads((site / f"pagefind/{language}/pagefind-entry.json").read_bytes())
        assert language in entry["languages"]
