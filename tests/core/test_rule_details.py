"""What each rule across files reports beyond its message: its rule id (what ``--format json`` and
GitHub annotations carry, and what a team filters on), where it points, and that a malformed
entry, reported by the schema, never hides a later problem from the rule.

Found by mutation testing (``make mutate``): each test here fails on a mutant that survived.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from build_tools.check import check_catalog
from build_tools.diagnostics import Diagnostic
from tests.support.catalogs import Catalog, role
from tests.support.diagnostics import at


def problems(catalog: Catalog) -> list[Diagnostic]:
    return check_catalog(catalog.write().root).diagnostics


def rules(catalog: Catalog) -> list[str]:
    return sorted(diagnostic.rule for diagnostic in problems(catalog))


def _duplicate_bundle(catalog: Catalog) -> None:
    catalog.index["bundles"].append(dict(catalog.index["bundles"][1], roles=[]))


def _duplicate_language(catalog: Catalog) -> None:
    catalog.index["bundles"][1]["languages"] = ["en", "ru", "en"]


def _untranslated_description(catalog: Catalog) -> None:
    del catalog.index["bundles"][0]["description"]["ru"]


def _slug_in_two_bundles(catalog: Catalog) -> None:
    catalog.index["bundles"][1]["roles"].append({"slug": "one", "version": 1})
    for language in ("en", "ru"):
        catalog.files[("beta", language)]["roles"].append(role("one", language))


def _language_mismatch(catalog: Catalog) -> None:
    catalog.files[("beta", "ru")]["language"] = "en"


def _slug_twice_in_a_file(catalog: Catalog) -> None:
    catalog.files[("beta", "en")]["roles"].append(role("three"))


def _extra_role(catalog: Catalog) -> None:
    catalog.files[("beta", "en")]["roles"].append(role("four"))


def _missing_role(catalog: Catalog) -> None:
    del catalog.files[("alpha", "ru")]["roles"][1]


def _emoji_differs(catalog: Catalog) -> None:
    catalog.files[("alpha", "ru")]["roles"][0]["emoji"] = "🔥"


def _placeholder(catalog: Catalog) -> None:
    catalog.files[("alpha", "en")]["roles"][0]["description"] = "TODO(rolecat): say what it does"


@pytest.mark.parametrize(
    ("edit", "rule"),
    [
        (_duplicate_bundle, "duplicate-bundle"),
        (_duplicate_language, "duplicate-language"),
        (_untranslated_description, "missing-translation"),
        (_slug_in_two_bundles, "duplicate-slug"),
        (_language_mismatch, "language-mismatch"),
        (_slug_twice_in_a_file, "duplicate-slug"),
        (_extra_role, "extra-role"),
        (_missing_role, "missing-role"),
        (_emoji_differs, "not-same-in-languages"),
        (_placeholder, "placeholder"),
    ],
    ids=lambda value: value if isinstance(value, str) else value.__name__.strip("_"),
)
def test_each_problem_carries_its_rule_id(
    catalog: Catalog, edit: Callable[[Catalog], None], rule: str
) -> None:
    edit(catalog)
    assert rules(catalog) == [rule]


def test_a_bundle_without_an_id_does_not_hide_a_later_duplicate(catalog: Catalog) -> None:
    catalog.index["bundles"].insert(0, {"name": {"en": "No id"}, "languages": [], "roles": []})
    _duplicate_bundle(catalog)
    assert "duplicate-bundle" in rules(catalog)


def test_a_language_that_is_no_string_does_not_hide_a_later_duplicate(catalog: Catalog) -> None:
    catalog.index["bundles"][1]["languages"] = ["en", 7, "ru", "ru"]
    assert "duplicate-language" in rules(catalog)


def test_a_name_that_is_no_object_does_not_hide_an_untranslated_description(
    catalog: Catalog,
) -> None:
    catalog.index["bundles"][0]["name"] = "Alpha"
    _untranslated_description(catalog)
    assert "missing-translation" in rules(catalog)


def test_a_bundle_in_one_language_does_not_hide_a_later_bundle_that_differs(
    catalog: Catalog,
) -> None:
    catalog.index["bundles"][0]["languages"] = ["en"]
    del catalog.files[("alpha", "ru")]
    catalog.path("bundles/alpha/ru.json").unlink()
    catalog.files[("beta", "ru")]["roles"][0]["emoji"] = "🔥"
    assert rules(catalog) == ["not-same-in-languages"]


@pytest.mark.parametrize("missing_from", ["en", "ru"])
def test_a_role_missing_from_one_file_does_not_hide_a_later_role_that_differs(
    catalog: Catalog, missing_from: str
) -> None:
    del catalog.files[("alpha", missing_from)]["roles"][0]
    catalog.files[("alpha", "ru")]["roles"][-1]["emoji"] = "🔥"
    assert rules(catalog) == ["missing-role", "not-same-in-languages"]


def test_a_field_absent_in_one_language_is_shown_as_absent_at_the_role(catalog: Catalog) -> None:
    del catalog.files[("alpha", "ru")]["roles"][0]["emoji"]
    (problem,) = problems(catalog)
    assert problem.pointer == ("roles", 0)  # --format json gives it: the role, not the field
    assert str(problem) == (
        f'{at(catalog, "bundles/alpha/ru.json", "{", 1)}: role "one": "emoji" is absent here but '
        '"🧭" in bundles/alpha/en.json; it must be the same in every language'
    )


def placeholder_messages(catalog: Catalog) -> list[str]:
    return [d.message for d in problems(catalog) if d.rule == "placeholder"]


def test_a_placeholder_names_the_bundle_in_the_index_and_the_role_in_a_file(
    catalog: Catalog,
) -> None:
    catalog.index["bundles"][0]["name"]["ru"] = "TODO(rolecat): translate"
    _placeholder(catalog)
    assert placeholder_messages(catalog) == [
        'role "one": "description" is still a placeholder: say what it does',
        'bundle "alpha": "name.ru" is still a placeholder: translate',
    ]


def test_a_placeholder_in_an_instruction_file_is_found(catalog: Catalog) -> None:
    prompt = catalog.path("bundles/beta/three.md")
    prompt.parent.mkdir(parents=True, exist_ok=True)
    prompt.write_text("You are three.\nTODO(rolecat): write the rest\n", encoding="utf-8")
    entry: dict[str, Any] = catalog.files[("beta", "en")]["roles"][0]
    del entry["instructions"]
    entry["instructionsFile"] = "three.md"
    assert placeholder_messages(catalog) == [
        'role "three": "instructions" is still a placeholder: write the rest'
    ]


def test_a_placeholder_shows_what_follows_the_first_marker(catalog: Catalog) -> None:
    texts = "TODO(rolecat): first\nTODO(rolecat): second"
    catalog.files[("alpha", "en")]["roles"][0]["instructions"] = texts
    assert placeholder_messages(catalog) == [
        'role "one": "instructions" is still a placeholder: first'
    ]


@pytest.mark.parametrize(
    ("todo", "shown"),
    [("x" * 80, "x" * 80), ("x" * 81, "x" * 79 + "…")],
    ids=["80 characters, whole", "81, cut to 80"],
)
def test_a_long_placeholder_is_cut_to_80_characters(
    catalog: Catalog, todo: str, shown: str
) -> None:
    _placeholder(catalog)
    catalog.files[("alpha", "en")]["roles"][0]["description"] = "TODO(rolecat): " + todo
    assert placeholder_messages(catalog) == [
        f'role "one": "description" is still a placeholder: {shown}'
    ]


def test_a_role_missing_from_one_translation_does_not_hide_a_difference_in_the_next(
    catalog: Catalog,
) -> None:
    catalog.index["bundles"][0]["languages"] = ["en", "ru", "de"]
    catalog.index["bundles"][0]["name"]["de"] = catalog.index["bundles"][0]["description"]["de"] = (
        "A"
    )
    catalog.files[("alpha", "de")] = json.loads(json.dumps(catalog.files[("alpha", "en")]))
    catalog.files[("alpha", "de")]["language"] = "de"
    catalog.files[("alpha", "de")]["roles"][0]["emoji"] = "🔥"
    del catalog.files[("alpha", "ru")]["roles"][0]
    assert rules(catalog) == ["missing-role", "not-same-in-languages"]
