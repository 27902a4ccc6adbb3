"""The site's words per language, and which of Material's translations a page language gets."""

# Russian text is meant to be Cyrillic: RUF001 (letters that look Latin) does not apply here.
# ruff: noqa: RUF001

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import material
import pytest

from site_plugins.catalog.chrome import PageLanguage
from site_plugins.pages.labels import (
    FALLBACK,
    WORDS_DIR,
    labels,
    language_name,
    read_words,
    tables,
)
from site_plugins.pages.rendering import code_spans
from tests.support.paths import REPO
from tests.support.site_builds import Build

MATERIAL = str(Path(material.__file__).parent / "templates")


PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")


def test_every_language_has_every_key_with_its_placeholders() -> None:
    words = tables()
    assert {"en", "ru"} <= words.keys()
    english = words[FALLBACK]
    for language, table in words.items():
        assert list(table) == list(english), f"words/{language}.yaml: keys differ from en.yaml"
        for key, text in table.items():
            expected = sorted(PLACEHOLDER.findall(english[key]))
            assert sorted(PLACEHOLDER.findall(text)) == expected, f"{language}.yaml: {key}"
        assert language_name(language) != language, f"languages.yaml names no {language}"
    assert labels("sw") == english  # a language without a file speaks English
    assert language_name("sw") == "sw"


def test_a_words_file_that_is_no_mapping_of_texts_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "de.yaml"
    bad.write_text("copy_button: [not, a, text]\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"de\.yaml: expected a mapping of words to texts"):
        read_words(bad)
    assert (WORDS_DIR / "en.yaml").is_file()


def test_each_language_gets_materials_nearest_translation() -> None:
    chrome = PageLanguage([MATERIAL])
    assert chrome.translation("ru") == "ru"
    assert chrome.translation("pt-br") == "pt-BR"
    assert chrome.translation("de-at") == "de"
    assert chrome.translation("sw") == "en"
    assert [chrome.direction(code) for code in ("ar", "he-il", "ru", "ku-iq")] == [
        "rtl",
        "rtl",
        "ltr",
        "rtl",
    ]
    assert chrome.label("ru", "copy_button") == "Скопировать инструкции"
    assert chrome.label("sw", "copy_button") == "Copy instructions"


def test_backticks_in_a_label_show_as_code() -> None:
    for language in ("en", "ru"):
        for key in ("pending_bump", "pending_record"):
            shown = str(code_spans(labels(language)[key]))
            assert "<code>rolecat check --fix</code>" in shown and "`" not in shown, key
    # The rest is text: markup in a label is escaped, an unpaired backtick stays.
    assert str(code_spans("a <b> `x & y` c ` d")) == "a &lt;b&gt; <code>x &amp; y</code> c ` d"


class Words(HTMLParser):
    """Every text a reader meets on a page in its own language: its text nodes and the
    attributes shown as text, but for what is marked as another language (the switcher names
    each language in itself)."""

    SHOWN = ("title", "placeholder", "aria-label", "data-template", "data-total", "data-copied")

    def __init__(self, language: str = "ru") -> None:
        super().__init__(convert_charrefs=True)
        self.words: set[str] = set()
        self.language = language
        self._skip = 0
        self._other: list[str] = []
        """The tags open since an element in another language, that one first."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if self._other or found.get("lang") not in (None, self.language):
            if tag not in self.VOID:
                self._other.append(tag)
            return
        if tag in ("script", "style"):
            self._skip += 1
        self.words.update((v or "").strip() for k, v in attrs if k in self.SHOWN)

    VOID = frozenset({"br", "wbr", "img", "input", "hr", "meta", "link", "source"})

    def handle_endtag(self, tag: str) -> None:
        if self._other:
            self._other.pop()
            return
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and not self._other:
            self.words.add(data.strip().removesuffix(":").strip())


def english_only() -> list[re.Pattern[str]]:
    """Each English label a Russian page must not show, as a pattern: a catalog value in place
    of each %(name)s, a count (or the template itself) in place of each {count}."""
    patterns = []
    for key, english in tables()[FALLBACK].items():
        if tables()["ru"][key] == english:
            continue
        pattern = re.escape(english)
        pattern = re.sub(r"%\\\(\w+\\\)s", ".+", pattern)
        pattern = re.sub(r"\\\{\w+\\\}", r"(?:\\d+|\\{\\w+\\})", pattern)
        patterns.append(re.compile(pattern))
    return patterns


def test_a_russian_page_shows_no_english_label(our_site: Build) -> None:
    # The site's name is the repository's own (mkdocs.yml), in whatever language it is written.
    site_name = re.search(r"^site_name: (.+)$", (REPO / "mkdocs.yml").read_text(), re.M)
    assert site_name is not None
    patterns = english_only()
    pages = [
        page
        for page in our_site.site.rglob("*.html")
        if '<html lang="ru"' in page.read_text(encoding="utf-8")
    ]
    assert len(pages) > 10
    assert (
        our_site.site / "ru/index.html" in pages and our_site.site / "health/ru/index.html" in pages
    )
    for page in pages:
        parser = Words()
        parser.feed(page.read_text(encoding="utf-8"))
        shown = parser.words - {site_name.group(1), ""}
        english = sorted(w for w in shown for p in patterns if p.fullmatch(w))
        assert english == [], page.relative_to(our_site.site)
    # The sidebar's entries we name, among them.
    sidebar = Words()
    text = (our_site.site / "ru/index.html").read_text(encoding="utf-8")
    sidebar.feed(text[text.index("md-sidebar--primary") : text.index("md-sidebar--secondary")])
    assert {"Все роли", "Состояние каталога", "Для серверов и инструментов", "Об этом сайте"} <= (
        sidebar.words
    )


def test_a_header_partial_is_rendered_once_per_key_and_material_words_once_per_language() -> None:
    """The header's search box and palette are the same on every page of a language at one
    depth: rendered once for each, as the partial names what it shows; Material's words are
    looked up once per language and key, English where the language has none."""
    rolecat = PageLanguage([])
    rendered: list[str] = []

    def box() -> str:
        rendered.append("box")
        return f"box {len(rendered)}"

    assert rolecat.once("search", "en", "../", caller=box) == "box 1"
    assert rolecat.once("search", "en", "../", caller=box) == "box 1"
    assert rolecat.once("search", "ru", "../", caller=box) == "box 2"
    assert rolecat.once("search", "en", "../../", caller=box) == "box 3"
    asked: list[str] = []

    def words(key: str) -> str:
        asked.append(key)
        return {"search": "Поиск"}.get(key, "")

    def english(key: str) -> str:
        return {"search": "Search", "toc": "Table of contents"}.get(key, "")

    assert rolecat.word("ru", "search", words, english) == "Поиск"
    assert rolecat.word("ru", "toc", words, english) == "Table of contents"
    assert rolecat.word("ru", "nowhere", words, english) == "nowhere"
    assert rolecat.word("ru", "search", words, english) == "Поиск"
    assert asked == ["search", "toc", "nowhere"]
