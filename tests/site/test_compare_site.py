"""Comparing versions, from a site built out of a git history (``tests/support/compare_repo.py``):
each changed field before and after in words on the version pages, and one compare page per role
and language carrying every version for its script, never a credential a version once held."""

# Russian text is meant to be Cyrillic: RUF001 (letters that look Latin) does not apply here.

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.support import compare_repo
from tests.support.site_builds import PAYLOAD, PAYLOADS, Build, build


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    catalog = compare_repo.tell(tmp_path_factory.mktemp("compare-story"))
    built = build(catalog, tmp_path_factory.mktemp("compare-site") / "site")
    assert built.returncode == 0, built.output
    return built


def article(site: Build, path: str) -> str:
    text = (site.site / path / "index.html").read_text(encoding="utf-8")
    return text[text.index('<div class="rolecat ') : text.index("</article>")]


def rows(text: str) -> dict[str, tuple[str, str]]:
    """A version page's changed fields: label -> (before, after), as HTML."""
    found = re.findall(
        r'<tr><th scope="row">(.*?)</th><td data-label="[^"]+"><div class="rolecat-diff">(.*?)'
        r'</div></td><td data-label="[^"]+"><div class="rolecat-diff">(.*?)</div></td></tr>',
        text,
        re.S,
    )
    return {label: (before, after) for label, before, after in found}


def word(text: str, op: str) -> str:
    """One value in the site's own words, removed or added whole."""
    return f'<{op}><span class="rolecat-word">{text}</span></{op}>'


