"""A large catalog's check reads its bundles in worker processes: it must say exactly what the
sequential check says, problems, positions, order and lock hashes, and a worker that fails must
be one line of the report, never a traceback or a hang."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from bench.generate import generate
from build_tools.check import CheckResult, check_catalog
from build_tools.check import workers as parallel_read
from build_tools.cli.convert import convert_catalog
from build_tools.model.catalog import Bundle, DirectorySource

TOKEN = "ghp" + "_" + "q8Zr2LmX4vT9wKp3Hs7Yb1Nc6Dj0Fg5Ae2Ux"
"""A GitHub token's shape, which the secret scan reports."""


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six bundles of 25 roles in two languages: twelve files, both shares of the split."""
    return generate(tmp_path_factory.mktemp("parallel") / "catalog", 150, instructions=300)


@pytest.fixture
def catalog(generated: Path, tmp_path: Path) -> Path:
    root = tmp_path / "catalog"
    shutil.copytree(generated, root)
    return root


def _check(root: Path, monkeypatch: pytest.MonkeyPatch, *, parallel: bool) -> CheckResult:
    with monkeypatch.context() as patch:
        patch.setattr(parallel_read, "usable_cores", lambda: 2)
        patch.setattr(parallel_read, "PARALLEL_FILES", 1 if parallel else 10**9)
        return check_catalog(root, parallel=True)


def _same(root: Path, monkeypatch: pytest.MonkeyPatch) -> CheckResult:
    sequential = _check(root, monkeypatch, parallel=False)
    parallel = _check(root, monkeypatch, parallel=True)
    assert parallel.diagnostics == sequential.diagnostics
    assert parallel.warnings == sequential.warnings
    assert parallel.current == sequential.current
    assert parallel.changes == sequential.changes
    assert parallel.stale_allowed == sequential.stale_allowed
    return parallel


def _edit(path: Path, change: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")


def test_the_workers_are_used_and_a_clean_catalog_passes_the_same(
    catalog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[int] = []
    original = parallel_read.WorkerReads._start

    def start(self: parallel_read.WorkerReads, bundles: list[Bundle]) -> None:
        original(self, bundles)
        started.append(sum(1 for run in self._pending.values() if run.future is not None))

    monkeypatch.setattr(parallel_read.WorkerReads, "_start", start)
    result = _same(catalog, monkeypatch)
    assert result.ok and len(result.current) == 150
    assert started and 0 < started[-1] < 6  # some bundles to the worker, the rest read here


def test_a_change_without_a_bump_is_the_same_lock_problem(
    catalog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def reword(data: Any) -> None:
        data["roles"][3]["description"] += " (changed)"

    _edit(catalog / "bundles/bundle-0003/ru.json", reword)
    result = _same(catalog, monkeypatch)
    assert [d.rule for d in result.diagnostics] == ["lock-not-bumped"]


def _break_several(root: Path, extension: str) -> None:
    """A problem of another kind in each of several bundles, read by either process."""
    (root / f"bundles/bundle-0000/en{extension}").write_text("{ not valid", encoding="utf-8")
    broken = root / f"bundles/bundle-0001/ru{extension}"
    text = broken.read_text(encoding="utf-8")
    if extension == ".json":
        data = json.loads(text)
        data["roles"][2]["name"] = 7
        data["roles"][5]["description"] = " surrounded by spaces "
        broken.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    else:
        marker = "slug: role-00027"
        assert marker in text
        text = text.replace(marker, f"{marker}\n  unknownField: 1", 1)
        broken.write_text(text, encoding="utf-8")
        held = root / "bundles/bundle-0004/ru.yaml"
        held.write_text(f"# {TOKEN}\n" + held.read_text(encoding="utf-8"), encoding="utf-8")
    # A credential in a file that is otherwise sound, in a role's instructions.
    secret = root / f"bundles/bundle-0004/en{extension}"
    text = secret.read_text(encoding="utf-8")
    opening = '"instructions": "' if extension == ".json" else "instructions: |-\n    "
    assert opening in text
    secret.write_text(text.replace(opening, f"{opening}key {TOKEN} ", 1), encoding="utf-8")
    (root / f"bundles/bundle-0002/en{extension}").unlink()
    unreadable = root / f"bundles/bundle-0003/en{extension}"
    unreadable.unlink()
    unreadable.mkdir()  # unreadable as a file, even by root
    (root / f"bundles/bundle-0005/de{extension}").write_text("{}", encoding="utf-8")


def test_problems_in_several_bundles_are_the_same_diagnostics(
    catalog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _break_several(catalog, ".json")
    result = _same(catalog, monkeypatch)
    rules = {d.rule for d in result.diagnostics}
    assert {"json-syntax", "missing-file", "unreadable", "undeclared-file"} <= rules
    assert "secret" in rules
    assert len({d.file for d in result.diagnostics}) >= 5


def test_a_yaml_catalog_with_problems_is_the_same(
    catalog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conversion = convert_catalog(catalog, "yaml")
    assert not getattr(conversion, "diagnostics", [])
    assert _same(catalog, monkeypatch).ok
    _break_several(catalog, ".yaml")
    result = _same(catalog, monkeypatch)
    assert {"yaml-syntax", "missing-file", "unreadable", "secret"} <= {
        d.rule for d in result.diagnostics
    }
    assert all(d.line > 0 for d in result.diagnostics if d.rule == "secret")


def test_a_worker_that_dies_is_one_line_per_file_it_held(
    catalog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def die(*arguments: Any, **keywords: Any) -> Any:
        if os.getpid() != parent:
            os._exit(3)
        return original(*arguments, **keywords)

    parent, original = os.getpid(), parallel_read._check_run
    monkeypatch.setattr(parallel_read, "_check_run", die)
    result = _check(catalog, monkeypatch, parallel=True)
    failed = [d for d in result.diagnostics if d.rule == "unreadable"]
    assert failed and len(failed) == len(result.diagnostics)
    for diagnostic in failed:
        assert "\n" not in diagnostic.message
        assert diagnostic.message.startswith("not checked: the worker process reading it failed")
    assert not result.ok and not result.current


def test_a_worker_that_raises_is_one_line_too(
    catalog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*arguments: Any, **keywords: Any) -> Any:
        if os.getpid() != parent:
            raise MemoryError("out of memory\nsecond line")
        return original(*arguments, **keywords)

    parent, original = os.getpid(), parallel_read._check_run
    monkeypatch.setattr(parallel_read, "_check_run", fail)
    result = _check(catalog, monkeypatch, parallel=True)
    failed = [d for d in result.diagnostics if d.rule == "unreadable"]
    assert failed and all("\n" not in d.message for d in failed)
    assert any("MemoryError: out of memory)" in d.message for d in failed)


def _after_each_worker_run(monkeypatch: pytest.MonkeyPatch, change: Any) -> None:
    """``change(bundle)`` called in a worker once it has read and checked each run; the parent
    claims no run before a worker has claimed one (on a busy machine it could claim them all
    before the worker starts, and no change would be made)."""
    parent, original = os.getpid(), parallel_read._check_run
    claim = parallel_read.WorkerReads._claim

    def after_a_worker(self: Any, numbers: range) -> list[int]:
        claims = self._claims
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and parallel_read._WORKER not in claims[:]:
            time.sleep(0.01)
        return claim(self, numbers)

    monkeypatch.setattr(parallel_read.WorkerReads, "_claim", after_a_worker)

    def then_change(
        source: Any, index: Any, bundles: list[Bundle], formats: Any, **keywords: Any
    ) -> Any:
        found = original(source, index, bundles, formats, **keywords)
        if os.getpid() != parent:
            change(bundles[0])
        return found

    monkeypatch.setattr(parallel_read, "_check_run", then_change)


def test_a_file_changed_after_its_worker_read_it_is_judged_as_read(
    catalog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the sequential check judges a file changed after it read it: the parent needs none of
    a sound file's bytes, so it does not read them again."""
    before = _check(catalog, monkeypatch, parallel=False)

    def break_a_name(bundle: Bundle) -> None:
        path = catalog / f"bundles/{bundle.id}/en.json"
        _edit(path, lambda data: data["roles"][0].update(name=9))

    _after_each_worker_run(monkeypatch, break_a_name)
    parallel = _check(catalog, monkeypatch, parallel=True)
    assert parallel.ok and parallel.current == before.current
    after = _check(catalog, monkeypatch, parallel=False)
    assert {d.rule for d in after.diagnostics} == {"schema-type"}  # each edit was made


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            lambda path: path.write_bytes(path.read_bytes() + b"\n"),
            "its bytes are not the ones checked",
        ),
        (lambda path: path.unlink(), "it is gone"),
    ],
    ids=["edited", "deleted"],
)
def test_a_position_in_a_file_changed_since_its_worker_read_it_is_one_line(
    catalog: Path, monkeypatch: pytest.MonkeyPatch, change: Any, reason: str
) -> None:
    """A name taken in two bundles is reported at its place in the second, which a worker read:
    the parent reads that file for the position, and it is no longer the one checked."""
    taken = json.loads((catalog / "bundles/bundle-0000/en.json").read_bytes())["roles"][0]["name"]
    second = catalog / "bundles/bundle-0005/en.json"
    _edit(second, lambda data: data["roles"][0].update(name=taken))

    def change_it(bundle: Bundle) -> None:
        if bundle.id == "bundle-0005":
            change(second)

    _after_each_worker_run(monkeypatch, change_it)
    result = _check(catalog, monkeypatch, parallel=True)
    assert [(d.file, d.rule) for d in result.diagnostics] == [
        ("bundles/bundle-0005/en.json", "changed-while-checked")
    ]
    assert f"({reason}): check it again" in str(result.diagnostics[0])


