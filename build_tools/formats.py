"""Write catalog values as JSON or YAML, deterministically, so they read back as the same values.

Used to publish the wire format a source was not written in, and by ``rolecat convert``. Published
YAML must read the same in every reader a consumer may use: the server's YAML 1.2 parser, and YAML
1.1 readers such as PyYAML, where ``no`` is false, ``0777`` is 511 and ``2001-12-14`` a date. So
every scalar that either version would read as anything but a string is quoted, numbers are written
in the form both read as numbers, and the result equals what ``JSON.parse`` gets from the ``.json``.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any, Literal

from ruamel.yaml import YAML
from ruamel.yaml.representer import SafeRepresenter

from build_tools.sources import parse_json
from build_tools.yamlsource import BREAKS_1_1, CORE_PATTERNS, parse_yaml

Format = Literal["json", "yaml"]

EXTENSIONS: dict[Format, str] = {"json": ".json", "yaml": ".yaml"}


def dump_json(value: Any) -> bytes:
    """2-space indent, non-ASCII written raw, a final newline: how the catalog's JSON looks."""
    return (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


_NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters YAML cannot hold raw (its c-printable set, 5.1), written escaped."""


_BLOCK_UNSAFE = re.compile(r"\A\s|^\t|\r", re.MULTILINE)
"""A literal block guesses its indentation from the first line, takes no tab as indentation and
turns carriage returns into plain line breaks."""

_NOT_TEXT_IN_1_1 = re.compile(
    r"""^(?:
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
    )$""",
    re.VERBOSE,
)
"""Plain scalars a YAML 1.1 reader takes as a boolean, null, integer (binary, octal, ``1_000``,
sexagesimal ``1:20``), float, timestamp, merge key or PyYAML's value key (the type repository's
patterns, with PyYAML's variants): a superset, since quoting a string never changes it."""


class _Representer(SafeRepresenter):
    """Multi-line text as literal blocks; text any YAML version would read as another type quoted.

    The emitter falls back from a literal block to a quoted string by itself wherever a block
    cannot hold the text (trailing spaces, carriage returns).
    """

    def represent_text(self, text: str) -> Any:
        if BREAKS_1_1.search(text) or _NOT_PRINTABLE.search(text):
            style = '"'  # escaped: YAML has no raw form for them, or versions read them differently
        elif "\n" in text and not _BLOCK_UNSAFE.search(text):
            style = "|"
        elif _NOT_TEXT_IN_1_1.match(text) or any(pattern.match(text) for pattern in CORE_PATTERNS):
            style = '"'
        else:
            style = None
        return self.represent_scalar("tag:yaml.org,2002:str", text, style=style)

    def represent_number(self, number: float) -> Any:
        """Floats with a point before any exponent: YAML 1.1 reads ``1e+20`` as a string."""
        text = repr(number).lower()
        if "e" in text and "." not in text:
            text = text.replace("e", ".0e", 1)
        return self.represent_scalar("tag:yaml.org,2002:float", text)


_Representer.add_representer(str, _Representer.represent_text)
_Representer.add_representer(float, _Representer.represent_number)


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_STAND_INS = range(0xE000, 0xF900)
"""The BMP's private-use area, where stand-ins for characters beyond the BMP are taken from."""


def _texts(value: Any) -> list[str]:
    """Every key and string in ``value``."""
    found, pending = [], [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return found


def _has_astral(text: str) -> bool:
    """Beyond the BMP a character takes two UTF-16 units; 20x faster than a regex search."""
    return not text.isascii() and len(text.encode("utf-16-le", "surrogatepass")) != 2 * len(text)


def _stand_ins(value: Any) -> dict[str, str] | None:
    """A private-use character absent from ``value`` for each character beyond the BMP in it.

    libyaml's emitter escapes characters beyond the BMP (``\\U0001F50E``) and quotes any text
    holding one, even a multi-line prompt. A BMP stand-in it writes raw, in whatever style the
    text calls for, and the stand-in is then swapped back: a style chosen for a printable
    non-space character holds any other. ``None`` when the value has more than the stand-ins.
    """
    texts = _texts(value)
    astral = sorted({c for text in texts if _has_astral(text) for c in _ASTRAL.findall(text)})
    if not astral:
        return {}
    joined = "".join(texts)
    free = (c for c in map(chr, _STAND_INS) if c not in joined)
    mapping = dict(zip(astral, free, strict=False))
    return mapping if len(mapping) == len(astral) else None


def _replaced(value: Any, mapping: dict[str, str]) -> Any:
    if isinstance(value, str):
        return _ASTRAL.sub(lambda m: mapping[m.group()], value) if _has_astral(value) else value
    if isinstance(value, dict):
        return {_replaced(k, mapping): _replaced(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [_replaced(item, mapping) for item in value]
    return value


def _yaml(pure: bool) -> YAML:
    yaml = YAML(typ="safe", pure=pure)
    yaml.Representer = _Representer
    yaml.default_flow_style = False
    yaml.sort_base_mapping_type_on_output = False  # type: ignore[assignment]  # source order
    yaml.allow_unicode = True
    yaml.width = 4096  # long lines stay as they are instead of being folded
    yaml.indent(mapping=2, sequence=2, offset=0)  # what libyaml writes anyway
    return yaml


def dump_yaml(value: Any) -> bytes:
    """Block-style YAML that reads back as ``value`` in YAML 1.2 and 1.1 readers alike.

    libyaml writes it (fast enough to publish large catalogs), with stand-ins for the characters
    beyond the BMP; ruamel.yaml's own emitter, which writes those raw itself, only where a value
    uses up every stand-in.
    """
    stand_ins = _stand_ins(value)
    if stand_ins:
        value = _replaced(value, stand_ins)
    out = io.StringIO()
    _yaml(pure=stand_ins is None).dump(value, out)
    text = out.getvalue()
    for astral, stand_in in (stand_ins or {}).items():
        text = text.replace(stand_in, astral)
    return text.encode("utf-8")


def format_of(path: str) -> Format:
    """The wire format a source file is written in (``.yml`` is YAML too)."""
    return "yaml" if path.endswith((".yaml", ".yml")) else "json"


def dump(value: Any, format: Format) -> bytes:
    return dump_json(value) if format == "json" else dump_yaml(value)


def parse(path: str, raw: bytes) -> Any:
    """Read a JSON or YAML source by its extension (no instruction files inlined)."""
    return (parse_yaml if format_of(path) == "yaml" else parse_json)(path, raw).data
