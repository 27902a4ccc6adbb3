"""What gitmost (develop 3a579489) does after it fetches a role: each test is named after the
server behaviour it protects, and cites the file of the server's code it comes from."""

from __future__ import annotations

import json

import pytest

from build_tools.rules.server_contract import AI_DRIVERS, server_length
from build_tools.sources.javascript import trim
from tests.support.catalogs import Catalog
from tests.support.diagnostics import at, value


def bumped(catalog: Catalog) -> Catalog:
    """Every role one version up and the lock recorded: what passes must be publishable."""
    for bundle in catalog.index["bundles"]:
        for entry in bundle["roles"]:
            entry["version"] += 1
    return catalog.write().lock()


def rules_of(catalog: Catalog) -> list[str]:
    found = json.loads(catalog.check("--format", "json").out)["problems"]
    return [problem["rule"] for problem in found]


EN = "bundles/alpha/en.json"


# --- ai-agent-roles.service.ts, migration 20260620T120000-ai-agent-roles.ts: Postgres text/jsonb


@pytest.mark.parametrize("field", ["name", "instructions", "launchMessage"])
def test_postgres_refuses_u0000_so_the_import_would_fail(catalog: Catalog, field: str) -> None:
    catalog.files[("alpha", "en")]["roles"][0][field] = "Before\x00after"
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    (line,) = result.lines
    where = value(catalog, EN, field, '"Before')
    assert line.startswith(f"{where}: ")
    assert f'role "one": "{field}": the value holds U+0000 (NUL) at character 7' in line
    assert "ai-agent-roles.service.ts" in line


def test_postgres_refuses_u0000_in_a_model_name_too(catalog: Catalog) -> None:
    for language in ("en", "ru"):
        catalog.files[("beta", language)]["roles"][0]["modelConfig"] = {"chatModel": "a\x00b"}
    catalog.write()
    assert "server-nul" in rules_of(catalog)


# --- dto/agent-role.dto.ts: MaxLength, that is validator.js isLength


def test_is_length_counts_as_validator_js() -> None:
    """UTF-16 units, a surrogate pair once, U+FE0E/U+FE0F not at all (validator/lib/isLength)."""
    assert server_length("abc") == 3
    assert server_length("🧭") == 1  # one surrogate pair
    assert server_length("✍️") == 1  # U+270D with U+FE0F
    assert server_length("👩‍💻") == 3  # two pairs and a zero-width joiner
    assert server_length("︎︎") == 0


LIMITS = [
    ("name", 200),
    ("emoji", 32),
    ("description", 2_000),
    ("instructions", 20_000),
    ("launchMessage", 2_000),
]


@pytest.mark.parametrize(("field", "limit"), LIMITS)
def test_the_admin_api_saves_a_field_up_to_its_limit(
    catalog: Catalog, field: str, limit: int
) -> None:
    for language in ("en", "ru"):  # emoji is the same in every language
        text = "x" * limit if field != "name" else f"{language} " + "x" * (limit - 3)
        catalog.files[("alpha", language)]["roles"][0][field] = text
    assert bumped(catalog).check().code == 0


@pytest.mark.parametrize(("field", "limit"), LIMITS)
def test_a_field_over_the_admin_apis_limit_could_never_be_saved_again(
    catalog: Catalog, field: str, limit: int
) -> None:
    for language in ("en", "ru"):
        catalog.files[("alpha", language)]["roles"][0][field] = "y" * (limit + 1)
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    line = next(x for x in result.lines if x.startswith(EN))
    assert (
        f'role "one": "{field}" is {limit + 1:,} characters as the server counts them, and its '
        f"admin API saves at most {limit:,} (dto/agent-role.dto.ts)"
    ) in line


def test_astral_characters_and_presentation_selectors_count_once(catalog: Catalog) -> None:
    for language in ("en", "ru"):
        role = catalog.files[("alpha", language)]["roles"][0]
        role["name"] = f"{language} " + "🧭" * 197  # 394 UTF-16 units, 197 as isLength counts
        role["emoji"] = "✍️" * 32  # 64 code points, 32 as isLength counts
    assert bumped(catalog).check().code == 0


def test_a_model_name_over_200_after_trimming_could_never_be_saved(catalog: Catalog) -> None:
    for language in ("en", "ru"):
        model = {"chatModel": "  " + "m" * 200 + "  "}  # 200 once trimmed: fine
        catalog.files[("beta", language)]["roles"][0]["modelConfig"] = model
    assert bumped(catalog).check().code == 0
    for language in ("en", "ru"):
        catalog.files[("beta", language)]["roles"][0]["modelConfig"] = {"chatModel": "m" * 201}
    catalog.write()
    assert "server-field-too-long" in rules_of(catalog)


