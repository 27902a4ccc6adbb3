"""The axe-core helper (tests/support/axe.py) finds real violations and passes a clean page, so a
page test that uses it cannot pass because the helper saw nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.support.axe import assert_no_serious_violations, axe_violations

CLEAN = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A clean page</title></head>
<body>
  <header><p>Site</p></header>
  <main>
    <h1>Roles</h1>
    <p>Readable text on its background.</p>
    <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="A dot">
    <button type="button">Copy</button>
    <a href="#roles">Back to the roles</a>
  </main>
</body>
</html>"""

BAD = """<!doctype html>
<html>
<head><meta charset="utf-8"><title>A bad page</title></head>
<body>
  <main>
    <h1>Roles</h1>
    <p id="faint" style="color:#bbb;background:#fff">Text too faint to read.</p>
    <p id="long" class="LONG" style="color:#bbb">Faint.</p>
    <img id="picture" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
    <button type="button" id="copy"></button>
  </main>
</body>
</html>""".replace("LONG", "faint " * 30)

# Only a moderate violation: a heading level skipped.
MODERATE = CLEAN.replace("<p>Readable text on its background.</p>", "<h4>Too deep</h4>")


def test_a_bad_page_shows_each_serious_and_critical_violation(page: Page) -> None:
    page.set_content(BAD)
    lines = axe_violations(page)
    rules = sorted({line.split(" ", 1)[0] for line in lines})
    assert rules == ["button-name", "color-contrast", "html-has-lang", "image-alt"], lines
    contrast = next(line for line in lines if ": at #faint: " in line)
    # Rule, impact, help, where, and what: enough to find and fix it.
    assert contrast.startswith("color-contrast (serious): Elements must meet minimum color")
    assert contrast.endswith(
        ': at #faint: <p id="faint" style="color:#bbb;background:#fff">Text too faint to read.</p>'
    )
    # A long node is cut to a snippet, on one line.
    long = next(line for line in lines if ": at #long: " in line)
    assert long.endswith("…") and len(long.split(": at #long: ")[1]) == 120
    image = next(line for line in lines if line.startswith("image-alt"))
    assert (
        image.startswith("image-alt (critical): ") and ': at #picture: <img id="picture"' in image
    )
    # Run again on the same document: axe is injected once, the answer is the same.
    assert axe_violations(page) == lines


def test_a_clean_page_shows_none(page: Page) -> None:
    page.set_content(CLEAN)
    assert axe_violations(page, impacts=("minor", "moderate", "serious", "critical")) == []
    assert_no_serious_violations(page, "the clean page")


def test_impacts_choose_what_counts(page: Page) -> None:
    page.set_content(MODERATE)
    assert axe_violations(page) == []
    moderate = axe_violations(page, impacts=("moderate",))
    assert len(moderate) == 1 and moderate[0].startswith("heading-order (moderate): "), moderate
    assert_no_serious_violations(page, "a page with only a moderate violation")


def test_the_assertion_names_the_page_and_every_violation(page: Page) -> None:
    page.set_content(BAD)
    with pytest.raises(AssertionError) as failure:
        assert_no_serious_violations(page, "the bad page")
    message = str(failure.value)
    assert message.startswith(
        "the bad page: 5 serious or critical accessibility violation(s) found by axe-core 4.14.1:"
    )
    for rule in ("button-name", "color-contrast", "html-has-lang", "image-alt"):
        assert f"\n  {rule} (" in message
