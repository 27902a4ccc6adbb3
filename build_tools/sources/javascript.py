"""How the server's JavaScript reads what we publish: its regular expressions and its numbers.

Python and JavaScript disagree in small ways that matter at the boundary. ``$`` in Python matches
before a final newline, in JavaScript only at the very end, so ``re.match("^[a-z0-9-]+$", "en\\n")``
accepts what the server refuses; ``\\d``, ``\\s`` and ``.`` cover other characters. And Python reads
``9007199254740993`` exactly where ``JSON.parse`` rounds it. Every pattern and number rolecat
judges goes through here, so it is judged as the server will judge it.
"""

from __future__ import annotations

import math
import re
from functools import cache

_JS_SPACE = "\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
"""What ``\\s`` matches in JavaScript (ECMA-262 WhiteSpace and LineTerminator)."""

_JS_SPACE_CHARACTERS = (
    "\t\n\x0b\x0c\r \xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""The same characters, one by one, for ``str.strip``."""


def trim(text: str) -> str:
    """``text.trim()`` in JavaScript: the same characters as ``\\s`` (Python's ``str.strip``
    differs when given none: it strips U+001C to U+001F and keeps U+FEFF)."""
    return text.strip(_JS_SPACE_CHARACTERS)


def trim_start(text: str) -> str:
    """``text.trimStart()`` in JavaScript."""
    return text.lstrip(_JS_SPACE_CHARACTERS)


_OUTSIDE_CLASS = {
    "d": "[0-9]",
    "D": "[^0-9]",
    "w": "[A-Za-z0-9_]",
    "W": "[^A-Za-z0-9_]",
    "s": f"[{_JS_SPACE}]",
    "S": f"[^{_JS_SPACE}]",
}
_INSIDE_CLASS = {"d": "0-9", "w": "A-Za-z0-9_", "s": _JS_SPACE}
_LITERAL_ESCAPES = set("\\/^$.|?*+()[]{}-tnrfv")


@cache
def regex(source: str) -> re.Pattern[str]:
    """A Python pattern that matches exactly where JavaScript's ``new RegExp(source)`` does.

    Covers what JSON Schema patterns and our own identifiers use: anchors, classes, ranges,
    quantifiers, groups, alternation and the class escapes. Anything else (back-references,
    lookbehind, ``\\b``, ``\\p{…}``) raises ``NotImplementedError`` rather than being guessed at.
    """
    out: list[str] = []
    in_class = False
    position = 0
    while position < len(source):
        char = source[position]
        position += 1
        if char == "\\":
            if position >= len(source):
                raise NotImplementedError(f"a trailing backslash in {source!r}")
            escaped = source[position]
            position += 1
            table = _INSIDE_CLASS if in_class else _OUTSIDE_CLASS
            if escaped in table:
                out.append(table[escaped])
            elif escaped in _LITERAL_ESCAPES:
                out.append("\\" + escaped)
            else:
                raise NotImplementedError(f"\\{escaped} in {source!r}")
        elif in_class:
            in_class = char != "]"
            out.append(char)
        elif char == "[":
            if source.startswith(("]", "^]"), position):  # an empty class in JavaScript only
                raise NotImplementedError(f"an empty class in {source!r}")
            in_class = True
            out.append(char)
        elif char == "$":
            out.append(r"\Z")  # JavaScript's $ (without the m flag) is the very end only
        elif char == ".":
            out.append("[^\n\r\u2028\u2029]")
        elif char == "(" and source.startswith("?<", position):
            raise NotImplementedError(f"lookbehind or named groups in {source!r}")
        else:
            out.append(char)
    return re.compile("".join(out))


ID_SOURCE = "^[a-z0-9-]+$"
"""The server's test for bundle ids, languages and slugs, as JavaScript source."""

ID_PATTERN = regex(ID_SOURCE)


def is_id(value: object) -> bool:
    """Would the server build a URL from this bundle id, language or slug?"""
    return isinstance(value, str) and ID_PATTERN.match(value) is not None


MAX_DOUBLE_DIGITS = 309
"""Significant digits of the largest finite double (about 1.8e308). An integer literal with more
turns into Infinity; rolecat says so without converting it, however many digits it has."""


def integer(digits: str, base: int = 10) -> int | None:
    """The integer a literal's digits denote; ``None`` when there are too many for any double.

    Python 3.11 refuses to convert decimal strings of more than 4,300 digits (the conversion is
    quadratic); leading zeros, which YAML allows, do not count.
    """
    significant = digits.lstrip("0")
    if base == 10 and len(significant) > MAX_DOUBLE_DIGITS:
        return None
    return int(significant or "0", base)


def number_problem(literal: str, value: int | float | None, reader: str) -> str | None:
    """Why ``reader`` would not read ``literal`` as the number written; ``None`` when it would.

    ``value`` is Python's reading of the literal: exact for integers (``None`` for more digits
    than any double holds), the nearest double for the rest. JavaScript holds the nearest double.
    A number is read as written when that double is exactly it (``2^53`` is) or prints back as it
    (``0.1`` does); anything else (a rounded integer, ``1e-400`` turning into ``0``) would reach
    the server as another value than the one checked.
    """
    shown = (
        literal
        if len(literal) <= 40
        else f"{literal[:16]}…{literal[-8:]} ({len(literal):,} characters)"
    )
    double = _double(value)
    if double is None or double in (math.inf, -math.inf):
        return f"{shown} is too large: {reader} turns it into Infinity"
    if isinstance(value, int):
        if int(double) == value:
            return None
    else:
        from decimal import Decimal, InvalidOperation  # only for a literal with a fraction

        try:
            written = Decimal(literal)
        except InvalidOperation:  # not a decimal literal (hex, octal): integers handle those
            return None
        if written == Decimal(double) or written == Decimal(repr(double)):
            return None
    return f"{shown} is read by {reader} as {_show(double)}: it cannot hold this number exactly"


def _double(value: int | float | None) -> float | None:
    if value is None:
        return None
    try:
        return float(value)
    except OverflowError:
        return None


def _show(double: float) -> str:
    """A double as JavaScript prints it, near enough for a message (``1e+21``, ``0``, ``1e-7``)."""
    if double.is_integer() and abs(double) < 1e21:
        return str(int(double))
    return repr(double).replace("e-0", "e-")
