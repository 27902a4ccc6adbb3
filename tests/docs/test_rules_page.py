"""The rules page lists every registered rule id, once, in its section, and no other.

Its tables are written from the rule registry (``build_tools/rules/registry.py``) by the hook
``manual/hooks/rules_page.py``; ``tests/core/test_rule_registry.py`` proves the registry holds
every id the code reports. The ``schema-<keyword>`` ids are checked against the schemas here:
each keyword of the validated schemas that can fail is a registered rule.
"""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema

from build_tools.model.schema import SCHEMA_FILES, schema_text
from build_tools.rules.registry import BY_ID, PLACEHOLDER, RULES, SECTIONS, fill_tables
from tests.support.manual_pages import page, prose_lines

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


def rendered() -> str:
    """The page as MkDocs gets it from the hook."""
    return fill_tables(page(RULES_PAGE))


def documented(text: str) -> list[str]:
    """The first cell of every table row: `` `id` ``."""
    rows = [line for fenced, line in prose_lines(text) if not fenced]
    return [m.group(1) for line in rows if (m := re.match(r"\|\s*`([^`]+)`\s*\|", line))]


def test_the_page_has_each_sections_table_once_and_no_table_by_hand() -> None:
    source = page(RULES_PAGE)
    assert [m.group(1) for m in PLACEHOLDER.finditer(source)] == list(SECTIONS)
    assert documented(source) == [], "write a rule's row in build_tools/rules/rules.toml"


def test_every_registered_rule_is_on_the_rules_page_once_in_registry_order() -> None:
    assert documented(rendered()) == [rule.id for rule in RULES]


def test_a_rule_is_listed_under_the_heading_of_its_section() -> None:
    for chunk in page(RULES_PAGE).split("\n## "):
        keys = [m.group(1) for m in PLACEHOLDER.finditer(chunk)]
        expected = [rule.id for key in keys for rule in RULES if rule.section == key]
        assert documented(fill_tables(chunk)) == expected


def test_a_warning_says_so_on_the_page() -> None:
    text = rendered()
    for rule in RULES:
        warns = f"| `{rule.id}` | **warning**: " in text
        assert warns is (rule.severity == "warning"), rule.id


def test_each_schema_keyword_that_can_fail_is_a_registered_rule() -> None:
    registered = {rule_id for rule_id in BY_ID if rule_id.startswith(SCHEMA_PREFIX)}
    assert registered == schema_rule_ids()
