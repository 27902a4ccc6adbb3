"""The limits the server enforces, at their exact edges: one byte, one version, either way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from build_tools.history.replay import read_history
from build_tools.lock import MAX_LOCK_BYTES
from build_tools.rules.allowlist import MAX_ALLOWLIST_BYTES
from build_tools.sources.json_reader import MAX_DEPTH, MAX_FILE_BYTES, SourceError, parse_json
from tests.support.catalogs import Catalog
from tests.support.diagnostics import value
from tests.support.history_repo import GitRepo, Story

LOCK = "content-hashes.json"


def _pad_to(catalog: Catalog, size: int) -> None:
    """Grow ``bundles/alpha/en.json`` to exactly ``size`` bytes, then record it in a new lock."""
    catalog.path(LOCK).unlink()
    catalog.write()
    path = catalog.path("bundles/alpha/en.json")
    text = path.read_text(encoding="utf-8")
    # Blanks, not a longer prompt: the admin API saves instructions of 20,000 characters at most.
    at = text.rindex("}")
    path.write_text(text[:at] + " " * (size - len(text.encode())) + text[at:], encoding="utf-8")
    assert path.stat().st_size == size


def test_a_file_of_exactly_the_cap_passes(catalog: Catalog) -> None:
    assert MAX_FILE_BYTES == 1_000_000  # the server's cap, not ours to choose
    _pad_to(catalog, 1_000_000)
    catalog.lock()
    assert (catalog.check().code, catalog.check().lines) == (0, ["OK"])


def test_a_file_one_byte_over_the_cap_fails(catalog: Catalog) -> None:
    _pad_to(catalog, 1_000_001)
    result = catalog.check()
    assert (result.code, result.lines) == (
        1,
        [
            "bundles/alpha/en.json: file is 1,000,001 bytes; the server refuses files over "
            "1,000,000 bytes"
        ],
    )
    problems = json.loads(catalog.check("--format", "json").out)["problems"]
    assert [(p["file"], p["rule"]) for p in problems] == [
        ("bundles/alpha/en.json", "file-too-large")
    ]


@pytest.mark.parametrize("size", [1_000_000, 1_000_001], ids=["cap", "over"])
def test_a_committed_file_over_the_cap_is_left_out_of_the_history(
    tmp_path: Path, size: int
) -> None:
    """git hands a blob over whatever its size: the history skips a commit the server refuses."""
    repo = GitRepo(tmp_path)
    story = Story(tmp_path / "catalog")
    story.write()
    en = tmp_path / "catalog/bundles/team/en.json"
    text = en.read_bytes()
    en.write_bytes(text[:-2] + b" " * (size - 1 - len(text)) + text[-2:])  # blanks, same values
    repo.commit("A large file", "2026-01-01")
    with en.open("ab") as file:
        file.write(b"\n")  # one byte more, the same content: the lock still holds
    assert en.stat().st_size == size
    grown = repo.commit("One byte more", "2026-01-02")
    skipped = [commit.id for commit in read_history(tmp_path / "catalog").skipped]
    assert skipped == ([grown] if size > MAX_FILE_BYTES else [])


def _change_with_version(catalog: Catalog, version: int) -> None:
    """Change role "three" (recorded at version 2) and give it ``version``."""
    catalog.files[("beta", "ru")]["roles"][0]["instructions"] += " Изменено."
    catalog.index["bundles"][1]["roles"][0]["version"] = version
    catalog.write()


@pytest.mark.parametrize("version", [1, 2], ids=["lower", "same"])
def test_a_change_without_a_version_above_the_lock_fails_check(
    catalog: Catalog, version: int
) -> None:
    _change_with_version(catalog, version)
    result = catalog.check()
    nth = 2 if version == 1 else 0  # roles "one" and "two" are at version 1 too
    assert result.code == 1
    assert result.lines == [
        f'{value(catalog, "index.json", "version", str(version), nth)}: role "three" changed since '
        f"content-hashes.json recorded it at version 2, but its version is still {version}: "
        "bump it in index.json above 2, then run `rolecat check --fix`"
    ]


@pytest.mark.parametrize("version", [1, 2], ids=["lower", "same"])
def test_a_change_without_a_version_above_the_lock_is_refused_by_fix(
    catalog: Catalog, version: int
) -> None:
    before = catalog.path(LOCK).read_bytes()
    _change_with_version(catalog, version)
    result = catalog.check("--fix")
    assert result.code == 1
    assert result.err == "rolecat: lock not written\n"
    assert catalog.path(LOCK).read_bytes() == before


def test_a_change_with_a_version_above_the_lock_is_recorded(catalog: Catalog) -> None:
    _change_with_version(catalog, 3)
    assert catalog.check("--fix").code == 0
    assert catalog.check().lines == ["OK"]


@pytest.mark.parametrize("size", [MAX_LOCK_BYTES, MAX_LOCK_BYTES + 1], ids=["cap", "over"])
def test_a_lock_is_read_up_to_its_cap(catalog: Catalog, size: int) -> None:
    """Trailing blanks keep the lock's JSON the same: only its size decides."""
    with catalog.path(LOCK).open("ab") as file:
        file.write(b" " * (size - file.tell()))
    result = catalog.check()
    if size == MAX_LOCK_BYTES:
        assert (result.code, result.lines) == (0, ["OK"])
    else:
        message = "file is 8,000,001 bytes; a lock is read up to 8,000,000 bytes"
        assert (result.code, result.lines) == (1, [f"{LOCK}: {message}"])
        problem = {"file": LOCK, "line": None, "column": None, "pointer": ""}
        assert json.loads(catalog.check("--format", "json").out)["problems"] == [
            {**problem, "rule": "unreadable", "severity": "error", "message": message}
        ]


@pytest.mark.parametrize(
    "size", [MAX_FILE_BYTES + 1, MAX_ALLOWLIST_BYTES, MAX_ALLOWLIST_BYTES + 1],
    ids=["over-the-servers-cap", "cap", "over"],
)  # fmt: skip
def test_the_allowlist_is_read_up_to_its_own_cap(catalog: Catalog, size: int) -> None:
    """Never published, the allowlist is not held to the server's cap; blanks keep it empty."""
    catalog.path("secrets-allowlist.json").write_bytes(b"{}" + b" " * (size - 2))
    result = catalog.check()
    if size <= MAX_ALLOWLIST_BYTES:
        assert (result.code, result.lines) == (0, ["OK"])
    else:
        message = "file is 8,000,001 bytes; an allowlist is read up to 8,000,000 bytes"
        assert (result.code, result.lines) == (1, [f"secrets-allowlist.json: {message}"])


@pytest.mark.parametrize(
    ("open_", "inner", "close"), [("[", "", "]"), ('{"b": ', "1", "}")], ids=["arrays", "objects"]
)
def test_json_nested_exactly_to_the_limit_passes_and_one_deeper_fails(
    open_: str, inner: str, close: str
) -> None:
    def nested(depth: int) -> bytes:  # the file's own object is the first level
        return ('{"a": ' + open_ * (depth - 1) + inner + close * (depth - 1) + "}").encode()

    assert parse_json("f.json", nested(MAX_DEPTH)).data["a"] is not None
    with pytest.raises(SourceError) as refused:
        parse_json("f.json", nested(MAX_DEPTH + 1))
    [problem] = refused.value.diagnostics
    deepest = len('{"a": ') + len(open_) * (MAX_DEPTH - 1)  # where the bracket one too deep is
    assert (problem.line, problem.col, problem.rule) == (1, deepest + 1, "too-deep")
