"""The content-hash lock: the seed's four states, --fix, the upstream lock to the byte."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from build_tools.lock import HASHED_FIELDS, role_hash
from tests.support.catalogs import Catalog, role
from tests.support.cli import run
from tests.support.diagnostics import value
from tests.support.upstream_fixtures import upstream

LOCK = "content-hashes.json"


def lock_of(catalog: Catalog) -> dict[str, dict[str, object]]:
    return json.loads(catalog.path(LOCK).read_text(encoding="utf-8"))


def test_unchanged_passes(catalog: Catalog) -> None:
    assert catalog.check().code == 0


def test_changed_but_not_bumped(catalog: Catalog) -> None:
    catalog.files[("alpha", "ru")]["roles"][1]["instructions"] += " Изменено."
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert result.lines == [
        f'{value(catalog, "index.json", "version", "1", 1)}: role "two" changed since '
        "content-hashes.json recorded it at version 1, but its version is still 1: bump it in "
        "index.json above 1, then run `rolecat check --fix`"
    ]


def test_changed_and_bumped_asks_to_record(catalog: Catalog) -> None:
    catalog.files[("beta", "en")]["roles"][0]["launchMessage"] = "Start."
    catalog.index["bundles"][1]["roles"][0]["version"] = 3
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert result.lines == [
        f'{value(catalog, "index.json", "version", "3")}: role "three" changed and its version was '
        "bumped from 2 to 3; record it with `rolecat check --fix`"
    ]


def test_role_missing_from_the_lock(catalog: Catalog) -> None:
    catalog.index["bundles"][1]["roles"].append({"slug": "four", "version": 1})
    for lang in ("en", "ru"):
        catalog.files[("beta", lang)]["roles"].append(role("four", lang))
    catalog.write()
    result = catalog.check()
    assert result.lines == [
        f'{value(catalog, "index.json", "version", "1", 2)}: role "four" is not in '
        "content-hashes.json; record it with `rolecat check --fix`"
    ]
    assert result.code == 1


def test_lock_entry_for_a_removed_role(catalog: Catalog) -> None:
    catalog.index["bundles"][0]["roles"].pop()
    for lang in ("en", "ru"):
        catalog.files[("alpha", lang)]["roles"].pop()
    catalog.write()
    result = catalog.check()
    text = catalog.path(LOCK).read_text(encoding="utf-8")
    line = text[: text.index('"two"')].count("\n") + 1
    assert (result.code, result.lines) == (
        1,
        [
            f'content-hashes.json:{line}:3: role "two" is in the lock but no longer in the '
            "catalog; refresh the lock with `rolecat check --fix`"
        ],
    )


def test_a_new_version_for_the_same_content(catalog: Catalog) -> None:
    """Lowered or raised, a version the lock does not have for unchanged content is a problem."""
    catalog.index["bundles"][1]["roles"][0]["version"] = 1
    catalog.write()
    result = catalog.check()
    assert (result.code, result.lines) == (
        1,
        [
            f'{value(catalog, "index.json", "version", "1", 2)}: role "three" has version 1 but '
            "content-hashes.json recorded 2 for the same content; refresh the lock with "
            "`rolecat check --fix`"
        ],
    )


def _add_role_four(catalog: Catalog) -> None:
    catalog.index["bundles"][1]["roles"].append({"slug": "four", "version": 1})
    for lang in ("en", "ru"):
        catalog.files[("beta", lang)]["roles"].append(role("four", lang))


def _remove_role_two(catalog: Catalog) -> None:
    catalog.index["bundles"][0]["roles"].pop()
    for lang in ("en", "ru"):
        catalog.files[("alpha", lang)]["roles"].pop()


def _change_role_three(catalog: Catalog, version: int = 2) -> None:
    catalog.files[("beta", "en")]["roles"][0]["name"] = "Three, renamed"
    catalog.index["bundles"][1]["roles"][0]["version"] = version


LOCK_STATES: dict[str, Callable[[Catalog], None]] = {
    "lock-missing-role": _add_role_four,
    "lock-stale": _remove_role_two,
    "lock-not-bumped": _change_role_three,
    "lock-not-recorded": lambda catalog: _change_role_three(catalog, 3),
    "lock-version": lambda catalog: catalog.index["bundles"][1]["roles"][0].update(version=3),
    "lock-missing": lambda catalog: catalog.path(LOCK).unlink(),
}


@pytest.mark.parametrize("rule", LOCK_STATES)
def test_each_lock_state_has_its_own_rule(catalog: Catalog, rule: str) -> None:
    """The rule names what to do in ``--format json`` and in GitHub annotations: one per state."""
    LOCK_STATES[rule](catalog)
    result = catalog.write().check("--format", "json")
    assert result.code == 1
    assert [problem["rule"] for problem in json.loads(result.out)["problems"]] == [rule]


def test_missing_lock(catalog: Catalog) -> None:
    catalog.path(LOCK).unlink()
    result = catalog.check()
    message = "missing: create the lock with `rolecat check --fix`"
    assert (result.code, result.lines) == (1, [f"content-hashes.json: {message}"])
    assert json.loads(catalog.check("--format", "json").out)["problems"] == [
        {
            "file": LOCK,
            "line": None,
            "column": None,
            "pointer": "",
            "rule": "lock-missing",
            "severity": "error",
            "message": message,
        }
    ]


def test_a_lock_that_is_a_directory_is_reported_and_left_alone(catalog: Catalog) -> None:
    """In process, where test_hostile.py runs each special file in a process of its own."""
    catalog.path(LOCK).unlink()
    catalog.path(LOCK).mkdir()
    message = "cannot read: it is a directory, not a regular file"
    assert (catalog.check().code, catalog.check().lines) == (1, [f"{LOCK}: {message}"])
    assert json.loads(catalog.check("--format", "json").out)["problems"] == [
        {
            "file": LOCK,
            "line": None,
            "column": None,
            "pointer": "",
            "rule": "unreadable",
            "severity": "error",
            "message": message,
        }
    ]
    refused = catalog.check("--fix")
    assert (refused.code, refused.lines) == (1, [f"{LOCK}: {message}"])
    assert catalog.path(LOCK).is_dir()


def test_a_lock_left_with_merge_conflict_markers(catalog: Catalog) -> None:
    text = catalog.path(LOCK).read_text(encoding="utf-8")
    catalog.path(LOCK).write_text("<<<<<<< HEAD\n" + text, encoding="utf-8")
    result = catalog.check()
    assert result.code == 1
    assert [line.split(": ", 1)[0] for line in result.lines] == [f"{LOCK}:1:1"]
    assert json.loads(catalog.check("--format", "json").out)["problems"][0]["file"] == LOCK


def test_malformed_lock(catalog: Catalog) -> None:
    lock = lock_of(catalog)
    lock["one"]["hash"] = "not-a-hash"
    catalog.path(LOCK).write_text(json.dumps(lock, indent=2), encoding="utf-8")
    result = catalog.check()
    assert result.code == 1
    assert result.lines[0].startswith("content-hashes.json:")
    assert 'role "one"' not in result.lines[0] and '"hash"' in result.lines[0]


def test_update_refuses_while_a_change_is_not_bumped(catalog: Catalog) -> None:
    before = catalog.path(LOCK).read_bytes()
    catalog.files[("alpha", "en")]["roles"][0]["name"] = "Renamed"
    catalog.write()
    result = catalog.check("--fix")
    assert result.code == 1
    assert len(result.lines) == 1 and 'role "one" changed since' in result.lines[0]
    assert result.err == "rolecat: lock not written\n"
    assert catalog.path(LOCK).read_bytes() == before


def test_update_refuses_a_broken_catalog(catalog: Catalog) -> None:
    before = catalog.path(LOCK).read_bytes()
    catalog.files[("alpha", "en")]["roles"][0]["autoStart"] = "no"
    catalog.write()
    result = catalog.check("--fix")
    assert result.code == 1
    assert '"autoStart" must be a boolean' in result.out
    assert catalog.path(LOCK).read_bytes() == before


def test_update_records_bumps_prunes_and_reports(catalog: Catalog) -> None:
    catalog.files[("alpha", "en")]["roles"][0]["name"] = "Renamed"
    catalog.index["bundles"][0]["roles"][0]["version"] = 2
    catalog.index["bundles"][0]["roles"].pop()
    for lang in ("en", "ru"):
        catalog.files[("alpha", lang)]["roles"] = catalog.files[("alpha", lang)]["roles"][:1]
    catalog.write()
    result = catalog.check("--fix")
    assert (result.code, result.lines) == (
        0,
        ["updated one: version 1 -> 2", "pruned two (no longer in the catalog)", "lock updated"],
    )
    assert sorted(lock_of(catalog)) == ["one", "three"]
    assert lock_of(catalog)["one"]["version"] == 2
    assert catalog.check().out == "OK\n"
    again = catalog.check("--update-hashes")
    assert (again.code, again.lines) == (0, ["lock is up to date"])


def test_lock_option_points_elsewhere(catalog: Catalog, tmp_path: Path) -> None:
    elsewhere = tmp_path / "lock.json"
    catalog.path(LOCK).rename(elsewhere)
    assert catalog.check("--lock", str(elsewhere)).code == 0
    missing = catalog.check("--lock", str(tmp_path / "none.json"))
    assert missing.code == 1 and "none.json: missing" in missing.out


def test_upstream_fixture_passes() -> None:
    result = run("check", "--catalog", str(upstream()))
    assert (result.code, result.out) == (0, "OK\n")


def test_upstream_lock_is_reproduced_byte_for_byte(fixture_copy: Callable[[str], Path]) -> None:
    root = fixture_copy("upstream-catalog-json")
    (root / LOCK).unlink()
    result = run("check", "--catalog", str(root), "--update-hashes")
    assert result.code == 0
    assert result.lines[-1] == "lock updated"
    assert (root / LOCK).read_bytes() == (upstream() / LOCK).read_bytes()


def test_version_written_as_javascript_writes_it(catalog: Catalog) -> None:
    catalog.files[("beta", "en")]["roles"][0]["name"] = "Renamed"
    catalog.index["bundles"][1]["roles"][0]["version"] = 3.0
    catalog.write()
    assert '"version": 3.0' in catalog.path("index.json").read_text(encoding="utf-8")
    assert catalog.check("--fix").code == 0
    assert lock_of(catalog)["three"]["version"] == 3
    assert '"version": 3,' in catalog.path(LOCK).read_text(encoding="utf-8")


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run("check", "--nope").code == 2
    assert run().code == 2
    missing = run("check", "--catalog", str(tmp_path / "nowhere"))
    assert missing.code == 2 and "catalog directory not found" in missing.err


def test_module_and_script_are_the_same_program(catalog: Catalog) -> None:
    for command in (
        [sys.executable, "-m", "build_tools"],
        [str(Path(sys.executable).parent / "rolecat")],
    ):
        done = subprocess.run(
            [*command, "check", "--catalog", str(catalog.root)], capture_output=True, text=True
        )
        assert (done.returncode, done.stdout) == (0, "OK\n")


@settings(max_examples=500, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["en", "ru", "x-y"]),
        st.fixed_dictionaries(
            {},
            optional={
                field: st.text(st.characters(exclude_categories=("Cs",)))
                | st.none()
                | st.booleans()
                for field in HASHED_FIELDS
            },
        ),
        min_size=1,
    )
)
def test_role_hash_is_sha256_of_json_stringify(by_language: dict[str, dict[str, object]]) -> None:
    """The canonical text as JSON.stringify writes it; Python's json module writes the same."""
    canonical = [
        [lang, {name: by_language[lang].get(name) for name in HASHED_FIELDS}]
        for lang in sorted(by_language)
    ]
    text = json.dumps(canonical, ensure_ascii=False, separators=(",", ":"))
    assert role_hash(by_language) == hashlib.sha256(text.encode("utf-8")).hexdigest()
