"""The site's own words, one data file per page language in ``words/`` (``en.yaml``,
``ru.yaml``...), and each language's name in itself (``words/languages.yaml``).

To give the site's interface another language, copy ``words/en.yaml`` to ``words/<code>.yaml``
(the code the catalog uses, e.g. ``de.yaml``), translate every value and add its name to
``languages.yaml``: no Python to read. A page in a language without a file speaks English.
Material's own words (search, navigation, the clipboard) come from the translations Material
ships.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from ruamel.yaml import YAML

FALLBACK = "en"

WORDS_DIR = Path(__file__).parent / "words"
NAMES_FILE = "languages.yaml"


def read_words(path: Path) -> dict[str, str]:
    """One words file: a mapping of text keys to text values, read as YAML 1.2 (``no`` stays a
    word); anything else is a mistake in the package, said with the file's name."""
    data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"{path}: expected a mapping of words to texts")
    return data


@functools.cache
def tables() -> dict[str, dict[str, str]]:
    """Every language's words by language code, read once per process."""
    return {
        path.stem: read_words(path)
        for path in sorted(WORDS_DIR.glob("*.yaml"))
        if path.name != NAMES_FILE
    }


@functools.cache
def _names() -> dict[str, str]:
    return read_words(WORDS_DIR / NAMES_FILE)


def labels(language: str) -> Mapping[str, str]:
    """The labels of one page language; English where a language has no file. One read-only
    table per language, shared by every page (a copy each was a tenth of a large build's
    memory)."""
    return _shared(language if tables().get(language) else FALLBACK)


@functools.cache
def _shared(language: str) -> Mapping[str, str]:
    return MappingProxyType(tables()[language])


def language_name(code: str, speaking: str | None = None) -> str:
    """A language named in ``speaking``'s words (``lang_<code>``), or in itself when
    ``speaking`` is ``None`` (the switcher's way) or has no name for it; a code without any
    name shows as the code."""
    if speaking is not None:
        named = (tables().get(speaking) or {}).get(f"lang_{code}")
        if named:
            return named
    return _names().get(code, code)


def named_in(words: Mapping[str, str], code: str) -> str:
    """A language named in the words of a page (its ``lang_<code>``), else in itself."""
    return words.get(f"lang_{code}") or language_name(code)
