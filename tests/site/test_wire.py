"""The pure parts under the plugin: the raw tree and the reserved ids, without MkDocs."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from build_tools.check import check_catalog
from build_tools.model.schema import schema_text
from build_tools.sources.yaml_reader import parse_yaml
from build_tools.wire import judged, raw_tree, site_paths
from tests.support.catalog_files import our_catalog_as_yaml
from tests.support.paths import OUR_CATALOG
from tests.support.site_builds import write_catalog
from tests.support.upstream_fixtures import upstream, upstream_yaml


@pytest.mark.parametrize("which", ["ours", "upstream"])
def test_raw_files_are_the_sources_and_the_schemas_in_sorted_order(which: str) -> None:
    root = OUR_CATALOG if which == "ours" else upstream()
    catalog = check_catalog(root).catalog
    assert catalog is not None
    files = raw_tree.raw_files(catalog)
    assert list(files) == sorted(files)
    assert "content-hashes.json" not in files
    for path, data in files.items():
        if path.startswith("schema/"):
            kind = "index" if path == "schema/index.schema.json" else "bundle"
            assert data == schema_text(kind)
        elif path.endswith(".json"):
            assert data == (root / path).read_bytes()
        else:  # the other format, written anew: the same values
            twin = root / path.replace(".yaml", ".json")
            assert parse_yaml(path, data).data == json.loads(twin.read_bytes())
    assert {"index.json", "index.yaml", "schema/index.schema.json"} <= set(files)


def test_the_json_tree_of_the_yaml_fixture_is_the_json_fixture_value_for_value() -> None:
    catalog = check_catalog(upstream_yaml()).catalog
    assert catalog is not None
    files = raw_tree.raw_files(catalog)
    json_files = {p: d for p, d in files.items() if p.endswith(".json") and "schema" not in p}
    expected = {
        p.relative_to(upstream()).as_posix(): p
        for p in upstream().rglob("*.json")
        if p.name != "content-hashes.json"
    }
    assert json_files.keys() == expected.keys()
    for path, data in json_files.items():
        assert json.loads(data) == json.loads(expected[path].read_bytes()), path
    for path, data in files.items():  # the YAML tree is the YAML fixture, byte for byte
        if path.endswith(".yaml"):
            assert data == (upstream_yaml() / path).read_bytes()


def test_only_the_requested_formats(tmp_path: Path) -> None:
    catalog = check_catalog(our_catalog_as_yaml(tmp_path / "catalog")).catalog
    assert catalog is not None
    assert not [
        p for p in raw_tree.raw_files(catalog, ["yaml"]) if p.endswith(".json") and "/" not in p
    ]
    assert not [p for p in raw_tree.raw_files(catalog, ["json"]) if p.endswith(".yaml")]
    assert raw_tree.index_path(["yaml"]) == "index.yaml"
    assert raw_tree.bundle_path("b", "en", ["json", "yaml"]) == "bundles/b/en.json"


def test_instruction_files_are_inlined_in_every_format(tmp_path: Path) -> None:
    root = tmp_path / "c"
    shutil.copytree(OUR_CATALOG, root)
    path = root / "bundles/writing/en.json"
    data = json.loads(path.read_bytes())
    role = data["roles"][0]
    text = role["instructions"]
    data["roles"][0] = {
        ("instructionsFile" if k == "instructions" else k): (
            "prompts/first.md" if k == "instructions" else v
        )
        for k, v in role.items()
    }
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    (root / "bundles/writing/prompts").mkdir()
    (root / "bundles/writing/prompts/first.md").write_text(text + "\n", encoding="utf-8")
    catalog = check_catalog(root).catalog
    assert catalog is not None
    files = raw_tree.raw_files(catalog)
    original = (OUR_CATALOG / "bundles/writing/en.json").read_bytes()
    assert files["bundles/writing/en.json"] == original  # same values, same writer, same bytes
    assert parse_yaml("x.yaml", files["bundles/writing/en.yaml"]).data == json.loads(original)
    assert not [p for p in files if p.endswith(".md")]


def test_reserved_ids_are_placed_at_their_value(tmp_path: Path) -> None:
    root = write_catalog(tmp_path / "c", {"pagefind": ["en", "assets"], "fine": ["en", "docs"]})
    catalog = check_catalog(root).catalog
    assert catalog is not None
    found = site_paths.collisions(catalog, taken=["docs"])
    assert [(d.file, d.rule) for d in found] == [("index.json", "site-reserved-id")] * 3
    messages = " | ".join(d.message for d in found)
    assert 'bundle id "pagefind" is reserved' in messages
    assert 'bundle "pagefind": language "assets" is reserved' in messages
    assert 'bundle "fine": language "docs" is reserved' in messages
    assert all(d.line > 0 and d.col > 0 for d in found)
    assert site_paths.collisions(check_catalog(OUR_CATALOG).catalog) == []  # type: ignore[arg-type]


def test_a_hand_written_file_where_the_site_generates_one_is_refused() -> None:
    generated = [site_paths.home_page(), site_paths.language_page("en"), "bundles/b/en.json"]
    present = {"index.md", "about.md", "bundles/b/en.json"}
    found = site_paths.overwritten(generated, present, "docs")
    assert [(d.file, d.rule) for d in found] == [
        ("index.md", "site-overwritten"),
        ("bundles/b/en.json", "site-overwritten"),
    ]
    assert found[0].message == (
        "docs/index.md would overwrite what the plugin generates there; rename or remove it"
    )
    assert site_paths.overwritten(generated, {"about.md"}, "docs") == []


def test_a_role_called_index_gets_its_own_page() -> None:
    assert site_paths.role_page("en", "b", "index") != site_paths.bundle_page("en", "b")


def test_a_build_keeps_the_digest_of_each_judged_file_not_its_bytes() -> None:
    """A build's check judges every published file and keeps only its SHA-256: a JSON catalog's
    YAML twin is made again as MkDocs writes it, byte for byte what was judged."""
    memo = judged.Memo.for_build()
    catalog = check_catalog(OUR_CATALOG, memo=memo).catalog
    assert catalog is not None
    assert memo.files == {} and memo.verdicts == {}
    expected = raw_tree.raw_files(catalog)
    published = raw_tree.published_files(catalog, raw_tree.FORMATS, memo.digests or {})
    assert list(published) == list(expected)
    for path, content in published.items():
        made = content.encoded() if isinstance(content, raw_tree.Published) else content
        assert made == expected[path], path
        if isinstance(content, raw_tree.Published):
            assert content.digest == hashlib.sha256(made).hexdigest()
    assert raw_tree.checksums(published) == raw_tree.checksums(expected)


def test_a_published_file_other_than_the_one_judged_is_refused_in_one_line() -> None:
    memo = judged.Memo.for_build()
    catalog = check_catalog(OUR_CATALOG, memo=memo).catalog
    assert catalog is not None and memo.digests
    other = {path: "0" * 64 for path in memo.digests}  # as if the check had judged other bytes
    stale = raw_tree.published_files(catalog, ["yaml"], other)["index.yaml"]
    assert isinstance(stale, raw_tree.Published)
    with pytest.raises(
        ValueError, match=r"^index.yaml is not what was judged: nothing was published$"
    ):
        stale.encoded()
