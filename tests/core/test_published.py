"""What is published is what is judged: every wire file, in every format, as the server reads it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from build_tools.check import check_catalog
from build_tools.rules.server_contract import ADMIN_LIMITS
from build_tools.sources.formats import dump
from build_tools.sources.json_reader import MAX_FILE_BYTES, Document
from build_tools.wire import judged, raw_tree
from tests.support.catalogs import Catalog, use_file
from tests.support.catalogs import role as make_role

CAP = f"the server refuses files over {MAX_FILE_BYTES:,} bytes"


def spread(catalog: Catalog, text: str, bundle: str = "beta") -> list[dict[str, Any]]:
    """``text`` as the English instructions of as many new roles of ``bundle`` as it takes, each
    within what the server's admin API saves (20,000 characters): a file reaches the server's
    1,000,000-byte cap only through many roles."""
    entry = next(b for b in catalog.index["bundles"] if b["id"] == bundle)
    chunks = [text[at : at + ADMIN_LIMITS["instructions"]] for at in range(0, len(text), 20_000)]
    added = []
    for chunk in chunks:
        slug = f"{bundle}-part-{len(entry['roles'])}"
        entry["roles"].append({"slug": slug, "version": 1})
        for language in entry["languages"]:
            made = make_role(slug, language)
            if language == "en":
                made["instructions"] = chunk
                added.append(made)
            catalog.files[(bundle, language)]["roles"].append(made)
    return added


def test_inlined_instruction_files_can_push_a_bundle_over_the_cap(catalog: Catalog) -> None:
    prompts = catalog.path("bundles/alpha/prompts")
    prompts.mkdir(parents=True)
    spread(catalog, "x" * 20_000 * 60, "alpha")
    files = []
    for index, made in enumerate(catalog.files[("alpha", "en")]["roles"]):
        name = f"prompts/{made['slug']}.md"
        text = str(use_file(catalog, "alpha", "en", index, name))
        (prompts / f"{made['slug']}.md").write_text(f"{text}\n", encoding="utf-8")
        files.append((-len(text.encode()), f"bundles/alpha/{name} ({len(text.encode()):,} bytes)"))
    catalog.write().record()
    assert catalog.path("bundles/alpha/en.json").stat().st_size < 20_000  # the source is small

    result = catalog.check()

    assert result.code == 1
    source = "bundles/alpha/en.json"
    listed = f"{', '.join(shown for _, shown in sorted(files)[:3])} and {len(files) - 3} more"
    shorten = f"shorten {source} or the instruction files it inlines: {listed}"
    assert result.lines == [
        f"{source}: the published {path} (instructions inlined) is "
        f"{published_size_of(catalog, path):,} bytes; {CAP}: {shorten}"
        for path in ("bundles/alpha/en.json", "bundles/alpha/en.yaml")
    ]


def published_size_of(catalog: Catalog, path: str) -> int:
    """The size a file is published at, from the same writer the build uses."""
    document = _document(catalog, path)
    return len(dump(document, "yaml" if path.endswith(".yaml") else "json"))


def _document(catalog: Catalog, path: str) -> Any:
    """The values of a bundle file with its instruction files inlined."""
    bundle, language = path.split("/")[1], path.split("/")[2].split(".")[0]
    value = json.loads(json.dumps(catalog.files[(bundle, language)]))
    for role in value["roles"]:
        name = role.pop("instructionsFile", None)
        if name is not None:
            text = catalog.path(f"bundles/{bundle}/{name}").read_text(encoding="utf-8")
            role["instructions"] = text.removesuffix("\n")
    return value


def test_a_json_source_whose_yaml_form_is_over_the_cap(catalog: Catalog) -> None:
    # Short lines: JSON writes "x\n" in three bytes, a YAML literal block indents every line.
    spread(catalog, "x\n" * 300_000 + "end")
    catalog.write().record()
    assert catalog.path("bundles/beta/en.json").stat().st_size < MAX_FILE_BYTES

    result = catalog.check()

    size = published_size_of(catalog, "bundles/beta/en.yaml")
    assert size > MAX_FILE_BYTES
    assert (result.code, result.lines) == (
        1,
        [
            f"bundles/beta/en.json: the published bundles/beta/en.yaml is {size:,} bytes; {CAP}: "
            "shorten bundles/beta/en.json"
        ],
    )
    # Only what is published is judged: the JSON alone passes, the YAML alone does not.
    assert catalog.check("--formats", "json").lines == ["OK"]
    assert catalog.check("--formats", "yaml").lines == result.lines


@pytest.mark.parametrize("over", [0, 1], ids=["at the cap", "a byte over"])
def test_a_yaml_form_at_the_cap_passes_and_a_byte_over_fails(catalog: Catalog, over: int) -> None:
    # The check leaves a YAML file unwritten only when a bound proves it small; this one's
    # bound is over the cap, so the file is written and measured to the byte.
    roles = spread(catalog, "x\n" * 140_000 + "end")
    catalog.write()
    spread(catalog, "e" * (MAX_FILE_BYTES - published_size_of(catalog, YAML) - 2_000))
    catalog.write()
    last = catalog.files[("beta", "en")]["roles"][-1]
    last["instructions"] += "e" * (MAX_FILE_BYTES - published_size_of(catalog, YAML) + over)
    assert len(last["instructions"]) <= ADMIN_LIMITS["instructions"] and roles
    catalog.write().record()
    assert published_size_of(catalog, YAML) == MAX_FILE_BYTES + over

    result = catalog.check()

    assert result.lines == (
        [
            f"bundles/beta/en.json: the published {YAML} is {MAX_FILE_BYTES + 1:,} bytes; {CAP}: "
            "shorten bundles/beta/en.json"
        ]
        if over
        else ["OK"]
    )


YAML = "bundles/beta/en.yaml"


def test_a_yaml_source_whose_json_form_is_over_the_cap(catalog: Catalog) -> None:
    # Quotes: a YAML literal block holds them as they are, JSON escapes each one.
    spread(catalog, '"' * 600_000)
    catalog.write()
    path = catalog.path("bundles/beta/en.json")
    path.unlink()
    roles = []
    for made in catalog.files[("beta", "en")]["roles"]:
        fields = "\n".join(
            f"    {key}: {json.dumps(value, ensure_ascii=False)}"
            for key, value in made.items()
            if key not in ("slug", "instructions")
        )
        block = "\n".join(
            f"      {line}" if line else "" for line in made["instructions"].split("\n")
        )
        roles.append(f"  - slug: {made['slug']}\n{fields}\n    instructions: |-\n{block}\n")
    source = catalog.path("bundles/beta/en.yaml")
    source.write_text("schemaVersion: 1\nlanguage: en\nroles:\n" + "".join(roles), encoding="utf-8")
    catalog.record()
    assert source.stat().st_size < MAX_FILE_BYTES

    result = catalog.check()

    size = published_size_of(catalog, "bundles/beta/en.json")
    assert (result.code, result.lines) == (
        1,
        [
            f"bundles/beta/en.yaml: the published bundles/beta/en.json is {size:,} bytes; {CAP}: "
            "shorten bundles/beta/en.yaml"
        ],
    )
    assert catalog.check("--formats", "yaml").lines == ["OK"]


def test_formats_is_a_list_of_known_formats(catalog: Catalog) -> None:
    for bad in ("xml", "json,json", ""):
        result = catalog.check("--formats", bad)
        assert result.code == 2, bad
        assert "json, yaml or json,yaml, each once" in result.err


@pytest.fixture
def checked(catalog: Catalog) -> Any:
    result = check_catalog(catalog.root)
    assert result.ok and result.catalog is not None
    return result.catalog


def test_a_writer_that_loses_a_value_is_caught_by_the_build(
    checked: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = raw_tree.published_bytes

    def lossy(document: Document, format: Any) -> bytes:
        if format != "yaml" or not document.path.startswith("bundles/alpha/ru"):
            return original(document, format)
        value = json.loads(json.dumps(document.data))
        value["roles"][0]["name"] += " (changed)"
        return dump(value, "yaml")

    monkeypatch.setattr(raw_tree, "published_bytes", lossy)
    # A build reads back what it writes; the check relies on tests/core/test_published_yaml.py.
    found = judged.judge(checked, memo=judged.Memo())
    assert [str(d) for d in found] == [
        "bundles/alpha/ru.json: the published bundles/alpha/ru.yaml reads back with other values "
        "than were checked"
    ]
    assert [d.rule for d in found] == ["published"]


def test_a_writer_that_writes_what_the_server_cannot_read_is_caught_by_the_build(
    checked: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = raw_tree.published_bytes

    def broken(document: Document, format: Any) -> bytes:
        if format == "yaml" and document.path == "index.json":
            return b"schemaVersion: 1\nbundles: [\n"
        return original(document, format)

    monkeypatch.setattr(raw_tree, "published_bytes", broken)
    [problem] = [str(d) for d in judged.judge(checked, memo=judged.Memo())]
    assert problem.startswith(
        "index.json: the published index.yaml does not read back as the server reads it at 3:1: "
        "invalid YAML:"
    )


@pytest.mark.parametrize(
    ("kind", "value", "refused"),
    [
        ("index", [], "the file is not an object"),
        ("index", {"schemaVersion": "1", "bundles": []}, "schemaVersion is not a number"),
        ("index", {"schemaVersion": True, "bundles": []}, "schemaVersion is not a number"),
        ("index", {"schemaVersion": 1, "bundles": {}}, "bundles is not an array"),
        (
            "index",
            {
                "schemaVersion": 1,
                "bundles": [{"id": "en\n", "name": {}, "languages": [], "roles": []}],
            },
            "bundles[0].id is not an id (^[a-z0-9-]+$)",
        ),
        (
            "index",
            {
                "schemaVersion": 1,
                "bundles": [{"id": "b", "name": {"en": 1}, "languages": ["en"], "roles": []}],
            },
            "bundles[0].name is not an object of strings",
        ),
        (
            "index",
            {
                "schemaVersion": 1,
                "bundles": [{"id": "b", "name": {}, "languages": ["en"], "roles": [{"slug": "s"}]}],
            },
            "bundles[0].roles[0].version is not a number",
        ),
        (
            "bundle",
            {"schemaVersion": 1, "language": "en", "roles": [1]},
            "roles[0] is not an object",
        ),
        (
            "bundle",
            {"schemaVersion": 1, "language": "en", "roles": [{"slug": "s", "name": "n"}]},
            "roles[0].instructions is not a string",
        ),
        (
            "bundle",
            {
                "schemaVersion": 1,
                "language": "en",
                "roles": [{"slug": "s", "name": "n", "instructions": "i", "description": None}],
            },
            "roles[0].description is not a string",
        ),
        (
            "bundle",
            {
                "schemaVersion": 1,
                "language": "en",
                "roles": [{"slug": "s", "name": "n", "instructions": "i", "autoStart": 1}],
            },
            "roles[0].autoStart is not a boolean",
        ),
    ],
)
def test_the_servers_type_guards(kind: str, value: object, refused: str) -> None:
    assert judged.guard(value, kind) == refused


def test_what_the_server_accepts_passes_its_guards() -> None:
    index = {
        "schemaVersion": 1,
        "bundles": [
            {
                "id": "b",
                "name": {"en": "B"},
                "languages": ["en"],
                "roles": [{"slug": "s", "version": 1.5}],
            }
        ],
    }
    role = {"slug": "s", "name": "n", "instructions": "i", "launchMessage": None, "modelConfig": {}}
    assert judged.guard(index, "index") is None
    assert judged.guard({"schemaVersion": 1, "language": "en", "roles": [role]}, "bundle") is None


def test_our_catalog_publishes_nothing_the_server_refuses() -> None:
    root = Path(__file__).resolve().parents[2] / "catalog"
    result = check_catalog(root)
    assert result.ok and result.catalog is not None
    assert judged.judge(result.catalog) == []
