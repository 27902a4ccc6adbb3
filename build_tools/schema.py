"""The shape rules: JSON Schemas (Draft 2020-12) shipped as package data, applied with jsonschema.

The schemas are the single source of truth for what one file may hold; this module only turns
jsonschema's errors into one-line diagnostics that name the bundle, the role and the field.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any, Literal

import jsonschema

from build_tools.diagnostics import Diagnostic, Pointer, describe_pointer
from build_tools.sources import Document, json_type

Kind = Literal["index", "bundle", "lock"]

SCHEMA_FILES: dict[Kind, str] = {
    "index": "index.schema.json",
    "bundle": "bundle.schema.json",
    "lock": "lock.schema.json",
}


def schema_text(kind: Kind) -> bytes:
    """The schema file's bytes, as published under ``/schema/`` on the site."""
    return resources.files("build_tools.schemas").joinpath(SCHEMA_FILES[kind]).read_bytes()


@cache
def validator(kind: Kind) -> jsonschema.Draft202012Validator:
    schema = json.loads(schema_text(kind))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def where(kind: Kind, data: Any, pointer: Pointer) -> str:
    """Name the bundle and role a pointer is inside, e.g. ``bundle "x", role "y": ``."""
    parts: list[str] = []
    node = data
    for depth, segment in enumerate(pointer):
        try:
            node = node[segment]
        except (KeyError, IndexError, TypeError):
            break
        parent = pointer[depth - 1] if depth else None
        if isinstance(segment, int) and isinstance(node, dict):
            name = node.get("id") if parent == "bundles" else node.get("slug")
            label = "bundle" if parent == "bundles" else "role"
            if isinstance(name, str) and name:
                parts.append(f'{label} "{name}"')
            else:
                parts.append(f"{label} #{segment + 1}")
    return ", ".join(parts) + ": " if parts else ""


def _field(pointer: Pointer) -> str:
    """The innermost named field of a pointer, with the array index that follows it if any."""
    for index in range(len(pointer) - 1, -1, -1):
        if isinstance(pointer[index], str):
            return describe_pointer(pointer[index:])
    return describe_pointer(pointer)


def _describe(
    kind: Kind, error: jsonschema.ValidationError, data: Any
) -> Iterator[tuple[Pointer, str, bool]]:
    """Yield (pointer, message, at_key) for one jsonschema error."""
    pointer: Pointer = tuple(error.absolute_path)
    prefix = where(kind, data, pointer)
    field = _field(pointer)
    instance: Any = error.instance
    details: Any = error.schema
    expected: Any = error.validator_value
    keyword = error.validator
    if "propertyNames" in error.schema_path:
        # jsonschema reports a bad key with the object's path and the key as the instance.
        yield (
            (*pointer, instance),
            f'{prefix}"{field}" has key {json.dumps(instance, ensure_ascii=False)}; keys must '
            "match ^[a-z0-9-]+$ (lowercase letters, digits and hyphens)",
            True,
        )
        return
    if keyword == "additionalProperties" and expected is False:
        allowed = sorted(details.get("properties", {}))
        for key in sorted(k for k in instance if k not in allowed):
            hint = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            suggestion = (
                f' (did you mean "{hint[0]}"?)' if hint else f" (known: {', '.join(allowed)})"
            )
            yield (*pointer, key), f'{prefix}unknown field "{key}"{suggestion}', True
        return
    if keyword == "required":
        for key in expected:
            if key not in instance:
                yield pointer, f'{prefix}required field "{key}" is missing', False
        return
    if keyword == "type":
        names = expected if isinstance(expected, list) else [expected]
        wanted = " or ".join(
            "null" if n == "null" else f"a{'n' if n[0] in 'aeiou' else ''} {n}" for n in names
        )
        yield pointer, f'{prefix}"{field}" must be {wanted}, not {json_type(instance)}', False
        return
    if keyword == "const":
        yield (
            pointer,
            f'{prefix}"{field}" must be {json.dumps(expected)}, found '
            f"{json.dumps(instance, ensure_ascii=False)} (rolecat knows schema version 1 only)",
            False,
        )
        return
    if keyword == "pattern":
        if expected == "\\S":
            yield pointer, f'{prefix}"{field}" must not be empty', False
        else:
            yield (
                pointer,
                f'{prefix}"{field}" is {json.dumps(instance, ensure_ascii=False)}; it must match '
                f"{expected} (lowercase letters, digits and hyphens)",
                False,
            )
        return
    if keyword == "minItems":
        if pointer == ("bundles",):
            yield pointer, "no bundles: the catalog must declare at least one bundle", False
        elif pointer and pointer[-1] == "languages":
            yield pointer, f"{prefix}no languages: the bundle must declare at least one", False
        else:
            yield pointer, f'{prefix}"{field}" must not be empty', False
        return
    yield pointer, f'{prefix}"{field}": {error.message}', False


def validate(kind: Kind, document: Document) -> list[Diagnostic]:
    """Every shape problem of one file, each placed at its value."""
    found: list[Diagnostic] = []
    for error in validator(kind).iter_errors(document.data):
        for pointer, message, at_key in _describe(kind, error, document.data):
            found.append(
                document.diagnostic(pointer, message, f"schema-{error.validator}", at_key=at_key)
            )
    return found
