"""Read YAML catalog files as the server's later generation does: safe YAML 1.2, core schema.

libyaml (through ruamel.yaml.clib) scans and parses; the values are composed here, from its events,
without recursion: libyaml's own composer recurses in C, and a file nested a few ten thousand deep
would overflow the stack and kill the process. Composing here also lets every rule of the server's
parser (``yaml`` 2.x, ``parse(text, {strict: true, maxAliasCount: 100})``) be applied as it reads:

- scalars resolve by the core schema's exact rules (ruamel's resolver follows YAML 1.1 in places:
  ``1_000``, ``0b1``, dates, merge keys), and explicit tags only where that parser honours them;
- aliases are counted as that parser counts them, never expanded: an alias is the same value
  again, so a small file cannot turn into gigabytes of work;
- nesting stops at :data:`~build_tools.sources.MAX_DEPTH`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from build_tools.diagnostics import Diagnostic, Pointer
from build_tools.sources.javascript import integer, number_problem
from build_tools.sources.json_reader import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    TOO_DEEP,
    Document,
    Position,
    SourceError,
    decode_utf8,
    json_type,
)
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

TAGS = ("!!str", "!!int", "!!float", "!!bool", "!!null", "!!seq", "!!map", "!")
"""Every tag a file may carry (manual/docs/catalog-format.md lists them): the core schema's
own, and the non-specific ``!``."""

BREAKS_1_1 = re.compile("[\x85\u2028\u2029]")
"""YAML 1.1 parsers break lines at these, YAML 1.2 parsers do not: written raw, they are read
differently by different servers, so they must be written as escapes (``\\N``, ``\\L``, ``\\P``)."""

_SURROGATE_ESCAPE = re.compile(r"\\(?:u|U0000)[dD][89a-fA-F]")
"""libyaml refuses every surrogate escape, even a valid pair such as ``"\\uD83D\\uDEA8"``."""
_SURROGATE = re.compile("[\ud800-\udfff]")
_DIRECTIVE = re.compile(r"^%.*", re.MULTILINE)

try:
    from ruamel.yaml.cyaml import CParser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - ruamel.yaml.clib is a dependency; this is a fallback
    CParser = None


def _pure(text: str) -> bool:
    """Whether ruamel's pure parser must read the text: libyaml is 50 times faster but refuses
    surrogate pairs written as escapes, which the server's parser accepts."""
    return CParser is None or _SURROGATE_ESCAPE.search(text) is not None


def _events(text: str, pure: bool) -> Iterator[Event]:
    if pure:
        try:
            yield from YAML(typ="safe", pure=True).parse(text)
        except (ValueError, OverflowError):  # its scanner takes \UFFFFFFFF to chr()
            raise YAMLError("an escape names a character that does not exist") from None
        return
    parser = CParser(text)
    try:
        while True:
            event = parser.get_event()
            yield event
            if isinstance(event, StreamEndEvent):
                return
    finally:
        parser.dispose()


def _short(tag: str) -> str:
    return "!!" + tag.removeprefix(TAG) if tag.startswith(TAG) else tag


Mark = Any
"""Where an event starts in the text (``line`` and ``column`` from 0): kept as the parser made
it, and turned into a :class:`Position` only when a position is asked for."""


def _position(mark: Mark | None) -> Position | None:
    return None if mark is None else Position(mark.line + 1, mark.column + 1)


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


class _Composer:
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


def parse_yaml(path: str, raw: bytes) -> Document:
    """Parse one YAML file; raise :class:`SourceError` with every problem found."""
    text = decode_utf8(path, raw)
    directive = _DIRECTIVE.search(text) if "%" in text else None
    if directive:
        line = text.count("\n", 0, directive.start()) + 1
        raise SourceError(
            [
                Diagnostic(
                    path,
                    line,
                    1,
                    f'directive "{directive.group().strip()}" is not allowed: files are read as '
                    "YAML 1.2 with the core schema",
                    "yaml-directive",
                )
            ]
        )
    ambiguous = BREAKS_1_1.search(text)
    if ambiguous:
        line = text.count("\n", 0, ambiguous.start()) + 1
        col = ambiguous.start() - text.rfind("\n", 0, ambiguous.start())
        raise SourceError(
            [
                Diagnostic(
                    path,
                    line,
                    col,
                    f"raw U+{ord(ambiguous.group()):04X} is a line break in YAML 1.1 but not in "
                    '1.2; write it as an escape in a double-quoted string ("\\N", "\\L", "\\P")',
                    "yaml-break",
                )
            ]
        )
    pure = _pure(text)
    composer = _Composer(path, surrogates=pure)
    try:
        composer.compose(_events(text, pure))
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = error.problem or error.context or "cannot be parsed"
        raise SourceError(
            [Diagnostic(path, line, col, f"invalid YAML: {problem}", "yaml-syntax")]
        ) from None
    except YAMLError as error:
        raise SourceError(
            [Diagnostic(path, 1, 1, f"invalid YAML: {error}", "yaml-syntax")]
        ) from None
    if composer.problems:
        raise SourceError(sorted(composer.problems))
    data = composer.root
    if composer.documents == 0:
        raise SourceError(
            [Diagnostic(path, 1, 1, "the file is empty; it must hold a mapping", "top-level")]
        )
    if not isinstance(data, dict):
        where = _position(composer.root_position) or Position(1, 1)
        raise SourceError(
            [
                Diagnostic(
                    path,
                    where.line,
                    where.col,
                    f"the top-level value must be a mapping, not {json_type(data)}",
                    "top-level",
                )
            ]
        )
    if composer.aliased and composer.root_weight > MAX_FILE_BYTES:
        raise SourceError(
            [
                Diagnostic(
                    path,
                    0,
                    0,
                    f"with its aliases expanded, as JSON has none, this file's values take more "
                    f"than {MAX_FILE_BYTES:,} bytes, which the server refuses; use fewer aliases",
                    "yaml-alias",
                )
            ]
        )
    values, keys = composer.values, composer.keys
    return Document(
        path, data, lambda p: _position(values.get(p)), lambda p: _position(keys.get(p)), raw
    )
