"""Editing a catalog source in its own text, for the scaffolds of :mod:`build_tools.cli.scaffold`.

The scaffolds decide what to add; this module adds it to a JSON or a YAML file without rewriting
what is there, and refuses (:class:`ScaffoldError`, nothing written) when the edited text would
not read back as exactly the intended values. The error lives here, below the scaffolds, because
an edit is the first thing that raises it.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from build_tools.diagnostics import Diagnostic, Pointer
from build_tools.sources.files import describe, read_bounded
from build_tools.sources.formats import dump_yaml, format_of, parse
from build_tools.sources.json_reader import MAX_FILE_BYTES, SourceError
from build_tools.sources.yaml_core import CORE_PATTERNS


class ScaffoldError(Exception):
    """The catalog cannot take this change; nothing was written."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.diagnostics = diagnostics or []


def open_source(root: Path, path: str) -> Source:
    try:  # read again as the check read it: it may have changed into anything since
        raw = read_bounded(root / path, MAX_FILE_BYTES)
    except OSError as error:
        raise ScaffoldError(f"{path}: {describe(error)}") from None
    return (_YamlSource if format_of(path) == "yaml" else _JsonSource)(path, raw)


def _at(data: Any, pointer: Pointer) -> Any:
    for segment in pointer:
        data = data[segment]
    return data


class Source:
    """A source file's text, the edits to it, and the values it must hold once they are made."""

    def __init__(self, path: str, raw: bytes) -> None:
        self.path = path
        self.text = raw.decode("utf-8")
        # A copy without shared parts: the YAML reader gives an alias the anchor's own value, and
        # an edit through one must not show up at the other.
        self.expected = json.loads(json.dumps(parse(path, raw)))
        self.edits: list[tuple[int, int, str]] = []
        self.newline = "\r\n" if "\r\n" in self.text else "\n"

    def append(self, pointer: Pointer, value: Any) -> None:
        """Add ``value`` at the end of the array at ``pointer``."""
        _at(self.expected, pointer).append(copy.deepcopy(value))
        self._append(pointer, value)

    def add_member(self, pointer: Pointer, key: str, value: Any) -> None:
        """Add ``key: value`` at the end of the object at ``pointer``."""
        _at(self.expected, pointer)[key] = copy.deepcopy(value)
        self._add_member(pointer, key, value)

    def replace(self, pointer: Pointer, value: int | float) -> None:
        """Write another number in place of the one at ``pointer``."""
        _at(self.expected, pointer[:-1])[pointer[-1]] = value
        self._replace(pointer, value)

    def result(self) -> bytes:
        """The edited bytes, refused unless they read back as exactly the intended values."""
        text = self.text
        # From the end, so each edit's offsets still hold; edits at one offset keep their order.
        ordered = sorted(enumerate(self.edits), key=lambda e: (e[1][0], e[0]), reverse=True)
        for _, (start, end, new) in ordered:
            text = text[:start] + new.replace("\n", self.newline) + text[end:]
        raw = text.encode("utf-8")
        try:
            found = parse(self.path, raw)
        except SourceError:
            found = None
        if json.dumps(found) != json.dumps(self.expected):
            raise ScaffoldError(
                f"{self.path}: cannot add to this file without rewriting what is there; add the "
                "change by hand (the manual's author's guide: By hand)"
            )
        return raw

    def _append(self, pointer: Pointer, value: Any) -> None:
        raise NotImplementedError

    def _add_member(self, pointer: Pointer, key: str, value: Any) -> None:
        raise NotImplementedError

    def _replace(self, pointer: Pointer, value: int | float) -> None:
        raise NotImplementedError


_DECODER = json.JSONDecoder()
_JSON_SPACE = re.compile(r"[ \t\n\r]*")
_INDENT = re.compile(r"[ \t]*")


@dataclass(frozen=True)
class _Child:
    """An element of a JSON array or a member of an object: where it begins and ends."""

    key: str | None
    begin: int  # its key, for a member
    start: int  # its value
    end: int


