"""The fixtures of the core tests: a small valid catalog, upstream copies, the schema screen."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from build_tools.diagnostics import Diagnostic
from build_tools.model import schema
from build_tools.sources.json_reader import Document
from tests.support.catalogs import Catalog, small_catalog
from tests.support.upstream_fixtures import fixture


@pytest.fixture
def catalog(tmp_path: Path) -> Catalog:
    """Two bundles, two languages, three roles; written, locked and passing."""
    return small_catalog(tmp_path / "catalog").write().lock()


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
