"""Any two versions of a role compared in Chromium: picked apart in the page, shown in its
language before and after, the instructions as a word diff, the pair kept in the address; the same
diff as the version pages; markup in the catalog or in the address stays text.

Screenshots for review go to ``$ROLECAT_SCREENSHOTS``, else ``build/screenshots/``."""

# Russian text is meant to be Cyrillic: RUF001 (letters that look Latin) does not apply here.
# ruff: noqa: RUF001

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from site_plugins.pages.labels import labels
from tests.support import compare_repo
from tests.support.paths import REPO
from tests.support.site_builds import PAYLOAD, PAYLOADS, build

PHONES = [360, 390]

EXPECTED = {
    "en": {
        "description": ("Plans the week.", "Plans the week and the month."),
        "auto_start": ("no", "yes"),
        "launch_message": ("not set", "Let's plan this week."),
        "model": ("not set", "flash (written as sonnet)"),
    },
    "ru": {
        "description": ("Планирует неделю.", "Планирует неделю и месяц."),
        "auto_start": ("нет", "да"),
        "launch_message": ("не задано", "Давайте спланируем неделю."),
        "model": ("не задано", "flash (записано как sonnet)"),
    },
}
"""Planner from version 1 to version 3, field by field (the label's key, then before, after)."""

DIFF = {
    "en": (["Close"], [", by priority", "End", "short ", " and one question"], "7 unchanged lines"),
    "ru": (
        ["Закончите"],
        [" по приоритету", "Завершите кратким", " и одним вопросом"],
        "Строк без изменений: 7",
    ),
}
"""The same pair's instructions: the words removed, the words added, the fold between them."""


@pytest.fixture(scope="module")
def compare_url(tmp_path_factory: pytest.TempPathFactory, static_host: Any) -> str:
    """The site of tests/support/compare_repo.py, whose roles change in every field."""
    catalog = compare_repo.tell(tmp_path_factory.mktemp("browser-compare"))
    built = build(catalog, tmp_path_factory.mktemp("browser-compare-site") / "site")
    assert built.returncode == 0, built.output
    return str(static_host(built.site))


def screenshots() -> Path:
    where = os.environ.get("ROLECAT_SCREENSHOTS")
    directory = Path(where) if where else REPO / "build" / "screenshots"
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def watch(page: Page) -> list[str]:
    """Errors the page logs or throws, and any dialog a payload would open."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (errors.append(f"dialog: {d.message}"), d.dismiss()))
    return errors


def shown(page: Page) -> dict[str, Any]:
    """What the comparison shows: each field's label, before and after (as read), the words the
    instructions' diff removes and adds, and its folds."""
    result: dict[str, Any] = page.locator(".rolecat-compare-result").evaluate(
        """result => {
          const text = (cell) => cell.textContent;
          const rows = Array.from(result.querySelectorAll("table.rolecat-before-after tbody tr"));
          const diff = result.querySelector(".rolecat-diff-instructions");
          const all = (selector) => diff ? Array.from(diff.querySelectorAll(selector), text) : [];
          return {
            heads: Array.from(result.querySelectorAll("thead th"), text),
            fields: Object.fromEntries(rows.map(row => [
              text(row.cells[0]), [text(row.cells[1]), text(row.cells[2])]])),
            removed: all(":scope > del"),
            added: all(":scope > ins"),
            folds: all("details > summary"),
          };
        }"""
    )
    return result


