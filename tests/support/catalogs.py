"""A small valid catalog written from Python values, to break one rule at a time: the values
the ``catalog`` fixture (``tests/core/conftest.py``) starts from, and how they are written;
a role's instructions moved to a file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from build_tools.check import update_lock
from tests.support.catalog_files import lock_as_is, write_json
from tests.support.cli import Run, run


def role(slug: str, language: str = "en", **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "slug": slug,
        "emoji": "🧭",
        "name": f"{slug} ({language})",
        "description": f"What {slug} does, in {language}.",
        "instructions": f"You are {slug}. Answer in {language}.\n\nBe precise.",
        "autoStart": False,
        "launchMessage": None,
    }
    base.update(fields)
    return base


@dataclass
class Catalog:
    """A catalog on disk, built from values: edit ``index``/``files``, then ``write()``."""

    root: Path
    index: dict[str, Any]
    files: dict[tuple[str, str], dict[str, Any]]

    def write(self) -> Catalog:
        write_json(self.root / "index.json", self.index)
        for (bundle, language), value in self.files.items():
            write_json(self.root / "bundles" / bundle / f"{language}.json", value)
        return self

    def path(self, relpath: str) -> Path:
        return self.root / relpath

    def lock(self) -> Catalog:
        """Record the current content in the lock."""
        assert update_lock(self.root).diagnostics == []
        return self

    def record(self) -> Catalog:
        """Record the current content in the lock, even where the check refuses the published."""
        lock_as_is(self.root)
        return self

    def check(self, *extra: str) -> Run:
        return run("check", "--catalog", str(self.root), *extra)


def small_catalog(root: Path) -> Catalog:
    """Two bundles, two languages, three roles, passing once written and locked."""
    index = {
        "schemaVersion": 1,
        "bundles": [
            {
                "id": "alpha",
                "name": {"en": "Alpha", "ru": "Альфа"},
                "description": {"en": "First.", "ru": "Первый."},
                "languages": ["en", "ru"],
                "roles": [{"slug": "one", "version": 1}, {"slug": "two", "version": 1}],
            },
            {
                "id": "beta",
                "name": {"en": "Beta", "ru": "Бета"},
                "languages": ["en", "ru"],
                "roles": [{"slug": "three", "version": 2}],
            },
        ],
    }
    files = {
        (bundle, lang): {
            "schemaVersion": 1,
            "language": lang,
            "roles": [role(slug, lang) for slug in slugs],
        }
        for bundle, slugs in (("alpha", ["one", "two"]), ("beta", ["three"]))
        for lang in ("en", "ru")
    }
    return Catalog(root, index, files)


def use_file(catalog: Catalog, bundle: str, lang: str, index: int, name: str) -> dict[str, object]:
    role = catalog.files[(bundle, lang)]["roles"][index]
    role["instructionsFile"] = name
    return role.pop("instructions")  # type: ignore[no-any-return]
