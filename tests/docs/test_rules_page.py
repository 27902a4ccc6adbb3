"""The rules page lists every rule id the code can emit, and no other.

The ids are read from the code (``tests/docs/code_rules.py``), so a new rule id in
``build_tools/`` fails this test until the rules page says what it protects.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from typing import Any

import jsonschema

from build_tools.model.schema import SCHEMA_FILES, schema_text
from tests.docs.code_rules import rule_ids
from tests.docs.pages import page, prose_lines

RULES_PAGE = "rules.md"
SCHEMA_PREFIX = "schema-"
"""``f"schema-{error.validator}"``: one id per JSON Schema keyword that can fail."""

DESCENDING = frozenset(
    {
        "$ref",
        "$dynamicRef",
        "properties",
        "patternProperties",
        "items",
        "prefixItems",
        "propertyNames",
        "allOf",
        "dependentSchemas",
        "if",
        "then",
        "else",
    }
)
"""Keywords whose errors are those of their subschemas: jsonschema reports the inner keyword."""

_SUBSCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")


def keywords(schema: Any) -> set[str]:
    """The JSON Schema keywords a schema uses, its subschemas' included (not property names)."""
    if not isinstance(schema, dict):
        return set()
    found = set(schema)
    for key, value in schema.items():
        if key in _SUBSCHEMA_MAPS and isinstance(value, dict):
            for subschema in value.values():
                found |= keywords(subschema)
        elif key in _SUBSCHEMA_LISTS and isinstance(value, list):
            for subschema in value:
                found |= keywords(subschema)
        elif isinstance(value, dict):
            found |= keywords(value)
    return found


def schema_rule_ids() -> set[str]:
    """``schema-<keyword>`` for every keyword of the validated schemas that can fail itself."""
    failing = set(jsonschema.Draft202012Validator.VALIDATORS) - DESCENDING
    used: set[str] = set()
    for kind in SCHEMA_FILES:
        used |= keywords(json.loads(schema_text(kind)))
    return {SCHEMA_PREFIX + keyword for keyword in used & failing}


def emitted() -> set[str]:
    found = rule_ids()
    assert found.unresolved == [], (
        "rule ids passed in a way tests/docs/code_rules.py cannot follow: teach it, so the ids "
        "can be checked against the rules page"
    )
    assert found.prefixes <= {SCHEMA_PREFIX}, (
        f"rule ids made by f-strings starting {found.prefixes - {SCHEMA_PREFIX}}: list their "
        "values in this test"
    )
    return found.ids | (schema_rule_ids() if found.prefixes else set())


def documented() -> list[str]:
    """The first cell of every table row of the rules page: `` `id` ``."""
    rows = [line for fenced, line in prose_lines(page(RULES_PAGE)) if not fenced]
    return [m.group(1) for line in rows if (m := re.match(r"\|\s*`([^`]+)`\s*\|", line))]


def test_every_rule_id_the_code_can_emit_is_on_the_rules_page() -> None:
    missing = emitted() - set(documented())
    assert missing == set(), f"add each to manual/docs/{RULES_PAGE}, with what it protects"


def test_every_rule_id_on_the_rules_page_is_one_the_code_emits() -> None:
    assert set(documented()) - emitted() == set()


def test_each_rule_id_is_documented_once() -> None:
    ids = documented()
    assert sorted(i for i in set(ids) if ids.count(i) > 1) == []


def test_the_code_is_read_for_the_ids_everyone_knows() -> None:
    """The reader finds ids of each kind: literals, local variables, module constants,
    helper parameters, defaults, tuples unpacked, f-strings."""
    ids = emitted()
    known = {
        "duplicate-slug",  # Document.diagnostic(pointer, message, "duplicate-slug")
        "lock-not-bumped",  # rule = "lock-not-bumped", then .diagnostic(..., rule)
        "site-name-too-long",  # NAME_TOO_LONG, through a local refuse(pointer, message, rule)
        "fetch",  # FetchError's default
        "fetch-timeout",  # FetchError(url, message, "fetch-timeout")
        "number-changed",  # a tuple appended to self.problems, unpacked into rule
        "credential-field",  # yielded by schema._describe, unpacked into rule
        "secret-allowlist-stale",  # STALE, a module constant
        "schema-required",  # f"schema-{error.validator}"
        "server-trims",
        "site-overwritten",
        "yaml-alias",
    }
    assert known <= ids
    assert len(ids) >= 70


def test_the_reader_follows_each_way_a_rule_reaches_a_diagnostic(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(
        textwrap.dedent(
            """
            from dataclasses import dataclass, field

            CONSTANT = "from-a-constant"

            @dataclass
            class Diagnostic:
                file: str
                line: int
                col: int
                message: str
                rule: str = field(default="from-a-field-default", compare=False)

            class Reader:
                def problem(self, where, message, rule):
                    self.problems.append((where, message, rule))

                def read(self):
                    self.problem(1, "m", "from-a-method")
                    self.problem(1, "m", CONSTANT)

            def helper(message, code="from-a-parameter-default"):
                return Diagnostic("f", 0, 0, message, code)

            def uses():
                helper("m", "through-a-parameter")
                Diagnostic("f", *place(), "m", "after-a-spread")
                rule = "from-a-local"
                if True:
                    rule = "from-another-local"
                yield Diagnostic("f", 0, 0, "m", rule=rule)
                yield Diagnostic("f", 0, 0, "m", "x" if True else "from-a-branch")
                for where, message, rule in found():
                    yield Diagnostic(where, 0, 0, message, rule or f"made-{where}")

            def place() -> tuple[int, int]:
                return 1, 1

            def found():
                yield 0, "m", "from-a-yield"
            """
        ),
        encoding="utf-8",
    )
    found = rule_ids((tmp_path,))
    assert found.unresolved == []
    assert found.ids == {
        "from-a-constant",
        "from-a-field-default",
        "from-a-method",
        "from-a-parameter-default",
        "through-a-parameter",
        "after-a-spread",
        "from-a-local",
        "from-another-local",
        "x",
        "from-a-branch",
        "from-a-yield",
    }
    assert found.prefixes == {"made-"}


def test_the_reader_says_what_it_cannot_follow(tmp_path: Path) -> None:
    (tmp_path / "b.py").write_text(
        "def f(d, rules):\n    return Diagnostic('f', 0, 0, 'm', rules[0])\n"
        "class Diagnostic:\n    def __init__(self, file, line, col, message, rule): ...\n",
        encoding="utf-8",
    )
    assert rule_ids((tmp_path,)).unresolved == [f"{tmp_path / 'b.py'}:2: rules[0]"]
