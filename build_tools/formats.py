"""Write catalog values as JSON or YAML, deterministically, so they read back as the same values.

Used to publish the wire format a source was not written in, and by ``rolecat convert``.
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


class _Representer(SafeRepresenter):
    """Multi-line text as literal blocks; text the core schema would read as another type quoted.

    Quoting by the reader's own patterns keeps the meaning; the emitter falls back from a literal
    block to a quoted string by itself wherever a block cannot hold the text (trailing spaces,
    carriage returns).
    """

    def represent_text(self, text: str) -> Any:
        if BREAKS_1_1.search(text) or _NOT_PRINTABLE.search(text):
            style = '"'  # escaped: YAML has no raw form for them, or versions read them differently
        elif "\n" in text and not _BLOCK_UNSAFE.search(text):
            style = "|"
        elif any(pattern.match(text) for pattern in CORE_PATTERNS):
            style = '"'
        else:
            style = None
        return self.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Representer.add_representer(str, _Representer.represent_text)


def dump_yaml(value: Any, *, readable: bool = False) -> bytes:
    """Block-style YAML 1.2 that reads back as ``value``.

    libyaml writes it (fast enough to publish large catalogs); it escapes characters outside the
    Basic Multilingual Plane, such as emoji, and quotes text holding them. ``readable`` uses
    ruamel.yaml's own emitter, which writes them as they are, for files people edit.
    """
    yaml = YAML(typ="safe", pure=readable)
    yaml.Representer = _Representer
    yaml.default_flow_style = False
    yaml.sort_base_mapping_type_on_output = False  # type: ignore[assignment]  # source order
    yaml.allow_unicode = True
    yaml.width = 4096  # long lines stay as they are instead of being folded
    yaml.indent(mapping=2, sequence=4, offset=2)
    out = io.StringIO()
    yaml.dump(value, out)
    return out.getvalue().encode("utf-8")


def format_of(path: str) -> Format:
    """The wire format a source file is written in (``.yml`` is YAML too)."""
    return "yaml" if path.endswith((".yaml", ".yml")) else "json"


def dump(value: Any, format: Format, *, readable: bool = False) -> bytes:
    return dump_json(value) if format == "json" else dump_yaml(value, readable=readable)


def parse(path: str, raw: bytes) -> Any:
    """Read a JSON or YAML source by its extension (no instruction files inlined)."""
    return (parse_yaml if format_of(path) == "yaml" else parse_json)(path, raw).data
