"""YAML sources read as the server's safe YAML 1.2 core-schema parser does; instruction files."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from build_tools.cli import convert
from build_tools.sources.formats import Format, parse
from build_tools.sources.json_reader import SourceError
from build_tools.sources.yaml_reader import parse_yaml
from tests.support.catalogs import Catalog, use_file
from tests.support.cli import run
from tests.support.diagnostics import value
from tests.support.reports import json_report
from tests.support.upstream_fixtures import upstream, upstream_yaml

LOCK = "content-hashes.json"


def test_yaml_fixture_passes() -> None:
    result = run("check", "--catalog", str(upstream_yaml()))
    assert (result.code, result.out) == (0, "OK\n")


def test_yaml_fixture_lock_is_reproduced_byte_for_byte(
    fixture_copy: Callable[[str], Path],
) -> None:
    root = fixture_copy("upstream-catalog-yaml")
    (root / LOCK).unlink()
    assert run("check", "--catalog", str(root), "--fix").code == 0
    assert (root / LOCK).read_bytes() == (upstream_yaml() / LOCK).read_bytes()


def test_yaml_and_json_fixtures_hold_the_same_values() -> None:
    json_root, yaml_root = upstream(), upstream_yaml()
    for path in json_root.rglob("*.json"):
        if path.name == LOCK:
            continue
        twin = yaml_root / path.relative_to(json_root).with_suffix(".yaml")
        as_yaml = parse_yaml(twin.name, twin.read_bytes()).data
        assert as_yaml == json.loads(path.read_text(encoding="utf-8")), path


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("a: yes", "yes"),
        ("a: on", "on"),
        ("a: No", "No"),
        ("a: 1_000", "1_000"),
        ("a: 0b101", "0b101"),
        ("a: 2001-12-14", "2001-12-14"),
        ("a: 0777", 777),
        ("a: 0o17", 15),
        ("a: 0x1F", 31),
        ("a: 1e3", 1000.0),
        ("a: TRUE", True),
        ("a: ~", None),
        ("a:", None),
        ("a: !!str 12", "12"),
        ("a: &x [1]\nb: *x", [1]),
        # Explicit tags where the server's parser honours them, and the non-specific one.
        ("a: !!int '12'", 12),
        ("a: !!float 1.5", 1.5),
        ("a: !!bool true", True),
        ("a: !!null ''", None),
        ("a: ! 12", "12"),
        ("a: !<tag:yaml.org,2002:str> 12", "12"),
        ("a: !!seq [1]", [1]),
        ("a: !!map {b: 1}", {"b": 1}),
        # A surrogate pair written as escapes is one character, as JavaScript reads it.
        ('a: "\\uD83D\\uDEA8"', "🚨"),
        ('a: "\\U0000D83D\\U0000DEA8 x"', "🚨 x"),
        ("a: \\uD83D\\uDEA8", "\\uD83D\\uDEA8"),  # plain: not an escape at all
        # 2^53 is a double exactly; leading zeros are the same number.
        ("a: 9007199254740992", 2**53),
        ("a: 000000000000000000000000000012", 12),
    ],
)
def test_core_schema_scalars(text: str, value: object) -> None:
    assert parse_yaml("f.yaml", text.encode()).data["a"] == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: !!binary aGk=", "f.yaml:1:4: tag !!binary is not allowed here"),
        ("a: !python/object x", "f.yaml:1:4: tag !python/object is not allowed here"),
        ("a: !!set {x}", "f.yaml:1:4: tag !!set is not allowed here"),
        ("a: !!timestamp 2001-12-14", "f.yaml:1:4: tag !!timestamp is not allowed here"),
        ("a: !local x", "f.yaml:1:4: tag !local is not allowed here"),
        (
            "a: !!float 1",
            'f.yaml:1:4: !!float "1" is read as a string by the server\'s YAML parser, which does '
            'not take "1" for a float; drop the tag or write a float',
        ),
        (
            "a: !!bool yes",
            'f.yaml:1:4: !!bool "yes" is read as a string by the server\'s YAML parser, which '
            'does not take "yes" for a boolean; drop the tag or write a boolean',
        ),
        ("a: !!seq {b: 1}", "f.yaml:1:4: tag !!seq is not allowed here"),
        (
            "a: 1e-400",
            "f.yaml:1:4: 1e-400 is read by the server's YAML parser as 0: it cannot hold this "
            "number exactly",
        ),
        (
            "a: 0x20000000000001",
            "f.yaml:1:4: 0x20000000000001 is read by the server's YAML parser as "
            "9007199254740992: it cannot hold this number exactly",
        ),
        ("a: 1\nb: 2\na: 3", 'f.yaml:3:1: duplicate key "a"'),
        ("<<: {a: 1}\nb: 2", "f.yaml:1:1: merge keys (<<) are not part of YAML 1.2"),
        (
            "%YAML 1.1\n---\na: yes",
            'f.yaml:1:1: directive "%YAML 1.1" is not allowed: files are read as YAML 1.2 with the '
            "core schema",
        ),
        ("a: .inf", "f.yaml:1:4: .inf is not a finite number; JSON cannot carry it"),
        (
            "a: x\u2028y",
            "f.yaml:1:5: raw U+2028 is a line break in YAML 1.1 but not in 1.2; write it as an "
            'escape in a double-quoted string ("\\N", "\\L", "\\P")',
        ),
        (
            "a: 9007199254740993",
            "f.yaml:1:4: 9007199254740993 is read by the server's YAML parser as "
            "9007199254740992: it cannot hold this number exactly",
        ),
        ("? [1]\n: x", "f.yaml:1:3: keys must be strings, not an array"),
        ("a: &a [*a]", "f.yaml:1:8: alias *a refers to its own anchor"),
        ("a: *x", "f.yaml:1:4: alias *x has no anchor &x before it"),
        ("- 1", "f.yaml:1:1: the top-level value must be a mapping, not an array"),
        ("", "f.yaml:1:1: the file is empty; it must hold a mapping"),
        ("a: b\n---\nc: d", "f.yaml:2:1: invalid YAML: a second document; a file holds one"),
        ("a:\n  - b\n - c", "f.yaml:3:2: invalid YAML: did not find expected key"),
        (
            'a: "x\\ud800"',
            "f.yaml:1:4: a string contains a lone surrogate escape (\\uD800-\\uDFFF without its "
            "pair); it is not valid Unicode",
        ),
    ],
)
def test_what_the_server_parser_would_refuse_or_read_otherwise(text: str, message: str) -> None:
    with pytest.raises(SourceError) as caught:
        parse_yaml("f.yaml", text.encode())
    assert [str(d) for d in caught.value.diagnostics] == [message]


def yaml_catalog(catalog: Catalog) -> Catalog:
    """The same catalog with its index and one bundle file written as YAML."""
    catalog.path("index.json").unlink()
    catalog.path("index.yaml").write_text(_yaml(catalog.index), encoding="utf-8")
    catalog.path("bundles/beta/en.json").unlink()
    catalog.path("bundles/beta/en.yaml").write_text(
        _yaml(catalog.files[("beta", "en")]), encoding="utf-8"
    )
    return catalog


def _yaml(value: object) -> str:
    # JSON is YAML 1.2: a flow-style document keeps this helper independent of the code under test.
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def test_mixed_formats_pass_with_the_same_lock(catalog: Catalog) -> None:
    yaml_catalog(catalog)
    assert catalog.check().out == "OK\n"


def test_auto_start_yes_is_a_string(catalog: Catalog) -> None:
    yaml_catalog(catalog)
    path = catalog.path("bundles/beta/en.yaml")
    path.write_text(
        path.read_text(encoding="utf-8").replace('"autoStart": false', '"autoStart": yes')
    )
    result = catalog.check()
    assert result.code == 1
    assert result.lines[0].startswith("bundles/beta/en.yaml:")
    assert result.lines[0].endswith('role "three": "autoStart" must be a boolean, not a string')


def test_messages_name_the_yaml_index(catalog: Catalog) -> None:
    yaml_catalog(catalog)
    catalog.path("bundles/beta/ru.json").unlink()
    result = catalog.check()
    assert result.lines[0].startswith(
        'bundles/beta/ru.json: missing: bundle "beta" declares language "ru" (index.yaml:'
    )


def test_one_file_in_two_formats_is_an_error(catalog: Catalog) -> None:
    catalog.path("bundles/alpha/ru.yaml").write_text(
        _yaml(catalog.files[("alpha", "ru")]), encoding="utf-8"
    )
    result = catalog.check()
    assert (result.code, result.lines) == (
        1,
        [
            "bundles/alpha/ru.yaml: bundles/alpha/ru.json and bundles/alpha/ru.yaml both exist: "
            "keep the catalog in one format per file (rolecat convert)"
        ],
    )


def test_instruction_file_is_inlined_and_hashed_as_text(catalog: Catalog) -> None:
    text = use_file(catalog, "alpha", "en", 0, "prompts/one.md")
    catalog.path("bundles/alpha/prompts").mkdir(parents=True)
    catalog.path("bundles/alpha/prompts/one.md").write_text(f"{text}\n", encoding="utf-8")
    catalog.write()
    assert catalog.check().out == "OK\n"  # the lock, written from inline text, still holds
    catalog.path("bundles/alpha/prompts/one.md").write_text(f"{text} More.\n", encoding="utf-8")
    assert 'role "one" changed since' in catalog.check().out


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing.md", 'instructions file "bundles/beta/missing.md" does not exist'),
        ("/etc/passwd", '"instructionsFile" "/etc/passwd" must be a relative path with "/"'),
        ("../../../x.md", '"instructionsFile" "../../../x.md" leaves the catalog directory'),
        ("..\\x.md", '"instructionsFile" "..\\x.md" must be a relative path with "/"'),
        ("", '"instructionsFile" must be a relative path to a text file'),
    ],
)
def test_instruction_file_faults(catalog: Catalog, name: str, message: str) -> None:
    use_file(catalog, "beta", "ru", 0, name)
    catalog.write()
    result = catalog.check()
    place = value(catalog, "bundles/beta/ru.json", "instructionsFile", json.dumps(name))
    assert (result.code, result.lines) == (1, [f'{place}: role "three": {message}'])


def test_empty_instruction_file(catalog: Catalog) -> None:
    use_file(catalog, "beta", "ru", 0, "empty.md")
    catalog.write()
    catalog.path("bundles/beta/empty.md").write_text("\n", encoding="utf-8")
    assert (
        catalog.check()
        .lines[0]
        .endswith('role "three": instructions file "bundles/beta/empty.md" is empty')
    )


def test_instruction_file_symlink_outside_is_refused(catalog: Catalog, tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("secret", encoding="utf-8")
    os.symlink(outside, catalog.path("bundles/beta/link.md"))
    use_file(catalog, "beta", "en", 0, "link.md")
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert (
        'role "three": instructions file "bundles/beta/link.md" resolves outside the catalog '
        "directory (a symlink?)" in result.out
    )


def test_instructions_and_file_together(catalog: Catalog) -> None:
    catalog.files[("beta", "en")]["roles"][0]["instructionsFile"] = "x.md"
    catalog.write()
    result = catalog.check()
    assert 'role "three": give either "instructions" or "instructionsFile", not both' in result.out


@pytest.mark.parametrize("name", ["upstream-catalog-json", "upstream-catalog-yaml"])
def test_convert_round_trips_with_the_lock_intact(
    fixture_copy: Callable[[str], Path], name: str
) -> None:
    root = fixture_copy(name)
    before = {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    there, back = ("yaml", "json") if name.endswith("json") else ("json", "yaml")
    converted = run("convert", "--to", there, "--catalog", str(root))
    assert converted.code == 0
    assert converted.lines[0] == f"index.{name.rsplit('-', 1)[1]} -> index.{there}"
    assert run("check", "--catalog", str(root)).out == "OK\n"
    assert run("convert", "--to", back, "--catalog", str(root)).code == 0
    assert run("check", "--catalog", str(root)).out == "OK\n"
    after = {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert after.keys() == before.keys()
    assert after[Path(LOCK)] == before[Path(LOCK)]
    for path, raw in before.items():
        assert parse(str(path), after[path]) == parse(str(path), raw)


def test_convert_keeps_instruction_files(catalog: Catalog) -> None:
    use_file(catalog, "alpha", "en", 0, "one.md")
    text = catalog.files[("alpha", "ru")]["roles"][0]["instructions"].replace("ru", "en")
    catalog.path("bundles/alpha/one.md").write_text(text, encoding="utf-8")
    catalog.write()
    assert catalog.check().out == "OK\n"
    assert run("convert", "--to", "yaml", "--catalog", str(catalog.root)).code == 0
    assert "instructionsFile: one.md" in catalog.path("bundles/alpha/en.yaml").read_text("utf-8")
    assert catalog.check().out == "OK\n"


def test_convert_refuses_a_broken_catalog(catalog: Catalog) -> None:
    catalog.files[("alpha", "en")]["roles"][0]["autoStart"] = "yes"
    catalog.write()
    result = run("convert", "--to", "yaml", "--catalog", str(catalog.root))
    assert result.code == 1 and '"autoStart" must be a boolean' in result.out
    assert not list(catalog.root.rglob("*.yaml"))


def test_convert_refuses_a_writer_that_would_lose_a_value(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each file is read back before anything is written; one that differs stops the whole."""
    original = convert.dump

    def lossy(value: Any, format: Format) -> bytes:
        return original({k: v for k, v in value.items() if k != "schemaVersion"}, format)

    monkeypatch.setattr(convert, "dump", lossy)
    before = sorted(catalog.root.rglob("*"))
    result = run("convert", "--to", "yaml", "--catalog", str(catalog.root), "--format", "json")
    assert result.code == 1
    assert [(p["file"], p["rule"], p["message"]) for p in json_report(result)["problems"]] == [
        ("index.json", "convert", "cannot be written as yaml without loss")
    ]
    assert sorted(catalog.root.rglob("*")) == before
