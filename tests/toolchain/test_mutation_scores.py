"""The table `make mutate` ends with: mutmut's per-mutant verdicts counted per module."""

from __future__ import annotations

import subprocess
import sys

from tests.support.paths import REPO

SCRIPT = REPO / "scripts" / "mutation_scores.py"


def scores(results: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT)], input=results, capture_output=True, text=True
    )


def test_each_module_gets_its_row_and_its_score() -> None:
    done = scores(
        "    build_tools.lock.x_changes__mutmut_1: killed\n"
        "    build_tools.lock.x_changes__mutmut_2: survived\n"
        "    build_tools.lock.xǁLockǁread__mutmut_1: timeout\n"
        "    build_tools.lock.x_render__mutmut_7: no tests\n"
        "    build_tools.rules.x_check__mutmut_1: not checked\n"
        "    build_tools.rules.x_check__mutmut_2: suspicious\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[2:] == [
        "| build_tools.lock | 4 | 0 | 1 | 1 | 1 | 1 | 0 | 50.0 % |",
        "| build_tools.rules | 2 | 1 | 0 | 0 | 0 | 0 | 1 | 0.0 % |",
        "| all | 6 | 1 | 1 | 1 | 1 | 1 | 1 | 40.0 % |",
    ]


def test_a_module_not_run_yet_has_no_score() -> None:
    done = scores("    build_tools.schema.x_screen__mutmut_1: not checked\n")
    row = "| build_tools.schema | 1 | 1 | 0 | 0 | 0 | 0 | 0 | not run |"
    assert done.stdout.splitlines()[2] == row


def test_without_results_it_says_what_to_run() -> None:
    done = scores("")
    assert (done.returncode, done.stdout) == (1, "")
    assert "make mutate" in done.stderr
