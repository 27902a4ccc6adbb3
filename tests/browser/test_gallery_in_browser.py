"""The gallery, the chrome of a Russian page and the coverage matrix in Chromium, at a desktop's
width and a phone's: every role's card on the start page, the filters narrowing the cards, the
sidebar in the page's language, each cell of the matrix."""

# Russian text is meant to be Cyrillic: RUF001 (letters that look Latin) does not apply here.
# ruff: noqa: RUF001

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from build_tools.check import check_catalog
from tests.support.contrast import contrast
from tests.support.paths import OUR_CATALOG
from tests.support.site_builds import build, write_catalog

WIDTHS = [1280, 390]


@pytest.fixture(params=WIDTHS, ids=lambda width: f"{width}px")
def sized(browser: Browser, request: pytest.FixtureRequest) -> Any:
    context = browser.new_context(viewport={"width": request.param, "height": 800})
    yield context.new_page()
    context.close()


def roles_in_english() -> list[tuple[str, str]]:
    catalog = check_catalog(OUR_CATALOG).catalog
    assert catalog is not None
    found = []
    for bundle in catalog.bundles:
        for _pointer, slug, _version in bundle.roles:
            role = bundle.files["en"].role(slug)
            assert role is not None
            found.append((role.fields["name"], role.fields["description"]))
    return found


def sideways(page: Page) -> bool:
    return bool(
        page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
    )


def shown_names(page: Page) -> list[str]:
    return [
        name.strip()
        for name in page.locator(
            ".rolecat-card:visible .rolecat-card-title .rolecat-name"
        ).all_inner_texts()
    ]


