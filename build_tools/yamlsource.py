"""Read YAML catalog files as the server's later generation does: safe YAML 1.2, core schema.

ruamel.yaml scans, parses and composes the node graph; the scalars are resolved here with the core
schema's exact rules, because ruamel's own resolver follows YAML 1.1 in places (``1_000``, ``0b1``,
dates, merge keys). Plain values then equal what the server gets, so a role whose ``autoStart: yes``
would reach the server as a string is a string here too, and the schema reports it.
"""

from __future__ import annotations

import math
import re
from typing import Any, cast

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.resolver import BaseResolver

from build_tools.diagnostics import Diagnostic, Pointer
from build_tools.sources import (
    MAX_SAFE_INTEGER,
    Document,
    Position,
    SourceError,
    decode_utf8,
    json_type,
)

MAX_ALIASES = 100
"""Alias uses allowed in one file: the server's YAML parser refuses more (billion laughs)."""

_TAG = "tag:yaml.org,2002:"
_NULL, _BOOL, _INT, _FLOAT, _STR = (f"{_TAG}{t}" for t in ("null", "bool", "int", "float", "str"))
_MAP, _SEQ = f"{_TAG}map", f"{_TAG}seq"

# YAML 1.2.2, 10.3.2: the core schema's tag resolution, and nothing else.
_CORE = [
    (_NULL, re.compile(r"^(?:null|Null|NULL|~|)$"), list("nN~")),
    (_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")),
    (_INT, re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), list("-+0123456789")),
    (
        _FLOAT,
        re.compile(
            r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
        ),
        list("-+.0123456789"),
    ),
]


try:
    from ruamel.yaml.cyaml import CParser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - ruamel.yaml.clib is a dependency; this is a fallback
    CParser = None


CORE_PATTERNS = tuple(pattern for _tag, pattern, _first in _CORE)
"""Plain scalars the core schema reads as something other than a string."""


class _CoreResolver(BaseResolver):
    """Tags plain scalars by the core schema only."""

    def __init__(self, version: Any = None, loader: Any = None, loadumper: Any = None) -> None:
        super().__init__(loadumper or loader)

    @property
    def processing_version(self) -> tuple[int, int]:
        return (1, 2)


for _tag, _pattern, _first in _CORE:
    _CoreResolver.add_implicit_resolver(_tag, _pattern, _first)
_CoreResolver.add_implicit_resolver(_NULL, re.compile(r"^$"), [""])


if CParser is not None:

    class _CoreLoader(CParser, _CoreResolver):  # type: ignore[misc]
        """libyaml's parser and composer, our core-schema resolver."""

        def __init__(self, text: str) -> None:
            CParser.__init__(self, text)
            self._parser = self._composer = self
            _CoreResolver.__init__(self, loadumper=self)


def _short(tag: str) -> str:
    return "!!" + tag.removeprefix(_TAG) if tag.startswith(_TAG) else tag


def _tag_of(node: Node) -> str:
    """ruamel gives tags as ``Tag`` objects; compare them as strings."""
    tag = node.tag
    return str(getattr(tag, "value", tag))


