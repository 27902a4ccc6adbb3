"""Tests stand alone: the upstream fixtures are found, or their tests skip, or fail under CI."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.upstream_fixtures import FIXTURES_VARIABLE, fixture

NAME = "upstream-catalog-json"


def test_the_variable_names_the_fixtures(tmp_path: Path) -> None:
    (tmp_path / "elsewhere" / NAME).mkdir(parents=True)
    environ = {FIXTURES_VARIABLE: str(tmp_path / "elsewhere")}
    assert fixture(NAME, environ, beside=tmp_path / "clone-parent") == tmp_path / "elsewhere" / NAME


def test_else_they_are_beside_the_clone(tmp_path: Path) -> None:
    (tmp_path / "shared" / "fixtures" / NAME).mkdir(parents=True)
    assert fixture(NAME, {}, beside=tmp_path) == tmp_path / "shared" / "fixtures" / NAME


def test_missing_fixtures_skip_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(pytest.skip.Exception) as skipped:
        fixture(NAME, {}, beside=tmp_path)
    assert str(skipped.value) == (
        f"the upstream fixture {NAME} is not at {tmp_path / 'shared/fixtures' / NAME}: set "
        f"{FIXTURES_VARIABLE} to the directory of the upstream fixtures to compare with them"
    )


@pytest.mark.parametrize("ci", ["true", "1"])
def test_missing_fixtures_fail_in_ci(tmp_path: Path, ci: str) -> None:
    with pytest.raises(pytest.fail.Exception):
        fixture(NAME, {"CI": ci, FIXTURES_VARIABLE: str(tmp_path / "none")}, beside=tmp_path)
