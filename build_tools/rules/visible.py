"""Text people must see: a name of only invisible characters is as empty as no name.

The schemas ask every name, emoji and instruction for a non-space character (``\\S``), which a
zero-width space (U+200B), a Hangul filler or a lone combining mark passes: the site would show an
empty link and the server an empty role. This rule asks for one character that shows.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from build_tools.diagnostics import Diagnostic, Pointer
from build_tools.model.catalog import Catalog
from build_tools.sources import javascript

_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cn", "Co", "Cs", "Zs", "Zl", "Zp", "Mn", "Me"})
"""Controls, format characters, unassigned and private code points, spaces, combining marks."""

_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Characters of visible categories that every font draws as nothing (Hangul fillers, the blank
Braille pattern)."""


def _not_empty(text: str) -> bool:
    """The schemas' own test (``\\S``): where it fails, the schema has reported the text as
    empty already. (Stripped from the start only: a text that does not start with a space is
    not copied.)"""
    return javascript.trim_start(text) != ""


ROLE_TEXTS = ("name", "emoji", "instructions")
"""Role fields that must show something (``description`` may be empty)."""
BUNDLE_TEXTS = ("name", "description")


def shows(text: str) -> bool:
    """Does the text hold at least one character that is drawn?"""
    return any(
        char not in _BLANK_LETTERS and unicodedata.category(char) not in _INVISIBLE_CATEGORIES
        for char in text
    )


def invisible_text(catalog: Catalog) -> Iterator[Diagnostic]:
    """Names, emoji, instructions and bundle texts with no character that shows."""
    for bundle in catalog.bundles:
        for field in BUNDLE_TEXTS:
            texts = bundle.entry.get(field)
            for language, text in texts.items() if isinstance(texts, dict) else ():
                if isinstance(text, str) and _not_empty(text) and not shows(text):
                    yield catalog.index.diagnostic(
                        (*bundle.pointer, field, language),
                        f'bundle "{bundle.id}": "{field}" in "{language}" {_MESSAGE}',
                        "invisible-text",
                    )
        for file in bundle.files.values():
            for position, role in enumerate(file.document.data.get("roles") or []):
                for field in ROLE_TEXTS:
                    text = role.get(field) if isinstance(role, dict) else None
                    if isinstance(text, str) and _not_empty(text) and not shows(text):
                        pointer: Pointer = ("roles", position, field)
                        yield file.document.diagnostic(
                            pointer,
                            f'role "{role.get("slug")}": "{field}" {_MESSAGE}',
                            "invisible-text",
                        )


_MESSAGE = (
    "has no visible character, only spaces, marks or invisible ones such as U+200B; write text "
    "people can see"
)
