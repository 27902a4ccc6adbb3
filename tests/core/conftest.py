"""A small valid catalog written from Python values, to break one rule at a time."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from build_tools.check import update_lock
from build_tools.diagnostics import Diagnostic
from build_tools.model import schema
from build_tools.sources.json_reader import Document
from tests.support import Run, fixture, lock_as_is, run, write_json


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


@pytest.fixture
def catalog(tmp_path: Path) -> Catalog:
    """Two bundles, two languages, three roles; written, locked and passing."""
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
    return Catalog(tmp_path / "catalog", index, files).write().lock()


@pytest.fixture
def fixture_copy(tmp_path: Path) -> Callable[[str], Path]:
    """A writable copy of one of the upstream fixtures."""

    def copy(name: str) -> Path:
        target = tmp_path / name
        shutil.copytree(fixture(name), target)
        for path in target.rglob("*"):
            path.chmod(0o644 if path.is_file() else 0o755)
        return target

    return copy


@pytest.fixture(autouse=True)
def screen_compiled_for_each_test() -> None:
    """The schemas' screen is compiled once per process and cached. Compiled again for each test
    (a few milliseconds), every test that validates a file runs the compiler, so `make mutate`
    tries each mutant of the compiler on all of them, not on the first test of a session only
    (nor in a process forked after the screen was compiled, where a mutant changes nothing)."""
    schema.screen.cache_clear()


@pytest.fixture(autouse=True, scope="session")
def screen_agrees_with_jsonschema() -> Iterator[None]:
    """Every file any test validates: the fast screen and jsonschema give the same verdict."""
    original = schema.validate

    def validate(kind: schema.Kind, document: Document) -> list[Diagnostic]:
        errors = list(schema.validator(kind).iter_errors(document.data))
        assert schema.screen(kind)(document.data) == (not errors), (document.path, errors[:1])
        return original(kind, document)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(schema, "validate", validate)
        yield
