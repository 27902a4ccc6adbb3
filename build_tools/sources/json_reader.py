"""Read catalog files the way the server's ``JSON.parse`` reads them, keeping source positions.

The fast path is the standard library's C decoder. Anything it cannot tell us with a position
(duplicate keys, ``NaN``, numbers ``JSON.parse`` would change, lone surrogates) only raises a flag;
the file is then walked once more with positions so each problem gets its line and column.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from build_tools.diagnostics import Diagnostic, Pointer, Severity
from build_tools.sources.json_walk import WHITESPACE, NonFinite, Walk, json_number_problem

MAX_FILE_BYTES = 1_000_000
"""The server refuses any file larger than this (declared Content-Length or streamed count)."""

TIMEOUT_SECONDS = 10.0
"""The server gives up on a request (connect, headers and body together) after this long."""

MAX_DEPTH = 64
"""Arrays and objects nested deeper than this are refused before anything recurses into them.

A valid catalog nests five deep at most (the index's ``bundles[].roles[]`` entries); no reader,
schema or message of rolecat comes near Python's recursion limit, however deep a file nests."""

_BOM = b"\xef\xbb\xbf"
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
TOO_DEEP = f"nested more than {MAX_DEPTH} levels deep (a catalog needs 5 at most)"
_JSON_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
"""Strings (skipped whole, so brackets inside them do not count) and brackets."""


@dataclass(frozen=True)
class Position:
    line: int
    col: int


@dataclass
class Document:
    """One parsed source file: its data, and where each value and key stands in the text."""

    path: str
    data: Any
    _value_position: Callable[[Pointer], Position | None]
    _key_position: Callable[[Pointer], Position | None]
    raw: bytes = b""
    """The bytes the file was parsed from: published as they are when ``inlined`` is empty."""
    inlined: dict[str, int] = field(default_factory=dict)
    """Instruction files inlined into ``data``: catalog-relative path -> index in ``roles``."""

    def let_go_of_source(self) -> None:
        """Drop the bytes and what locates values in them, once a build has published them: it
        names no position after its check, and a large catalog's sources are its size again.
        A position asked for afterwards is the file's start."""
        self.raw = b""
        self._value_position = self._key_position = _nowhere

    def position(self, pointer: Pointer) -> Position:
        """Where the value at ``pointer`` starts; its nearest located ancestor when unknown."""
        for end in range(len(pointer), -1, -1):
            found = self._value_position(pointer[:end])
            if found is not None:
                return found
        return Position(1, 1)

    def key_position(self, pointer: Pointer) -> Position:
        """Where the key naming the value at ``pointer`` stands (for unknown or misspelt keys)."""
        return self._key_position(pointer) or self.position(pointer)

    def diagnostic(
        self,
        pointer: Pointer,
        message: str,
        rule: str,
        *,
        at_key: bool = False,
        severity: Severity = "error",
    ) -> Diagnostic:
        where = self.key_position(pointer) if at_key else self.position(pointer)
        return Diagnostic(self.path, where.line, where.col, message, rule, pointer, severity)


def _nowhere(_pointer: Pointer) -> Position | None:
    return None


class SourceError(Exception):
    """A file that cannot be read as the server would read it; carries the diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("\n".join(map(str, diagnostics)))
        self.diagnostics = diagnostics


class _LineIndex:
    """Turns character offsets into 1-based (line, column); built on first use only."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._starts: list[int] = []

    def position(self, offset: int) -> Position:
        if not self._starts:
            self._starts = [0] + [m.end() for m in re.finditer("\n", self._text)]
        line = bisect.bisect_right(self._starts, offset)
        return Position(line, offset - self._starts[line - 1] + 1)


def decode_utf8(path: str, raw: bytes, server_cap: bool = True) -> str:
    """Decode strictly: a BOM or invalid UTF-8 would be dropped or replaced by the server.

    ``server_cap=False`` for a file the server never reads (the lock), which its reader bounds.
    """
    if server_cap and len(raw) > MAX_FILE_BYTES:
        raise SourceError(
            [
                Diagnostic(
                    path,
                    0,
                    0,
                    f"file is {len(raw):,} bytes; the server refuses files over "
                    f"{MAX_FILE_BYTES:,} bytes",
                    "file-too-large",
                )
            ]
        )
    if raw.startswith(_BOM):
        raise SourceError(
            [Diagnostic(path, 1, 1, "file starts with a UTF-8 byte order mark; remove it", "bom")]
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        prefix = raw[: error.start]
        line = prefix.count(b"\n") + 1
        col = len(prefix[prefix.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise SourceError(
            [
                Diagnostic(
                    path,
                    line,
                    col,
                    f"invalid UTF-8 (byte 0x{raw[error.start]:02x}); the server would replace it "
                    "with U+FFFD",
                    "utf8",
                )
            ]
        ) from None


_PLAIN_MESSAGES = {
    "Extra data": "unexpected data after the JSON value",
    "Invalid control character at": "a raw control character inside a string; escape it (\\n, \\t)",
}


def parse_json(path: str, raw: bytes, server_cap: bool = True) -> Document:
    """Parse one JSON file; raise :class:`SourceError` with every problem ``JSON.parse`` has."""
    text = decode_utf8(path, raw, server_cap)

    def too_deep() -> SourceError | None:
        # The parser guards its own recursion, and walking what it parsed is cheaper than
        # counting brackets in the text: the text is scanned for the place only when needed.
        offset = _too_deep(text)
        if offset is None:
            return None
        where = _LineIndex(text).position(offset)
        return SourceError([Diagnostic(path, where.line, where.col, TOO_DEEP, "too-deep")])

    suspicious = False

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal suspicious
        result = dict(items)
        if len(result) != len(items):
            suspicious = True
        return result

    def constant(literal: str) -> NonFinite:
        nonlocal suspicious
        suspicious = True
        return NonFinite(literal)

    def number(literal: str) -> float:
        nonlocal suspicious
        value = float(literal)
        if json_number_problem(literal) is not None:
            suspicious = True
        return value

    def whole(literal: str) -> int | float:
        nonlocal suspicious
        if len(literal) <= 15:  # fewer than 16 digits: a double holds it exactly
            return int(literal)
        if json_number_problem(literal) is not None:
            suspicious = True
            return math.nan  # never used: the walk below reports it
        return int(literal)

    try:
        data = json.loads(
            text,
            object_pairs_hook=pairs,
            parse_constant=constant,
            parse_float=number,
            parse_int=whole,
        )
    except json.JSONDecodeError as error:
        message = _PLAIN_MESSAGES.get(error.msg, error.msg)
        raise too_deep() or SourceError(
            [Diagnostic(path, error.lineno, error.colno, f"invalid JSON: {message}", "json-syntax")]
        ) from None
    except RecursionError:  # nested deeper than the parser recurses: the scan finds where
        raise too_deep() or SourceError(
            [Diagnostic(path, 1, 1, "invalid JSON: nested too deeply", "too-deep")]
        ) from None
    if _nested_deeper(data, MAX_DEPTH):
        raise too_deep() or SourceError([Diagnostic(path, 1, 1, TOO_DEEP, "too-deep")])

    if suspicious or _SURROGATE_ESCAPE.search(raw):  # faster than a plain `in` test first
        positions = JsonPositions(raw, text)
        if positions.walk.problems:
            raise SourceError(
                [
                    Diagnostic(path, *_astuple(positions.at(offset)), message, rule, pointer)
                    for offset, pointer, message, rule in positions.walk.problems
                ]
            )
    if not isinstance(data, dict):
        start = WHITESPACE.match(text).end()  # type: ignore[union-attr]
        raise SourceError(
            [
                Diagnostic(
                    path,
                    *_astuple(_LineIndex(text).position(start)),
                    f"the top-level value must be an object, not {json_type(data)}",
                    "top-level",
                )
            ]
        )
    lazy = JsonPositions(raw)
    return Document(path, data, lazy.value, lazy.key, raw)


def _nested_deeper(value: Any, limit: int) -> bool:
    """Whether a parsed value nests arrays and objects deeper than ``limit``, without recursing."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if not isinstance(item, (dict, list)):
            continue  # a top-level scalar: its brackets are in a string
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        pending.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def _too_deep(text: str) -> int | None:
    """The offset in ``text`` of the first bracket nested deeper than :data:`MAX_DEPTH`, if any."""
    depth = 0
    for token in _JSON_TOKENS.finditer(text):
        char = token.group()[0]
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return token.start()
        elif char in "]}":
            depth -= 1
    return None


class JsonPositions:
    """Where each value and key of a JSON file stands, worked out on first use only.

    Most files never need a position, and keeping their decoded text for it would double the
    memory a large catalog takes: the text is decoded again from the bytes when asked.
    """

    def __init__(self, raw: bytes, text: str | None = None) -> None:
        self._raw = raw
        self._walk: Walk | None = None
        self._lines: _LineIndex | None = None
        if text is not None:
            self._start(text)

    def _start(self, text: str) -> None:
        self._walk = Walk(text)
        self._walk.run()
        self._lines = _LineIndex(text)

    @property
    def walk(self) -> Walk:
        if self._walk is None:
            self._start(self._raw.decode("utf-8"))
        assert self._walk is not None
        return self._walk

    def at(self, offset: int) -> Position:
        self.walk  # noqa: B018 - makes sure the line index exists
        assert self._lines is not None
        return self._lines.position(offset)

    def value(self, pointer: Pointer) -> Position | None:
        offset = self.walk.values.get(pointer)
        return None if offset is None else self.at(offset)

    def key(self, pointer: Pointer) -> Position | None:
        offset = self.walk.keys.get(pointer)
        return None if offset is None else self.at(offset)


def _astuple(position: Position) -> tuple[int, int]:
    return position.line, position.col


def strings(value: Any, pointer: Pointer = ()) -> Iterator[tuple[Pointer, str, bool]]:
    """Every string in a JSON value, keys included: ``(pointer, text, is_key)``, a key with the
    pointer of the value it names."""
    if isinstance(value, str):
        yield pointer, value, False
    elif isinstance(value, dict):
        for key, item in value.items():
            yield (*pointer, key), key, True
            yield from strings(item, (*pointer, key))
    elif isinstance(value, list):
        for position, item in enumerate(value):
            yield from strings(item, (*pointer, position))


def json_type(value: object) -> str:
    """The JSON name of a value's type, as messages use it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"
