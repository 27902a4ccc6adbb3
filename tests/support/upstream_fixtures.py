"""The upstream catalog's fixtures, found beside the clone (or skipped), and laid out as the
upstream team keeps them."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path

import pytest

from build_tools.lock import LOCK_FILE
from tests.support.paths import REPO

FIXTURES_VARIABLE = "ROLECAT_UPSTREAM_FIXTURES"
"""Where the upstream catalog's fixtures are; else ``../shared/fixtures`` beside the clone, where
CI lays them."""


def fixtures_dir(environ: Mapping[str, str] = os.environ, beside: Path = REPO.parent) -> Path:
    """Where the upstream fixtures are looked for: the variable, else ``shared/fixtures`` beside."""
    configured = environ.get(FIXTURES_VARIABLE)
    return Path(configured) if configured else beside / "shared" / "fixtures"


def in_ci(environ: Mapping[str, str] = os.environ) -> bool:
    return environ.get("CI", "").lower() not in ("", "0", "false", "no")


def fixture(name: str, environ: Mapping[str, str] = os.environ, beside: Path = REPO.parent) -> Path:
    """One of the upstream fixtures, read-only, for the tests that compare with upstream.

    Where it cannot be found the test is skipped, with the reason, or fails under ``CI=true``:
    there a missing fixture is a broken setup, never a reason to test less. Nothing else needs
    them: a fresh clone with nothing beside it passes ``make test``.
    """
    path = fixtures_dir(environ, beside) / name
    if not path.is_dir():
        reason = (
            f"the upstream fixture {name} is not at {path}: set {FIXTURES_VARIABLE} to the "
            "directory of the upstream fixtures to compare with them"
        )
        if in_ci(environ):
            pytest.fail(reason)
        pytest.skip(reason)
    return path


def upstream() -> Path:
    """The upstream catalog, JSON generation."""
    return fixture("upstream-catalog-json")


def upstream_yaml() -> Path:
    """The upstream catalog, YAML generation."""
    return fixture("upstream-catalog-yaml")


UPSTREAM_DIR = "agent-roles-catalog"
"""What the upstream team calls its catalog directory, inside a larger repository."""

FIVE_LINES = (
    "site_name: Our agent roles\n"
    "theme: material\n"
    "plugins:\n"
    "  - rolecat-search\n"
    f"  - roles-catalog: {{catalog_dir: {UPSTREAM_DIR}}}\n"
)
"""The whole mkdocs.yml of a repository that keeps its catalog the upstream way (README)."""


def upstream_layout(repository: Path, generation: str = "json") -> Path:
    """An upstream fixture laid out as its team keeps it: ``agent-roles-catalog/`` inside
    ``repository``, the lock in ``scripts/`` beside the checker, a package.json and a README.
    The checker here is a stand-in of our own: only its place matters."""
    catalog = repository / UPSTREAM_DIR
    shutil.copytree(upstream() if generation == "json" else upstream_yaml(), catalog)
    for path in catalog.rglob("*"):
        path.chmod(0o644 if path.is_file() else 0o755)
    (catalog / "scripts").mkdir()
    (catalog / LOCK_FILE).rename(catalog / "scripts" / LOCK_FILE)
    (catalog / "scripts/check.mjs").write_text("// the team's checker\n", encoding="utf-8")
    (catalog / "package.json").write_text(
        '{"private": true, "scripts": {"check": "node scripts/check.mjs"}}\n', encoding="utf-8"
    )
    (catalog / "README.md").write_text("# Our agent roles\n", encoding="utf-8")
    return catalog
