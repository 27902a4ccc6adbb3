"""The rule registry (``build_tools/rules/registry.py``) both ways: every id reported is
registered, and every registered id is reported by a test.

One way is enforced where problems are made: a ``Diagnostic`` refuses an id the registry lacks
(or a severity it does not give), so any test whose check reports such an id fails. The other
way: each rule is in some golden case's ``rules.txt`` (which ``tests/core/test_cases.py`` holds
to what ``rolecat check --format json`` reports), or names in ``tested_by`` a test that exists
and states the id.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

from build_tools.diagnostics import Diagnostic
from build_tools.rules.registry import BY_ID, RULES, SECTIONS, UnregisteredRule
from tests.support.paths import REPO

CASES = REPO / "tests" / "cases"


def case_rules() -> set[str]:
    return {rule for path in CASES.glob("*/rules.txt") for rule in path.read_text().split()}


def test_a_diagnostic_refuses_an_unregistered_rule_id() -> None:
    with pytest.raises(UnregisteredRule, match="'no-such-rule' is not registered"):
        Diagnostic("index.json", 1, 1, "m", "no-such-rule")
    with pytest.raises(UnregisteredRule, match="'' is not registered"):
        Diagnostic("index.json", 1, 1, "m")


def test_a_diagnostic_refuses_a_severity_the_registry_does_not_give() -> None:
    with pytest.raises(UnregisteredRule, match="registered as an error, not an warning"):
        Diagnostic("index.json", 1, 1, "m", "lock-stale", severity="warning")
    assert Diagnostic("index.json", 1, 1, "m", "server-trims", severity="warning").rule


def test_each_rule_is_registered_once_in_a_section_of_the_rules_page() -> None:
    assert len(BY_ID) == len(RULES)
    assert {rule.section for rule in RULES} == set(SECTIONS)
    assert all(rule.summary and "\n" not in rule.summary for rule in RULES)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.id)
def test_a_rule_names_modules_that_raise_it(rule: object) -> None:
    assert isinstance(rule, type(RULES[0]))
    for module in rule.raised_in:
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin, f"{rule.id}: no module {module}"
        source = Path(spec.origin).read_text(encoding="utf-8")
        literal = "schema-{" if rule.id.startswith("schema-") else f'"{rule.id}"'
        assert literal in source, f"{module} does not raise {rule.id}: update raised_in"


def test_every_rule_is_raised_by_a_golden_case_or_by_the_test_it_names() -> None:
    raised = case_rules()
    assert raised <= set(BY_ID)
    untested = {r.id for r in RULES if r.id not in raised and not r.tested_by}
    assert untested == set(), "add a golden case in tests/cases/ (or a tested_by)"


def test_a_rule_a_case_raises_names_no_other_test() -> None:
    raised = case_rules()
    assert [r.id for r in RULES if r.tested_by and r.id in raised] == []


def _test_source(reference: str) -> str:
    path, name = reference.split("::")
    source = (REPO / path).read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            parts = [*node.decorator_list, node]
            return "\n".join(ast.get_source_segment(source, part) or "" for part in parts)
    raise AssertionError(f"{reference}: no such test")


@pytest.mark.parametrize("rule", [r for r in RULES if r.tested_by], ids=lambda rule: rule.id)
def test_the_test_a_rule_names_exists_and_states_its_id(rule: object) -> None:
    assert isinstance(rule, type(RULES[0]))
    assert rule.tested_by.split("::")[1].startswith("test_")
    assert f'"{rule.id}"' in _test_source(rule.tested_by)
