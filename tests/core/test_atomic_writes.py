"""Every command that writes the catalog leaves it as it was or completely changed.

Each command runs in a subprocess that is killed (SIGKILL) just before its N-th file-system
change under the catalog, for every N until it completes; and again with ``RLIMIT_FSIZE`` set so
that writing a file of a given size fails, as on a full disk. After a kill the catalog's visible
files are the old state or the new one, unless the change had committed (its journal says so),
and any rolecat command then makes them the old or the new state with nothing left behind. After
a failed write the catalog is exactly as it was, and the error is one line with exit 1.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from build_tools.atomic import JOURNAL_PREFIX, Transaction, WriteError, recover
from build_tools.check import check_catalog
from build_tools.cli.convert import convert_catalog
from build_tools.scope import catalog_scope
from tests.support.paths import OUR_CATALOG, REPO

# Runs the CLI with an audit hook that kills the process before the N-th change under ROOT, or
# with a file-size limit (SIGXFSZ ignored, so the write fails with EFBIG instead of killing).
_HARNESS = r"""
import os, resource, runpy, signal, sys
root = os.environ["HARNESS_ROOT"]
kill_at = int(os.environ.get("HARNESS_KILL_AT", "0"))
limit = os.environ.get("HARNESS_FSIZE")
if limit is not None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(limit), int(limit)))
WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
CHANGES = {"os.rename", "os.remove", "os.mkdir", "os.rmdir", "os.link", "os.chmod"}
seen = 0
def hook(event, args):
    global seen
    if event == "open":
        path, mode, flags = args
        writing = (mode is not None and any(c in mode for c in "wax+")) or (flags & WRITING)
    else:
        path, writing = (args[0] if args else ""), event in CHANGES
    if not writing or not isinstance(path, (str, bytes, os.PathLike)):
        return
    if not os.path.abspath(os.fsdecode(path)).startswith(root):
        return
    seen += 1
    if seen == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)
if kill_at:
    sys.addaudithook(hook)
sys.argv = ["rolecat", *sys.argv[1:]]
runpy.run_module("build_tools", run_name="__main__")
"""


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file's bytes and every directory (as ``None``), by path under ``root``."""
    found: dict[str, bytes | None] = {}
    for path in sorted(root.rglob("*")):
        key = path.relative_to(root).as_posix()
        found[key] = None if path.is_dir() else path.read_bytes()
    return found


def visible(state: dict[str, bytes | None]) -> dict[str, bytes | None]:
    """What a person or git sees: without rolecat's journal and hidden work files."""
    return {
        k: v
        for k, v in state.items()
        if not any(part.startswith((JOURNAL_PREFIX, ".rolecat-")) for part in k.split("/"))
    }


def harness(root: Path, args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "HARNESS_ROOT": str(root)}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-c", _HARNESS, *args, "--catalog", str(root)],
        capture_output=True,
        text=True,
        env=environment,
        cwd=REPO,
        timeout=120,
    )


def bumped_and_renamed(root: Path) -> None:
    """A content change with its version bumped: ``--fix`` has a lock to write."""
    path = root / "bundles" / "engineering" / "en.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["roles"][0]["name"] += " (revised)"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    index = json.loads((root / "index.json").read_text(encoding="utf-8"))
    slug = data["roles"][0]["slug"]
    for bundle in index["bundles"]:
        for entry in bundle["roles"]:
            if entry["slug"] == slug:
                entry["version"] += 1
    (root / "index.json").write_text(json.dumps(index, indent=2) + "\n", encoding="utf-8")


def unchanged(root: Path) -> None:
    pass


COMMANDS: dict[str, tuple[list[str], Callable[[Path], None]]] = {
    "check --fix": (["check", "--fix"], bumped_and_renamed),
    "convert": (["convert", "--to", "yaml"], unchanged),
    "new role": (["new", "role", "incident-scribe", "--bundle", "engineering"], unchanged),
    "new bundle": (["new", "bundle", "support", "--languages", "en,ru"], unchanged),
    "add-language": (["add-language", "de", "--bundle", "writing"], unchanged),
}


def prepared(tmp_path: Path, name: str, prepare: Callable[[Path], None]) -> Path:
    root = tmp_path / name / "catalog"
    shutil.copytree(OUR_CATALOG, root)
    prepare(root)
    return root


@pytest.mark.parametrize("command", COMMANDS)
def test_killed_at_any_point_leaves_the_old_or_the_new_catalog(
    tmp_path: Path, command: str
) -> None:
    args, prepare = COMMANDS[command]
    reference = prepared(tmp_path, "reference", prepare)
    old = snapshot(reference)
    done = harness(reference, args)
    assert done.returncode == 0, done.stderr
    new = snapshot(reference)
    assert new != old
    point = 0
    while True:
        point += 1
        assert point < 200, "the command never completed under the harness"
        root = prepared(tmp_path, f"kill-{point}", prepare)
        killed = harness(root, args, HARNESS_KILL_AT=str(point))
        if killed.returncode == 0:  # the command made fewer changes than ``point``: all seen
            assert snapshot(root) == new
            break
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        seen = visible(snapshot(root))
        committed = any((j / "committed").exists() for j in root.glob(f"{JOURNAL_PREFIX}*"))
        assert seen in (old, new) or committed, f"killed before change {point}: a mix"
        check_catalog(root)  # any rolecat command finishes or undoes it first
        assert snapshot(root) in (old, new), f"killed before change {point}: not recovered"
    assert point > 3  # the harness did see the command's changes


