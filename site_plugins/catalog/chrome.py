"""Material's interface in each page's own language, for the theme overrides in templates/.

Material speaks one language per site (``theme.language``). Here every page picks its own: a
generated page carries its language in ``page.meta`` (``rolecat_lang``), a hand-written page
speaks the theme's. The override of ``partials/language.html`` asks this object, as the template
global ``rolecat``, which of Material's translations to use, in which direction the page reads,
and for the site's own labels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure import StructureItem
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page

from site_plugins.pages.labels import FALLBACK, labels, language_name

LANGUAGES_DIR = "partials/languages/"
META_KEY = "rolecat_lang"

RTL = frozenset(
    {"ar", "arc", "ckb", "dv", "fa", "he", "ku-iq", "ps", "sd", "syr", "ug", "ur", "yi"}
)
"""Languages written right to left (Material ships some of them; others fall back to English
words, still laid out right to left)."""


class PageLanguage:
    """Available to the theme's templates as ``rolecat``."""

    def __init__(
        self,
        theme_dirs: Iterable[str],
        languages: Iterable[str] = (),
    ) -> None:
        self.languages = list(languages)
        """The catalog's languages, for the pages that speak each (the 404 page)."""
        self._translations = {
            file.stem.lower(): file.stem
            for directory in theme_dirs
            for file in (Path(directory) / LANGUAGES_DIR).glob("*.html")
        }
        self._words: dict[tuple[str, str], str] = {}
        self._once: dict[tuple[object, ...], str] = {}

    def translation(self, code: str) -> str:
        """Material's translation for ``code`` (``pt-br`` -> ``pt-BR``, ``de-at`` -> ``de``),
        English when Material has none."""
        code = code.lower()
        for candidate in (code, code.split("-", 1)[0]):
            if candidate in self._translations:
                return self._translations[candidate]
        return FALLBACK

    def word(
        self, translation: str, key: str, words: Callable[[str], str], english: Callable[[str], str]
    ) -> str:
        """Material's word for ``key`` in ``translation`` (its ``t`` macro, ``words``), else in
        English, else the key: looked up once. Each macro builds its whole table of words at each
        call, and a page asks for some thirty."""
        found = self._words.get((translation, key))
        if found is None:
            found = self._words[translation, key] = words(key) or english(key) or key
        return found

    def once(self, *key: object, caller: Callable[[], str]) -> str:
        """``{% call rolecat.once(name, ...) %}...{% endcall %}``: the block rendered once for
        each ``key``, which names everything it shows (a header partial alike on every page of
        a language at one depth)."""
        found = self._once.get(key)
        if found is None:
            found = self._once[key] = caller()
        return found

    def direction(self, code: str) -> str:
        code = code.lower()
        return "rtl" if code in RTL or code.split("-", 1)[0] in RTL else "ltr"

    def label(self, code: str, key: str) -> str:
        """One of the site's own labels in the page's language; an unknown key shows as is."""
        return labels(code).get(key, key)

    def words(self, code: str) -> Mapping[str, str]:
        return labels(code)

    def language_name(self, code: str) -> str:
        return language_name(code)


def switch_languages_on(config: MkDocsConfig) -> None:
    """Material shows its language switcher only when ``extra.alternate`` is set, and the
    generated pages bring their own (``templates/overrides/partials/alternate.html``). A list
    there would also make Material emit ``<link rel="alternate">``, fetch each language's
    sitemap.xml and re-route every click on a link into another language to that language's
    home page; a bare flag turns on the switcher and nothing else."""
    if "alternate" not in config.extra:
        config.extra["alternate"] = True


@dataclass(frozen=True)
class LanguageNav:
    """One language's part of the site's navigation, as Material's templates read a
    :class:`~mkdocs.structure.nav.Navigation` (``items``, ``homepage``, ``pages``).

    MkDocs gives every page the one navigation of the site; the sidebar of a page in ``xx``
    shows only the section of ``xx`` (``site.nav`` makes a section per language), and the logo
    leads to that language's home."""

    items: list[StructureItem]
    homepage: Page | None
    pages: list[Page]

    def __iter__(self) -> Iterator[StructureItem]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def language_navs(nav: Navigation, languages: Iterable[str]) -> dict[str, LanguageNav]:
    """The section of each language (in the order ``site.nav`` made them) as its own nav."""
    found = {}
    for language, section in zip(languages, nav.items, strict=False):
        if not isinstance(section, Section):
            break
        pages = [item for item in _walk(section.children) if isinstance(item, Page)]
        found[language] = LanguageNav(section.children, pages[0] if pages else None, pages)
    return found


def _walk(items: Iterable[StructureItem]) -> Iterator[StructureItem]:
    for item in items:
        yield item
        if isinstance(item, Section):
            yield from _walk(item.children)
