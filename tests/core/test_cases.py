"""Bad catalogs as golden cases: ``tests/cases/<name>/`` holds the files that differ from the
valid catalog in ``tests/cases/_base/`` (under ``catalog/``), what ``rolecat check`` prints for
them (``expected.txt``, every line), the rule id of each problem it reports (``rules.txt``, as
``--format json`` gives them, in order) and, where it needs them, its arguments (``args``) and the
files of the base it deletes (``remove``, one path a line). Its README says what the case is
about. A new case is a new folder; a new rule's test is one (``tests/core/test_rule_registry.py``
checks that every registered rule is raised by a case, or names the test that raises it).

``ROLECAT_UPDATE_CASES=1`` writes each ``expected.txt`` and ``rules.txt`` from what the check
prints now: read the difference before committing it.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.support import run

CASES = Path(__file__).resolve().parents[1] / "cases"
BASE = CASES / "_base"
NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir() and not p.name.startswith("_"))


def words(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split() if path.exists() else []


def materialize(name: str, target: Path) -> Path:
    """The base catalog, less the files the case removes, with the case's files over it."""
    shutil.copytree(BASE, target)
    for removed in words(CASES / name / "remove"):
        (target / removed).unlink()
    if (CASES / name / "catalog").is_dir():  # git keeps no empty folder: a case may only remove
        shutil.copytree(CASES / name / "catalog", target, dirs_exist_ok=True)
    return target


def case_rules(name: str) -> list[str]:
    """The rule ids a case's check reports, as its ``rules.txt`` records them."""
    return words(CASES / name / "rules.txt")


@pytest.mark.parametrize("name", NAMES)
def test_a_golden_case_prints_what_it_expects(name: str, tmp_path: Path) -> None:
    case = CASES / name
    root = materialize(name, tmp_path / "catalog")
    args = words(case / "args")
    result = run("check", "--catalog", str(root), *args)
    as_json = run("check", "--catalog", str(root), *args, "--format", "json")
    rules = [problem["rule"] for problem in json.loads(as_json.out)["problems"]]
    expected_file, rules_file = case / "expected.txt", case / "rules.txt"
    if os.environ.get("ROLECAT_UPDATE_CASES") == "1":
        expected_file.write_text(result.out, encoding="utf-8")
        rules_file.write_text("".join(f"{rule}\n" for rule in rules), encoding="utf-8")
    expected = expected_file.read_text(encoding="utf-8").splitlines()
    assert result.lines == expected
    assert result.code == (0 if expected[-1:] == ["OK"] else 1)
    assert rules == case_rules(name)
    assert as_json.code == result.code
    assert (case / "README.md").is_file(), "say what the case is about"


def test_the_base_is_a_valid_catalog() -> None:
    assert run("check", "--catalog", str(BASE)).lines == ["OK"]
