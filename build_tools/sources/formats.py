"""Write catalog values as JSON or YAML, deterministically, so they read back as the same values.

Used to publish the wire format a source was not written in, and by ``rolecat convert``. Published
YAML must read the same in every reader a consumer may use: the server's YAML 1.2 parser, and YAML
1.1 readers such as PyYAML, where ``no`` is false, ``0777`` is 511 and ``2001-12-14`` a date. So
every scalar that either version would read as anything but a string is quoted, numbers are written
in the form both read as numbers, and the result equals what ``JSON.parse`` gets from the ``.json``.
"""

from __future__ import annotations

import functools
import io
import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from build_tools.diagnostics import Pointer
from build_tools.sources.json_reader import Document, JsonPositions, Position, parse_json
from build_tools.sources.yaml_core import CORE_PATTERNS

Format = Literal["json", "yaml"]

EXTENSIONS: dict[Format, str] = {"json": ".json", "yaml": ".yaml"}


def dump_json(value: Any) -> bytes:
    """2-space indent, non-ASCII written raw, a final newline: how the catalog's JSON looks."""
    return (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


_RAW = "\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff"
"""What every reader takes raw in any style: YAML's printable characters (5.1) but the tab, the
line breaks YAML 1.1 and 1.2 read differently (``\\x85``, ``\\u2028``, ``\\u2029``) and the BOM."""
_NOT_RAW_ABOVE_CONTROLS = "\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff"
"""With the C0 controls, every character outside :data:`_RAW`: the patterns below are spelt as its
complement, since ``re`` compiles a negated class reaching ``U+10FFFF`` by walking each of its
code points (about 5 ms a pattern, at every start), and these few ranges at once; they match the
same characters (``tests/core/test_startup.py``). Even so each takes a millisecond to compile,
so they are compiled on first use (``re`` keeps them): a check writes no YAML."""
_NOT_RAW = f"[\x00-\x1f{_NOT_RAW_ABOVE_CONTROLS}]"
_NOT_RAW_IN_LINES = f"[\x00-\x09\x0b-\x1f{_NOT_RAW_ABOVE_CONTROLS}]"
_ESCAPED = f'[\x00-\x1f{_NOT_RAW_ABOVE_CONTROLS}"\\\\]'
_ESCAPES = {
    "\t": "\\t",
    "\n": "\\n",
    "\r": "\\r",
    '"': '\\"',
    "\\": "\\\\",
    "\x85": "\\N",
    "\u2028": "\\L",
    "\u2029": "\\P",
}

_PLAIN_FIRST = frozenset("-?:,[]{}#&*!|>'\"%@` ")
"""A plain scalar cannot start with an indicator (or a space)."""

_NOT_TEXT_IN_1_1 = r"""(?x)^(?:
      y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF
    | ~|null|Null|NULL
    | [-+]?0b[01_]+ | [-+]?0[0-7_]+ | [-+]?(?:0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+
    | [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?
    | [-+]?(?:[0-9][0-9_]*)?\.[0-9._]*(?:[eE][-+]?[0-9]+)?
    | [-+]?\.(?:inf|Inf|INF) | \.(?:nan|NaN|NAN)
    | [0-9]{4}-[0-9]{1,2}-[0-9]{1,2}
      (?:(?:[Tt]|[\ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?
         (?:[\ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?
    | <<|=
    )$"""
"""Plain scalars a YAML 1.1 reader takes as a boolean, null, integer (binary, octal, ``1_000``,
sexagesimal ``1:20``), float, timestamp, merge key or PyYAML's value key (the type repository's
patterns, with PyYAML's variants): a superset, since quoting a string never changes it."""

_LONGEST_KEY = 1000
"""An implicit key holds at most 1,024 characters (YAML 7.4.2); a longer one needs ``? ``."""


class _Unwritable(Exception):
    """A value this writer leaves to ruamel.yaml's emitter (a key too long for an implicit key)."""


def _raw(text: str, in_lines: bool = False) -> bool:
    """Whether every character of ``text`` reads the same in every reader when written raw."""
    if (text.replace("\n", "") if in_lines else text).isprintable():  # C speed, nearly always
        return True
    return re.search(_NOT_RAW_IN_LINES if in_lines else _NOT_RAW, text) is None


def double_quoted(text: str, raw: bool = False) -> str:
    """``text`` as a double-quoted scalar that YAML 1.1 and 1.2 readers read back the same (the
    exports' front matter uses it too). ``raw``: every character but the line breaks is known to
    stay raw, so three passes at C speed escape what is left, not a pattern's substitution."""
    if raw:
        text = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return '"' + text + '"'
    return '"' + re.sub(_ESCAPED, _escape, text) + '"'


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _ESCAPES:
        return _ESCAPES[char]
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02X}"
    return f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}"


