"""What a reader meets in Chromium: pages in their own language, phones, dark mode, the filter
box, what servers and tools read of a role (folded on its page), and what the preview shows
while a catalog is being edited."""

# Russian text is meant to be Cyrillic: RUF001 (letters that look Latin) does not apply here.
# ruff: noqa: RUF001

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.contrast import contrast
from tests.support.history_repo import GitRepo, Story
from tests.support.history_repo import instructions as story_instructions
from tests.support.paths import OUR_CATALOG, REPO
from tests.support.site_builds import build, copy_catalog, serve


@pytest.mark.parametrize(
    ("path", "lang", "direction", "chrome"),
    [
        # The switcher's title, the search placeholder and the palette toggle: Material's and
        # our words in the page's language; our own labels fall back to English for Arabic.
        ("en/team/team-first/", "en", "ltr", ("Select language", "Search", "Switch to light mode")),
        ("ru/team/team-first/", "ru", "ltr", ("Выберите язык", "Поиск", "Включить светлую тему")),
        ("ar/team/team-first/", "ar", "rtl", ("إختر اللغة", "بحث", "Switch to light mode")),
    ],
)
def test_each_page_speaks_its_language(
    page: Page,
    multilingual_url: str,
    path: str,
    lang: str,
    direction: str,
    chrome: tuple[str, str, str],
) -> None:
    page.goto(f"{multilingual_url}{path}")
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.evaluate("getComputedStyle(document.body).direction") == direction
    switcher, search, toggle = chrome
    expect(page.locator(".md-header__option .md-select > button")).to_have_attribute(
        "aria-label", switcher
    )
    expect(page.locator("input.md-search__input")).to_have_attribute("placeholder", search)
    # The toggle shown while the palette follows the system leads to the light scheme.
    expect(page.locator("[data-md-component=palette] label:visible")).to_have_attribute(
        "title", toggle
    )
    # The copy button shows its label; "Copied" waits, hidden, in the same cell of the button.
    copy, copied = {"ru": ("Скопировать инструкции", "Скопировано")}.get(
        lang, ("Copy instructions", "Copied")
    )
    button = page.locator("button.rolecat-copy")
    expect(button).to_have_accessible_name(copy)
    expect(button.locator(".rolecat-label-idle")).to_be_visible()
    expect(button.locator(".rolecat-label-idle")).to_have_text(copy)
    expect(button.locator(".rolecat-label-done")).to_be_hidden()
    expect(button.locator(".rolecat-label-done")).to_have_text(copied)
    # The sidebar's entry we add, in the page's language where we have its words.
    home = {"ru": "Все роли"}.get(lang, "All roles")
    expect(page.locator(".md-sidebar--primary .md-nav__link").first).to_contain_text(home)


def test_search_on_a_third_language_page(page: Page, multilingual_url: str) -> None:
    page.goto(f"{multilingual_url}ar/")
    page.keyboard.press("/")
    page.keyboard.type("team-second")
    link = page.locator(".md-search-result__link").first
    expect(link).to_have_attribute("href", re.compile(r"/ar/team/team-second/$"))


def site_pages(url_root: str, site: Path) -> list[str]:
    return sorted(
        url_root + p.relative_to(site).as_posix().removesuffix("index.html")
        for p in site.rglob("*.html")
    )


