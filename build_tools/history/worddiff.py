"""What changed between two texts, word by word, keeping every space and line break.

Lines are matched first, so an edit in one paragraph of a long prompt costs only that paragraph;
changed lines are then compared as words, spaces and punctuation. Joining the unchanged and removed
pieces gives the old text back, the unchanged and added pieces the new one, exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

Op = Literal["equal", "delete", "insert"]

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
"""A word, a run of whitespace or one other character: what a reader sees as one change."""

MAX_WORD_PAIRS = 4_000_000
"""Changed blocks whose word counts multiply beyond this are shown as removed and added whole:
comparing them word by word would cost seconds and show little a reader could follow."""


@dataclass(frozen=True)
class Piece:
    op: Op
    text: str


def word_diff(old: str, new: str) -> list[Piece]:
    """The pieces that turn ``old`` into ``new``; removals come before additions at each change."""
    pieces: list[Piece] = []
    old_lines, new_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
    lines = SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for op, a1, a2, b1, b2 in lines.get_opcodes():
        before, after = "".join(old_lines[a1:a2]), "".join(new_lines[b1:b2])
        if op == "equal":
            pieces.append(Piece("equal", before))
        else:
            pieces += _words(before, after)
    return _tidy(pieces)


def _words(old: str, new: str) -> list[Piece]:
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    if len(a) * len(b) > MAX_WORD_PAIRS:
        return [Piece("delete", old), Piece("insert", new)]
    pieces = []
    for op, a1, a2, b1, b2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            pieces.append(Piece("equal", "".join(a[a1:a2])))
            continue
        pieces.append(Piece("delete", "".join(a[a1:a2])))
        pieces.append(Piece("insert", "".join(b[b1:b2])))
    return pieces


def _tidy(pieces: list[Piece]) -> list[Piece]:
    """Merge neighbours; a change, whitespace, a change read as one change (``a b`` -> ``c d``)."""
    groups: list[str | tuple[str, str]] = []  # unchanged text, or (removed, added)
    for piece in pieces:
        if not piece.text:
            continue
        last = groups[-1] if groups else None
        if piece.op == "equal":
            if isinstance(last, str):
                groups[-1] = last + piece.text
            else:
                groups.append(piece.text)
            continue
        before = groups[-2] if len(groups) > 1 else None
        if isinstance(last, str) and not last.strip() and isinstance(before, tuple):
            del groups[-2:]  # a change, whitespace, and now a change: one change
            last = (before[0] + last, before[1] + last)
            groups.append(last)
        if not isinstance(last, tuple):
            last = ("", "")
            groups.append(last)
        removed, added = last
        if piece.op == "delete":
            groups[-1] = (removed + piece.text, added)
        else:
            groups[-1] = (removed, added + piece.text)
    tidy: list[Piece] = []
    for group in groups:
        if isinstance(group, str):
            tidy.append(Piece("equal", group))
            continue
        removed, added = group
        if removed:
            tidy.append(Piece("delete", removed))
        if added:
            tidy.append(Piece("insert", added))
    return tidy


def side(pieces: list[Piece], which: Literal["old", "new"]) -> str:
    """One side of a diff as text: ``side(word_diff(a, b), "old") == a``."""
    skip = "insert" if which == "old" else "delete"
    return "".join(p.text for p in pieces if p.op != skip)
