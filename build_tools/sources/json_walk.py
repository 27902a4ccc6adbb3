"""The second, positional pass over a JSON file the fast decoder has already accepted.

:func:`~build_tools.sources.json_reader.parse_json` reads with the standard library's C decoder,
which can only flag what ``JSON.parse`` would refuse or change (duplicate keys, ``NaN``, numbers
it would round, lone surrogates). This module walks the text once more, recording where each value
and key stands and placing each of those problems at its line and column.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from json.decoder import scanstring  # type: ignore[attr-defined]
from json.scanner import py_make_scanner  # type: ignore[attr-defined]
from typing import Any, cast

from build_tools.diagnostics import Pointer
from build_tools.sources.javascript import integer, number_problem

WHITESPACE = re.compile(r"[ \t\n\r]*")


class NonFinite:
    """Stands in for ``NaN``/``Infinity`` so the walk can place them."""

    def __init__(self, literal: str) -> None:
        self.literal = literal


class _Number:
    """Stands in for a number in the positional walk, which judges its literal."""

    def __init__(self, literal: str) -> None:
        self.literal = literal


_READER = "JSON.parse"


def json_number_problem(literal: str) -> str | None:
    """Why ``JSON.parse`` would not read this JSON number literal as written, if it would not."""
    if "." in literal or "e" in literal or "E" in literal:
        return number_problem(literal, float(literal), _READER)
    return number_problem(literal, integer(literal.lstrip("-")), _READER)


@dataclass
class Walk:
    """A positional pass over text the fast decoder already accepted."""

    text: str
    values: dict[Pointer, int] = field(default_factory=dict)
    keys: dict[Pointer, int] = field(default_factory=dict)
    problems: list[tuple[int, Pointer, str, str]] = field(default_factory=list)

    def run(self) -> None:
        decoder = json.JSONDecoder(parse_constant=NonFinite, parse_int=_Number, parse_float=_Number)
        self._scalar = py_make_scanner(decoder)
        self._value(0, ())

    def _skip(self, index: int) -> int:
        return WHITESPACE.match(self.text, index).end()  # type: ignore[union-attr]

    def _string(self, index: int, pointer: Pointer, what: str) -> tuple[str, int]:
        value, end = scanstring(self.text, index + 1)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            self.problems.append(
                (
                    index,
                    pointer,
                    f"{what} contains a lone surrogate escape (\\uD800-\\uDFFF without its pair); "
                    "it is not valid Unicode",
                    "surrogate",
                )
            )
        return value, end

    def _value(self, index: int, pointer: Pointer) -> int:
        text = self.text
        index = self._skip(index)
        self.values[pointer] = index
        char = text[index]
        if char == "{":
            index = self._skip(index + 1)
            if text[index] == "}":
                return index + 1
            seen: set[str] = set()
            while True:
                key, after = self._string(index, pointer, "a key")
                child = (*pointer, key)
                if key in seen:
                    self.problems.append(
                        (
                            index,
                            child,
                            f'duplicate key "{key}"; JSON.parse would silently keep only the last',
                            "duplicate-key",
                        )
                    )
                seen.add(key)
                self.keys[child] = index
                index = self._value(self._skip(after) + 1, child)
                index = self._skip(index)
                if text[index] == "}":
                    return index + 1
                index = self._skip(index + 1)
        if char == "[":
            index = self._skip(index + 1)
            if text[index] == "]":
                return index + 1
            position = 0
            while True:
                index = self._skip(self._value(index, (*pointer, position)))
                position += 1
                if text[index] == "]":
                    return index + 1
                index += 1
        if char == '"':
            return self._string(index, pointer, "a string")[1]
        value, end = cast(tuple[Any, int], self._scalar(text, index))
        literal = text[index:end]
        if isinstance(value, NonFinite):
            self.problems.append(
                (
                    index,
                    pointer,
                    f"{literal} is not valid JSON (JSON.parse rejects it)",
                    "non-finite",
                )
            )
        elif isinstance(value, _Number):
            problem = json_number_problem(literal)
            if problem is not None:
                self.problems.append((index, pointer, problem, "number-changed"))
        return end
