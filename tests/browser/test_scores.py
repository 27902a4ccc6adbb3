"""Issue 35, part 6: what the web's own tools judge. axe-core finds no serious or critical
violation on any page type, in both languages, both colour schemes and both widths, and the
tests save a screenshot of each for review; the payload catalog's markup stays inert in every
element the redesign added. (Lighthouse's scores come from ``python -m bench.lighthouse``.)"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.axe import assert_no_serious_violations
from tests.support.screenshots import save

SCREENS = {"1280": (1280, 900), "390": (390, 844)}
SCHEMES = ("light", "dark")


def page_types(language: str) -> dict[str, str]:
    """Each page type of our published site, in ``language``, by name."""
    return {
        "home": "" if language == "en" else f"{language}/",
        "gallery": f"{language}/",
        "bundle": f"{language}/engineering/",
        "role": f"{language}/engineering/code-reviewer/",
        "health": f"health/{language}/",
        "connect": f"connect/{language}/",
        "about": "about/" if language == "en" else f"about/{language}/",
        "404": f"{language}/no-such-page/",
    }


HISTORY_TYPES = {"version": "team/reviewer/v3/", "compare": "team/reviewer/compare/"}
"""Page types only a catalog with a history has (tests/support/history_repo.py)."""


@pytest.fixture(params=[(w, s) for w in SCREENS for s in SCHEMES], ids=lambda p: f"{p[0]}-{p[1]}")
def screen(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    width, scheme = request.param
    context = browser.new_context(
        viewport={"width": SCREENS[width][0], "height": SCREENS[width][1]},
        color_scheme=scheme,
    )
    page = context.new_page()
    page.rolecat_name = f"{width}-{scheme}"  # type: ignore[attr-defined]
    yield page
    context.close()


def judged(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.wait_for_load_state("load")
    assert_no_serious_violations(page, f"{name} ({page.rolecat_name}) {url}")  # type: ignore[attr-defined]
    save(page, f"{name}-{page.rolecat_name}")  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_axe_finds_no_serious_violation_on_any_page_type(
    screen: Page, published_url: str, history_url: str, language: str
) -> None:
    for kind, path in page_types(language).items():
        judged(screen, published_url + path, f"{kind}-{language}")
    for kind, path in HISTORY_TYPES.items():
        judged(screen, f"{history_url}{language}/{path}", f"{kind}-{language}")


def test_an_open_panel_and_the_open_search_pass_axe_too(screen: Page, published_url: str) -> None:
    screen.goto(f"{published_url}ru/engineering/code-reviewer/")
    screen.locator("details[data-rolecat-action='claude'] summary").click()
    assert_no_serious_violations(screen, "an open action panel")
    screen.keyboard.press("Escape")
    screen.keyboard.press("/")
    screen.keyboard.type("ревью")
    expect(screen.locator(".md-search-result__list a").first).to_be_visible()
    assert_no_serious_violations(screen, "the open search")


def test_payloads_stay_inert_in_every_new_element(page: Page, payload_url: str) -> None:
    """The payload catalog's every text is markup or template syntax: opening every panel,
    copying, filtering and searching runs none of it."""
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    for language in ("en", "ru"):
        page.goto(f"{payload_url}{language}/payload/injector/")
        for index in range(page.locator("details.rolecat-action").count()):
            page.locator("details.rolecat-action summary").nth(index).click()
        page.locator("details.rolecat-server-details summary").click()
        page.goto(f"{payload_url}{language}/?q=script&in=instructions")
        expect(page.locator(".rolecat-card").first).to_be_attached()
        page.goto(f"{payload_url}{language}/payload/")
        page.goto(f"{payload_url}connect/{language}/")
        page.goto(f"{payload_url}{language}/payload/missing/")
        assert page.evaluate("typeof window.__pwned") == "undefined", language
    assert dialogs == []
