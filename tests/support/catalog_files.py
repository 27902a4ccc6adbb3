"""Catalog files as tests write them: JSON as we write it, a lock as the files are, our catalog
as YAML."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from build_tools.cli.convert import convert_catalog
from build_tools.lock import LOCK_FILE, current_entries, render
from build_tools.model.catalog import load_catalog
from tests.support.paths import OUR_CATALOG


def our_catalog_as_yaml(target: Path) -> Path:
    """A copy of our catalog with every index and bundle file written as YAML."""
    shutil.copytree(OUR_CATALOG, target)
    assert convert_catalog(target, "yaml").diagnostics == []
    return target


def lock_as_is(root: Path) -> None:
    """Record the catalog's content in its lock, whatever a check would say of what it publishes."""
    catalog, problems = load_catalog(root)
    assert catalog is not None and not problems, problems
    (root / LOCK_FILE).write_bytes(render(current_entries(catalog)))


def write_json(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
