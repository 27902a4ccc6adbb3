"""How a change between two versions reads: each changed field before and after, and the
instructions as a word diff whose long unchanged runs fold away.

A reader sees values, not JSON: a boolean as yes or no, an absent value as "not set" and a null
as "none", a ``modelConfig`` as the model words the role page uses, a text left out for holding
a credential as "left out". The version pages render these cells in Python; the compare page
carries the same cells as data for its script, so both say the same in the same words.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from build_tools.history.versions import Version
from build_tools.history.worddiff import Piece, word_diff
from site_plugins.pages.model_hints import hint

CONTEXT_LINES = 3
"""Unchanged lines shown around each change of the instructions; longer runs fold away."""

ABSENT: Any = object()
"""A field the role does not have, which reads otherwise than one set to ``null``."""

Cell = dict[str, Any]
"""``{"text": ..., "word": ...}``: what a value shows; ``word`` when the text is the site's own
words (yes, none, a model's tier) rather than the catalog's text."""


def withheld(version: Version, language: str, name: str) -> bool:
    """The field's text was left out of this version: it held a credential."""
    return f"{language} {name}" in version.withheld


def cell(name: str, value: Any, words: Mapping[str, str], *, tiers: bool, hidden: bool) -> Cell:
    """One value in words; ``hidden`` for a text left out of the history."""
    if hidden:
        return {"text": words["withheld"], "word": True}
    if value is ABSENT:
        return {"text": words["not_set"], "word": True}
    if value is None:
        return {"text": words["none"], "word": True}
    if isinstance(value, bool):
        return {"text": words["yes"] if value else words["no"], "word": True}
    if isinstance(value, str):
        return {"text": value, "word": False}
    if name == "modelConfig" and isinstance(value, dict):
        return {"text": model_words(value, words, tiers), "word": True}
    # A checked catalog has nothing else; should one appear, it still shows what it holds.
    return {"text": json.dumps(value, ensure_ascii=False, sort_keys=True), "word": False}


def model_words(config: dict[str, Any], words: Mapping[str, str], tiers: bool) -> str:
    """A ``modelConfig`` as the role page names it: the tier (an alias as its tier, with the word
    written), ``best``, a model key as written, or the default; then its driver."""
    model = hint({"modelConfig": config}, tiers=tiers)
    kind, label, written = model["kind"], model["label"], model["written"]
    if kind == "alias":
        text = f"{label} ({words['model_written_as']} {written})"
    elif kind in ("tier", "best", "model"):
        text = label if kind != "model" else written
    else:
        text = words["model_default"]
    if model["driver"]:
        text = f"{text}, {words['model_driver']}: {model['driver']}"
    return str(text)


def version_cells(
    version: Version, language: str, words: Mapping[str, str], names: tuple[str, ...], tiers: bool
) -> dict[str, Cell]:
    """Each of ``names`` of one version in one language, as cells."""
    fields = version.content.get(language, {})
    return {
        name: cell(
            name,
            fields.get(name, ABSENT),
            words,
            tiers=tiers,
            hidden=withheld(version, language, name),
        )
        for name in names
    }


def before_after(
    old: Version, new: Version, language: str, name: str, words: Mapping[str, str], tiers: bool
) -> dict[str, list[dict[str, Any]]]:
    """A changed field's old and new values, each whole: two texts keep their word diff (the
    old with what was removed marked, the new with what was added); any other value is shown
    whole on each side, in words."""
    before = old.content.get(language, {}).get(name, ABSENT)
    after = new.content.get(language, {}).get(name, ABSENT)
    hidden = withheld(old, language, name), withheld(new, language, name)
    if isinstance(before, str) and isinstance(after, str) and not any(hidden):
        pieces = cached_word_diff(before, after)
        return {
            "before": [_piece(p.op, p.text) for p in pieces if p.op != "insert"],
            "after": [_piece(p.op, p.text) for p in pieces if p.op != "delete"],
        }
    shown = [
        cell(name, value, words, tiers=tiers, hidden=left_out)
        for value, left_out in zip((before, after), hidden, strict=True)
    ]
    return {
        "before": [_piece("delete", shown[0]["text"], shown[0]["word"])],
        "after": [_piece("insert", shown[1]["text"], shown[1]["word"])],
    }


def _piece(op: str, text: str, word: bool = False) -> dict[str, Any]:
    return {"op": op, "text": text, "word": word}


@functools.lru_cache(maxsize=2048)
def cached_word_diff(before: str, after: str) -> list[Piece]:
    """Diffs are the costly part of a version page: ``mkdocs serve`` renders every page again to
    see what an edit changed, and the texts of committed versions stay the same objects."""
    return word_diff(before, after)


def fold(pieces: list[dict[str, str]], words: Mapping[str, str]) -> list[dict[str, str]]:
    """Long unchanged runs between changes fold into a ``<details>``, with context kept."""
    parts: list[dict[str, str]] = []
    for position, piece in enumerate(pieces):
        if piece["op"] != "equal":
            parts.append(piece)
            continue
        lines = piece["text"].splitlines(keepends=True)
        head = CONTEXT_LINES if position > 0 else 0
        tail = CONTEXT_LINES if position < len(pieces) - 1 else 0
        if len(lines) <= head + tail + 2:
            parts.append(piece)
            continue
        middle = lines[head : len(lines) - tail]
        if head:
            parts.append({"op": "equal", "text": "".join(lines[:head])})
        parts.append(
            {
                "op": "fold",
                "text": "".join(middle),
                "summary": words["unchanged_lines"] % {"count": len(middle)},
            }
        )
        if tail:
            parts.append({"op": "equal", "text": "".join(lines[len(lines) - tail :])})
    return parts
