"""``modelConfig``: checked, the same in every language, hashed, and read as a model tier."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from build_tools.lock import HASHED_FIELDS, role_hash
from build_tools.model.tiers import TIER_ORDER, ModelHint, display_label, fallback_chain, model_hint
from tests.support.catalogs import Catalog, role
from tests.support.diagnostics import at_string, only_line, value

RU = "bundles/beta/ru.json"


def give_model(catalog: Catalog, model: Any, *languages: str) -> Catalog:
    for lang in languages or ("en", "ru"):
        catalog.files[("beta", lang)]["roles"][0]["modelConfig"] = model
    return catalog.write()


def bump(catalog: Catalog) -> Catalog:
    catalog.index["bundles"][1]["roles"][0]["version"] = 3
    return catalog.write()


@pytest.mark.parametrize(
    "model",
    [
        None,
        {"chatModel": "pro"},
        {"driver": "openai"},
        {"driver": "openai", "chatModel": "gpt-4o"},
        {"chatModel": "Opus"},  # not the alias: a model key of the deployment's own
    ],
)
def test_model_config_shapes_that_pass(catalog: Catalog, model: Any) -> None:
    give_model(catalog, model)
    if model is not None:
        bump(catalog).lock()
    assert catalog.check().code == 0


def test_model_config_must_be_an_object_or_null(catalog: Catalog) -> None:
    give_model(catalog, "fast", "ru")
    assert only_line(catalog) == (
        f'{at_string(catalog, RU, "fast")}: role "three": "modelConfig" must be an object or '
        "null, not a string"
    )


def test_model_config_must_not_be_empty(catalog: Catalog) -> None:
    give_model(catalog, {})
    result = catalog.check()
    assert result.code == 1
    assert f'{value(catalog, RU, "modelConfig", "{}")}: role "three": "modelConfig" is empty: ' in (
        result.out
    )
    assert 'give "driver" and/or "chatModel", or null' in result.out


@pytest.mark.parametrize("blank", ["", "   "])
def test_model_words_must_not_be_blank(catalog: Catalog, blank: str) -> None:
    give_model(catalog, {"chatModel": blank}, "ru")
    assert only_line(catalog) == (
        f'{value(catalog, RU, "chatModel", json.dumps(blank))}: role "three": "chatModel" must '
        "not be empty"
    )


def test_model_words_must_be_strings(catalog: Catalog) -> None:
    give_model(catalog, {"driver": 5}, "ru")
    assert only_line(catalog) == (
        f'{value(catalog, RU, "driver", "5")}: role "three": "driver" must be a string, not a '
        "number"
    )


def test_unknown_model_field_suggests_the_known_one(catalog: Catalog) -> None:
    give_model(catalog, {"model": "pro"}, "ru")
    assert only_line(catalog) == (
        f'{at_string(catalog, RU, "model", closed=True)}: role "three": unknown field "model" '
        '(did you mean "chatModel"?)'
    )


def test_model_config_must_be_the_same_in_every_language(catalog: Catalog) -> None:
    """Shown by its keys only: a value could be a credential (which the scan reports)."""
    give_model(catalog, {"chatModel": "gpt-4o"}, "en")
    give_model(catalog, {"chatModel": "o3", "driver": "ollama"}, "ru")
    assert only_line(catalog) == (
        f'{value(catalog, RU, "modelConfig", "{")}: role "three": "modelConfig" is an object '
        'with "chatModel", "driver" here but an object with "chatModel" in bundles/beta/en.json; '
        "it must be the same in every language"
    )
    give_model(catalog, None, "ru")
    assert 'role "three": "modelConfig" is null here but an object with "chatModel"' in (
        only_line(catalog)
    )


def test_model_config_in_another_key_order_is_the_same(catalog: Catalog) -> None:
    give_model(catalog, {"driver": "ollama", "chatModel": "pro"}, "en")
    give_model(catalog, {"chatModel": "pro", "driver": "ollama"}, "ru")
    bump(catalog).lock()
    assert catalog.check().code == 0


def test_a_model_change_needs_a_version_bump(catalog: Catalog) -> None:
    give_model(catalog, {"chatModel": "pro"})
    result = catalog.check()
    assert result.code == 1
    assert 'role "three" changed since content-hashes.json recorded it at version 2' in result.out
    bump(catalog).lock()
    assert catalog.check().code == 0
    give_model(catalog, {"chatModel": "flash"})
    assert 'role "three" changed since' in catalog.check().out


def test_null_model_config_hashes_as_absent(catalog: Catalog) -> None:
    """The upstream checker never hashes modelConfig: null must not change the lock."""
    give_model(catalog, None)
    assert catalog.check().code == 0


def upstream_hash(by_language: dict[str, dict[str, Any]]) -> str:
    """The upstream checker: JSON.stringify of the hashed fields, modelConfig never among them."""
    canonical = [
        [lang, {name: by_language[lang].get(name) for name in HASHED_FIELDS}]
        for lang in sorted(by_language)
    ]
    text = json.dumps(canonical, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_hash_with_model_config_adds_it_sorted_after_the_upstream_fields() -> None:
    en = role("r", "en", modelConfig={"driver": "d", "chatModel": "pro"})
    canonical = [["en", {**{k: en.get(k) for k in HASHED_FIELDS}, "modelConfig": {}}]]
    canonical[0][1]["modelConfig"] = {"chatModel": "pro", "driver": "d"}  # type: ignore[index]
    text = json.dumps(canonical, ensure_ascii=False, separators=(",", ":"))
    assert role_hash({"en": en}) == hashlib.sha256(text.encode()).hexdigest()
    assert role_hash({"en": en}) != upstream_hash({"en": en})
    assert role_hash({"en": role("r", "en")}) == upstream_hash({"en": role("r", "en")})
    assert role_hash({"en": role("r", "en", modelConfig=None)}) == upstream_hash(
        {"en": role("r", "en")}
    )


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)


def shuffled(value: Any, rng: random.Random) -> Any:
    """The same JSON value with the keys of every object in another order."""
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {key: shuffled(value[key], rng) for key in keys}
    if isinstance(value, list):
        return [shuffled(item, rng) for item in value]
    return value


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["en", "ru", "x-y"]),
        st.fixed_dictionaries(
            {},
            optional={
                **{f: st.text(max_size=10) | st.none() | st.booleans() for f in HASHED_FIELDS},
                "modelConfig": st.dictionaries(st.text(max_size=6), json_values, min_size=1),
            },
        ),
        min_size=1,
    ),
    st.randoms(use_true_random=False),
)
def test_reordering_keys_never_changes_a_hash(
    by_language: dict[str, dict[str, Any]], rng: random.Random
) -> None:
    assert role_hash(shuffled(by_language, rng)) == role_hash(by_language)
    if not any(role.get("modelConfig") is not None for role in by_language.values()):
        assert role_hash(by_language) == upstream_hash(by_language)


@pytest.mark.parametrize(
    ("config", "kind", "label", "chain", "filter_key"),
    [
        (None, "default", "", (), "default"),
        ({"driver": "openai"}, "default", "", (), "default"),
        ({"chatModel": "pro"}, "tier", "pro", ("pro", "flash", "lite"), "pro"),
        ({"chatModel": "ultra"}, "tier", "ultra", TIER_ORDER, "ultra"),
        ({"chatModel": "lite"}, "tier", "lite", ("lite",), "lite"),
        ({"chatModel": "opus"}, "alias", "pro", ("pro", "flash", "lite"), "pro"),
        ({"chatModel": "mythos"}, "alias", "max", ("max", "pro", "flash", "lite"), "max"),
        ({"chatModel": "haiku"}, "alias", "lite", ("lite",), "lite"),
        ({"chatModel": "best"}, "best", "best", TIER_ORDER, "best"),
        ({"chatModel": "gpt-4o"}, "model", "gpt-4o", (), "model"),
        ({"chatModel": "Opus"}, "model", "Opus", (), "model"),
        ({"chatModel": "Pro"}, "model", "Pro", (), "model"),
    ],
)
def test_model_hint(
    config: Any, kind: str, label: str, chain: tuple[str, ...], filter_key: str
) -> None:
    hint = model_hint(config)
    assert (hint.kind, hint.label, hint.chain, hint.filter_key) == (kind, label, chain, filter_key)
    assert hint.written == (config or {}).get("chatModel")


def test_model_hint_keeps_the_driver() -> None:
    assert model_hint({"driver": "vllm", "chatModel": "sonnet"}) == ModelHint(
        "alias", "sonnet", "vllm", "flash"
    )


def test_display_label_and_chain_follow_the_seed() -> None:
    assert [display_label(w) for w in ("fable", "mythos", "opus", "sonnet", "haiku")] == [
        "max",
        "max",
        "pro",
        "flash",
        "lite",
    ]
    assert display_label("deepseek-chat") == "deepseek-chat"
    assert fallback_chain("max") == ("max", "pro", "flash", "lite")


def test_null_and_absent_model_config_are_the_same_in_every_language(catalog: Catalog) -> None:
    """The server reads an absent modelConfig as null: one language may write either."""
    give_model(catalog, None, "en")
    assert "modelConfig" not in catalog.files[("beta", "ru")]["roles"][0]
    assert catalog.check().code == 0, catalog.check().out