def in_first_screen(locator: Locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 800


def test_the_start_page_shows_every_roles_description_in_a_card(sized: Page, our_url: str) -> None:
    page = sized
    page.goto(our_url)
    roles = roles_in_english()
    expect(page.locator(".rolecat-card")).to_have_count(len(roles))
    width = page.viewport_size["width"] if page.viewport_size else 0
    for name, description in roles:
        card = page.locator(".rolecat-card", has=page.get_by_role("link", name=name, exact=True))
        expect(card.locator("p.rolecat-card-description")).to_have_text(description)
        expect(card.locator(".rolecat-chips")).to_be_visible()
        box = card.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, name
    assert not sideways(page)
    # A first-time visitor sees the search without scrolling, and the way to the server's
    # catalog URL: the sidebar's page for servers and tools (a drawer on a phone), where the
    # URL is the first thing shown.
    assert in_first_screen(page.locator(".rolecat-search-start"))
    if width < 1220:  # Material's sidebar is a drawer on narrower screens
        page.locator("label.md-header__button[for='__drawer']").click()
    nav = page.locator(".md-sidebar--primary")
    connect = nav.get_by_role("link", name="For servers and tools", exact=True)
    expect(connect).to_be_visible()
    assert in_first_screen(connect)
    connect.click()
    expect(page).to_have_url(f"{our_url}connect/en/")
    catalog_url = page.locator("#rolecat-catalog-url")
    expect(catalog_url).to_have_text(f"AI_AGENT_ROLES_CATALOG_URL={our_url.rstrip('/')}")
    assert in_first_screen(catalog_url)
    assert not sideways(page)


def test_the_search_button_opens_the_search(sized: Page, our_url: str) -> None:
    page = sized
    page.goto(our_url)
    page.locator(".rolecat-search-start").click()
    expect(page.locator("input.md-search__input")).to_be_focused()
    page.keyboard.type("reviewer")
    expect(page.locator(".md-search-result__link").first).to_be_visible()


def test_the_filters_narrow_the_cards(sized: Page, our_url: str) -> None:
    page = sized
    page.goto(our_url)
    everyone = [name for name, _description in roles_in_english()]
    box = page.get_by_role("searchbox", name="Filter roles", exact=True)
    model = page.get_by_role("combobox", name="Model", exact=True)
    count, none = page.locator(".rolecat-filter-count"), page.locator(".rolecat-filter-none")
    expect(count).to_have_text(f"Roles: {len(everyone)}")
    assert shown_names(page) == everyone
    box.fill("incident")
    expect(count).to_have_text(f"1 of {len(everyone)}")
    assert shown_names(page) == ["Incident Responder"]
    # A bundle left without a card hides with its heading.
    expect(page.locator("#bundle-writing")).to_be_hidden()
    expect(page.locator("#bundle-engineering h2")).to_be_visible()
    box.fill("writing")  # a bundle's name finds its roles
    assert shown_names(page) == ["Technical Writer", "Release Notes Writer", "Translator"]
    box.fill("")
    model.select_option("default")
    assert shown_names(page) == ["Code Reviewer", "Technical Writer"]
    box.fill("technical")
    assert shown_names(page) == ["Technical Writer"]
    box.fill("incident")  # a model and a word no role has together
    expect(none).to_be_visible()
    expect(none).to_have_text("No role matches.")
    expect(page.locator(".rolecat-gallery-bundle:visible")).to_have_count(0)
    expect(count).to_have_text(f"0 of {len(everyone)}")
    box.fill("")
    model.select_option("")
    expect(none).to_be_hidden()
    assert shown_names(page) == everyone
    # The same on a language page, in its words.
    page.goto(f"{our_url}ru/")
    russian_box = page.get_by_role("searchbox", name="Отбор ролей", exact=True)
    russian_box.fill("инцидент")
    expect(page.locator(".rolecat-filter-count")).to_have_text("1 из 6")
    assert shown_names(page) == ["Реагирование на инциденты"]
    russian_box.fill("")
    page.get_by_role("combobox", name="Модель", exact=True).select_option("lite")
    assert len(shown_names(page)) == 1
    assert not sideways(page)


def test_a_bundle_with_no_match_shows_no_card(sized: Page, our_url: str) -> None:
    """A bundle page's roles are cards now, no table: none is left, nor their group, and the
    page says so."""
    page = sized
    page.goto(f"{our_url}en/engineering/")
    box = page.get_by_role("searchbox", name="Filter roles", exact=True)
    box.fill("zanzibar")
    expect(page.locator(".rolecat-filter-none")).to_be_visible()
    expect(page.locator(".rolecat-filter-none")).to_have_text("No role matches.")
    expect(page.locator("#rolecat-roles .rolecat-card:visible")).to_have_count(0)
    expect(page.locator("#rolecat-roles [data-rolecat-group]")).to_be_hidden()
    expect(page.locator(".rolecat-filter-count")).to_have_text("0 of 3")
    box.fill("")
    expect(page.locator("#rolecat-roles .rolecat-card:visible")).to_have_count(3)
    expect(page.locator(".rolecat-filter-none")).to_be_hidden()


def test_phone_cards_of_a_bundle_label_the_version(browser: Browser, our_url: str) -> None:
    """A card names what each fact is at every width (no column header to lean on), and its
    chips stay whole, one line each, inside the card; a phone shows one card a row."""
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        page.goto(f"{our_url}en/engineering/")
        cards = page.locator("#rolecat-roles .rolecat-card")
        expect(cards).to_have_count(3)
        version = cards.first.locator(".rolecat-card-version")
        expect(version).to_have_text("Version 1", use_inner_text=True)
        for card in cards.all():
            outer = card.bounding_box()
            assert outer is not None
            for chip in card.locator(".rolecat-chip").all():
                box = chip.bounding_box()
                assert box is not None and box["height"] < 30, chip.inner_text()
                assert (
                    outer["x"] <= box["x"]
                    and box["x"] + box["width"] <= outer["x"] + outer["width"]
                ), chip.inner_text()
        if width == 390:  # one card a row
            columns = {round(b["x"]) for b in (card.bounding_box() for card in cards.all()) if b}
            assert len(columns) == 1, columns
        assert not sideways(page)
        context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_russian_page_speaks_russian_in_its_chrome(
    browser: Browser, our_url: str, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    paths = (
        "ru/",
        "ru/engineering/",
        "ru/engineering/code-reviewer/",
        "health/ru/",
        "connect/ru/",
        "about/ru/",
    )
    for path in paths:
        page.goto(f"{our_url}{path}")
        # The site's name, in the header and on its logo.
        header = page.locator(".md-header")
        expect(header.locator(".md-header__topic").first).to_have_text("Каталог ролей агентов")
        expect(header.locator("a.md-logo")).to_have_attribute("aria-label", "Каталог ролей агентов")
        if width < 1220:  # Material's sidebar is a drawer on narrower screens
            page.locator("label.md-header__button[for='__drawer']").click()
        nav = page.locator(".md-sidebar--primary")
        expect(nav.locator(".md-nav__title").first).to_contain_text("Каталог ролей агентов")
        for russian in (
            "Все роли",
            "Состояние каталога",
            "Для серверов и инструментов",
            "Об этом сайте",
        ):
            # A link, or for the current page on a phone Material's toggle of its contents.
            entry = nav.locator(".md-nav__link", has=page.get_by_text(russian, exact=True))
            expect(entry.locator("visible=true").first).to_be_visible()
        for english in (
            "All roles",
            "Catalog health",
            "For servers and tools",
            "About this site",
            "Agent roles catalog",
        ):
            expect(nav.get_by_text(english, exact=True)).to_have_count(0)
            expect(header.get_by_text(english, exact=True)).to_have_count(0)
    page.goto(f"{our_url}ru/")
    card = page.locator(".rolecat-card").first
    expect(card.locator(".rolecat-tier-cell")).to_have_attribute("title", "Модель")
    expect(card.locator(".rolecat-tier-cell")).to_have_text("Модель по умолчанию")
    expect(card.locator(".rolecat-card-version")).to_have_text("Версия 1")
    languages = card.locator(".rolecat-card-languages")
    expect(languages.locator("[lang=en]")).to_have_attribute("title", "английский")
    expect(languages.locator("[lang=ru]")).to_have_attribute("title", "русский")
    expect(page.locator(".rolecat-filter-count")).to_have_text("Роли: 6")
    context.close()


def test_cards_read_well_in_the_dark(browser: Browser, our_url: str) -> None:
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(our_url)
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    for selector in (
        ".rolecat-card .rolecat-name",
        ".rolecat-card p.rolecat-card-description",
        ".rolecat-card .rolecat-chip",
        ".rolecat-card-languages a",
        ".rolecat-search-start",
        ".rolecat-filters",
        ".rolecat-filter-count",
    ):
        assert contrast(page, selector) >= 4.5, selector
    # The server's catalog URL, which the start page showed, is on the page for servers.
    page.goto(f"{our_url}connect/en/")
    for selector in ("#rolecat-catalog-url", "button.rolecat-copy-command"):
        assert contrast(page, selector) >= 4.5, selector
    context.close()


@pytest.fixture(scope="module")
def partial_url(tmp_path_factory: pytest.TempPathFactory, static_host: Any) -> str:
    """A bundle in English and Russian, another in English only."""
    root = tmp_path_factory.mktemp("browser-partial")
    catalog = write_catalog(root / "catalog", {"team": ["en", "ru"], "solo": ["en"]})
    built = build(catalog, root / "site")
    assert built.returncode == 0, built.output
    return str(static_host(built.site))


def cells(page: Page) -> dict[str, list[str]]:
    rows = page.locator(".rolecat-coverage tr[data-rolecat-role]")
    return {
        str(row.get_attribute("data-rolecat-role")): [
            text.strip() for text in row.locator("td").all_inner_texts()
        ]
        for row in rows.all()
    }


@pytest.mark.parametrize("width", WIDTHS)
def test_the_coverage_matrix(
    browser: Browser, history_url: str, partial_url: str, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(f"{history_url}health/")
    assert cells(page) == {
        "reviewer": ["current", "current"],
        "writer": ["current", "behind since v2\nfrom v1, English"],
        "helper": ["current", "behind since v3\nfrom v2, English"],
    }
    assert not sideways(page)
    page.locator("tr[data-rolecat-role='writer'] td[data-lang='ru'] a").click()
    expect(page).to_have_url(f"{history_url}en/team/writer/v2/")
    page.goto(f"{partial_url}health/")
    assert cells(page)["solo-first"] == ["current", "missing"]
    assert cells(page)["team-first"] == ["current", "current"]
    assert not sideways(page)
    context.close()


def test_the_stale_banner_says_what_it_was_translated_from(page: Page, history_url: str) -> None:
    page.goto(f"{history_url}ru/team/writer/")
    expect(page.locator(".rolecat-stale")).to_contain_text(
        "Перевод сделан с версии 1 текста (английский); сейчас этот текст в версии 2."
    )
    expect(page.locator(".rolecat-stale")).not_to_contain_text("English")


def test_nothing_loads_from_another_host(page: Page, our_url: str) -> None:
    hosts: set[str] = set()
    page.on("request", lambda request: hosts.add(request.url.split("/")[2]))
    for path in ("", "ru/", "en/engineering/", "health/"):
        page.goto(f"{our_url}{path}")
    assert hosts == {our_url.split("/")[2]}


# The contrast of an element's text against what it is drawn on, every translucent background
# up to the page's composited in (a tinted cell on a dark page, say).
BLENDED = """element => {
  const rgba = color => {
    const v = (color.match(/[\\d.]+/g) || []).map(Number);
    return v.length === 3 ? [...v, 1] : v.length === 4 ? v : [0, 0, 0, 0];
  };
  const layers = [];
  for (let at = element; at; at = at.parentElement) {
    const c = rgba(getComputedStyle(at).backgroundColor);
    if (c[3] > 0) layers.push(c);
    if (c[3] >= 1) break;
  }
  let back = [255, 255, 255];
  for (const [r, g, b, a] of layers.reverse()) {
    back = [r, g, b].map((v, i) => v * a + back[i] * (1 - a));
  }
  const luminance = ([r, g, b]) => {
    const f = v => (v /= 255) <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const [r, g, b, a] = rgba(getComputedStyle(element).color);
  const fore = [r, g, b].map((v, i) => v * a + back[i] * (1 - a));
  const [x, y] = [luminance(fore), luminance(back)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_cell_of_the_matrix_reads_well(
    browser: Browser, history_url: str, scheme: str
) -> None:
    context = browser.new_context(color_scheme=scheme)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{history_url}health/")
    for selector in (
        "td[data-state=behind] a",
        "td[data-state=behind] .rolecat-cell-note",
        "td[data-state=current] a",
        "th[scope=row] a",
        ".rolecat-coverage-bundle a",
    ):
        assert float(page.locator(selector).first.evaluate(BLENDED)) >= 4.5, selector
    context.close()
