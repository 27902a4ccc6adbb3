"""Bad catalogs as golden cases: ``tests/cases/<name>/`` holds the files that differ from the
valid catalog in ``tests/cases/_base/`` (under ``catalog/``), what ``rolecat check`` prints for
them (``expected.txt``, every line) and, where it needs them, its arguments (``args``). Its
README says what the case is about. A new case is a new folder.

``ROLECAT_UPDATE_CASES=1`` writes each ``expected.txt`` from what the check prints now: read the
difference before committing it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.support import run

CASES = Path(__file__).resolve().parents[1] / "cases"
BASE = CASES / "_base"
NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir() and not p.name.startswith("_"))


def materialize(name: str, target: Path) -> Path:
    """The base catalog with the case's files over it."""
    shutil.copytree(BASE, target)
    shutil.copytree(CASES / name / "catalog", target, dirs_exist_ok=True)
    return target


@pytest.mark.parametrize("name", NAMES)
def test_a_golden_case_prints_what_it_expects(name: str, tmp_path: Path) -> None:
    case = CASES / name
    root = materialize(name, tmp_path / "catalog")
    args = (case / "args").read_text(encoding="utf-8").split() if (case / "args").exists() else []
    result = run("check", "--catalog", str(root), *args)
    expected_file = case / "expected.txt"
    if os.environ.get("ROLECAT_UPDATE_CASES") == "1":
        expected_file.write_text(result.out, encoding="utf-8")
    expected = expected_file.read_text(encoding="utf-8").splitlines()
    assert result.lines == expected
    assert result.code == (0 if expected[-1:] == ["OK"] else 1)
    assert (case / "README.md").is_file(), "say what the case is about"


def test_the_base_is_a_valid_catalog() -> None:
    assert run("check", "--catalog", str(BASE)).lines == ["OK"]
