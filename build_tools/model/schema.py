"""The shape rules: JSON Schemas (Draft 2020-12) shipped as package data, applied with jsonschema.

The schemas are the single source of truth for what one file may hold; this module only turns
jsonschema's errors into one-line diagnostics that name the bundle, the role and the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

if TYPE_CHECKING:
    import jsonschema

from build_tools.diagnostics import Diagnostic, Pointer, describe_pointer
from build_tools.model import credentials
from build_tools.model.credentials import is_credential_name
from build_tools.sources import javascript
from build_tools.sources.json_reader import Document, json_type

Kind = Literal["index", "bundle", "lock", "allowlist"]

SCHEMA_FILES: dict[Kind, str] = {
    "index": "index.schema.json",
    "bundle": "bundle.schema.json",
    "lock": "lock.schema.json",
    "allowlist": "secrets-allowlist.schema.json",
}


def schema_text(kind: Kind) -> bytes:
    """The schema file's bytes, as published under ``/schema/`` on the site."""
    beside = Path(__file__).parent.parent / "schemas" / SCHEMA_FILES[kind]
    if beside.is_file():  # an installed package or a source tree: no importlib.resources to load
        return beside.read_bytes()
    from importlib import resources

    return resources.files("build_tools.schemas").joinpath(SCHEMA_FILES[kind]).read_bytes()


@cache
def validator(kind: Kind) -> jsonschema.Draft202012Validator:
    """jsonschema's Draft 2020-12 validator, with ``pattern`` matched as JavaScript matches it.

    jsonschema applies patterns with Python's ``re.search``, where ``^[a-z0-9-]+$`` accepts
    ``"en\n"``; JSON Schema patterns are ECMA-262, and the server tests ids in JavaScript.
    """
    import jsonschema  # only files the screen refuses need it: keep `rolecat check` quick to start

    def pattern(
        validator: Any, source: str, instance: Any, _schema: Any
    ) -> Iterator[jsonschema.ValidationError]:
        if isinstance(instance, str) and not javascript.regex(source).search(instance):
            yield jsonschema.ValidationError(f"{instance!r} does not match {source!r}")

    schema = json.loads(schema_text(kind))
    jsonschema.Draft202012Validator.check_schema(schema)
    ecma = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        jsonschema.Draft202012Validator, {"pattern": pattern}
    )
    return cast("jsonschema.Draft202012Validator", ecma(schema))


PATTERNS = {
    javascript.ID_SOURCE: "lowercase letters, digits and hyphens",
    "^[0-9a-f]{64}$": "64 lowercase hexadecimal digits, a SHA-256",
}
"""What the schemas' patterns ask for, in words, for messages."""


def where(data: Any, pointer: Pointer) -> str:
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


def _in_words(pattern: str, schema: Any) -> str:
    """What a pattern asks for: the schema's own ``description``, else the known words."""
    described = schema.get("description") if isinstance(schema, dict) else None
    return str(described or PATTERNS.get(pattern, "as a JavaScript regular expression"))


def _did_you_mean(key: str, allowed: list[str]) -> list[str]:
    """The closest known field, ignoring case and separators (``model`` -> ``chatModel``)."""
    import difflib  # only to explain a problem

    folded = {re.sub(r"[-_]", "", name.lower()): name for name in allowed}
    close = difflib.get_close_matches(re.sub(r"[-_]", "", key.lower()), folded, n=1, cutoff=0.6)
    return [folded[name] for name in close]


