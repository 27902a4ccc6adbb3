"""The schema's problems as people read them: non-ASCII values shown as written, each at the key
or the value it is about, every unknown field named, and each with its rule id.

Found by mutation testing (``make mutate``): each test here fails on a mutant that survived.
"""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from build_tools.check import check_catalog
from build_tools.model import schema
from tests.support.catalogs import Catalog
from tests.support.diagnostics import at, at_string

PATTERN = "^[a-z0-9-]+$ (lowercase letters, digits and hyphens)"


def problems(catalog: Catalog) -> list[str]:
    return [str(d) for d in check_catalog(catalog.write().root).diagnostics]


def test_a_key_that_is_no_id_is_shown_as_written_at_the_key(catalog: Catalog) -> None:
    catalog.index["bundles"][0]["name"]["Русский"] = "Альфа"
    assert problems(catalog) == [
        f'{at_string(catalog, "index.json", "Русский")}: bundle "alpha": "name" has key '
        f'"Русский"; keys must match {PATTERN}'
    ]


def test_a_value_that_is_no_id_is_shown_as_written(catalog: Catalog) -> None:
    catalog.index["bundles"][0]["id"] = "альфа"
    assert problems(catalog) == [
        f'{at_string(catalog, "index.json", "альфа")}: bundle "альфа": "id" is "альфа"; it '
        f"must match {PATTERN}"
    ]


def test_a_schema_version_in_words_is_shown_as_written(catalog: Catalog) -> None:
    catalog.files[("alpha", "en")]["schemaVersion"] = "один"
    assert problems(catalog) == [
        f'{at_string(catalog, "bundles/alpha/en.json", "один")}: "schemaVersion" must be 1, '
        'found "один" (rolecat knows schema version 1 only)'
    ]


def test_every_unknown_field_is_named(catalog: Catalog) -> None:
    catalog.files[("alpha", "en")]["roles"][0].update(foo="x", bar="y")
    known = "autoStart, description, emoji, instructions, launchMessage, modelConfig, name, slug"
    assert problems(catalog) == [
        f'{at_string(catalog, "bundles/alpha/en.json", key)}: role "one": unknown field '
        f'"{key}" (known: {known})'
        for key in ("foo", "bar")
    ]


def test_a_field_named_like_a_credential_has_its_own_rule(catalog: Catalog) -> None:
    catalog.files[("alpha", "en")]["roles"][0]["apiKey"] = "x"
    (problem,) = check_catalog(catalog.write().root).diagnostics
    assert (problem.rule, problem.pointer) == ("credential-field", ("roles", 0, "apiKey"))


def test_no_languages_is_shown_at_the_empty_list(catalog: Catalog) -> None:
    catalog.index["bundles"][1]["languages"] = []
    assert problems(catalog) == [
        f'{at(catalog, "index.json", "[]")}: bundle "beta": no languages: the bundle must declare '
        "at least one"
    ]


def test_a_role_whose_slug_is_no_string_is_named_by_its_position(catalog: Catalog) -> None:
    catalog.files[("alpha", "en")]["roles"][0]["slug"] = 5
    assert problems(catalog) == [
        f'{at(catalog, "bundles/alpha/en.json", "5,")}: role #1: "slug" must be a string, not a '
        "number"
    ]


def test_every_field_named_like_a_credential_is_named(catalog: Catalog) -> None:
    catalog.files[("alpha", "en")]["roles"][0].update(apiKey="x", token="y")
    assert [d.pointer for d in check_catalog(catalog.write().root).diagnostics] == [
        ("roles", 0, "apiKey"),
        ("roles", 0, "token"),
    ]


def test_an_empty_text_is_shown_at_the_value(catalog: Catalog) -> None:
    catalog.files[("alpha", "en")]["roles"][0]["name"] = " "
    assert problems(catalog) == [
        f'{at_string(catalog, "bundles/alpha/en.json", " ", closed=True)}: role "one": "name" '
        "must not be empty"
    ]


def test_a_schema_version_of_true_is_not_1(catalog: Catalog) -> None:
    # As in JSON and JavaScript, true is no number: the screen must not take it for 1.
    catalog.files[("alpha", "en")]["schemaVersion"] = True
    assert problems(catalog) == [
        f'{at(catalog, "bundles/alpha/en.json", "true")}: "schemaVersion" must be 1, found true '
        "(rolecat knows schema version 1 only)"
    ]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([0.0, 1.0, 1.5])
    | st.text(max_size=2),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=2), children, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(json_values, json_values)
def test_the_screen_compares_a_const_as_jsonschema_does(const: Any, value: Any) -> None:
    """The screen is compiled from any schema the project may write; a `const` holding arrays or
    objects must compare as JSON does (``true`` is not ``1``, ``1.0`` is ``1``, order counts in
    an array and not in an object), as jsonschema compares it."""
    node = {"const": const}
    expected = jsonschema.Draft202012Validator(node).is_valid(value)
    assert schema._ScreenCompiler(node).compile()(value) == expected


def test_an_object_where_text_belongs_is_named_an_object(catalog: Catalog) -> None:
    catalog.files[("alpha", "en")]["roles"][0]["slug"] = {}
    assert problems(catalog) == [
        f'{at(catalog, "bundles/alpha/en.json", "{}")}: role #1: "slug" must be a string, not an '
        "object"
    ]
