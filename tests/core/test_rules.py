"""Each rule of `rolecat check`, broken once in an otherwise valid catalog: exit code, message."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.catalogs import Catalog, role
from tests.support.cli import run
from tests.support.diagnostics import at, at_string, only_line, value


def test_valid_catalog_prints_ok(catalog: Catalog) -> None:
    result = catalog.check()
    assert (result.code, result.out) == (0, "OK\n")


def test_our_catalog_passes() -> None:
    """With the tiers its deployment resolves (mkdocs.yml's model_tiers); without, each tier
    word warns, as gitmost would ask its provider for a model of that literal name."""
    catalog = str(Path(__file__).resolve().parents[2] / "catalog")
    result = run("check", "--catalog", catalog, "--model-tiers")
    assert (result.code, result.out) == (0, "OK\n")
    literal = run("check", "--catalog", catalog)
    assert literal.code == 0 and literal.lines[-1] == "OK"
    assert [line.split(": warning: ")[1].split(":")[0] for line in literal.lines[:-1]] == [
        'role "test-engineer"',
        'role "incident-responder"',
        'role "release-notes-writer"',
    ]


def test_duplicate_slug_across_bundles(catalog: Catalog) -> None:
    catalog.index["bundles"][1]["roles"][0]["slug"] = "one"
    for lang in ("en", "ru"):
        catalog.files[("beta", lang)]["roles"][0]["slug"] = "one"
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    first = at(catalog, "index.json", '"one"')
    second = at(catalog, "index.json", '"one"', 1)
    assert result.lines == [
        f'{second}: bundle "beta": role "one" is already in bundle "alpha" ({first}); slugs '
        "must be unique across the whole catalog"
    ]


def test_duplicate_slug_in_one_bundle(catalog: Catalog) -> None:
    catalog.index["bundles"][0]["roles"][1]["slug"] = "one"
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    first = at(catalog, "index.json", '"one"')
    second = at(catalog, "index.json", '"one"', 1)
    assert (
        f'{second}: bundle "alpha": role "one" is listed twice in "roles" (first at {first})'
        in (result.lines)
    )


def test_role_missing_from_a_language_file(catalog: Catalog) -> None:
    del catalog.files[("alpha", "ru")]["roles"][1]
    catalog.write()
    assert only_line(catalog) == (
        f'{at(catalog, "bundles/alpha/ru.json", "[")}: role "two" is missing: bundle "alpha" lists '
        f"it in index.json ({at_string(catalog, 'index.json', 'two')}) but this file has no "
        "role with that slug"
    )


def test_duplicate_slug_in_a_language_file(catalog: Catalog) -> None:
    catalog.files[("beta", "en")]["roles"].append(role("three"))
    catalog.write()
    assert only_line(catalog) == (
        f'{value(catalog, "bundles/beta/en.json", "slug", json.dumps("three"), 1)}: role "three" '
        "appears twice in this file"
    )


def test_declared_language_file_missing(catalog: Catalog) -> None:
    catalog.path("bundles/beta/ru.json").unlink()
    assert only_line(catalog) == (
        'bundles/beta/ru.json: missing: bundle "beta" declares language "ru" '
        f"({at_string(catalog, 'index.json', 'ru', 4)})"
    )


def test_missing_index(tmp_path: Path) -> None:
    result = run("check", "--catalog", str(tmp_path))
    assert (result.code, result.lines) == (
        1,
        ["index.json: missing: a catalog needs an index.json (or index.yaml) at its root"],
    )


def test_undeclared_file(catalog: Catalog) -> None:
    catalog.files[("alpha", "fr")] = catalog.files[("alpha", "en")] | {"language": "fr"}
    catalog.write()
    assert only_line(catalog) == (
        'bundles/alpha/fr.json: language "fr" is not declared for bundle "alpha" in index.json; '
        'add it to its "languages" or remove the file'
    )


def test_required_fields(catalog: Catalog) -> None:
    del catalog.files[("alpha", "en")]["roles"][0]["name"]
    catalog.files[("alpha", "en")]["roles"][1]["instructions"] = "  \n "
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert result.lines == [
        f'{at(catalog, "bundles/alpha/en.json", "{", 1)}: role "one": required field "name" is '
        "missing",
        f'{at_string(catalog, "bundles/alpha/en.json", "  ")}: role "two": "instructions" must '
        "not be empty",
    ]


def test_slug_missing_names_the_role_by_position(catalog: Catalog) -> None:
    del catalog.files[("beta", "en")]["roles"][0]["slug"]
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert (
        f'{at(catalog, "bundles/beta/en.json", "{", 1)}: role #1: required field "slug" is missing'
        in (result.lines)
    )


def test_version_must_be_a_number(catalog: Catalog) -> None:
    catalog.index["bundles"][0]["roles"][0]["version"] = "2"
    catalog.write()
    assert only_line(catalog) == (
        f'{at_string(catalog, "index.json", "2")}: bundle "alpha", role "one": "version" must '
        "be a number, not a string"
    )


def test_version_boolean_is_not_a_number(catalog: Catalog) -> None:
    catalog.index["bundles"][1]["roles"][0]["version"] = True
    catalog.write()
    assert only_line(catalog) == (
        f'{at(catalog, "index.json", "true")}: bundle "beta", role "three": "version" must be a '
        "number, not a boolean"
    )


def test_version_missing(catalog: Catalog) -> None:
    del catalog.index["bundles"][1]["roles"][0]["version"]
    catalog.write()
    assert only_line(catalog) == (
        f'{at(catalog, "index.json", "{", 8)}: bundle "beta", role "three": required field '
        '"version" is missing'
    )


def test_bundle_without_id(catalog: Catalog) -> None:
    del catalog.index["bundles"][1]["id"]
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert result.lines == [
        f'{at(catalog, "index.json", "{", 6)}: bundle #2: required field "id" is missing'
    ]


def test_no_bundles(catalog: Catalog) -> None:
    catalog.index["bundles"] = []
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert result.lines == [
        f"{at(catalog, 'index.json', '[')}: no bundles: the catalog must declare at least one "
        "bundle"
    ]


def test_no_languages(catalog: Catalog) -> None:
    catalog.index["bundles"][1]["languages"] = []
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert (
        f'{at(catalog, "index.json", "[]")}: bundle "beta": no languages: the bundle must declare '
        "at least one" in result.lines
    )


def test_ids_must_match_the_pattern(catalog: Catalog) -> None:
    catalog.index["bundles"][0]["roles"][0]["slug"] = "One Role"
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert (
        f'{at_string(catalog, "index.json", "One")}: bundle "alpha", role "One Role": "slug" is '
        '"One Role"; it must match ^[a-z0-9-]+$ (lowercase letters, digits and hyphens)'
    ) in result.lines


def test_language_must_match_the_pattern(catalog: Catalog) -> None:
    catalog.index["bundles"][1]["languages"] = ["en", "../ru"]
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert result.lines == [
        f'{at_string(catalog, "index.json", "../ru")}: bundle "beta": "languages[1]" is '
        '"../ru"; it must match ^[a-z0-9-]+$ (lowercase letters, digits and hyphens)'
    ]


def test_description_null_is_refused(catalog: Catalog) -> None:
    catalog.files[("alpha", "ru")]["roles"][1]["description"] = None
    catalog.write()
    assert only_line(catalog) == (
        f'{at(catalog, "bundles/alpha/ru.json", "null", 1)}: role "two": "description" must be a '
        "string, not null"
    )


def test_auto_start_must_be_boolean(catalog: Catalog) -> None:
    for lang in ("en", "ru"):
        catalog.files[("beta", lang)]["roles"][0]["autoStart"] = "yes"
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert result.lines[0] == (
        f'{at_string(catalog, "bundles/beta/en.json", "yes")}: role "three": "autoStart" must '
        "be a boolean, not a string"
    )


def test_launch_message_string_or_null(catalog: Catalog) -> None:
    catalog.files[("beta", "ru")]["roles"][0]["launchMessage"] = 5
    catalog.write()
    assert only_line(catalog) == (
        f'{at(catalog, "bundles/beta/ru.json", "5")}: role "three": "launchMessage" must be a '
        "string or null, not a number"
    )


def test_model_config_object_or_null(catalog: Catalog) -> None:
    catalog.files[("beta", "ru")]["roles"][0]["modelConfig"] = "fast"
    catalog.write()
    assert only_line(catalog) == (
        f'{at_string(catalog, "bundles/beta/ru.json", "fast")}: role "three": "modelConfig" '
        "must be an object or null, not a string"
    )


def test_model_config_of_today_is_accepted(catalog: Catalog) -> None:
    for lang in ("en", "ru"):
        catalog.files[("beta", lang)]["roles"][0]["modelConfig"] = {
            "driver": "gemini",
            "chatModel": "y",
        }
    catalog.index["bundles"][1]["roles"][0]["version"] = 3  # modelConfig is hashed: bump
    catalog.write().lock()
    assert catalog.check().code == 0


def test_emoji_must_match_across_languages(catalog: Catalog) -> None:
    catalog.files[("alpha", "ru")]["roles"][0]["emoji"] = "🔥"
    catalog.write()
    assert only_line(catalog) == (
        f'{at_string(catalog, "bundles/alpha/ru.json", "🔥")}: role "one": "emoji" is "🔥" here '
        'but "🧭" in bundles/alpha/en.json; it must be the same in every language'
    )


def test_auto_start_must_match_across_languages(catalog: Catalog) -> None:
    catalog.files[("beta", "ru")]["roles"][0]["autoStart"] = True
    catalog.write()
    assert only_line(catalog) == (
        f'{at(catalog, "bundles/beta/ru.json", "true")}: role "three": "autoStart" is true here '
        "but false in bundles/beta/en.json; it must be the same in every language"
    )


def test_language_must_equal_file_name(catalog: Catalog) -> None:
    catalog.files[("beta", "ru")]["language"] = "en"
    catalog.write()
    assert only_line(catalog) == (
        f'{at_string(catalog, "bundles/beta/ru.json", "en")}: "language" is "en" but the file '
        'is for "ru"; they must be equal'
    )


def test_duplicate_bundle_id(catalog: Catalog) -> None:
    catalog.index["bundles"].append(dict(catalog.index["bundles"][1], roles=[]))
    catalog.write()
    assert only_line(catalog) == (
        f'{at_string(catalog, "index.json", "beta", 1)}: bundle "beta" is declared twice '
        f"(first at {at_string(catalog, 'index.json', 'beta')}); bundle ids must be unique"
    )


def test_duplicate_language(catalog: Catalog) -> None:
    catalog.index["bundles"][1]["languages"] = ["en", "ru", "en"]
    catalog.write()
    assert only_line(catalog) == (
        f'{at_string(catalog, "index.json", "en", 5)}: bundle "beta": language "en" is listed twice'
    )


def test_schema_version_must_be_1(catalog: Catalog) -> None:
    catalog.files[("beta", "en")]["schemaVersion"] = 2
    catalog.write()
    assert only_line(catalog) == (
        f'{at(catalog, "bundles/beta/en.json", "2")}: "schemaVersion" must be 1, found 2 '
        "(rolecat knows schema version 1 only)"
    )


def test_unknown_field_suggests_the_known_one(catalog: Catalog) -> None:
    entry = catalog.files[("alpha", "en")]["roles"][1]
    entry["instrutions"] = entry.pop("instructions")
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert result.lines == [
        f'{at(catalog, "bundles/alpha/en.json", "{", 2)}: role "two": required field '
        '"instructions" is missing',
        f'{at_string(catalog, "bundles/alpha/en.json", "instrutions")}: role "two": unknown '
        'field "instrutions" (did you mean "instructions"?)',
    ]


def test_unknown_field_without_a_near_match_lists_the_known(catalog: Catalog) -> None:
    catalog.index["bundles"][0]["owner"] = "team"
    catalog.write()
    assert only_line(catalog) == (
        f'{at_string(catalog, "index.json", "owner")}: bundle "alpha": unknown field "owner" '
        "(known: description, id, languages, name, roles)"
    )


def test_bundle_name_needs_every_language(catalog: Catalog) -> None:
    del catalog.index["bundles"][0]["name"]["ru"]
    catalog.write()
    assert only_line(catalog) == (
        f'{at(catalog, "index.json", "{", 2)}: bundle "alpha": "name" has no "ru" entry, but "ru" '
        "is one of its languages"
    )


def test_every_problem_is_reported_sorted(catalog: Catalog) -> None:
    catalog.files[("beta", "ru")]["roles"][0]["description"] = None
    catalog.files[("alpha", "en")]["roles"][0]["autoStart"] = 1
    catalog.index["bundles"][0]["roles"][0]["version"] = "1"
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert [line.split(":")[0] for line in result.lines] == [
        "bundles/alpha/en.json",
        "bundles/beta/ru.json",
        "index.json",
    ]
    assert result.err == "rolecat: 3 problems\n"