@pytest.mark.parametrize("command", COMMANDS)
def test_a_write_that_fails_changes_nothing(tmp_path: Path, command: str) -> None:
    args, prepare = COMMANDS[command]
    reference = prepared(tmp_path, "reference", prepare)
    before = snapshot(reference)
    assert harness(reference, args).returncode == 0
    sizes = {len(v) for k, v in snapshot(reference).items() if v is not None and before.get(k) != v}
    for limit in sorted({0, 1, *(size - 1 for size in sizes if size)}):
        root = prepared(tmp_path, f"limit-{limit}", prepare)
        old = snapshot(root)
        failed = harness(root, args, HARNESS_FSIZE=str(limit))
        assert failed.returncode == 1, (limit, failed.stdout, failed.stderr)
        assert "RLIMIT_FSIZE" in failed.stdout + failed.stderr
        assert "Traceback" not in failed.stderr
        assert snapshot(root) == old, f"a write failing over {limit} bytes changed the catalog"
    if command in ("check --fix", "convert"):  # these report the failed write as a problem
        root = prepared(tmp_path, "as-json", prepare)
        failed = harness(root, [*args, "--format", "json"], HARNESS_FSIZE="0")
        assert [p["rule"] for p in json.loads(failed.stdout)["problems"]] == ["write-failed"]


def test_a_change_another_command_is_making_is_left_alone(tmp_path: Path) -> None:
    import fcntl

    journal = tmp_path / f"{JOURNAL_PREFIX}busy"
    journal.mkdir()
    held = os.open(journal, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(held, fcntl.LOCK_EX)
    try:
        with pytest.raises(WriteError, match="another rolecat command"):
            recover(catalog_scope(tmp_path))
        change = Transaction(catalog_scope(tmp_path))
        change.write(tmp_path / "a.json", b"{}")
        with pytest.raises(WriteError):
            change.apply()
        assert not (tmp_path / "a.json").exists()
        [busy] = convert_catalog(tmp_path, "yaml").diagnostics  # a second command is refused
        assert busy.rule == "busy" and "another rolecat command" in busy.message
    finally:
        os.close(held)
    assert recover(catalog_scope(tmp_path))  # the command gone, its empty journal is removed
    assert list(tmp_path.iterdir()) == []


def test_a_target_that_is_a_directory_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    (tmp_path / "index.json").write_bytes(b"old")
    (tmp_path / "content-hashes.json").mkdir()
    change = Transaction(catalog_scope(tmp_path))
    change.write(tmp_path / "index.json", b"new")
    change.write(tmp_path / "content-hashes.json", b"{}")
    with pytest.raises(WriteError, match="is a directory"):
        change.apply()
    assert (tmp_path / "index.json").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content-hashes.json", "index.json"]


LONG = "a" * 300


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["new", "role", LONG, "--bundle", "engineering"], "<slug>.claude.md, would be named 310"),
        (["new", "bundle", LONG, "--languages", "en"], "its directories would be named 300 bytes"),
        (["new", "bundle", "support", "--languages", LONG], "its bundle file would be named 305"),
        (["add-language", LONG, "--bundle", "writing"], "its bundle file would be named 305"),
    ],
    ids=["slug", "bundle id", "new bundle's language", "added language"],
)
def test_a_scaffold_refuses_a_name_no_file_system_holds(
    tmp_path: Path, args: list[str], message: str
) -> None:
    root = prepared(tmp_path, "long", unchanged)
    before = snapshot(root)
    refused = harness(root, args)
    assert refused.returncode == 1
    assert refused.stderr.count("\n") == 1 and message in refused.stderr
    assert "a name holds at most 255; shorten" in refused.stderr  # the words of the check's rule
    assert snapshot(root) == before


@pytest.mark.parametrize("in_the_way", ["bundles/support", "bundles"])
def test_a_scaffold_refuses_a_file_where_a_directory_must_go(
    tmp_path: Path, in_the_way: str
) -> None:
    root = prepared(tmp_path, "file", unchanged)
    if (root / in_the_way).is_dir():
        shutil.rmtree(root / in_the_way)
    (root / in_the_way).write_bytes(b"")
    before = snapshot(root)
    refused = harness(root, ["new", "bundle", "support", "--languages", "en,ru"])
    assert refused.returncode == 1, refused.stderr
    assert refused.stderr.count("\n") == 1
    assert f"{in_the_way}: is a file where a directory must go" in refused.stderr
    assert snapshot(root) == before


def test_what_is_not_a_journal_of_ours_is_left_alone_and_a_torn_plan_is_undone(
    tmp_path: Path,
) -> None:
    (tmp_path / f"{JOURNAL_PREFIX}a-file").write_text("not a directory", encoding="utf-8")
    torn = tmp_path / f"{JOURNAL_PREFIX}torn"
    torn.mkdir()
    (torn / "plan.json").write_text('{"entries": [["a', encoding="utf-8")  # killed mid-write
    (tmp_path / "index.json").write_bytes(b"as it was")
    done = recover(catalog_scope(tmp_path))
    assert done == [f"removed {torn.name}: an interrupted change that had written nothing"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{JOURNAL_PREFIX}a-file", "index.json"]
    assert (tmp_path / "index.json").read_bytes() == b"as it was"


def test_a_failed_write_is_one_line_naming_the_file_not_the_hidden_one(tmp_path: Path) -> None:
    """The temporary files have names of their own; the message names the target."""
    import resource

    (tmp_path / "index.json").write_bytes(b"{}")
    change = Transaction(catalog_scope(tmp_path))
    change.write(tmp_path / "index.json", b"x" * 4096)
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024, limit[1]))
    try:
        with pytest.raises(WriteError) as failed:
            change.apply()
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limit)
        signal.signal(signal.SIGXFSZ, previous)
    assert failed.value.path == tmp_path / "index.json"
    assert "RLIMIT_FSIZE" in failed.value.reason
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.json"]
    assert (tmp_path / "index.json").read_bytes() == b"{}"