class _JsonSource(Source):
    """JSON edited as text: the file's own indentation, inline arrays stay inline."""

    def __init__(self, path: str, raw: bytes) -> None:
        super().__init__(path, raw)
        found = re.search(r"\n([ \t]+)\S", self.text)
        self.unit = found.group(1) if found else None
        self.ascii = "\\u" in self.text and not re.search(r"[^\x00-\x7f]", self.text)

    def _skip(self, index: int) -> int:
        return _JSON_SPACE.match(self.text, index).end()  # type: ignore[union-attr]

    def _children(self, start: int) -> tuple[list[_Child], int]:
        """The members of the array or object at ``start``, and where its closing bracket is."""
        text = self.text
        is_object = text[start] == "{"
        index = self._skip(start + 1)
        children: list[_Child] = []
        if text[index] in "]}":
            return children, index
        while True:
            begin, key = index, None
            if is_object:
                key, after = scanstring(text, index + 1)
                index = self._skip(self._skip(after) + 1)
            end = _DECODER.raw_decode(text, index)[1]
            children.append(_Child(key, begin, index, end))
            index = self._skip(end)
            if text[index] != ",":
                return children, index
            index = self._skip(index + 1)

    def _span(self, pointer: Pointer) -> tuple[int, int]:
        start = self._skip(0)
        end = _DECODER.raw_decode(self.text, start)[1]
        for segment in pointer:
            children, _close = self._children(start)
            if isinstance(segment, int):
                child = children[segment]
            else:
                child = [c for c in children if c.key == segment][-1]
            start, end = child.start, child.end
        return start, end

    def _indent_of_line(self, offset: int) -> str:
        return _INDENT.match(self.text, self.text.rfind("\n", 0, offset) + 1).group()  # type: ignore[union-attr]

    def _dump(self, value: Any, indent: str | None) -> str:
        if indent is None:
            return json.dumps(value, ensure_ascii=self.ascii, separators=(", ", ": "))
        dumped = json.dumps(value, ensure_ascii=self.ascii, indent=self.unit)
        return dumped.replace("\n", "\n" + indent)

    def _insert(self, pointer: Pointer, key: str | None, value: Any) -> None:
        def member(indent: str | None) -> str:
            prefix = "" if key is None else json.dumps(key, ensure_ascii=self.ascii) + ": "
            return prefix + self._dump(value, indent)

        text = self.text
        start, _end = self._span(pointer)
        children, close = self._children(start)
        if children:
            last = children[-1]
            before = children[-2].end if len(children) > 1 else start
            if "\n" not in text[before : last.begin]:  # on the line of the one before: inline
                self.edits.append((last.end, last.end, ", " + member(None)))
                return
            line = text[text.rfind("\n", 0, last.begin) + 1 : last.begin]
            indent = line if not line.strip() else self._indent_of_line(start) + (self.unit or "")
            self.edits.append((last.end, last.end, ",\n" + indent + member(indent)))
        elif self.unit is None:  # a file on one line
            self.edits.append((start + 1, close, member(None)))
        else:
            outer = self._indent_of_line(start)
            inner = outer + self.unit
            self.edits.append((start + 1, close, f"\n{inner}{member(inner)}\n{outer}"))

    def _append(self, pointer: Pointer, value: Any) -> None:
        self._insert(pointer, None, value)

    def _add_member(self, pointer: Pointer, key: str, value: Any) -> None:
        self._insert(pointer, key, value)

    def _replace(self, pointer: Pointer, value: int | float) -> None:
        start, end = self._span(pointer)
        self.edits.append((start, end, json.dumps(value)))


_PLAIN = re.compile(r"[a-z][a-z0-9-]*")


