"""``rolecat mcp`` among the other commands: its help ends as theirs do, and no other command
imports the MCP SDK (only ``rolecat mcp`` pays for it)."""

from __future__ import annotations

import subprocess
import sys

from tests.support.catalogs import Catalog
from tests.support.cli import run
from tests.support.paths import REPO


def test_help_ends_with_an_example_and_the_exit_codes() -> None:
    result = run("mcp", "--help")
    assert result.code == 0 and result.err == ""
    examples = result.out.index("\nexamples:\n  rolecat mcp ")
    codes = result.out.index("\nexit codes:\n  0  the client ended the session\n  1  refused: ")
    assert examples < codes
    assert result.out.endswith("\n  2  usage error (bad arguments, no such catalog directory)\n")


CHECK_AND_LIST = """
import sys
from build_tools.cli.main import main
code = main(["check", "--catalog", sys.argv[1]])
print(sorted(m for m in sys.modules if m.split(".")[0] in {"mcp", "anyio", "pydantic"}
             or m.startswith("build_tools.mcp")))
sys.exit(code)
"""


def test_no_other_command_imports_the_sdk(catalog: Catalog) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHECK_AND_LIST, str(catalog.root)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
