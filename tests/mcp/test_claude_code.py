"""The real Claude Code CLI takes ``rolecat mcp`` as a stdio MCP server: ``claude mcp add``
records it and ``claude mcp list`` starts it and connects (no network: the server is local)."""

from __future__ import annotations

from pathlib import Path

from tests.support.catalogs import Catalog
from tests.support.mcp_sessions import command, require_sdk
from tests.support.node_tools import node_tool


def test_claude_code_adds_the_server_and_connects(catalog: Catalog, tmp_path: Path) -> None:
    require_sdk()
    claude = node_tool("claude")
    home = tmp_path / "home"
    server = command("--catalog", str(catalog.root))
    done = claude.run(home, "mcp", "add", "rolecat", "--", *server)
    assert done.returncode == 0, done.stdout + done.stderr
    done = claude.run(home, "mcp", "list")
    assert done.returncode == 0, done.stdout + done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("rolecat: "))
    assert line.endswith("Connected") and " ".join(server) in line, done.stdout


def test_claude_code_reports_a_catalog_it_cannot_serve(catalog: Catalog, tmp_path: Path) -> None:
    require_sdk()
    claude = node_tool("claude")
    home = tmp_path / "home"
    del catalog.files[("alpha", "en")]["roles"][0]["instructions"]
    catalog.write()
    done = claude.run(home, "mcp", "add", "rolecat", "--", *command("--catalog", str(catalog.root)))
    assert done.returncode == 0, done.stdout + done.stderr
    done = claude.run(home, "mcp", "list")
    line = next(line for line in done.stdout.splitlines() if line.startswith("rolecat: "))
    assert "Connected" not in line and "Failed" in line, done.stdout
