"""The bench's memory figures are the measured command's own, whatever the bench holds."""

from __future__ import annotations

import sys
from pathlib import Path

from bench.measure import run

MiB = 1024

HOLDS_80_MIB = (
    "import time\n"
    "held = bytearray(80 * 2**20)\n"
    "for i in range(0, len(held), 4096): held[i] = 1\n"
    "time.sleep(0.3)\n"
)


def test_a_small_child_of_a_large_bench_is_measured_at_its_own_size(tmp_path: Path) -> None:
    # Linux counts the forking process's resident set in a child's ru_maxrss: a bench holding a
    # large catalog would see it in every command it runs.
    bench_holds = bytearray(300 * 2**20)
    for i in range(0, len(bench_holds), 4096):
        bench_holds[i] = 1
    result = run([sys.executable, "-c", HOLDS_80_MIB], cwd=tmp_path)
    assert result.ok, result.tail()
    assert 80 * MiB <= result.max_rss_kib < 150 * MiB
    assert result.max_rss_kib <= result.peak_kib < 200 * MiB
    del bench_holds


FORKS_A_CHILD_WRITING_80_MIB = (
    "import os, time\n"
    "shared = bytearray(200 * 2**20)\n"
    "for i in range(0, len(shared), 4096): shared[i] = 1\n"
    "if os.fork() == 0:\n"
    "    for i in range(0, 80 * 2**20, 4096): shared[i] = 2\n"  # copied on write: its own
    "    time.sleep(0.6)\n"
    "    os._exit(0)\n"
    "time.sleep(0.8)\n"
    "os.wait()\n"
)


def test_a_forked_child_counts_with_the_pages_it_holds_alone(tmp_path: Path) -> None:
    result = run([sys.executable, "-c", FORKS_A_CHILD_WRITING_80_MIB], cwd=tmp_path)
    assert result.ok, result.tail()
    # The parent's 200 MiB once, and the 80 MiB the child wrote of them: not 400.
    assert 270 * MiB <= result.peak_kib < 340 * MiB
