"""The check against the checker people have today: ``rolecat check`` and the upstream
``check.mjs`` of the catalog's generation (``bench/peers.py``), on one catalog directory, timed
back to back, with the bare Python floor (``bench/floor.py``) beside them for JSON catalogs."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench import peers
from bench.catalogs import REPO, SIZES, MiB, catalog_for, say, shape, yaml_catalog_for
from bench.measure import TIMES, Run, markdown, paired_ratio, ratio_text, run, secs

GENERATIONS = ("json", "yaml")
TARGET_CHECK = {"S": 1.0, "L": 0.5}
"""``rolecat check`` at most this many times ``check.mjs``, wall clock, by size."""


@dataclass
class CheckRow:
    """``rolecat check`` against ``check.mjs`` (and the floor, for JSON) on one catalog."""

    size: str
    generation: str
    catalog: Path | None = None
    """The one directory both checkers read: the catalog, ``scripts/check.mjs`` and the lock."""
    source: str = ""
    """Where the catalog came from, for the table."""
    roles: int = 0
    languages: int = 0
    peer: list[float | None] = field(default_factory=list)
    """Seconds of each run, ``None`` where the run failed: run i pairs with run i of the others."""
    check: list[float | None] = field(default_factory=list)
    floor: list[float | None] = field(default_factory=list)
    skipped: str | None = None
    """Why the peer was not timed (not there, no node), or ``None``."""
    failures: list[str] = field(default_factory=list)

    def ratio(self) -> float | None:
        """``rolecat check`` / ``check.mjs``: ``None`` where the peer was skipped or failed."""
        if self.skipped is not None:
            return None
        return paired_ratio(self.check, self.peer)

    def floor_ratio(self) -> float | None:
        return paired_ratio(self.check, self.floor) if self.floor else None


def _floor(catalog: Path) -> Run:
    return run([sys.executable, str(REPO / "bench" / "floor.py"), str(catalog)], cwd=REPO)


def check_source(size: str, generation: str, work: Path) -> tuple[Path | None, str]:
    """The catalog both checkers are timed on, and where it comes from; ``None`` and why not."""
    if SIZES[size] is None:
        fixture = peers.fixtures_dir() / peers.FIXTURES[generation]
        if not fixture.is_dir():
            return None, (
                f"the upstream fixture is not at {fixture}: set {peers.FIXTURES_VARIABLE} to the "
                "directory of the upstream fixtures"
            )
        return fixture, "upstream fixture"
    if generation == "json":
        return catalog_for(size, work), "synthetic"
    return yaml_catalog_for(size, work), "synthetic, rolecat convert --to yaml"


def peer_ready(generation: str, work: Path, node: str | None) -> tuple[Path | None, str | None]:
    """The upstream checker of ``generation``, ready to run, or ``None`` and why it is skipped.
    Raises ``RuntimeError`` where it is there but cannot be made ready (npm failed)."""
    script = peers.peer_script(generation, peers.peers_dir())
    if script is None:
        return None, (
            f"the upstream checker is not at {peers.peers_dir() / peers.SCRIPTS[generation]}: "
            f"set {peers.PEERS_VARIABLE} to the directory of the peers to time it"
        )
    if node is None:
        return None, "node is not installed, so check.mjs cannot run"
    if generation == "yaml":
        problem = peers.yaml_package(work, say)
        if problem is not None and problem.startswith("npm is not installed"):
            return None, problem
        if problem is not None:
            raise RuntimeError(problem)
    return script, None


def time_checkers(
    row: CheckRow, commands: peers.Commands, runs: int, *, peer: bool, floor: bool
) -> None:
    """Time ``check.mjs`` (unless not ``peer``), ``rolecat check`` and the floor (if ``floor``)
    back to back, ``runs`` times, on ``row.catalog``: ``commands`` name that one directory.

    Nothing is timed before each command has run once on the catalog and said it is fine: the peer
    ``OK`` and exit 0, ``rolecat check`` ``OK`` alone. A peer that does not fails the row: it is
    recorded as a failure and has no number, and neither has ``rolecat check`` beside it."""
    catalog = row.catalog
    assert catalog is not None
    if peer:
        first = run(commands.peer, cwd=catalog)
        problem = peers.peer_problem(first)
        if problem is not None:
            row.failures.append(problem)
            say(f"{row.size} {row.generation}: {problem}")
            return
    first = run(commands.check, cwd=REPO)
    problem = peers.check_problem(first, catalog)
    if problem is not None:
        row.failures.append(problem)
        say(f"{row.size} {row.generation}: {problem}")
        return
    if floor:
        _floor(catalog)  # warm the page cache and the bytecode caches alike
    for number in range(runs):
        if peer:
            result = run(commands.peer, cwd=catalog)
            _time(row, result, peers.peer_problem(result), row.peer)
        result = run(commands.check, cwd=REPO)
        _time(row, result, peers.check_problem(result, catalog), row.check)
        if floor:
            result = _floor(catalog)
            _time(row, result, None if result.ok else f"floor failed:\n{result.tail()}", row.floor)
        say(f"{row.size} {row.generation}: checkers run {number + 1}/{runs}")


def _time(row: CheckRow, result: Run, problem: str | None, times: list[float | None]) -> None:
    """Each run takes its place, a failed one as ``None``: run i always pairs with run i."""
    times.append(None if problem else result.seconds)
    if problem:
        row.failures.append(problem)
        say(f"{row.size} {row.generation}: {problem}")


def measure_checkers(
    size: str, generation: str, work: Path, runs: int, node: str | None
) -> CheckRow:
    """One row of the checkers' table: the catalog laid out once, then both checkers on it."""
    row = CheckRow(size, generation)
    source, row.source = check_source(size, generation, work)
    if source is None:
        row.skipped = row.source
        row.source = "—"
        return row
    try:
        script, row.skipped = peer_ready(generation, work, node)
    except RuntimeError as error:
        script, row.skipped = None, None
        row.failures.append(str(error))
        say(f"{size} {generation}: {error}")
    target = work / "run" / f"{size}-{generation}-checkers"
    row.catalog = peers.lay_out(source, target, script)
    row.roles, row.languages, _bytes = shape(row.catalog)
    say(f"{size} {generation}: {row.roles:,} roles x {row.languages}, {_bytes / MiB:.1f} MiB")
    both = peers.commands(row.catalog, sys.executable, node or "node")
    if row.failures:  # the peer is there but could not be made ready: no number at all
        return row
    time_checkers(row, both, runs, peer=script is not None, floor=generation == "json")
    return row


