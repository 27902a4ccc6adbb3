"""The upstream team's layout as it is: the lock in ``scripts/`` beside its checker, with a
package.json and a README among the sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from build_tools.lock import LOCK_FILE
from tests.support.cli import run
from tests.support.upstream_fixtures import upstream_layout

GENERATIONS = ["json", "yaml"]


@pytest.mark.parametrize("generation", GENERATIONS)
def test_check_finds_the_lock_where_the_upstream_checker_keeps_it(
    tmp_path: Path, generation: str
) -> None:
    catalog = upstream_layout(tmp_path, generation)
    result = run("check", "--catalog", str(catalog))
    assert (result.code, result.lines) == (
        0,
        [f"the lock is {catalog}/scripts/{LOCK_FILE}, where the upstream checker keeps it", "OK"],
    )


@pytest.mark.parametrize("generation", GENERATIONS)
def test_fix_writes_the_lock_it_found_and_no_second_one(tmp_path: Path, generation: str) -> None:
    catalog = upstream_layout(tmp_path, generation)
    lock = catalog / "scripts" / LOCK_FILE
    before = lock.read_bytes()
    index = catalog / f"index.{generation}"
    index.write_text(
        index.read_text("utf-8")
        .replace("version: 1", "version: 7", 1)
        .replace('"version": 1', '"version": 7', 1),
        encoding="utf-8",
    )
    result = run("check", "--catalog", str(catalog), "--fix")
    assert result.code == 0, result.out
    assert result.lines[0].startswith("the lock is ") and result.lines[-1] == "lock updated"
    assert lock.read_bytes() != before and not (catalog / LOCK_FILE).exists()


def test_a_lock_beside_the_sources_wins_and_nothing_is_said(tmp_path: Path) -> None:
    catalog = upstream_layout(tmp_path)
    (catalog / "scripts" / LOCK_FILE).rename(catalog / LOCK_FILE)
    (catalog / "scripts" / LOCK_FILE).write_text("not a lock", encoding="utf-8")
    result = run("check", "--catalog", str(catalog))
    assert (result.code, result.out) == (0, "OK\n")


def test_without_any_lock_the_new_one_goes_beside_the_sources(tmp_path: Path) -> None:
    catalog = upstream_layout(tmp_path)
    (catalog / "scripts" / LOCK_FILE).unlink()
    missing = run("check", "--catalog", str(catalog))
    assert missing.code == 1
    assert f"{LOCK_FILE}: missing: create the lock with `rolecat check --fix`" in missing.out
    assert run("check", "--catalog", str(catalog), "--fix").code == 0
    assert (catalog / LOCK_FILE).is_file() and not (catalog / "scripts" / LOCK_FILE).exists()