class _YamlSource(Source):
    """YAML edited as text: new block items take the column of the items beside them."""

    def __init__(self, path: str, raw: bytes) -> None:
        super().__init__(path, raw)
        # The pure-Python composer: its marks count characters of this very text.
        self.root: Node = YAML(typ="safe", pure=True).compose(self.text)

    def _node(self, pointer: Pointer) -> tuple[Node, Node | None, Node | None]:
        """The node at ``pointer``, the key naming it and the collection holding it."""
        node, key, parent = self.root, None, None
        for segment in pointer:
            parent = node
            if isinstance(node, MappingNode):
                key, node = [(k, v) for k, v in node.value if k.value == segment][-1]
            else:
                key, node = None, node.value[segment]
        return node, key, parent

    @staticmethod
    def _end(node: Node) -> int:
        """Where the text of a node ends: for a block collection, its last scalar's end."""
        key: Node | None = None
        while isinstance(node, (MappingNode, SequenceNode)) and not node.flow_style and node.value:
            last = node.value[-1]
            key, node = last if isinstance(node, MappingNode) else (None, last)
        if isinstance(node, ScalarNode) and node.value == "" and not node.style and key is not None:
            return int(key.end_mark.index)  # `key:` with nothing after it: its line
        return int(node.end_mark.index)

    def _next_line(self, offset: int) -> tuple[int, str]:
        """Where the line after ``offset`` begins, and a line break to add if the file has none."""
        if offset == 0 or self.text[offset - 1] == "\n":
            return offset, ""
        found = self.text.find("\n", offset)
        return (len(self.text), "\n") if found == -1 else (found + 1, "")

    @staticmethod
    def _place(dumped: bytes, column: int) -> str:
        """YAML our writer dumped, moved as a whole so its first line starts at ``column``."""
        lines = dumped.decode("utf-8").splitlines()
        shift = column - (len(lines[0]) - len(lines[0].lstrip(" ")))
        moved = [
            line if not line else " " * shift + line if shift >= 0 else line[-shift:]
            for line in lines
        ]
        return "\n".join(moved) + "\n"

    @staticmethod
    def _flow(value: Any, like: Node | None = None) -> str:
        """A flow value, quoted the way its neighbour ``like`` is, where that is safe."""
        plain = (
            isinstance(value, str)
            and _PLAIN.fullmatch(value) is not None
            and not any(pattern.match(value) for pattern in CORE_PATTERNS)
        )
        style = like.style if isinstance(like, ScalarNode) else '"'
        if plain and style is None:
            return str(value)
        if plain and style == "'":
            return f"'{value}'"
        return json.dumps(value, ensure_ascii=False)

    def _block(self, after: Node, dumped: bytes, column: int) -> None:
        offset, lead = self._next_line(self._end(after))
        self.edits.append((offset, offset, lead + self._place(dumped, column)))

    def _append(self, pointer: Pointer, value: Any) -> None:
        node, key, parent = self._node(pointer)
        assert isinstance(node, SequenceNode)
        if node.value and not node.flow_style:
            self._block(node, dump_yaml([value]), node.start_mark.column)
        elif node.value:
            at = node.value[-1].end_mark.index
            self.edits.append((at, at, ", " + self._flow(value, node.value[-1])))
        elif key is not None and isinstance(parent, MappingNode) and not parent.flow_style:
            # `roles: []` under a block mapping becomes a block sequence under its key.
            self.edits.append((key.end_mark.index, node.end_mark.index, ":"))
            offset, lead = self._next_line(node.end_mark.index)
            column = key.start_mark.column + 2
            placed = self._place(dump_yaml([value]), column)
            self.edits.append((offset, offset, lead + placed))
        else:
            inside = (node.start_mark.index + 1, node.end_mark.index - 1)
            self.edits.append((*inside, self._flow(value)))

    def _add_member(self, pointer: Pointer, key: str, value: Any) -> None:
        node, _key, _parent = self._node(pointer)
        assert isinstance(node, MappingNode)
        if node.value and not node.flow_style:
            column = node.value[0][0].start_mark.column
            self._block(node, dump_yaml({key: value}), column)
        elif node.value:
            last_key, last_value = node.value[-1]
            member = f"{self._flow(key, last_key)}: {self._flow(value)}"
            at = last_value.end_mark.index
            self.edits.append((at, at, ", " + member))
        else:
            inside = (node.start_mark.index + 1, node.end_mark.index - 1)
            self.edits.append((*inside, f"{self._flow(key)}: {self._flow(value)}"))

    def _replace(self, pointer: Pointer, value: int | float) -> None:
        node, _key, _parent = self._node(pointer)
        self.edits.append((node.start_mark.index, node.end_mark.index, json.dumps(value)))