def check_target(size: str) -> float | None:
    return TARGET_CHECK.get(size)


def check_table(rows: Sequence[CheckRow]) -> str:
    header = [
        "size",
        "catalog",
        "generation",
        f"roles {TIMES} langs",
        "check.mjs",
        "rolecat check",
        "check/check.mjs",
        "target",
        "floor",
        "check/floor",
    ]
    cells = []
    for row in rows:
        target = check_target(row.size)
        peer = secs(row.peer) if row.skipped is None else "skipped"
        cells.append(
            [
                row.size,
                row.source,
                f"{row.generation.upper()} (check-{row.generation}.mjs)",
                f"{row.roles:,} {TIMES} {row.languages}" if row.roles else "—",
                peer if not (row.failures and not row.peer) else "FAILED",
                secs(row.check),
                ratio_text(row.ratio()),
                "—" if target is None else f"≤ {target}{TIMES}",
                secs(row.floor) if row.floor else "—",
                ratio_text(row.floor_ratio()),
            ]
        )
    return markdown(header, cells)


Target = tuple[str, bool | None, str]


def check_targets(checks: Sequence[CheckRow]) -> list[Target]:
    """``rolecat check`` against ``check.mjs``, at S and at L, in each generation."""
    found: list[Target] = []
    by_key = {(row.size, row.generation): row for row in checks}
    for size, target in TARGET_CHECK.items():
        for generation in GENERATIONS:
            row = by_key.get((size, generation))
            ratio = row.ratio() if row else None
            measured = row is not None and row.skipped is None
            roles = "6 roles" if SIZES[size] is None else f"{SIZES[size]:,} {TIMES} 2"
            note = ""
            if row is not None and row.skipped is not None:
                note = f" (skipped: {row.skipped})"
            found.append(
                (
                    f"rolecat check ≤ {target}{TIMES} check-{generation}.mjs at {size} ({roles}, "
                    f"{generation.upper()}), wall clock, every rule and the secret scan on",
                    None if not measured else ratio is not None and ratio <= target,
                    ratio_text(ratio) + note,
                )
            )
    return found