def test_the_limits_are_measured_on_what_the_import_stores(catalog: Catalog) -> None:
    """Trimmed (catalogRoleContentFields): blanks around a name do not count, but warn."""
    for language in ("en", "ru"):
        catalog.files[("alpha", language)]["roles"][0]["name"] = "   " + "n" * 198 + language
    result = bumped(catalog).check()
    assert result.code == 0
    assert any("warning:" in line and "trims on import" in line for line in result.lines)


# --- integrations/ai/ai.types.ts: AI_DRIVERS; role-model-config.ts drops any other


@pytest.mark.parametrize("driver", AI_DRIVERS)
def test_a_driver_the_server_knows_passes(catalog: Catalog, driver: str) -> None:
    for language in ("en", "ru"):
        catalog.files[("beta", language)]["roles"][0]["modelConfig"] = {"driver": driver}
    assert bumped(catalog).check().code == 0


@pytest.mark.parametrize("driver", ["vllm", "OpenAI", "openai ", "anthropic"])
def test_an_unknown_driver_would_be_dropped_silently(catalog: Catalog, driver: str) -> None:
    for language in ("en", "ru"):
        catalog.files[("beta", language)]["roles"][0]["modelConfig"] = {"driver": driver}
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    line = next(x for x in result.lines if x.startswith("bundles/beta/en.json"))
    assert f'driver "{driver}" is not one the server knows (openai, gemini, ollama' in line
    assert "run the role on the workspace's default provider" in line


# --- importFromCatalog: names unique per workspace, trimmed and lower-cased


def test_two_names_of_one_bundle_the_import_would_rename_are_an_error(catalog: Catalog) -> None:
    catalog.files[("alpha", "en")]["roles"][0]["name"] = "Reviewer"
    catalog.files[("alpha", "en")]["roles"][1]["name"] = " reviewer"
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    line = next(x for x in result.lines if "is the name of role" in x)
    assert line.startswith(at(catalog, EN, '" reviewer"'))
    assert (
        'role "two": its name "reviewer" is the name of role "one" (bundles/alpha/en.json)' in line
    )
    assert '"… (2)" or skips it (importFromCatalog)' in line


def test_names_shared_across_bundles_are_a_warning(catalog: Catalog) -> None:
    catalog.files[("alpha", "en")]["roles"][0]["name"] = "Helper"
    catalog.files[("beta", "en")]["roles"][0]["name"] = "HELPER"
    result = bumped(catalog).check()
    assert result.code == 0
    (warning,) = [line for line in result.lines if "warning:" in line]
    assert warning.startswith("bundles/beta/en.json:")
    assert "importing both bundles into one workspace renames one of them" in warning
    github = catalog.check("--format", "github")
    assert github.code == 0 and github.out.startswith("::warning file=")


def test_the_same_name_in_two_languages_is_no_collision(catalog: Catalog) -> None:
    for language in ("en", "ru"):
        catalog.files[("alpha", language)]["roles"][0]["name"] = "Reviewer"
    assert bumped(catalog).check().lines == ["OK"]


# --- dto/agent-role-catalog.dto.ts: CatalogQueryDto takes a language of at most 16 characters


def test_a_language_code_over_16_characters_cannot_be_browsed(catalog: Catalog) -> None:
    long = "x" * 17
    bundle = catalog.index["bundles"][0]
    bundle["languages"] = ["en", long]
    for key in ("name", "description"):
        bundle[key][long] = bundle[key].pop("ru")
    catalog.files[("alpha", long)] = {**catalog.files.pop(("alpha", "ru")), "language": long}
    catalog.write()
    catalog.path("bundles/alpha/ru.json").unlink()
    result = catalog.check()
    assert any(
        "is 17 characters, and the server's catalog API takes at most 16 (CatalogQueryDto" in line
        for line in result.lines
    ), result.out


def test_js_trim_is_javascripts() -> None:
    assert trim("\ufeff\u3000 a b \u2029\t") == "a b"
    assert trim("\x1ca\x1f") == "\x1ca\x1f"  # Python's strip would remove these


# --- the upstream catalog, written for a tier-resolving deployment


@pytest.mark.parametrize("generation", ["json", "yaml"])
def test_the_upstream_catalog_passes_with_no_new_warning(generation: str) -> None:
    from tests.support.cli import run
    from tests.support.upstream_fixtures import upstream, upstream_yaml

    root = str(upstream() if generation == "json" else upstream_yaml())
    assert run("check", "--catalog", root, "--model-tiers").lines == ["OK"]
    literal = run("check", "--catalog", root)
    assert literal.code == 0 and literal.lines[-1] == "OK"
    assert all("is a tier word" in line for line in literal.lines[:-1])