def expected(lang: str) -> dict[str, Any]:
    words = labels(lang)
    removed, added, fold = DIFF[lang]
    return {
        "heads": [words["field"], words["before"], words["after"]],
        "fields": {words[key]: list(pair) for key, pair in EXPECTED[lang].items()},
        "removed": removed,
        "added": added,
        "folds": [fold],
    }


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_two_versions_apart_show_their_old_and_new_values(
    page: Page, compare_url: str, lang: str
) -> None:
    errors = watch(page)
    page.goto(f"{compare_url}{lang}/desk/planner/compare/")
    before, after = page.locator("select[name=from]"), page.locator("select[name=to]")
    # The two newest until a reader picks: only the model changed between them.
    expect(before).to_have_value("3")
    expect(after).to_have_value("4")
    model = labels(lang)["model"]
    expect(page.locator(".rolecat-compare-result tbody th")).to_have_text([model])
    before.select_option("1")
    after.select_option("3")
    expect(page).to_have_url(f"{compare_url}{lang}/desk/planner/compare/?from=1&to=3")
    assert shown(page) == expected(lang)
    heads = {"en": ["Field", "Before", "After"], "ru": ["Поле", "Было", "Стало"]}[lang]
    assert shown(page)["heads"] == heads
    page.screenshot(path=screenshots() / f"compare-{lang}.png", full_page=True)
    # The address keeps the pair: a reload, or the link itself, shows the same comparison.
    page.reload()
    expect(before).to_have_value("1")
    expect(after).to_have_value("3")
    assert shown(page) == expected(lang)
    # Back goes to the pair picked before.
    page.go_back()
    expect(page).to_have_url(f"{compare_url}{lang}/desk/planner/compare/?from=1&to=4")
    expect(after).to_have_value("4")
    assert errors == []


def test_the_role_page_form_leads_to_the_pair_it_picks(page: Page, compare_url: str) -> None:
    page.goto(f"{compare_url}en/desk/planner/")
    form = page.locator("form.rolecat-compare-form")
    form.locator("select[name=from]").select_option("2")
    form.locator("select[name=to]").select_option("4")
    form.get_by_role("button", name="Compare").click()
    expect(page).to_have_url(f"{compare_url}en/desk/planner/compare/?from=2&to=4")
    expect(page.locator(".rolecat-compare-result .rolecat-compared")).to_have_text(
        "What changed from version 2 (2026-02-01) to version 4 (2026-04-01)."
    )
    # A version page links its own change, which the compare page then shows.
    page.goto(f"{compare_url}ru/desk/planner/v3/")
    page.get_by_role("link", name="Сравнить версии").click()
    expect(page).to_have_url(f"{compare_url}ru/desk/planner/compare/?from=2&to=3")
    expect(page.locator("select[name=from]")).to_have_value("2")


def test_a_withheld_text_says_so(page: Page, compare_url: str) -> None:
    page.goto(f"{compare_url}en/desk/keeper/compare/?from=1&to=2")
    note = page.locator(".rolecat-compare-result .rolecat-withheld")
    expect(note).to_contain_text("it held a credential (en instructions)")
    expect(page.locator(".rolecat-diff-instructions ins")).to_have_text("You keep the keys (en).")
    assert compare_repo.SECRET not in page.content()


def test_a_story_compares_versions_apart(page: Page, history_url: str) -> None:
    """The history tests' story: reviewer's instructions, versions 1 and 4, in both languages."""
    page.goto(f"{history_url}en/team/reviewer/compare/?from=1&to=4")
    added = page.locator(".rolecat-compare-result .rolecat-diff-instructions ins")
    expect(added).to_have_text(["\n\nEdit 1: be brief.\n\nEdit 2: be brief."])
    expect(page.locator(".rolecat-compare-result table")).to_have_count(0)
    page.goto(f"{history_url}ru/team/reviewer/compare/?from=2&to=3")
    expect(page.locator(".rolecat-compare-result .rolecat-state")).to_have_text(
        "На этом языке эти две версии не различаются."
    )
    # A role removed and added again: its versions on either side compare as well.
    page.goto(f"{history_url}en/team/helper/compare/?from=1&to=3")
    expect(added).to_have_text(["\n\nEdit 1: be brief.\n\nEdit 2: be brief."])
    page.select_option("select[name=to]", "1")
    expect(page.locator(".rolecat-compare-result .rolecat-state")).to_have_text(
        "Pick two different versions to compare them."
    )


