"""Compose plain values from YAML parser events, applying the server's parser's rules as it goes.

:mod:`build_tools.sources.yaml_reader` gets the events (from libyaml, or ruamel's pure parser) and
turns the outcome into a :class:`~build_tools.sources.json_reader.Document`; this module is what
happens in between: the core schema's scalars, the tags the server honours, anchors and aliases
counted as it counts them (never expanded), keys and their duplicates, and where each value is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from build_tools.diagnostics import Diagnostic, Pointer
from build_tools.sources.javascript import integer, number_problem
from build_tools.sources.json_reader import MAX_DEPTH, TOO_DEEP, json_type
from build_tools.sources.yaml_core import (
    BOOL,
    FLOAT,
    INT,
    MAP,
    NULL,
    PLAIN,
    PLAIN_FIRST,
    SEQ,
    STR,
    TAG,
)

MAX_ALIAS_COUNT = 100
"""The server's ``maxAliasCount``: it refuses a file once an anchor's uses times the aliases
nested in it exceed this (the anchor itself counts as one use, so 99 aliases of a scalar pass)."""

_READER = "the server's YAML parser"
_EXPLICIT = {
    NULL: PLAIN[0][1],
    BOOL: PLAIN[1][1],
    INT: PLAIN[2][1],
    # `yaml` 2.x reads `!!float 1` as the string "1": its float tags want a point or an exponent.
    FLOAT: re.compile(
        r"(?:[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z"
    ),
}
"""What a value under an explicit core tag must look like for the server's parser to honour the
tag; anything else it reads as a string (with a warning), so rolecat refuses it."""
_KINDS = {NULL: "null", BOOL: "a boolean", INT: "an integer", FLOAT: "a float"}


_SURROGATE = re.compile("[\ud800-\udfff]")


def _short(tag: str) -> str:
    return "!!" + tag.removeprefix(TAG) if tag.startswith(TAG) else tag


Mark = Any
"""Where an event starts in the text (``line`` and ``column`` from 0): kept as the parser made
it, and turned into a :class:`Position` only when a position is asked for."""


@dataclass(eq=False)
class _Anchor:
    """An anchored node, and how the server's parser counts the aliases of it."""

    value: Any = None
    complete: bool = False
    uses: int = 1  # the server counts the anchor itself as the first use
    nested: int = -1  # its `aliasCount`: worked out at the first alias, as the server does
    scalars: bool = False  # holds a scalar of its own (not through an alias)
    targets: set[_Anchor] = field(default_factory=set)  # anchors aliased inside it
    weight: int = 0

    def alias_count(self) -> int:
        """``getAliasCount`` of the server's parser, from what composing recorded."""
        if self.nested < 0:
            self.nested = max(
                [1 if self.scalars else 0, *(t.uses * max(t.nested, 0) for t in self.targets)]
            )
        return self.nested


@dataclass(eq=False)
class _Open:
    """A sequence or mapping being composed."""

    value: list[Any] | dict[str, Any]
    pointer: Pointer
    position: Mark
    anchor: _Anchor | None
    key: Any = None
    key_pending: bool = True  # a mapping waits for a key (else for the value of ``key``)
    scalars: bool = False
    targets: set[_Anchor] = field(default_factory=set)
    weight: int = 2  # the brackets of the smallest writing of it


_BAD_KEY = object()


