"""The checker people have today: the upstream ``check.mjs``, timed beside ``rolecat check``.

Both generations of the upstream checker are kept outside this repository, in ``../shared/peers``
(or where ``ROLECAT_PEERS`` says), only so that they can be timed; nothing here is copied from
them, and no copy of them is ever committed. At run time each is copied into a catalog directory
of the bench's work directory, as its team keeps it: the script at ``<catalog>/scripts/check.mjs``,
the lock beside it at ``<catalog>/scripts/content-hashes.json``. Both checkers are then given that
same directory: ``node <catalog>/scripts/check.mjs`` (which reads the catalog above its own
directory) and ``rolecat check --catalog <catalog>`` (which finds the lock where the upstream
checker keeps it). The YAML generation imports the ``yaml`` npm package; it is installed once
into the work directory (``npm install yaml@2.8.3``), where node finds it from every catalog
below.

Before a peer is timed it must print ``OK`` and exit 0 on the catalog: a peer that refuses the
catalog, or cannot run, fails its row loudly instead of giving a number.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bench.measure import Run

REPO = Path(__file__).resolve().parent.parent
PEERS_VARIABLE = "ROLECAT_PEERS"
"""Where the upstream checkers are; else ``../shared/peers`` beside the clone."""
FIXTURES_VARIABLE = "ROLECAT_UPSTREAM_FIXTURES"
"""Where the upstream catalog's fixtures are (as the tests find them); S is checked on them."""
SCRIPTS = {"json": "check-json.mjs", "yaml": "check-yaml.mjs"}
"""The upstream checker of each generation, by the format of the catalog it reads."""
FIXTURES = {"json": "upstream-catalog-json", "yaml": "upstream-catalog-yaml"}
YAML_PACKAGE = ("yaml", "2.8.3")
"""What the YAML generation's checker imports, at the version its authors pin."""
LOCK = "content-hashes.json"
CHECKER = "scripts/check.mjs"
PEER_LOCK = f"scripts/{LOCK}"


def peers_dir(environ: Mapping[str, str] = os.environ, beside: Path = REPO.parent) -> Path:
    """Where the upstream checkers are looked for: the variable, else ``shared/peers`` beside."""
    configured = environ.get(PEERS_VARIABLE)
    return Path(configured) if configured else beside / "shared" / "peers"


def fixtures_dir(environ: Mapping[str, str] = os.environ, beside: Path = REPO.parent) -> Path:
    configured = environ.get(FIXTURES_VARIABLE)
    return Path(configured) if configured else beside / "shared" / "fixtures"


def peer_script(generation: str, peers: Path) -> Path | None:
    """The upstream checker of ``generation``, or ``None`` where it is not there."""
    script = peers / SCRIPTS[generation]
    return script if script.is_file() else None


def node_version(node: str = "node") -> str | None:
    """``node --version`` (``v20.20.2``), or ``None`` where node cannot be run."""
    found = shutil.which(node)
    if found is None:
        return None
    try:
        done = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def yaml_package(work: Path, say: Callable[[str], None] = print) -> str | None:
    """``node_modules/yaml`` at its pinned version in ``work``, installed with npm unless it is
    there already; ``None`` when it is (or was made), else why it cannot be."""
    name, version = YAML_PACKAGE
    installed = work / "node_modules" / name / "package.json"
    if _version_of(installed) == version:
        return None
    npm = shutil.which("npm")
    if npm is None:
        return "npm is not installed, so the YAML generation's checker cannot import yaml"
    say(f"peers: npm install {name}@{version} into {work} ...")
    work.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [npm, "install", "--prefix", str(work), "--no-audit", "--no-fund", f"{name}@{version}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0 or _version_of(installed) != version:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-5:])
        return f"npm install {name}@{version} failed (exit {done.returncode}):\n{tail}"
    return None


def _version_of(package_json: Path) -> str | None:
    try:
        value = json.loads(package_json.read_bytes())
    except (OSError, ValueError):
        return None
    version = value.get("version") if isinstance(value, dict) else None
    return version if isinstance(version, str) else None


def lay_out(source: Path, target: Path, script: Path | None) -> Path:
    """A copy of the catalog ``source`` in ``target`` as the upstream team keeps it: its files as
    they are, the lock moved to ``scripts/content-hashes.json`` and the upstream checker copied to
    ``scripts/check.mjs`` (unless ``script`` is ``None``: the peer is not there). Both checkers
    read this one directory."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target)
    for path in target.rglob("*"):  # the shared copies are read-only
        path.chmod(0o644 if path.is_file() else 0o755)
    (target / "scripts").mkdir(exist_ok=True)
    lock = target / LOCK
    if lock.is_file():
        lock.replace(target / PEER_LOCK)
    if script is not None:
        shutil.copyfile(script, target / CHECKER)
    return target


@dataclass(frozen=True)
class Commands:
    """The two commands timed against each other, on one catalog directory."""

    catalog: Path
    peer: list[str]
    check: list[str]


def commands(catalog: Path, python: str, node: str = "node") -> Commands:
    """``node <catalog>/scripts/check.mjs`` and ``rolecat check --catalog <catalog>``."""
    return Commands(
        catalog,
        [node, str(catalog / CHECKER)],
        [python, "-m", "build_tools", "check", "--catalog", str(catalog)],
    )


def peer_problem(result: Run) -> str | None:
    """Why a peer's run does not count, or ``None``: it must exit 0 and print ``OK`` last."""
    lines = result.stdout.strip().splitlines()
    if result.returncode == 0 and lines and lines[-1] == "OK":
        return None
    return f"check.mjs did not print OK and exit 0 (exit {result.returncode}):\n{result.tail()}"


def check_problem(result: Run, catalog: Path) -> str | None:
    """Why a ``rolecat check`` run does not count, or ``None``: exit 0, and ``OK`` as all it
    printed, after the line that says it found the lock where the upstream checker keeps it."""
    expected = [f"the lock is {catalog / PEER_LOCK}, where the upstream checker keeps it", "OK"]
    if result.returncode == 0 and result.stdout.strip().splitlines() == expected:
        return None
    return f"rolecat check did not print OK alone (exit {result.returncode}):\n{result.tail()}"