class _Walk:
    """Turns the composed node graph into plain values, checking what JSON and the server need."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.values: dict[Pointer, Position] = {}
        self.keys: dict[Pointer, Position] = {}
        self.problems: list[Diagnostic] = []
        self.aliases = 0
        self._seen: set[int] = set()
        self._open: set[int] = set()

    def problem(self, node: Node, pointer: Pointer, message: str, rule: str) -> None:
        mark = node.start_mark
        self.problems.append(
            Diagnostic(self.path, mark.line + 1, mark.column + 1, message, rule, pointer)
        )

    def value(self, node: Node, pointer: Pointer) -> Any:
        node.tag = _tag_of(node)
        mark = node.start_mark
        self.values.setdefault(pointer, Position(mark.line + 1, mark.column + 1))
        if id(node) in self._open:
            self.problem(node, pointer, "an alias refers to its own anchor", "yaml-alias")
            return None
        if id(node) in self._seen and not isinstance(node, ScalarNode):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                self.problem(node, pointer, f"more than {MAX_ALIASES} alias uses", "yaml-alias")
                return None
        self._seen.add(id(node))
        if isinstance(node, ScalarNode):
            return self.scalar(node, pointer)
        self._open.add(id(node))
        try:
            if isinstance(node, SequenceNode) and node.tag == _SEQ:
                return [self.value(item, (*pointer, i)) for i, item in enumerate(node.value)]
            if isinstance(node, MappingNode) and node.tag == _MAP:
                return self.mapping(node, pointer)
            self.problem(node, pointer, f"tag {_short(node.tag)} is not allowed here", "yaml-tag")
            return None
        finally:
            self._open.discard(id(node))

    def mapping(self, node: MappingNode, pointer: Pointer) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = self.value(key_node, (*pointer, "<key>"))
            if key_node.tag == _TAG + "merge" or (
                isinstance(key_node, ScalarNode) and key_node.value == "<<" and not key_node.style
            ):
                self.problem(
                    key_node, pointer, "merge keys (<<) are not part of YAML 1.2", "yaml-merge"
                )
                continue
            if not isinstance(key, str):
                self.problem(
                    key_node, pointer, f"keys must be strings, not {json_type(key)}", "yaml-key"
                )
                continue
            child = (*pointer, key)
            mark = key_node.start_mark
            if key in result:
                self.problem(key_node, child, f'duplicate key "{key}"', "duplicate-key")
            self.keys.setdefault(child, Position(mark.line + 1, mark.column + 1))
            result[key] = self.value(value_node, child)
        return result

    def scalar(self, node: ScalarNode, pointer: Pointer) -> Any:
        text, tag = node.value, str(node.tag)
        if tag == _STR:
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                self.problem(
                    node,
                    pointer,
                    "a string contains a lone surrogate escape (\\uD800-\\uDFFF without its pair); "
                    "it is not valid Unicode",
                    "surrogate",
                )
            return text
        if tag == _NULL and _CORE[0][1].match(text):
            return None
        if tag == _BOOL and _CORE[1][1].match(text):
            return text.lower() == "true"
        if tag == _INT and _CORE[2][1].match(text):
            value = (
                int(text[2:], 8)
                if text.startswith("0o")
                else int(text, 0 if text.startswith("0x") else 10)
            )
            if abs(value) > MAX_SAFE_INTEGER:
                self.problem(
                    node, pointer, f"{text} is beyond 2^53 and would be rounded", "unsafe-integer"
                )
            return value
        if tag == _FLOAT and _CORE[3][1].match(text):
            number = float(text.lower().replace(".inf", "inf").replace(".nan", "nan"))
            if not math.isfinite(number):
                self.problem(
                    node,
                    pointer,
                    f"{text} is not a finite number; JSON cannot carry it",
                    "non-finite",
                )
            return number
        self.problem(node, pointer, f"tag {_short(tag)} is not allowed here", "yaml-tag")
        return None


BREAKS_1_1 = re.compile("[\x85\u2028\u2029]")
"""YAML 1.1 parsers break lines at these, YAML 1.2 parsers do not: written raw, they are read
differently by different servers, so they must be written as escapes (``\\N``, ``\\L``, ``\\P``)."""


def _compose(text: str) -> Node | None:
    """The node graph, from libyaml where ruamel.yaml.clib is installed (50x faster)."""
    if CParser is not None:
        loader = _CoreLoader(text)
        try:
            return cast(Node | None, loader.get_single_node())
        finally:
            loader.dispose()
    yaml = YAML(typ="safe", pure=True)
    yaml.Resolver = _CoreResolver
    return cast(Node | None, yaml.compose(text))


def parse_yaml(path: str, raw: bytes) -> Document:
    """Parse one YAML file; raise :class:`SourceError` with every problem found."""
    text = decode_utf8(path, raw)
    directive = re.search(r"^%.*", text, re.MULTILINE)
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
    try:
        node = _compose(text)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = error.problem or error.context or "cannot be parsed"
        raise SourceError(
            [Diagnostic(path, line, col, f"invalid YAML: {problem}", "yaml-syntax")]
        ) from None
    except (YAMLError, RecursionError) as error:
        raise SourceError(
            [Diagnostic(path, 1, 1, f"invalid YAML: {error}", "yaml-syntax")]
        ) from None
    if node is None:
        raise SourceError(
            [Diagnostic(path, 1, 1, "the file is empty; it must hold a mapping", "top-level")]
        )
    walk = _Walk(path)
    data = walk.value(node, ())
    if walk.problems:
        raise SourceError(sorted(walk.problems))
    if not isinstance(data, dict):
        mark = node.start_mark
        raise SourceError(
            [
                Diagnostic(
                    path,
                    mark.line + 1,
                    mark.column + 1,
                    f"the top-level value must be a mapping, not {json_type(data)}",
                    "top-level",
                )
            ]
        )
    return Document(path, data, walk.values.get, walk.keys.get, raw)