class Data(HTMLParser):
    """The compare page's JSON block, read as a browser reads it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inside = False
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.inside = tag == "script" and ("id", "rolecat-compare-data") in attrs

    def handle_endtag(self, tag: str) -> None:
        self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.text += data


def compare_data(site: Build, path: str) -> dict[str, Any]:
    parser = Data()
    parser.feed((site.site / path / "compare/index.html").read_text(encoding="utf-8"))
    data: dict[str, Any] = json.loads(parser.text)
    return data


def test_a_changed_field_shows_before_and_after_in_words(site: Build) -> None:
    en = article(site, "en/desk/planner/v3")
    assert '<thead><tr><th scope="col">Field</th><th scope="col">Before</th>' in en
    assert rows(en) == {
        "Description": ("Plans the week.", "Plans the week<ins> and the month</ins>."),
        "Starts on its own": (word("no", "del"), word("yes", "ins")),
        "Launch message": (word("not set", "del"), "<ins>Let&#39;s plan this week.</ins>"),
        "Model": (word("not set", "del"), word("flash (written as sonnet)", "ins")),
    }
    ru = article(site, "ru/desk/planner/v3")
    assert '<th scope="col">Было</th><th scope="col">Стало</th>' in ru
    assert rows(ru)["Запускается сама"] == (word("нет", "del"), word("да", "ins"))
    assert rows(ru)["Модель"] == (
        word("не задано", "del"),
        word("flash (записано как sonnet)", "ins"),
    )
    # A model key with its driver, after a tier; the instructions keep their one diff.
    assert rows(article(site, "en/desk/planner/v4")) == {
        "Model": (
            word("flash (written as sonnet)", "del"),
            word("gpt-4o-mini, driver: openai", "ins"),
        )
    }
    assert "<del>Close</del><ins>End</ins> with a <ins>short </ins>summary<ins> and one" in en


def test_no_value_is_shown_as_json(site: Build) -> None:
    pages = [p for p in site.site.rglob("index.html") if re.search(r"/(v\d+|compare)/", str(p))]
    assert len(pages) == 2 * (3 + 1 + 1) + 2 * 3  # version pages, then a compare page per role
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "chatModel" not in text and "{&#34;" not in text, page


def test_the_compare_page_carries_every_version_in_its_language(site: Build) -> None:
    data = compare_data(site, "en/desk/planner")
    assert (data["from"], data["to"]) == ("3", "4")  # the two newest, until a reader picks
    assert [v["key"] for v in data["versions"]] == ["1", "2", "3", "4"]
    assert [v["date"] for v in data["versions"]] == [
        "2026-01-05",
        "2026-02-01",
        "2026-03-01",
        "2026-04-01",
    ]
    assert [v["href"] for v in data["versions"]] == [None, "../v2/", "../v3/", "../v4/"]
    first, _, third, fourth = data["versions"]
    assert first["fields"]["autoStart"] == {"text": "no", "word": True}
    assert first["fields"]["launchMessage"] == {"text": "not set", "word": True}
    assert third["fields"]["launchMessage"] == {"text": "Let's plan this week.", "word": False}
    assert third["fields"]["modelConfig"] == {"text": "flash (written as sonnet)", "word": True}
    assert fourth["fields"]["modelConfig"]["text"] == "gpt-4o-mini, driver: openai"
    assert first["instructions"] == compare_repo.planner_instructions("en", 1)
    assert data["fields"][0] == ["emoji", "Emoji"] and data["context_lines"] == 3
    assert data["words"]["before"] == "Before"
    ru = compare_data(site, "ru/desk/planner")
    assert ru["words"]["before"] == "Было" and ru["words"]["after"] == "Стало"
    assert ru["versions"][0]["fields"]["autoStart"] == {"text": "нет", "word": True}
    assert ru["versions"][2]["fields"]["description"]["text"] == "Планирует неделю и месяц."
    assert ["autoStart", "Запускается сама"] in ru["fields"]


def test_a_credential_an_old_version_held_never_reaches_the_compare_page(site: Build) -> None:
    data = compare_data(site, "en/desk/keeper")
    first, second = data["versions"]
    assert first["instructions"] == "" and second["instructions"] == "You keep the keys (en)."
    assert first["withheld"] == (
        "Some of this version's text is not shown: it held a credential (en instructions)."
    )
    assert second["withheld"] is None
    ru = compare_data(site, "ru/desk/keeper")
    assert ru["versions"][0]["instructions"] == "You keep the keys (ru)."
    leaked = [
        p.relative_to(site.site).as_posix()
        for p in site.site.rglob("*")
        if p.is_file() and compare_repo.SECRET.encode() in p.read_bytes()
    ]
    assert leaked == []
    assert "role keeper version 1: en instructions left out of the site" in site.output


def test_the_compare_page_without_javascript(site: Build) -> None:
    page = article(site, "en/desk/planner/compare")
    version = article(site, "en/desk/planner/v2")
    path = '<nav class="rolecat-path"'
    assert (
        page[page.index(path) :].split("</nav>")[0]
        == version[version.index(path) :].split("</nav>")[0]
    )
    assert "<h1>Planner (en): compare versions</h1>" in page
    # The live part waits for the script; meanwhile the versions lead to their pages.
    assert '<div class="rolecat-compare-live" data-rolecat-compare hidden>' in page
    assert "<noscript>" in page
    listed = re.findall(r'data-rolecat-version="([^"]+)"', page)
    assert listed == ["4", "3", "2", "1"]
    for number in (2, 3, 4):
        assert f'<a href="../v{number}/">what changed</a>' in page
    # Only this page loads jsdiff, from the site itself.
    assert re.findall(r'<script src="([^"]+)" defer>', page) == [
        "../../../../assets/javascripts/vendor/diff.min.js",
        "../../../../assets/javascripts/rolecat-compare.js",
    ]
    vendor = site.site / "assets/javascripts/vendor"
    assert (vendor / "diff.min.js").read_text().startswith("/*! jsdiff 9.0.0")
    assert "BSD 3-Clause License" in (vendor / "diff.LICENSE.txt").read_text()
    for other in ("en/desk/planner", "en/desk/planner/v2", "en/desk"):
        assert "diff.min.js" not in (site.site / other / "index.html").read_text(encoding="utf-8")
    ru = article(site, "ru/desk/planner/compare")
    assert "<h1>Planner (ru): сравнение версий</h1>" in ru and "Для сравнения" in ru


def test_the_role_and_version_pages_lead_to_the_compare_page(site: Build) -> None:
    role = article(site, "en/desk/planner")
    form = role[role.index('<form class="rolecat-compare-form"') :].split("</form>")[0]
    assert 'action="compare/" method="get"' in form
    assert '<option value="3" selected>Version 3 · 2026-03-01</option>' in form
    assert '<option value="4" selected>Version 4 · 2026-04-01</option>' in form
    assert form.count("<option ") == 2 * 4
    assert '<a href="compare/">Compare versions</a>' in role
    version = article(site, "ru/desk/planner/v3")
    assert '<a href="../compare/?from=2&amp;to=3" class="rolecat-compare-link">' in version
    assert "Сравнить версии</a>" in version


def test_markup_stays_text_on_the_compare_page(site: Build) -> None:
    for language in ("en", "ru"):
        text = (site.site / language / "desk/injector/compare/index.html").read_text("utf-8")
        for bad in ("<script>window.__pwned", "<img src=x", 'onerror="', 'href="javascript:'):
            assert bad not in text, bad
        assert not re.search(r"(?<!\w)49(?!\w)", text)  # {{ 7*7 }} stays as written
        data = compare_data(site, f"{language}/desk/injector")
        first, second = data["versions"]
        assert first["fields"]["description"]["text"] == PAYLOAD
        assert second["fields"]["description"]["text"] == f"{PAYLOADS[1]} changed {PAYLOAD}"
        assert second["fields"]["modelConfig"]["text"].startswith(f"{PAYLOADS[3]} v2")


def test_compare_pages_stay_out_of_search(site: Build) -> None:
    for path in ("en/desk/planner/compare", "ru/desk/keeper/compare"):
        assert "data-pagefind-body" not in (site.site / path / "index.html").read_text("utf-8")
    assert "data-pagefind-body" in (site.site / "en/desk/planner/index.html").read_text("utf-8")


def test_one_compare_page_per_role_and_language(site: Build) -> None:
    """However many versions, a role has one compare page per language: never one per pair."""
    compare = sorted(p.parent.relative_to(site.site).as_posix() for p in _pages(site.site))
    assert compare == [
        f"{lang}/desk/{slug}/compare"
        for lang in ("en", "ru")
        for slug in ("injector", "keeper", "planner")
    ]


def _pages(root: Path) -> list[Path]:
    return [p for p in root.rglob("compare/index.html")]
