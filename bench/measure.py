"""Wall time and peak memory of one child process and the processes it runs, and the statistics
the table shows.

Every measured command runs as its own process, as people run it: an in-process call would share
warm imports and caches between runs and hide startup costs. Two peaks are kept, both read from
``/proc`` every 20 ms while the child runs. Each process's own high-water mark (``VmHWM``, which
the kernel keeps, so no peak between two samples is missed) gives the largest resident set of
any one process of the tree, exactly but for what it gains in its last 20 ms; but not what they
held together: a build that runs Pagefind while it still holds its own memory needs the sum, so
the tree's summed RSS is sampled too, and the tree's peak is the larger of the two. ``wait4``'s
``ru_maxrss`` is no measure of the child: Linux counts in it the resident set of the process that
forked it (this bench, which may hold a large catalog) as it was at the fork; it is used only for
a child too short for any sample. A child between ``fork`` and ``exec`` is left out of the sum
(it shares its parent's pages); otherwise RSS counts pages that processes share (libraries) once
in each, so the sum errs high, never low.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Run:
    """One finished child: how long it took, its peak resident set, what it said."""

    seconds: float
    max_rss_kib: int
    """The largest resident set of one process of the tree (its ``VmHWM``), in KiB."""
    peak_kib: int
    """The tree's peak: its largest sampled sum of resident sets, or ``max_rss_kib`` if larger."""
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def tail(self, lines: int = 8) -> str:
        """The end of what it printed, for a failure message."""
        text = (self.stderr.strip() or self.stdout.strip()).splitlines()
        return "\n".join(text[-lines:])


def run(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str] | None = None,
) -> Run:
    """Run ``argv`` to completion; time it from spawn to exit and read its peak RSS."""
    full_env = {**os.environ, **(env or {})}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(argv, cwd=cwd, env=full_env, stdout=out, stderr=err)
        sampler = TreeSampler(process.pid)
        _pid, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        sampled = sampler.stop()
        largest = sampler.largest_kib or usage.ru_maxrss  # KiB on Linux
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped: Popen must not wait
        out.seek(0)
        err.seek(0)
        return Run(
            seconds,
            largest,
            max(sampled, largest),
            process.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
        )


class TreeSampler:
    """The largest sum of resident sets of a process and all its descendants, and the largest
    high-water mark of one of them, sampled from ``/proc`` in a thread until ``stop``."""

    def __init__(self, root: int, interval: float = 0.02) -> None:
        self.root = root
        self.peak_kib = 0
        self.largest_kib = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, args=(interval,), daemon=True)
        self._thread.start()

    def stop(self) -> int:
        self._done.set()
        self._thread.join()
        return self.peak_kib

    def _sample(self, interval: float) -> None:
        while not self._done.is_set():
            total, largest = tree_rss_kib(self.root)
            self.peak_kib = max(self.peak_kib, total)
            self.largest_kib = max(self.largest_kib, largest)
            self._done.wait(interval)


_PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


def tree_rss_kib(root: int) -> tuple[int, int]:
    """The resident sets of ``root`` and its descendants now, summed, and the largest high-water
    mark (``VmHWM``) among them, in KiB (0 once they are gone).

    A process's children are listed per thread, in ``/proc/PID/task/TID/children``. A child that
    has not run a program of its own (a fork: its command line is still its parent's) shares its
    parent's pages, and its resident set would count them twice: it counts with the pages it
    holds alone (``Private_Clean`` + ``Private_Dirty``: what it wrote of the shared ones, and its
    own), as the check's and the build's forked workers.
    """
    total, largest, pending = 0, 0, [(root, b"")]
    while pending:
        pid, parent_cmdline = pending.pop()
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline_file:
                cmdline = cmdline_file.read()
            if cmdline != parent_cmdline:
                with open(f"/proc/{pid}/statm", "rb") as statm:
                    total += int(statm.read().split()[1]) * _PAGE_KIB
                largest = max(largest, _high_water_kib(pid))
            else:
                total += _private_kib(pid)
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children", "rb") as children:
                    pending.extend((int(child), cmdline) for child in children.read().split())
        except (OSError, ValueError, IndexError):  # it exited meanwhile
            continue
    return total, largest


def _private_kib(pid: int) -> int:
    """The pages a process holds alone, in KiB (0 where the kernel does not say)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as rollup:
            return sum(
                int(line.split()[1])
                for line in rollup
                if line.startswith((b"Private_Clean:", b"Private_Dirty:"))
            )
    except OSError:
        return 0


def _high_water_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", "rb") as status:
        for line in status:
            if line.startswith(b"VmHWM:"):
                return int(line.split()[1])
    return 0


def median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def paired_ratio(
    numerators: Sequence[float | None], denominators: Sequence[float | None]
) -> float | None:
    """The median of per-run ratios, run i against run i: each run timed both back to back, under
    the same noise. A failed run (``None``) leaves no ratio: it fails the target instead of
    shifting the pairs."""
    pairs = list(zip(numerators, denominators, strict=True))
    if not pairs or any(a is None or b is None or b <= 0 for a, b in pairs):
        return None
    return median([a / b for a, b in pairs])  # type: ignore[operator]


TIMES = "\N{MULTIPLICATION SIGN}"


def secs(values: Sequence[float | None]) -> str:
    """The median of the runs that succeeded, as the tables print it."""
    value = median([v for v in values if v is not None])
    return "—" if value is None else f"{value:.2f} s"


def ratio_text(value: float | None) -> str:
    """``—`` where a run failed: the failure is printed under the table."""
    return "—" if value is None else f"{value:.2f}{TIMES}"


def markdown(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows]
    return "\n".join(lines)
