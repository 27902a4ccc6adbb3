"""The real Claude Code and Copilot CLIs, installed by npm into a cache directory.

``ROLECAT_NODE_TOOLS`` names the directory (default ``~/.cache/rolecat/node-tools``); a missing
CLI is installed there once. A machine without npm or without the registry skips the tests that
need them; under ``CI=true`` they fail instead, so they never silently stop running there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGES = ("@anthropic-ai/claude-code@2.1.328", "@github/copilot@1.0.102")
TIMEOUT = 120


def cache_dir() -> Path:
    named = os.environ.get("ROLECAT_NODE_TOOLS")
    return Path(named) if named else Path.home() / ".cache" / "rolecat" / "node-tools"


@dataclass(frozen=True)
class NodeTool:
    """One CLI, run with a HOME of its own so no run sees another's plugins or settings."""

    executable: Path

    def run(
        self, home: Path, *args: str, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        home.mkdir(parents=True, exist_ok=True)
        env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(home),
            "NO_COLOR": "1",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }
        return subprocess.run(
            [str(self.executable), *args],
            env=env,
            cwd=cwd or home,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            stdin=subprocess.DEVNULL,
        )


def node_tool(name: str) -> NodeTool:
    """``claude`` or ``copilot``, installed first where it is missing; else a skip (a failure
    under CI) that says why."""
    executable = cache_dir() / "node_modules" / ".bin" / name
    if not executable.exists():
        npm = shutil.which("npm")
        why = "npm is not installed" if npm is None else _install(npm)
        if why is not None or not executable.exists():
            message = f"the {name} CLI is unavailable ({why or 'npm installed no ' + name})"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
    return NodeTool(executable)


def _install(npm: str) -> str | None:
    """Install both CLIs into the cache; what went wrong, if anything."""
    target = cache_dir()
    target.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(
            [npm, "install", "--prefix", str(target), "--no-audit", "--no-fund", *PACKAGES],
            capture_output=True,
            text=True,
            timeout=600,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"npm install failed: {error}"
    return None if done.returncode == 0 else f"npm install failed: {done.stderr.strip()[-300:]}"
