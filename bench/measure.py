"""Wall time and peak memory of one child process, and the statistics the table shows.

Every measured command runs as its own process, as people run it: an in-process call would share
warm imports and caches between runs and hide startup costs. Peak memory comes from ``wait4``,
which reports the resource usage of exactly that child (and what it waited for), unlike
``getrusage(RUSAGE_CHILDREN)`` in a long-lived process, which keeps the maximum over all children.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Run:
    """One finished child: how long it took, its peak resident set, what it said."""

    seconds: float
    max_rss_kib: int
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
        _pid, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped: Popen must not wait
        out.seek(0)
        err.seek(0)
        return Run(
            seconds,
            usage.ru_maxrss,  # KiB on Linux
            process.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
        )


def median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None
