"""Issue 35, part 5: one visual language. Cards on bundle pages as in the gallery, a footer that
holds links, styled controls, buttons that keep their width, a site name that fits on a phone,
tables that scroll with a cue, search results that name the bundle, a helpful 404, each page's
description as its meta description and social preview, a sitemap of every page, and a filter
that can search the instructions and lives in the address."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from site_plugins.pages.labels import labels
from tests.support.paths import OUR_CATALOG
from tests.support.site_builds import PUBLISHED_AT

WIDTHS = {"1280": (1280, 900), "390": (390, 844)}


@pytest.fixture(params=list(WIDTHS))
def screen(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    width, height = WIDTHS[request.param]
    context = browser.new_context(viewport={"width": width, "height": height})
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_bundle_pages_show_the_galleries_cards(screen: Page, our_url: str, language: str) -> None:
    screen.goto(f"{our_url}{language}/")
    home = screen.locator("#bundle-engineering .rolecat-card").first
    screen.goto(f"{our_url}{language}/engineering/")
    cards = screen.locator(".rolecat-card")
    expect(cards).to_have_count(3)
    assert screen.locator("article table").count() == 0
    style = "c => [getComputedStyle(c).borderRadius, getComputedStyle(c).display]"
    screen.goto(f"{our_url}{language}/")
    home_style = home.evaluate(style)
    screen.goto(f"{our_url}{language}/engineering/")
    assert cards.first.evaluate(style) == home_style


def test_the_footer_holds_links_never_an_empty_bar(screen: Page, our_url: str) -> None:
    for path in ("en/", "ru/engineering/code-reviewer/", "health/ru/", "about/"):
        screen.goto(our_url + path)
        footer = screen.locator(".md-footer-meta")
        expect(footer.locator("a")).to_have_count(4)
        assert footer.inner_text().strip()


def test_controls_are_styled_and_buttons_keep_their_width(screen: Page, our_url: str) -> None:
    screen.goto(f"{our_url}ru/")
    select = screen.locator(".rolecat-filters select")
    expect(select).to_be_visible()
    styled = select.evaluate(
        "s => [getComputedStyle(s).appearance, getComputedStyle(s).borderTopStyle]"
    )
    assert styled == ["none", "solid"]
    screen.goto(f"{our_url}ru/engineering/code-reviewer/")
    screen.context.grant_permissions(["clipboard-read", "clipboard-write"])
    for selector in ("button.rolecat-copy",):
        button = screen.locator(selector)
        before = button.bounding_box()
        button.click()
        expect(button).to_have_attribute("data-rolecat-copied", "")
        assert button.bounding_box() == before


def test_the_site_name_fits_on_a_phone(browser: Browser, our_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    for language, name in (("en", "Agent roles catalog"), ("ru", "Каталог ролей агентов")):
        page.goto(f"{our_url}{language}/")
        title = page.locator(".md-header__topic").first.locator(".md-ellipsis")
        expect(title).to_have_text(name)
        # Not cut: every line of it is shown (two at most), nothing hidden past the box.
        fits = title.evaluate(
            "e => e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1"
        )
        assert fits, language
    context.close()


def test_a_wide_table_scrolls_in_its_own_box_with_a_cue(browser: Browser, our_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{our_url}health/ru/")
    box = page.locator(".rolecat-coverage")
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")  # wider than a phone
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")  # the page is not
    assert box.get_attribute("tabindex") == "0"  # the keyboard scrolls it
    cue = box.evaluate("b => getComputedStyle(b).backgroundImage")
    assert cue.count("gradient") == 4  # the shadows that say more is hidden
    context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_search_results_name_the_bundle(screen: Page, our_url: str, language: str) -> None:
    screen.goto(f"{our_url}{language}/")
    screen.keyboard.press("/")
    screen.keyboard.type("incident" if language == "en" else "инцидент")
    result = screen.locator(".md-search-result__list .md-search-result__link").first
    expect(result).to_be_visible()
    expect(result.locator(".rolecat-search-bundle")).to_have_text(
        "Engineering" if language == "en" else "Разработка"
    )


def test_the_404_page_helps(screen: Page, published_url: str) -> None:
    response = screen.goto(f"{published_url}no/such/page/")
    assert response is not None and response.status == 404
    words = labels("en")
    shown = screen.locator("[data-rolecat-404-language]:visible")
    expect(shown.locator("h1")).to_have_text(words["not_found"])
    expect(shown.get_by_role("button", name=words["not_found_search"])).to_be_visible()
    expect(shown.get_by_role("link", name=words["not_found_home"])).to_be_visible()
    # Its styles load at any depth (links from site_url's path).
    color = screen.locator(".md-header").evaluate("h => getComputedStyle(h).backgroundColor")
    assert color not in ("rgba(0, 0, 0, 0)", "transparent")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_each_page_is_described_for_search_engines_and_previews(
    page: Page, published_url: str, language: str
) -> None:
    data = json.loads((OUR_CATALOG / f"bundles/engineering/{language}.json").read_text("utf-8"))
    role = next(r for r in data["roles"] if r["slug"] == "code-reviewer")
    page.goto(f"{published_url}{language}/engineering/code-reviewer/")
    head = page.locator("head")
    assert (
        head.locator('meta[name="description"]').get_attribute("content") == (role["description"])
    )
    assert (
        head.locator('meta[property="og:description"]').get_attribute("content")
        == (role["description"])
    )
    assert head.locator('meta[property="og:title"]').get_attribute("content") == role["name"]
    assert head.locator('meta[property="og:locale"]').get_attribute("content") == language
    canonical = f"{PUBLISHED_AT}{language}/engineering/code-reviewer/"
    assert head.locator('meta[property="og:url"]').get_attribute("content") == canonical
    alternates = head.locator('link[rel="alternate"][hreflang]').evaluate_all(
        "links => links.map(l => [l.hreflang, l.href])"
    )
    assert alternates == [
        [lang, f"{PUBLISHED_AT}{lang}/engineering/code-reviewer/"] for lang in ("en", "ru")
    ]


def test_the_sitemap_lists_every_page_when_site_url_is_set(published_site_dir: Path) -> None:
    tree = ET.parse(published_site_dir / "sitemap.xml")
    spaces = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    listed = {loc.text for loc in tree.getroot().findall("s:url/s:loc", spaces)}
    pages = {
        PUBLISHED_AT + re.sub(r"index\.html$", "", p.relative_to(published_site_dir).as_posix())
        for p in published_site_dir.rglob("index.html")
        if not p.relative_to(published_site_dir).parts[0].startswith((".", "pagefind"))
    }
    assert listed == pages


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_filter_searches_the_instructions_and_lives_in_the_address(
    screen: Page, our_url: str, language: str
) -> None:
    # A word only in the Code Reviewer's instructions (never in a name or description).
    word = "deserialization" if language == "en" else "десериализация"
    screen.goto(f"{our_url}{language}/")
    box = screen.locator(".rolecat-filters input[type=search]")
    box.fill(word)
    visible = screen.locator(".rolecat-card:visible")
    expect(visible).to_have_count(0)
    expect(screen.locator(".rolecat-filter-none")).to_be_visible()
    screen.locator("[data-rolecat-filter-deep]").check()
    expect(visible).to_have_count(1)
    expect(visible.first).to_have_attribute("data-rolecat-slug", "code-reviewer")
    assert "in=instructions" in screen.url and "q=" in screen.url
    # The address brings the same list back, after a reload or from a link.
    screen.reload()
    expect(box).to_have_value(word)
    expect(screen.locator("[data-rolecat-filter-deep]")).to_be_checked()
    expect(visible).to_have_count(1)
