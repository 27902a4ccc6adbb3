"""The real Claude Code and Copilot CLIs, axe-core and Lighthouse, installed by npm into a cache
directory.

``ROLECAT_NODE_TOOLS`` names the directory (default ``~/.cache/rolecat/node-tools``); whatever is
missing is installed there once (every package of :data:`PACKAGES` at once). A machine without npm
or without the registry skips the tests that need them; under ``CI=true`` they fail instead, so
they never silently stop running there. ``.ci/run`` installs the same packages.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGES = (
    "@anthropic-ai/claude-code@2.1.328",
    "@github/copilot@1.0.102",
    "axe-core@4.14.1",
    "lighthouse@12.2.3",
)
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
    executable = _installed(cache_dir() / "node_modules" / ".bin" / name, f"the {name} CLI")
    return NodeTool(executable)


def node_package_file(package: str, relative: str) -> Path:
    """A file of an installed npm package, e.g. ``node_package_file("axe-core", "axe.min.js")``,
    installed first where it is missing (or, for a package of :data:`PACKAGES`, installed at
    another version than its pin); else a skip (a failure under CI) that says why."""
    root = cache_dir() / "node_modules" / package
    pinned = pinned_version(package)
    stale = pinned is not None and installed_version(root) != pinned
    return _installed(root / relative, f"{package}'s {relative}", stale=stale)


def pinned_version(package: str) -> str | None:
    """The version :data:`PACKAGES` pins ``package`` at, or ``None``."""
    for spec in PACKAGES:
        name, _at, version = spec.rpartition("@")
        if name == package:
            return version
    return None


def installed_version(root: Path) -> str | None:
    """The version in the ``package.json`` of the package installed at ``root``, or ``None``."""
    try:
        found = json.loads((root / "package.json").read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError, AttributeError):
        return None
    return found if isinstance(found, str) else None


def _installed(path: Path, what: str, *, stale: bool = False) -> Path:
    """``path``, after installing the packages if it is missing or ``stale``; else a skip (a CI
    failure)."""
    if stale or not path.exists():
        npm = shutil.which("npm")
        why = "npm is not installed" if npm is None else _install(npm)
        if why is not None or not path.exists():
            message = f"{what} is unavailable ({why or 'npm installed no ' + str(path)})"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
    return path


def _install(npm: str) -> str | None:
    """Install every package of :data:`PACKAGES` into the cache; what went wrong, if anything."""
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