def test_the_rules_across_bundles_see_the_files_workers_read(
    catalog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name taken in two bundles and a tier word, in bundles the workers check first (from
    the last back): the parent finds them in what the workers sent, at their positions."""

    def name_of(path: Path) -> str:
        return str(json.loads(path.read_text(encoding="utf-8"))["roles"][0]["name"])

    taken = name_of(catalog / "bundles/bundle-0000/en.json")
    _edit(catalog / "bundles/bundle-0005/en.json", lambda data: data["roles"][0].update(name=taken))
    for language in ("en", "ru"):
        _edit(
            catalog / f"bundles/bundle-0004/{language}.json",
            lambda data: data["roles"][1].update(modelConfig={"chatModel": "pro"}),
        )
    result = _same(catalog, monkeypatch)
    found = {(d.rule, d.file, d.line > 0) for d in result.warnings}
    assert ("server-duplicate-name-across-bundles", "bundles/bundle-0005/en.json", True) in found
    assert ("server-model-is-literal", "bundles/bundle-0004/en.json", True) in found


def test_the_rules_are_split_into_those_of_one_bundle_and_those_across_bundles() -> None:
    from build_tools.rules import across_files, server_contract

    rules = across_files.BUNDLE_RULES + across_files.CATALOG_RULES
    assert sorted(rule.__name__ for rule in rules) == sorted(r.__name__ for r in across_files.RULES)
    server = server_contract.SERVER_BUNDLE_RULES + server_contract.SERVER_CATALOG_RULES
    assert set(server) == set(server_contract.SERVER_RULES)
    assert server_contract.unique_names in server_contract.SERVER_CATALOG_RULES


def test_a_run_a_worker_could_not_judge_is_checked_here(
    catalog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker sends no instructions: a file it did not judge is judged here, from the file."""
    parent, original = os.getpid(), parallel_read.judge_document

    def judge_here_only(*arguments: Any) -> Any:
        if os.getpid() != parent:
            raise RuntimeError("cannot judge")
        return original(*arguments)

    monkeypatch.setattr(parallel_read, "judge_document", judge_here_only)
    assert _same(catalog, monkeypatch).ok


def test_a_process_allowed_one_core_checks_alone(
    catalog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A container or ``taskset`` may allow one core of many: no worker is started then."""
    monkeypatch.setattr(parallel_read, "PARALLEL_FILES", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0}, raising=False)
    reads = parallel_read.WorkerReads(catalog, ("json", "yaml"))
    index, _problems = reads.read(DirectorySource(catalog), "index", "index")
    assert index is not None and not reads.started
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    reads = parallel_read.WorkerReads(catalog, ("json", "yaml"))
    reads.read(DirectorySource(catalog), "index", "index")
    assert reads.started
    reads.close()
