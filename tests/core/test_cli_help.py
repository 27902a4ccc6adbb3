"""``rolecat --version``, and every command's ``--help`` ending with examples and exit codes."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata

import pytest

from tests.support.cli import run

COMMANDS = [
    ["check"],
    ["verify"],
    ["convert"],
    ["new"],
    ["new", "role"],
    ["new", "bundle"],
    ["add-language"],
    ["init"],
    ["export"],
]


def test_version_is_the_installed_package_version() -> None:
    result = run("--version")
    assert (result.code, result.out, result.err) == (
        0,
        f"rolecat {metadata.version('rolecat')}\n",
        "",
    )


def test_version_from_the_console_script() -> None:
    found = subprocess.run(
        [sys.executable, "-m", "build_tools", "--version"], capture_output=True, text=True
    )
    assert (found.returncode, found.stdout) == (0, f"rolecat {metadata.version('rolecat')}\n")


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_ends_with_an_example_and_the_exit_codes(command: list[str]) -> None:
    result = run(*command, "--help")
    assert result.code == 0 and result.err == ""
    examples = result.out.index("\nexamples:\n  rolecat " + " ".join(command))
    codes = result.out.index("\nexit codes:\n  0  ")
    assert examples < codes
    assert result.out.endswith("\n  2  usage error (bad arguments, no such catalog directory)\n")


def test_the_output_format_is_not_the_wire_format() -> None:
    """``--format`` picks how problems print; its help says so, apart from wire formats."""
    help_text = " ".join(run("check", "--help").out.split())
    assert "--format {text,json,github}" in help_text
    assert "(The output's format, not a catalog's wire formats.)" in help_text
    assert "Default: $ROLECAT_FORMAT, else text." in help_text