class Composer:
    """Turns parser events into plain values, checking what JSON and the server need."""

    def __init__(self, path: str, surrogates: bool) -> None:
        self.path = path
        self.surrogates = surrogates  # libyaml never gives one; the pure parser gives escaped ones
        self.values: dict[Pointer, Mark] = {}
        self.keys: dict[Pointer, Mark] = {}
        self.problems: list[Diagnostic] = []
        self.anchors: dict[str, _Anchor] = {}
        self.aliased = False
        self.stack: list[_Open] = []
        self.root: Any = None
        self.root_position: Mark = None
        self.root_weight = 0
        self.documents = 0
        self.stopped = False

    def problem(self, where: Mark, pointer: Pointer, message: str, rule: str) -> None:
        line, col = where.line + 1, where.column + 1
        self.problems.append(Diagnostic(self.path, line, col, message, rule, pointer))

    def compose(self, events: Iterator[Event]) -> None:
        """Compose the single document; stop at the first problem the server's parser stops at."""
        for event in events:
            if isinstance(event, ScalarEvent):
                self.scalar_node(event)
            elif isinstance(event, (SequenceStartEvent, MappingStartEvent)):
                self.open(event)
            elif isinstance(event, (SequenceEndEvent, MappingEndEvent)):
                self.close()
            elif isinstance(event, AliasEvent):
                self.alias(event)
            elif isinstance(event, DocumentStartEvent):
                self.documents += 1
                if self.documents > 1:
                    self.stop(
                        event.start_mark,
                        (),
                        "invalid YAML: a second document; a file holds one",
                        "yaml-syntax",
                    )
            if len(self.stack) > MAX_DEPTH:
                self.stop(event.start_mark, self.stack[-1].pointer, TOO_DEEP, "too-deep")
            if self.stopped:
                return

    def stop(self, where: Mark, pointer: Pointer, message: str, rule: str) -> None:
        self.problem(where, pointer, message, rule)
        self.stopped = True

    def scalar_node(self, event: ScalarEvent) -> None:
        pointer = self.child_pointer()
        where = event.start_mark
        self.values.setdefault(pointer, where)
        value = self.scalar(event, where, pointer)
        weight = max(len(value), 1) if isinstance(value, str) else 1
        anchor = self.define(event.anchor)
        if anchor is not None:
            anchor.value, anchor.complete, anchor.scalars, anchor.weight = value, True, True, weight
        merge = not event.style and event.tag is None and event.value == "<<"
        self.add(value, where, pointer, scalar=True, weight=weight, merge=merge)

    def child_pointer(self) -> Pointer:
        if not self.stack:
            return ()
        parent = self.stack[-1]
        if isinstance(parent.value, list):
            return (*parent.pointer, len(parent.value))
        if parent.key_pending:
            return (*parent.pointer, "<key>")
        return (*parent.pointer, parent.key if isinstance(parent.key, str) else "<key>")

    def define(self, name: str | None) -> _Anchor | None:
        if name is None:
            return None
        self.anchors[name] = anchor = _Anchor()  # a later anchor of the same name replaces it
        return anchor

    def open(self, event: SequenceStartEvent | MappingStartEvent) -> None:
        pointer = self.child_pointer()
        where = event.start_mark
        self.values.setdefault(pointer, where)
        wanted = SEQ if isinstance(event, SequenceStartEvent) else MAP
        tag = str(getattr(event.tag, "value", event.tag)) if event.tag is not None else None
        if tag not in (None, "!", wanted):
            self.problem(where, pointer, f"tag {_short(tag)} is not allowed here", "yaml-tag")
        value: list[Any] | dict[str, Any] = [] if wanted == SEQ else {}
        anchor = self.define(event.anchor)
        if anchor is not None:
            anchor.value = value
        self.stack.append(_Open(value, pointer, where, anchor))

    def close(self) -> None:
        done = self.stack.pop()
        anchor = done.anchor
        if anchor is not None:
            anchor.complete, anchor.scalars = True, done.scalars
            anchor.targets, anchor.weight = done.targets, done.weight
        self.add(
            done.value,
            done.position,
            done.pointer,
            scalar=done.scalars,
            targets=done.targets,
            weight=done.weight,
            collection=True,
        )

    def alias(self, event: AliasEvent) -> None:
        self.aliased = True
        where = event.start_mark
        pointer = self.child_pointer()
        self.values.setdefault(pointer, where)
        anchor = self.anchors.get(event.anchor)
        if anchor is None or not anchor.complete:
            message = (
                f"alias *{event.anchor} has no anchor &{event.anchor} before it"
                if anchor is None
                else f"alias *{event.anchor} refers to its own anchor"
            )
            self.problem(where, pointer, message, "yaml-alias")
            self.add(None, where, pointer)
            return
        anchor.uses += 1
        nested = anchor.alias_count()
        if anchor.uses * nested > MAX_ALIAS_COUNT:
            counted = f"{anchor.uses} uses" + (
                f" of {nested} aliased values each" if nested > 1 else ""
            )
            self.stop(
                where,
                pointer,
                f"too many aliases: &{event.anchor} and its {anchor.uses - 1} aliases make "
                f"{counted}; the server's YAML parser allows {MAX_ALIAS_COUNT} (maxAliasCount)",
                "yaml-alias",
            )
        # The same value again, as the server's parser gives it: counted, never expanded.
        self.add(anchor.value, where, pointer, targets={anchor}, weight=anchor.weight)

    def add(
        self,
        value: Any,
        where: Mark,
        pointer: Pointer,
        *,
        scalar: bool = False,
        targets: set[_Anchor] | None = None,
        weight: int = 1,
        collection: bool = False,
        merge: bool = False,
    ) -> None:
        """Put a finished value into the collection being composed (or make it the root)."""
        if not self.stack:
            self.root, self.root_position, self.root_weight = value, where, weight
            return
        parent = self.stack[-1]
        parent.scalars = parent.scalars or scalar
        if targets:
            parent.targets |= targets
        parent.weight += weight + 1  # and a separator
        if isinstance(parent.value, list):
            parent.value.append(value)
            return
        if parent.key_pending:
            parent.key_pending = False
            parent.key = self.key(value, where, parent, collection, merge)
            return
        parent.key_pending = True
        if parent.key is not _BAD_KEY:
            parent.value[parent.key] = value

    def key(self, key: Any, where: Mark, parent: _Open, collection: bool, merge: bool) -> Any:
        if merge:
            message = "merge keys (<<) are not part of YAML 1.2"
            self.problem(where, parent.pointer, message, "yaml-merge")
            return _BAD_KEY
        if collection or not isinstance(key, str):
            kind = json_type(key)
            self.problem(where, parent.pointer, f"keys must be strings, not {kind}", "yaml-key")
            return _BAD_KEY
        child = (*parent.pointer, key)
        if key in parent.value:
            self.problem(where, child, f'duplicate key "{key}"', "duplicate-key")
        self.keys.setdefault(child, where)
        return key

    def scalar(self, event: ScalarEvent, where: Mark, pointer: Pointer) -> Any:
        text: str = event.value
        tag = str(getattr(event.tag, "value", event.tag)) if event.tag is not None else None
        if tag is None and not event.style:  # plain: the core schema decides
            if text and text[0] not in PLAIN_FIRST:
                return text
            tag = next((t for t, pattern in PLAIN if pattern.match(text)), STR)
        elif tag is None or tag == "!":  # quoted, a block, or non-specific: a string
            tag = STR
        elif tag != STR and tag not in _EXPLICIT:
            self.problem(where, pointer, f"tag {_short(tag)} is not allowed here", "yaml-tag")
            return None
        elif tag != STR and not _EXPLICIT[tag].match(text):
            shown = json.dumps(text, ensure_ascii=False)
            self.problem(
                where,
                pointer,
                f"{_short(tag)} {shown} is read as a string by {_READER}, which does not take "
                f"{shown} for {_KINDS[tag]}; drop the tag or write {_KINDS[tag]}",
                "yaml-tag",
            )
            return None
        if tag == STR:
            return self.string(text, where, pointer)
        if tag == NULL:
            return None
        if tag == BOOL:
            return text.lower() == "true"
        return self.number(text, where, pointer, whole=tag == INT)

    def string(self, text: str, where: Mark, pointer: Pointer) -> str:
        if self.surrogates and _SURROGATE.search(text):
            # The pure parser gives escaped surrogates as they are: pairs are one character.
            text = text.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")
            if _SURROGATE.search(text):
                self.problem(
                    where,
                    pointer,
                    "a string contains a lone surrogate escape (\\uD800-\\uDFFF without its "
                    "pair); it is not valid Unicode",
                    "surrogate",
                )
        return text

    def number(self, text: str, where: Mark, pointer: Pointer, *, whole: bool) -> Any:
        value: int | float | None
        if whole:
            sign = -1 if text.startswith("-") else 1
            digits = text.lstrip("+-")
            base = {"0o": 8, "0x": 16}.get(digits[:2], 10)
            magnitude = integer(digits[2:] if base != 10 else digits, base)
            value = None if magnitude is None else sign * magnitude
        elif text.lower().lstrip("+-") in (".inf", ".nan"):  # JSON has no such numbers
            self.problem(
                where, pointer, f"{text} is not a finite number; JSON cannot carry it", "non-finite"
            )
            return None
        else:
            value = float(text)
        problem = number_problem(text, value, _READER)
        if problem is not None:
            self.problem(where, pointer, problem, "number-changed")
            return None
        return value