def _describe(
    error: jsonschema.ValidationError, data: Any
) -> Iterator[tuple[Pointer, str, bool, str | None]]:
    """Yield (pointer, message, at_key, rule) per jsonschema error; rule ``None``: by keyword."""
    pointer: Pointer = tuple(error.absolute_path)
    prefix = where(data, pointer)
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
            f"match {expected} ({_in_words(expected, details)})",
            True,
            None,
        )
        return
    if keyword == "additionalProperties" and expected is False:
        allowed = sorted(details.get("properties", {}))
        for key in sorted(k for k in instance if k not in allowed):
            if is_credential_name(key):
                yield (
                    (*pointer, key),
                    f'{prefix}"{key}" is named like a credential: {credentials.ADVICE}',
                    True,
                    "credential-field",
                )
                continue
            hint = _did_you_mean(key, allowed)
            suggestion = (
                f' (did you mean "{hint[0]}"?)' if hint else f" (known: {', '.join(allowed)})"
            )
            yield (*pointer, key), f'{prefix}unknown field "{key}"{suggestion}', True, None
        return
    if keyword == "required":
        for key in expected:
            if key not in instance:
                yield pointer, f'{prefix}required field "{key}" is missing', False, None
        return
    if keyword == "type":
        names = expected if isinstance(expected, list) else [expected]
        wanted = " or ".join(
            "null" if n == "null" else f"a{'n' if n[0] in 'aeiou' else ''} {n}" for n in names
        )
        yield pointer, f'{prefix}"{field}" must be {wanted}, not {json_type(instance)}', False, None
        return
    if keyword == "const":
        yield (
            pointer,
            f'{prefix}"{field}" must be {json.dumps(expected)}, found '
            f"{json.dumps(instance, ensure_ascii=False)} (rolecat knows schema version 1 only)",
            False,
            None,
        )
        return
    if keyword == "pattern":
        if expected == "\\S":
            yield pointer, f'{prefix}"{field}" must not be empty', False, None
        else:
            yield (
                pointer,
                f'{prefix}"{field}" is {json.dumps(instance, ensure_ascii=False)}; it must match '
                f"{expected} ({_in_words(expected, details)})",
                False,
                None,
            )
        return
    if keyword == "minItems":
        if pointer == ("bundles",):
            yield pointer, "no bundles: the catalog must declare at least one bundle", False, None
        elif pointer and pointer[-1] == "languages":
            message = f"{prefix}no languages: the bundle must declare at least one"
            yield pointer, message, False, None
        else:
            yield pointer, f'{prefix}"{field}" must not be empty', False, None
        return
    if keyword == "minProperties":
        known = " and/or ".join(f'"{k}"' for k in details.get("properties", {}))
        fix = f"give {known}, or null" if known else "remove it or fill it"
        yield pointer, f'{prefix}"{field}" is empty: {fix}', False, None
        return
    yield pointer, f'{prefix}"{field}": {error.message}', False, None


def validate(kind: Kind, document: Document) -> list[Diagnostic]:
    """Every shape problem of one file, each placed at its value.

    A file the screen accepts is valid; only the others pay for jsonschema, which explains them.
    """
    if screen(kind)(document.data):
        return []
    found: list[Diagnostic] = []
    for error in validator(kind).iter_errors(document.data):
        for pointer, message, at_key, rule in _describe(error, document.data):
            rule = rule or f"schema-{error.validator}"
            found.append(document.diagnostic(pointer, message, rule, at_key=at_key))
    return found


Predicate = Callable[[Any], bool]

_TYPE_TESTS = {
    "object": "isinstance(x, dict)",
    "array": "isinstance(x, list)",
    "string": "isinstance(x, str)",
    "number": "(isinstance(x, (int, float)) and not isinstance(x, bool))",
    "integer": "((isinstance(x, int) and not isinstance(x, bool)) or "
    "(isinstance(x, float) and x.is_integer()))",
    "boolean": "isinstance(x, bool)",
    "null": "x is None",
}
_ANNOTATIONS = {"$schema", "$id", "$defs", "title", "description"}
_KEYWORDS = {
    "type",
    "const",
    "required",
    "properties",
    "additionalProperties",
    "propertyNames",
    "items",
    "minItems",
    "minProperties",
    "pattern",
    "$ref",
}


@cache
def screen(kind: Kind) -> Predicate:
    """A fast yes/no check generated from the same schema file.

    jsonschema costs about as much as reading the files; this predicate, compiled to plain Python
    from the schema's keywords, costs a fraction. It knows the keywords our schemas use and refuses
    to compile any other, so it cannot drift from them; tests hold it to jsonschema's verdict.
    """
    return _ScreenCompiler(json.loads(schema_text(kind))).compile()