PAIRS = {
    "history": [
        ("en/team/reviewer", "1", "2"),
        ("en/team/reviewer", "2", "3"),
        ("en/team/reviewer", "3", "4"),
        ("ru/team/reviewer", "3", "4"),
        ("en/team/writer", "1", "2"),
        ("en/team/helper", "1", "2"),
        ("en/team/helper", "2", "3"),
    ],
    "compare": [
        ("en/desk/planner", "2", "3"),
        ("ru/desk/planner", "2", "3"),
        ("en/desk/planner", "3", "4"),
        ("en/desk/keeper", "1", "2"),
    ],
}

CHANGES = """root => {
  const rows = root.querySelector("table.rolecat-before-after tbody");
  const diff = root.querySelector(".rolecat-diff-instructions");
  return [rows ? Array.from(rows.rows, row => row.innerHTML) : [], diff ? diff.innerHTML : null];
}"""


@pytest.mark.parametrize("which", ["history", "compare"])
def test_the_compare_page_shows_what_the_version_page_shows(
    page: Page, history_url: str, compare_url: str, which: str
) -> None:
    """Two neighbours compared in the browser (jsdiff) read as their version page (difflib)."""
    url = {"history": history_url, "compare": compare_url}[which]
    for role, older, newer in PAIRS[which]:
        page.goto(f"{url}{role}/v{newer}/")
        made = page.locator("article .rolecat-version").evaluate(CHANGES)
        page.goto(f"{url}{role}/compare/?from={older}&to={newer}")
        compared = page.locator(".rolecat-compare-result").evaluate(CHANGES)
        assert compared == made, (role, older, newer)


def test_markup_in_the_catalog_and_the_address_stays_text(page: Page, compare_url: str) -> None:
    errors = watch(page)
    hostile = "%3Cimg%20src%3Dx%20onerror%3D%22window.__pwned%3D9%22%3E"
    for lang in ("en", "ru"):
        for query in ("?from=1&to=2", f"?from={hostile}&to=%3Cscript%3E"):
            page.goto(f"{compare_url}{lang}/desk/injector/compare/{query}")
            result = page.locator(".rolecat-compare-result")
            expect(result.locator("table.rolecat-before-after")).to_be_visible()
            assert page.evaluate("typeof window.__pwned") == "undefined", query
            assert result.locator("img, script, a, iframe").count() == 0
            # An unknown pair falls back to the two newest, which are 1 and 2.
            expect(page.locator("select[name=from]")).to_have_value("1")
            description = result.locator("tbody tr").first.locator("td")
            expect(description).to_have_text([PAYLOAD, f"{PAYLOADS[1]} changed {PAYLOAD}"])
            expect(result.locator(".rolecat-diff-instructions ins")).to_have_text(
                [f"\n{PAYLOADS[0]} added"]
            )
    assert errors == []


@pytest.mark.parametrize("width", PHONES)
def test_a_comparison_fits_a_phone(page: Page, compare_url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 780})
    page.goto(f"{compare_url}ru/desk/planner/compare/?from=1&to=4")
    expect(page.locator(".rolecat-compare-result tbody tr")).to_have_count(4)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for cell in page.locator(".rolecat-compare-result td, .rolecat-compare-form select").all():
        box = cell.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    page.screenshot(path=screenshots() / f"compare-ru-{width}.png", full_page=True)


def test_without_javascript_the_versions_lead_to_their_pages(
    browser: Any, compare_url: str
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{compare_url}en/desk/planner/compare/")
    expect(page.locator("[data-rolecat-compare]")).to_be_hidden()
    expect(page.locator("noscript, .rolecat-state").first).to_be_attached()
    page.get_by_role("link", name="what changed").first.click()
    expect(page).to_have_url(re.compile(r"/en/desk/planner/v4/$"))
    context.close()
