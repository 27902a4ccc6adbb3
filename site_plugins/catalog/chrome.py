"""Material's interface in each page's own language, for the theme overrides in templates/.

Material speaks one language per site (``theme.language``). Here every page picks its own: a
generated page carries its language in ``page.meta`` (``rolecat_lang``), a hand-written page
speaks the theme's. The override of ``partials/language.html`` asks this object, as the template
global ``rolecat``, which of Material's translations to use, in which direction the page reads,
and for the site's own labels.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from build_tools.wire import site_paths
from site_plugins.pages.labels import FALLBACK, labels
from site_plugins.pages.rendering import nav_title

LANGUAGES_DIR = "partials/languages/"
META_KEY = "rolecat_lang"

RTL = frozenset(
    {"ar", "arc", "ckb", "dv", "fa", "he", "ku-iq", "ps", "sd", "syr", "ug", "ur", "yi"}
)
"""Languages written right to left (Material ships some of them; others fall back to English
words, still laid out right to left)."""


class PageLanguage:
    """Available to the theme's templates as ``rolecat``."""

    def __init__(self, theme_dirs: Iterable[str]) -> None:
        self._translations = {
            file.stem.lower(): file.stem
            for directory in theme_dirs
            for file in (Path(directory) / LANGUAGES_DIR).glob("*.html")
        }

    def translation(self, code: str) -> str:
        """Material's translation for ``code`` (``pt-br`` -> ``pt-BR``, ``de-at`` -> ``de``),
        English when Material has none."""
        code = code.lower()
        for candidate in (code, code.split("-", 1)[0]):
            if candidate in self._translations:
                return self._translations[candidate]
        return FALLBACK

    def direction(self, code: str) -> str:
        code = code.lower()
        return "rtl" if code in RTL or code.split("-", 1)[0] in RTL else "ltr"

    def label(self, code: str, key: str) -> str:
        """One of the site's own labels in the page's language; an unknown key shows as is."""
        return labels(code).get(key, key)


def switch_languages_on(config: MkDocsConfig) -> None:
    """Material shows its language switcher only when ``extra.alternate`` is set, and the
    generated pages bring their own (``templates/overrides/partials/alternate.html``). A list
    there would also make Material emit ``<link rel="alternate">``, fetch each language's
    sitemap.xml and re-route every click on a link into another language to that language's
    home page; a bare flag turns on the switcher and nothing else."""
    if "alternate" not in config.extra:
        config.extra["alternate"] = True


NAV_LABELS = {site_paths.home_page(): "overview", site_paths.health_page(): "health"}
"""The generated pages of the sidebar that a label names."""

HANDWRITTEN_LABELS = ("about",)
"""Labels a hand-written page's title may be, in English: such a page (docs/about.md, which
``rolecat init`` writes) is named in each page's language in the sidebar; any other title is
the repository's own and stays as written."""


@dataclass
class NavWords:
    """The sidebar's entries we name, in the language of the page they are shown on.

    MkDocs shares one navigation between all pages, so each page sets the titles before it is
    rendered. Which entries are ours is worked out once per build, from their English titles,
    before any is changed."""

    keys: dict[str, str] | None = field(default=None)

    def show(self, pages: Iterable[Page], language: str, generated: Container[str]) -> None:
        pages = list(pages)
        if self.keys is None:
            english = {labels(FALLBACK)[key]: key for key in HANDWRITTEN_LABELS}
            self.keys = {}
            for page in pages:
                src = page.file.src_uri
                key = NAV_LABELS.get(src)
                if key is None and src not in generated:
                    key = english.get(page.title or "")
                if key is not None:
                    self.keys[src] = key
        words = labels(language)
        for page in pages:
            key = self.keys.get(page.file.src_uri)
            if key is not None:
                page.title = nav_title(words[key])