class _ScreenCompiler:
    """Writes one Python function per subschema: loops and early returns, no generators."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.lines: list[str] = []
        self.names: dict[str, Any] = {"_json_equal": _json_equal}
        self.refs: dict[str, str] = {}
        self.tables: list[dict[str, Any]] = []

    def compile(self) -> Predicate:
        entry = self.function(self.root)
        exec("\n".join(self.lines), self.names)
        for table in self.tables:  # the functions exist now: put them in place of their names
            table.update({key: self.names[name] for key, name in table.items()})
        return cast(Predicate, self.names[entry])

    def constant(self, value: Any) -> str:
        name = f"_c{len(self.names)}"
        self.names[name] = value
        return name

    def function(self, node: dict[str, Any]) -> str:
        unknown = set(node) - _ANNOTATIONS - _KEYWORDS
        if unknown:
            raise NotImplementedError(f"the screen does not know {sorted(unknown)}")
        name = f"_f{len(self.names)}"
        self.names[name] = None
        body: list[str] = []
        if "type" in node:
            kinds = node["type"] if isinstance(node["type"], list) else [node["type"]]
            body.append(f"if not ({' or '.join(_TYPE_TESTS[k] for k in kinds)}): return False")
        if "const" in node:
            body.append(f"if not _json_equal(x, {self.constant(node['const'])}): return False")
        if "required" in node:
            keys = self.constant(tuple(node["required"]))
            body.append(
                f"if isinstance(x, dict):\n  for k in {keys}:\n   if k not in x: return False"
            )
        if "properties" in node or "additionalProperties" in node:
            checks = {k: self.function(v) for k, v in node.get("properties", {}).items()}
            self.tables.append(checks)
            table = self.constant(checks)
            extra = node.get("additionalProperties", True)
            other = (
                "return False"
                if extra is False
                else "pass"
                if extra is True
                else f"if not {self.function(extra)}(v): return False"
            )
            body.append(
                f"if isinstance(x, dict):\n  for k, v in x.items():\n   f = {table}.get(k)\n"
                f"   if f is None:\n    {other}\n   elif not f(v): return False"
            )
        if "propertyNames" in node:
            check = self.function(node["propertyNames"])
            body.append(
                f"if isinstance(x, dict):\n  for k in x:\n   if not {check}(k): return False"
            )
        if "items" in node:
            check = self.function(node["items"])
            body.append(
                f"if isinstance(x, list):\n  for v in x:\n   if not {check}(v): return False"
            )
        if "minItems" in node:
            body.append(
                f"if isinstance(x, list) and len(x) < {int(node['minItems'])}: return False"
            )
        if "minProperties" in node:
            body.append(
                f"if isinstance(x, dict) and len(x) < {int(node['minProperties'])}: return False"
            )
        if "pattern" in node:
            search = self.constant(javascript.regex(node["pattern"]).search)
            body.append(f"if isinstance(x, str) and {search}(x) is None: return False")
        if "$ref" in node:
            body.append(f"if not {self.reference(node['$ref'])}(x): return False")
        self.lines.append(f"def {name}(x):")
        self.lines += [" " + line.replace("\n", "\n ") for line in body] + [" return True"]
        return name

    def reference(self, ref: str) -> str:
        name = ref.removeprefix("#/$defs/")
        if name == ref:
            raise NotImplementedError(f"the screen resolves #/$defs/ references only, not {ref}")
        if name not in self.refs:
            self.refs[name] = ""
            self.refs[name] = self.function(self.root["$defs"][name])
        if not self.refs[name]:
            raise NotImplementedError(f"the screen does not follow recursive references ({ref})")
        return self.refs[name]


def _json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON sees it: ``true`` is not ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    numbers = isinstance(a, (int, float)) and isinstance(b, (int, float))
    return (numbers or type(a) is type(b)) and bool(a == b)
