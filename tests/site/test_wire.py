"""The pure parts under the plugin: the raw tree and the reserved ids, without MkDocs."""

from __future__ import annotations

from pathlib import Path

from build_tools import site_paths, wire
from build_tools.check import check_catalog
from build_tools.schema import schema_text
from tests.site.helpers import OUR_CATALOG, UPSTREAM, write_catalog


def test_raw_files_are_the_sources_and_the_schemas_in_sorted_order() -> None:
    for root in (OUR_CATALOG, UPSTREAM):
        catalog = check_catalog(root).catalog
        assert catalog is not None
        files = wire.raw_files(catalog)
        assert list(files) == sorted(files)
        assert "content-hashes.json" not in files
        for path, data in files.items():
            if path.startswith("schema/"):
                kind = "index" if path == "schema/index.schema.json" else "bundle"
                assert data == schema_text(kind)
            else:
                assert data == (root / path).read_bytes()
        assert {"index.json", "schema/index.schema.json", "schema/bundle.schema.json"} <= set(files)


def test_reserved_ids_are_placed_at_their_value(tmp_path: Path) -> None:
    root = write_catalog(tmp_path / "c", {"search": ["en", "assets"], "fine": ["en", "docs"]})
    catalog = check_catalog(root).catalog
    assert catalog is not None
    found = site_paths.collisions(catalog, taken=["docs"])
    assert [(d.file, d.rule) for d in found] == [("index.json", "site-reserved-id")] * 3
    messages = " | ".join(d.message for d in found)
    assert 'bundle id "search" is reserved' in messages
    assert 'bundle "search": language "assets" is reserved' in messages
    assert 'bundle "fine": language "docs" is reserved' in messages
    assert all(d.line > 0 and d.col > 0 for d in found)
    assert site_paths.collisions(check_catalog(OUR_CATALOG).catalog) == []  # type: ignore[arg-type]


def test_a_role_called_index_gets_its_own_page() -> None:
    assert site_paths.role_page("en", "b", "index") != site_paths.bundle_page("en", "b")