def _one_line(text: str) -> str:
    """A scalar on one line: plain where no reader could take it for anything but this string,
    else single-quoted where its characters can stay raw, else double-quoted with escapes."""
    if not text or text[0] == " " or text[-1] == " " or not _raw(text):
        return double_quoted(text)
    if (
        text[0] not in _PLAIN_FIRST
        and text[-1] != ":"
        and ": " not in text
        and " #" not in text
        and not text.startswith(("---", "..."))
        and not (text[0] in _TYPED_FIRST and _typed(text))
    ):
        return text
    return "'" + text.replace("'", "''") + "'"


def _typed(text: str) -> bool:
    """Whether a YAML 1.1 or 1.2 reader takes this plain scalar for something but a string."""
    return bool(re.match(_NOT_TEXT_IN_1_1, text)) or any(p.match(text) for p in CORE_PATTERNS)


_TYPED_FIRST = frozenset("yYnNtTfFoO~-+.<=0123456789")
"""How every plain scalar :func:`_typed` finds starts: the rest need no pattern tried."""


def _text(text: str, indent: str) -> str:
    """A string value; multi-line text as a literal block whose lines start at ``indent``."""
    if "\n" not in text:
        return _one_line(text)
    raw = _raw(text, in_lines=True)
    if (
        raw
        and text[0] != " "
        and text[0] != "\n"
        and " \n" not in text
        and (text[-1] != " " or text.rstrip(" ")[-1] != "\n")
    ):
        # A line of spaces alone would read as an empty line, or set the block's indentation.
        # Clip the final line break, keep the empty lines after it, or strip where there is none.
        header = ("|+" if text.endswith("\n\n") else "|") if text[-1] == "\n" else "|-"
        body = text[:-1] if text[-1] == "\n" else text
        trail = ""
        if body[-1] == " ":  # only the last line may end in spaces
            stripped = body.rstrip(" ")
            body, trail = stripped, body[len(stripped) :]
        lines = indent + body.replace("\n", "\n" + indent)
        if "\n\n" in text:  # empty lines stay empty (no other line ends in a space)
            lines = (lines + "\n").replace(indent + "\n", "\n")[:-1]
        return f"{header}\n{lines}{trail}"
    return double_quoted(text, raw)


def _number(value: int | float) -> str:
    """Floats with a point before any exponent: YAML 1.1 reads ``1e+20`` as a string."""
    if isinstance(value, int):
        return str(value)
    text = repr(value)
    if "e" in text and "." not in text:
        text = text.replace("e", ".0e", 1)
    return text


def _scalar(value: Any, indent: str) -> str:
    if isinstance(value, str):
        return _text(value, indent)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return _number(value)
    raise TypeError(f"not a JSON value: {type(value).__name__}")


@functools.lru_cache(maxsize=1024)
def _key(key: str) -> str:
    """Keys repeat (every role has a ``slug``): each is worked out once."""
    if len(key) > _LONGEST_KEY:
        raise _Unwritable
    return _one_line(key) if "\n" not in key else double_quoted(key)


def _mapping(value: dict[str, Any], indent: str, out: list[str], first: str) -> None:
    """Each entry on its line; the first after ``first`` (a sequence's ``- ``), the rest at
    ``indent``."""
    lead = first
    inner = indent + "  "
    for key, item in value.items():
        out.append(lead + _key(key) + ":")
        lead = indent
        _nested(item, indent, inner, out)


def _sequence(value: list[Any], indent: str, out: list[str], first: str) -> None:
    lead = first
    inner = indent + "  "
    for item in value:
        if isinstance(item, dict) and item:
            _mapping(item, inner, out, lead + "- ")
        elif isinstance(item, list) and item:
            _sequence(item, inner, out, lead + "- ")
        else:
            out.append(lead + "- " + _flat(item, inner) + "\n")
        lead = indent


