"""A version's changes on a phone: the diff wraps, nothing scrolls sideways, folds open."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

PHONES = [360, 390]


@pytest.mark.parametrize("width", PHONES)
def test_a_diff_wraps_on_a_phone(page: Page, history_url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 780})
    page.goto(f"{history_url}en/team/writer/v2/")
    diff = page.locator(".rolecat-diff-instructions")
    expect(diff.locator("ins")).to_contain_text("a1b2c3d4e5a1b2c3d4e5")
    # The long unbroken link wraps inside the page: no sideways scrolling, no clipped text.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = diff.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert diff.evaluate("e => e.scrollWidth <= e.clientWidth")
    # The description's diff sits in a table cell that fits the phone as well.
    cell = page.locator("table.rolecat-before-after td").first
    cell_box = cell.bounding_box()
    assert cell_box is not None and cell_box["x"] + cell_box["width"] <= width


def test_removed_and_added_words_stand_out(page: Page, history_url: str) -> None:
    page.goto(f"{history_url}en/team/writer/v2/")
    removed = page.locator("table.rolecat-before-after del").first
    added = page.locator("table.rolecat-before-after ins").first
    expect(removed).to_have_text("What the writer does")
    expect(added).to_have_text("Writes <b>release notes</b> & guides")
    styles = [
        element.evaluate(
            "e => [getComputedStyle(e).backgroundColor, getComputedStyle(e).textDecorationLine]"
        )
        for element in (removed, added)
    ]
    assert styles[0][1] == "line-through" and styles[1][1] == "underline"
    assert styles[0][0] != styles[1][0]
    assert "rgba(0, 0, 0, 0)" not in (styles[0][0], styles[1][0])


def test_the_role_page_leads_to_what_changed(page: Page, history_url: str) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{history_url}ru/team/writer/")
    warning = page.locator(".rolecat-stale")
    expect(warning).to_contain_text("возможно, устарел")
    warning.get_by_role("link").click()
    expect(page).to_have_url(f"{history_url}en/team/writer/v2/")
    expect(page.locator("article h1")).to_have_text("Writer (en), version 2")
    page.get_by_role("link", name="History", exact=True).click()
    expect(page).to_have_url(f"{history_url}en/team/writer/#history")
    for path in (
        "health/",
        "health/ru/",
        "ru/",
        "en/team/helper/",
        "en/team/helper/v3/",
        "en/team/helper/compare/",  # lists each version's commit subject
    ):
        page.goto(f"{history_url}{path}")
        expect(page.locator("article h1")).to_be_visible()
        assert page.evaluate("typeof window.__pwned") == "undefined", path  # a commit subject
    assert errors == []  # nothing the pages load is missing
