"""Write catalog values as JSON or YAML, deterministically, so they read back as the same values.

Used to publish the wire format a source was not written in, and by ``rolecat convert``.
"""

from __future__ import annotations

import io
import json
from typing import Any, Literal

from ruamel.yaml import YAML
from ruamel.yaml.scalarstring import LiteralScalarString

from build_tools.sources import parse_json
from build_tools.yamlsource import parse_yaml

Format = Literal["json", "yaml"]

EXTENSIONS: dict[Format, str] = {"json": ".json", "yaml": ".yaml"}


def dump_json(value: Any) -> bytes:
    """2-space indent, non-ASCII written raw, a final newline: how the catalog's JSON looks."""
    return (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def dump_yaml(value: Any) -> bytes:
    """Block style with literal block scalars for multi-line text, read back as the same value.

    Every dump is parsed again with the YAML 1.2 core-schema reader; should the emitter ever choose
    a form that reads differently, the value is written with every string double-quoted instead.
    """
    for quoted in (False, True):
        text = _emit(_literal(value) if not quoted else value, quoted)
        if parse_yaml("generated.yaml", text).data == value:
            return text
    raise ValueError("cannot write this value as YAML that reads back the same")  # pragma: no cover


def dump(value: Any, format: Format) -> bytes:
    return dump_json(value) if format == "json" else dump_yaml(value)


def parse(path: str, raw: bytes) -> Any:
    """Read a JSON or YAML source by its extension (no instruction files inlined)."""
    return (parse_yaml if path.endswith((".yaml", ".yml")) else parse_json)(path, raw).data


def _emit(value: Any, quoted: bool) -> bytes:
    yaml = YAML(typ="rt", pure=True)
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 1_000_000  # never fold long lines: prompts stay one line per source line
    yaml.allow_unicode = True
    if quoted:
        yaml.default_style = '"'  # type: ignore[assignment]
    out = io.BytesIO()
    yaml.dump(value, out)
    return out.getvalue()


def _literal(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _literal(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_literal(item) for item in value]
    if isinstance(value, str) and "\n" in value and _reads_back_as_literal(value):
        return LiteralScalarString(value)
    return value


def _reads_back_as_literal(text: str) -> bool:
    """Some text (leading spaces, carriage returns) does not survive a literal block scalar."""
    emitted = _emit({"x": LiteralScalarString(text)}, quoted=False)
    return bool(parse_yaml("generated.yaml", emitted).data == {"x": text})