@pytest.mark.parametrize("width", [360, 390])
def test_no_page_scrolls_sideways_on_a_phone(
    browser: Browser,
    our_site_dir: Path,
    our_url: str,
    payload_site_dir: Path,
    payload_url: str,
    width: int,
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    pages = site_pages(our_url, our_site_dir) + site_pages(payload_url, payload_site_dir)
    assert len(pages) > 30
    wide = []
    for url in pages:
        page.goto(url)
        sizes = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        if sizes[0] > sizes[1]:
            wide.append(f"{url}: {sizes[0]} > {sizes[1]}")
    context.close()
    assert wide == []


LONG_SLUG = "weekend-on-call-incident-escalation-coordinator"


@pytest.fixture(scope="module")
def stale_slug_url(tmp_path_factory: pytest.TempPathFactory, static_host: Any) -> str:
    """A catalog whose one role has a long slug and a Russian translation left behind: the
    health page lists it with its slug (bundle pages show cards, no slugs)."""
    root = tmp_path_factory.mktemp("browser-stale-slug")
    repo = GitRepo(root)
    story = Story(root / "catalog", versions={LONG_SLUG: 1})
    story.write()
    repo.commit("A role with a long slug", "2026-01-05")
    story.versions[LONG_SLUG] = 2
    story.roles[LONG_SLUG]["en"]["instructions"] = story_instructions(LONG_SLUG, "en", 1)
    story.write()
    repo.commit("English only", "2026-02-01")
    built = build(root / "catalog", root / "site")
    assert built.returncode == 0, built.output
    return str(static_host(built.site))


@pytest.mark.parametrize("width", [360, 390])
def test_slugs_wrap_at_hyphens_only(browser: Browser, stale_slug_url: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(f"{stale_slug_url}health/ru/")
    slugs = page.locator("code.rolecat-slug")
    expect(slugs).to_have_count(1)
    expect(slugs).to_have_text(LONG_SLUG)
    assert not page.evaluate(
        "document.documentElement.scrollWidth > document.documentElement.clientWidth"
    )
    for slug in slugs.all():
        # It does wrap on a phone, in more than one line...
        assert slug.evaluate("code => code.getClientRects().length") > 1
        lines = slug.evaluate(
            """code => Array.from(code.childNodes)
              .filter(node => node.nodeType === Node.TEXT_NODE)
              .map(node => {
                const range = document.createRange();
                range.selectNodeContents(node);
                return range.getClientRects().length;
              })"""
        )
        # ...and each word of the slug (the text between <wbr>s) lies on one line.
        assert lines == [1] * len(slug.inner_text().split("-")), slug.inner_text()
    context.close()


def test_dark_mode_follows_the_system_and_the_toggle(browser: Browser, our_url: str) -> None:
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(f"{our_url}en/engineering/code-reviewer/")
    body = page.locator("body")
    expect(body).to_have_attribute("data-md-color-scheme", "slate")
    # What servers and tools read, unfolded; then an action's panel, open over the page.
    page.locator("details.rolecat-server-details > summary").click()
    download = page.locator("details.rolecat-action[data-rolecat-action='download']")
    download.locator("summary").click()
    expect(download).to_have_attribute("open", "")
    page.mouse.move(0, 0)  # no hover on what is measured
    page.wait_for_timeout(300)  # past the buttons' colour transitions
    for selector in (
        "button.rolecat-copy",
        ".rolecat-facts .rolecat-chip",
        ".rolecat-facts .rolecat-fact-label",
        "details.rolecat-action:not([open]) > summary",
        "details.rolecat-action[open] > summary",
        ".rolecat-action-panel a.rolecat-export",
        "p.rolecat-launch",
        "pre.rolecat-instructions code",
        "article h1",
        ".rolecat-server-facts dt",
        ".rolecat-server-facts a.rolecat-url code",
    ):
        assert contrast(page, selector) >= 4.5, selector
    page.goto(f"{our_url}en/engineering/")
    for selector in (
        "#rolecat-roles .rolecat-card-description",
        "#rolecat-roles .rolecat-card-title a",
        "#rolecat-roles .rolecat-chip",
        ".rolecat-filters",
    ):
        assert contrast(page, selector) >= 4.5, selector
    # The toggle: from "as the system says" to light, then to dark, and it is remembered.
    page.locator("label[for='__palette_1']").click()
    expect(body).to_have_attribute("data-md-color-scheme", "default")
    assert contrast(page, "#rolecat-roles .rolecat-card-title a") >= 4.5
    page.locator("label[for='__palette_2']").click()
    expect(body).to_have_attribute("data-md-color-scheme", "slate")
    page.reload()
    expect(body).to_have_attribute("data-md-color-scheme", "slate")
    context.close()


def test_the_filter_box_narrows_a_bundle_as_you_type(page: Page, our_url: str) -> None:
    page.goto(f"{our_url}en/engineering/")
    cards = page.locator("#rolecat-roles .rolecat-card")
    box = page.get_by_role("searchbox", name="Filter roles", exact=True)
    expect(cards).to_have_count(3)
    for query, names in (
        ("incident", ["Incident Responder"]),  # a name
        ("test-eng", ["Test Engineer"]),  # a slug
        ("SEVERITY", ["Code Reviewer"]),  # a description, any case
        ("tests flaky", ["Test Engineer"]),  # every word must match (the reviewer says "tests")
        ("", ["Code Reviewer", "Test Engineer", "Incident Responder"]),
    ):
        box.fill(query)
        expect(
            cards.locator("visible=true").locator(".rolecat-card-title .rolecat-name")
        ).to_have_text(names)
    box.fill("incident")
    expect(page.locator(".rolecat-filter-count")).to_have_text("1 of 3")
    box.fill("zanzibar")
    expect(page.locator(".rolecat-filter-none")).to_be_visible()
    expect(page.locator(".rolecat-filter-none")).to_have_text("No role matches.")
    page.goto(f"{our_url}ru/engineering/")
    page.get_by_role("searchbox", name="Отбор ролей", exact=True).fill("инцидент")
    expect(page.locator(".rolecat-filter-count")).to_have_text("1 из 3")


def test_use_it_gives_exact_urls_and_the_plain_text(page: Page, our_url: str) -> None:
    """What servers and tools read of a role, folded at the foot of its page: the bundle files'
    exact URLs and the plain text."""
    page.goto(f"{our_url}ru/engineering/code-reviewer/")
    details = page.locator("details.rolecat-server-details")
    expect(details.locator("summary")).to_have_text("Для серверов и инструментов")
    links = details.locator("a.rolecat-url code")
    expect(links.first).to_be_hidden()  # folded
    details.locator("summary").click()
    expect(links).to_have_count(3)
    for link in links.all():
        expect(link).to_be_visible()
    urls = links.all_inner_texts()
    assert urls == [
        f"{our_url}bundles/engineering/ru.json",
        f"{our_url}bundles/engineering/ru.yaml",
        f"{our_url}ru/engineering/code-reviewer.txt",
    ]
    bundle = json.loads(page.request.get(urls[0]).text())
    role = next(r for r in bundle["roles"] if r["slug"] == "code-reviewer")
    page.locator("a.rolecat-plain-text").click()
    expect(page).to_have_url(urls[2])
    # Served as text/plain with no charset, as most static hosts do: still read as UTF-8.
    assert page.evaluate("document.contentType") == "text/plain"
    assert page.evaluate("document.body.innerText") == role["instructions"]


def test_the_preview_shows_what_is_not_publishable_yet(browser: Browser, tmp_path: Path) -> None:
    """`make serve`, in the dark: an unbumped change gets a banner, a broken catalog its problems
    page, both readable; editing a theme override reloads too."""
    catalog = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    en = catalog / "bundles/engineering/en.json"
    good = en.read_text("utf-8")
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    with serve(catalog, make=True) as served:
        page.goto(f"{served.url}en/engineering/code-reviewer/")
        banner = page.locator(".rolecat-banner")
        expect(banner).to_have_count(0)

        en.write_text(good.replace("You are a code reviewer", "You are a zanzibar"), "utf-8")
        expect(banner).to_be_visible(timeout=60_000)
        expect(banner).to_contain_text("Not publishable yet")
        expect(banner).to_contain_text("rolecat check --fix")
        # The command reads as code, never as Markdown's backticks.
        expect(banner.locator("code")).to_have_text("rolecat check --fix")
        expect(banner).not_to_contain_text("`")
        assert contrast(page, ".rolecat-banner") >= 4.5
        served.wait_for("`make site` refuses them")
        # The preview's search follows the edit once Pagefind has indexed it, in the background.
        for _attempt in range(60):
            page.goto(f"{served.url}en/")
            page.keyboard.press("/")
            page.keyboard.type("zanzibar")
            meta = page.locator(".md-search-result__meta")
            expect(meta).not_to_have_text(re.compile("Type to start|Initializing"))
            if page.locator(".md-search-result__link").count():
                break
            page.wait_for_timeout(1000)
        expect(page.locator(".md-search-result__link").first).to_have_attribute(
            "href", re.compile("en/engineering/code-reviewer/$")
        )
        page.goto(f"{served.url}en/engineering/code-reviewer/")
        page.goto(f"{served.url}en/writing/")
        expect(banner).to_have_count(0)  # only the changed role's pages say so

        en.write_text(good.replace('"emoji": "🔎"', '"emoji": 7', 1), "utf-8")
        heading = page.locator("article h1")
        expect(heading).to_have_text("The catalog has problems", timeout=60_000)
        assert contrast(page, "article h1") >= 4.5
        assert contrast(page, ".admonition-title") >= 4.5

        en.write_text(good, "utf-8")
        expect(heading).to_have_text("Writing", timeout=60_000)
        # An edit of a theme override (here only its time stamp) reloads the browser too.
        page.evaluate("window.__before_reload = true")
        (REPO / "templates/overrides/partials/search.html").touch()
        page.wait_for_function("window.__before_reload === undefined", timeout=60_000)
    context.close()
