"""Material's interface in each page's own language, for the theme overrides in templates/.

Material speaks one language per site (``theme.language``). Here every page picks its own: a
generated page carries its language in ``page.meta`` (``rolecat_lang``), a hand-written page
speaks the theme's. The override of ``partials/language.html`` asks this object, as the template
global ``rolecat``, which of Material's translations to use, in which direction the page reads,
and for the site's own labels.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig

from site_plugins.labels import FALLBACK, labels

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