def _nested(item: Any, indent: str, inner: str, out: list[str]) -> None:
    """A mapping's value: a block below its key (a sequence at the key's own indentation, as
    libyaml writes it), or a scalar after it."""
    if isinstance(item, dict) and item:
        out.append("\n")
        _mapping(item, inner, out, inner)
    elif isinstance(item, list) and item:
        out.append("\n")
        _sequence(item, indent, out, indent)
    else:
        out.append(" " + _flat(item, inner) + "\n")


def _flat(value: Any, indent: str) -> str:
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return _scalar(value, indent)


def dump_yaml(value: Any) -> bytes:
    """Block-style YAML that reads back as ``value`` in YAML 1.2 and 1.1 readers alike.

    Written here rather than by an emitter: each string's style is chosen by a few operations at
    C speed over its text (a large catalog's YAML tree is tens of megabytes of prompts), and
    what is chosen is conservative: plain only where no reader could take the text for another
    type, literal blocks only for text whose every line reads back as itself. The property test
    in tests/core/test_published_yaml.py reads what it writes in four readers. A key too long
    for an implicit key goes to ruamel.yaml's emitter.
    """
    out: list[str] = []
    try:
        if isinstance(value, dict) and value:
            _mapping(value, "", out, "")
        elif isinstance(value, list) and value:
            _sequence(value, "", out, "")
        else:
            out.append(_flat(value, "  ") + "\n")
    except _Unwritable:
        return _ruamel_yaml(value)
    return "".join(out).encode("utf-8")


_ESCAPED_LEADS = (b"\x7f", b"\xc2", b"\xef")
"""The first byte of each character the YAML writer escapes longer than its UTF-8 (see
:data:`_RAW`); a superset: 0xC2 and 0xEF begin others too."""

_FLOAT_GROWTH = 26
"""The most a float's YAML can exceed its JSON literal: ``1e15`` is ``1000000000000000.0``, and
``repr`` writes at most 24 characters, two more where a point goes before the exponent."""


@dataclass(frozen=True)
class Shape:
    """What the size bounds need of a value's shape, walked once (without recursion)."""

    entries: int
    """Mapping entries and sequence items."""
    strings: int
    """String values (keys not included)."""
    floats: int
    deepest: int
    """The deepest collection's depth, the value's own 1."""
    long_key: bool
    """A key too long for the YAML writer's implicit keys."""
    layout: int
    """What the JSON writer's 2-space indent adds to the compact text: a line break and the
    indentation before each item and each non-empty collection's end, a space after each
    key's colon."""


def shape(value: Any) -> Shape:
    entries = strings = floats = layout = 0
    deepest = 1
    long_key = False
    if not isinstance(value, (dict, list)):
        return Shape(0, 0, int(isinstance(value, float)), 1, False, 0)
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        deepest = max(deepest, depth)
        is_dict = isinstance(item, dict)
        if is_dict and any(len(key) > _LONGEST_KEY for key in item):
            long_key = True
        if item:
            layout += len(item) * (2 * depth + 1 + is_dict) + 2 * depth - 1
        entries += len(item)
        for child in item.values() if is_dict else item:
            if isinstance(child, str):
                strings += 1
            elif isinstance(child, (dict, list)):
                pending.append((child, depth + 1))
            elif isinstance(child, float):
                floats += 1
    return Shape(entries, strings, floats, deepest, long_key, layout)


def compact_json(value: Any) -> bytes | None:
    """The value as compact JSON, for the size bounds: orjson's, some 20 times faster than the
    JSON writer; ``None`` where orjson cannot write it (an integer beyond 64 bits, a lone
    surrogate, nesting past 254)."""
    import orjson

    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        return None


def json_size_bound(json_text: bytes, value_shape: Shape) -> int:
    """At least the size of :func:`dump_json`'s output for a value, from any JSON text of it that
    writes each string at least as long (the compact text of :func:`compact_json` does: both
    escape only what JSON must, as short): the text, the indentation :attr:`Shape.layout`, the
    final line break, and for each float as much as ``repr`` can write beyond its shortest
    literal (``1e15`` is ``1000000000000000.0``). Held to the writer by the property test of
    tests/core/test_published_yaml.py."""
    return len(json_text) + value_shape.layout + 1 + _FLOAT_GROWTH * value_shape.floats


def yaml_size_bound(value: Any, json_text: bytes, value_shape: Shape | None = None) -> int | None:
    """At least the size of :func:`dump_yaml`'s output for ``value``, worked out from any JSON text
    of the same value (its source, or what a JSON writer wrote) without writing the YAML:
    ``None`` where a key is too long for this writer.

    ``rolecat check`` needs only to know a YAML file is under the server's cap, and writing
    every file of a large catalog would take most of its time. Against the shortest JSON text of
    the value, the YAML writes each string's characters in as many bytes or fewer but for a few
    (the property test of tests/core/test_published_yaml.py holds the bound to the writer):
    - each line break of a literal block costs its indentation (the JSON escape ``\\n``
      begins with a backslash, as do ``\\b`` and ``\\f``, written 2 bytes longer);
    - a single-quoted ``'`` is doubled;
    - DEL, the C1 controls and U+FEFF, U+FFFE, U+FFFF are escaped, 3 bytes longer at most
      (their UTF-8 starts with 0x7F, 0xC2 or 0xEF; escaped in the JSON, they are longer there);
    - a line per entry or item, indented; a literal block's header and first indentation;
    - a float written longer than its JSON literal.
    The text is searched for those bytes at C speed; the value is walked for its shape only.
    """
    if not isinstance(value, (dict, list)):
        return None  # a lone scalar: a line, written when asked
    found = value_shape or shape(value)
    if found.long_key:
        return None
    indent = 2 * found.deepest + 4
    special = sum(json_text.count(lead) for lead in _ESCAPED_LEADS if lead in json_text)
    return (
        len(json_text)
        + indent * (found.entries + found.strings + json_text.count(b"\\"))
        + 3 * found.strings
        + json_text.count(b"'")
        + 3 * special
        + _FLOAT_GROWTH * found.floats
        + 2
    )


def _ruamel_yaml(value: Any) -> bytes:
    from ruamel.yaml import YAML  # imported only when used: nearly never
    from ruamel.yaml.representer import SafeRepresenter

    class Representer(SafeRepresenter):
        """Quoting as :func:`_one_line` decides."""

        def represent_text(self, text: str) -> Any:
            written = _one_line(text)
            style = None if written == text else "'" if written[0] == "'" else '"'
            return self.represent_scalar("tag:yaml.org,2002:str", text, style=style)

        def represent_number(self, number: float) -> Any:
            return self.represent_scalar("tag:yaml.org,2002:float", _number(number))

    Representer.add_representer(str, Representer.represent_text)
    Representer.add_representer(float, Representer.represent_number)
    yaml = YAML(typ="safe", pure=True)
    yaml.Representer = Representer
    yaml.default_flow_style = False
    yaml.sort_base_mapping_type_on_output = False  # type: ignore[assignment]  # source order
    yaml.allow_unicode = True
    yaml.width = 1 << 30  # no folding
    yaml.indent(mapping=2, sequence=2, offset=0)
    out = io.StringIO()
    yaml.dump(value, out)
    return out.getvalue().encode("utf-8")


def format_of(path: str) -> Format:
    """The wire format a source file is written in (``.yml`` is YAML too)."""
    return "yaml" if path.endswith((".yaml", ".yml")) else "json"


def dump(value: Any, format: Format) -> bytes:
    return dump_json(value) if format == "json" else dump_yaml(value)


def located(path: str, data: Any, raw: bytes, inlined: dict[str, int]) -> Document:
    """A document of values read elsewhere (in a worker process) from ``raw``: each value is
    placed, on first asking, where the file's own reader places it."""
    if format_of(path) == "json":
        positions: JsonPositions | _Reparsed = JsonPositions(raw)
    else:
        positions = _Reparsed(path, raw)
    return Document(path, data, positions.value, positions.key, raw, inlined)


class _Reparsed:
    """The positions of a YAML file, from the file parsed again on first use."""

    def __init__(self, path: str, raw: bytes) -> None:
        self._path, self._raw = path, raw
        self._document: Document | None = None

    def _parsed(self) -> Document:
        if self._document is None:
            from build_tools.sources.yaml_reader import parse_yaml

            self._document = parse_yaml(self._path, self._raw)
        return self._document

    def value(self, pointer: Pointer) -> Position | None:
        return self._parsed()._value_position(pointer)

    def key(self, pointer: Pointer) -> Position | None:
        return self._parsed()._key_position(pointer)


def parse(path: str, raw: bytes) -> Any:
    """Read a JSON or YAML source by its extension (no instruction files inlined)."""
    if format_of(path) == "yaml":
        from build_tools.sources.yaml_reader import parse_yaml  # ruamel.yaml loads only for YAML

        return parse_yaml(path, raw).data
    return parse_json(path, raw).data
