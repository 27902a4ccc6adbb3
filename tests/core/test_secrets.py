"""No credential is ever published: credential-named fields, the secret scan, the allowlist."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from build_tools.cli.convert import convert_catalog
from build_tools.model.credentials import is_credential_name
from build_tools.rules.secret_scan import DETECTORS, FILTERS, scan_text, suspect
from build_tools.sources.formats import dump_yaml
from tests.support.catalogs import Catalog
from tests.support.diagnostics import at, at_string, only_line
from tests.support.fake_credentials import ALNUM, JWT, PRIVATE_KEY, SECRETS, _random


def secret_free(out: str, *secrets: str) -> bool:
    """No secret, and no long piece of one, appears in the output."""
    return not any(secret[i : i + 12] in out for secret in secrets for i in range(len(secret) - 11))


# --- credential-named fields ---------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["apiKey", "api_key", "API-KEY", "ApiKey", "apikey", "x-api-key", "token", "Token",
     "accessToken", "auth_token", "secret", "clientSecret", "password", "PASSWORD", "db-passwd",
     "privateKey", "credentials", "key"],
)  # fmt: skip
def test_credential_names(name: str) -> None:
    assert is_credential_name(name)


@pytest.mark.parametrize(
    "name", ["maxTokens", "tokens", "keyboard", "monkey", "driver", "chatModel", "secretary"]
)
def test_names_that_are_not_credentials(name: str) -> None:
    assert not is_credential_name(name)


@pytest.mark.parametrize("name", ["apiKey", "API_KEY", "Password", "token"])
def test_credential_field_in_a_role(catalog: Catalog, name: str) -> None:
    catalog.files[("beta", "ru")]["roles"][0][name] = "value"
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert result.lines == [
        f'{at(catalog, "bundles/beta/ru.json", json.dumps(name))}: role "three": "{name}" is '
        "named like a credential: never put credentials in the catalog (it is published); "
        "reference it from the server's environment instead"
    ]


def test_credential_field_in_model_config(catalog: Catalog) -> None:
    catalog.files[("beta", "en")]["roles"][0]["modelConfig"] = {"chatModel": "pro", "api-key": "x"}
    catalog.write()
    line = only_line(catalog)
    assert line.startswith(f"{at_string(catalog, 'bundles/beta/en.json', 'api-key')}: ")
    assert '"api-key" is named like a credential' in line
    assert "reference it from the server's environment instead" in line


# --- the scan ------------------------------------------------------------------------------


def plant(catalog: Catalog, field: str, text: str, lang: str = "en", slug_index: int = 0) -> None:
    catalog.files[("alpha", lang)]["roles"][slug_index][field] = text
    catalog.write()


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_secret_in_instructions_is_found_at_its_position_and_never_shown(
    catalog: Catalog, kind: str
) -> None:
    secret = SECRETS[kind]
    plant(catalog, "instructions", f'You help.\n\nUse "{secret}" to deploy.')
    result = catalog.check()
    assert result.code == 1
    (line,) = result.lines
    position = at(catalog, "bundles/alpha/en.json", secret)
    if kind == "Basic Auth Credentials":  # the detector's match starts at "://"
        position = at(catalog, "bundles/alpha/en.json", "://app:")
    assert line.startswith(f'{position}: role "one": "instructions" holds a credential ({kind}); ')
    assert "reference it from the server's environment instead" in line
    assert secret_free(result.out + result.err, secret)


@pytest.mark.parametrize(
    ("text", "kind"),
    [(PRIVATE_KEY, "Private Key"), (f"Authorization: Bearer {JWT}", "JSON Web Token")],
)
def test_private_keys_and_tokens_in_a_launch_message(
    catalog: Catalog, text: str, kind: str
) -> None:
    plant(catalog, "launchMessage", "Start with this:\n" + text, lang="ru", slug_index=1)
    result = catalog.check()
    (line,) = result.lines
    assert f'role "two": "launchMessage" holds a credential ({kind})' in line
    assert secret_free(result.out, PRIVATE_KEY.splitlines()[2], JWT)


def test_every_secret_of_a_role_and_its_languages_is_reported(catalog: Catalog) -> None:
    plant(catalog, "instructions", f"one {SECRETS['AWS Access Key']} two {SECRETS['GitHub Token']}")
    plant(catalog, "description", SECRETS["Stripe Access Key"], lang="ru")
    result = catalog.check()
    assert [line.split(" holds a credential ")[1].split(")")[0] for line in result.lines] == [
        "(AWS Access Key",
        "(GitHub Token",
        "(Stripe Access Key",
    ]
    assert secret_free(result.out, *SECRETS.values())


def test_position_counts_escapes_and_non_ascii_before_the_secret(catalog: Catalog) -> None:
    secret = SECRETS["GitHub Token"]
    plant(catalog, "instructions", 'Ключ «x» "quoted"\ttab\n' * 3 + f"token {secret}")
    catalog.path("bundles/alpha/en.json").write_text(
        json.dumps(
            catalog.files[("alpha", "en")], ensure_ascii=True, indent=2
        ),  # every non-ASCII character as \\uXXXX
        encoding="utf-8",
    )
    (line,) = catalog.check().lines
    assert line.startswith(f"{at(catalog, 'bundles/alpha/en.json', secret)}: ")


def test_same_secret_twice_is_placed_twice(catalog: Catalog) -> None:
    secret = SECRETS["AWS Access Key"]
    plant(catalog, "instructions", f"{secret} and again {secret}")
    lines = catalog.check().lines
    assert [line.split(": role")[0] for line in lines] == [
        at(catalog, "bundles/alpha/en.json", secret),
        at(catalog, "bundles/alpha/en.json", secret, 1),
    ]


def test_secret_in_an_instruction_file_is_placed_in_that_file(catalog: Catalog) -> None:
    secret = SECRETS["Slack Token"]
    prompt = catalog.path("prompts/one.md")
    prompt.parent.mkdir()
    prompt.write_text(f"# One\n\nPost with\n    {secret}\n", encoding="utf-8")
    role = catalog.files[("alpha", "en")]["roles"][0]
    del role["instructions"]
    role["instructionsFile"] = "../../prompts/one.md"
    catalog.write()
    (line,) = catalog.check().lines
    assert line.startswith(
        'prompts/one.md:4:5: role "one": its instructions file (named in bundles/alpha/en.json) '
        "holds a credential (Slack Token); "
    )
    assert secret not in line


def test_secret_in_a_yaml_block_scalar_is_placed_exactly(catalog: Catalog) -> None:
    secret = SECRETS["OpenAI Token"]
    plant(catalog, "instructions", f"You help.\n\n  Indented: {secret}\nEnd.")
    source = catalog.path("bundles/alpha/en.json")
    yaml_path = source.with_suffix(".yaml")
    yaml_path.write_bytes(
        dump_yaml(
            catalog.files[("alpha", "en")],
        )
    )
    source.unlink()
    text = yaml_path.read_text(encoding="utf-8")
    assert "instructions: |" in text  # a literal block scalar, as authors write prompts
    (line,) = catalog.check().lines
    offset = text.index(secret)
    row = text.count("\n", 0, offset) + 1
    col = offset - text.rfind("\n", 0, offset)
    assert line.startswith(f"bundles/alpha/en.yaml:{row}:{col}: ")


def test_secret_in_a_bundle_description_of_the_index(catalog: Catalog) -> None:
    secret = SECRETS["GitLab Token"]
    catalog.index["bundles"][0]["description"]["en"] = f"Uses {secret}."
    catalog.write()
    (line,) = catalog.check().lines
    assert line.startswith(
        f'{at(catalog, "index.json", secret)}: bundle "alpha": "description.en" holds a credential '
        "(GitLab Token)"
    )


@pytest.mark.parametrize(
    "text",
    [
        "postgres://user:<password>@localhost/db",  # a placeholder, not a password
        "postgres://user:${DB_PASSWORD}@localhost/db",
        "https://docs.example.com/guides/very/long/path/to/a/page_with_underscores",
        "Read the instructions_for_the_long_identifier_with_no_secret carefully.",
        "-----BEGIN PUBLIC KEY-----",
    ],
)
def test_prose_and_placeholders_pass(catalog: Catalog, text: str) -> None:
    plant(catalog, "instructions", text)
    catalog.index["bundles"][0]["roles"][0]["version"] = 2
    catalog.write().lock()
    assert catalog.check().code == 0


def test_the_scan_never_goes_to_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the secret scan opened a connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    found = scan_text("\n".join(SECRETS.values()))
    assert sorted({f.kind for f in found}) == sorted(SECRETS)


def detect_secrets_alone(text: str) -> set[tuple[int, str]]:
    """(line, kind) of what detect-secrets itself reports, with no screen in front of it."""
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import transient_settings

    config = {
        "plugins_used": [{"name": name} for name in DETECTORS],
        "filters_used": [{"path": path} for path in FILTERS],
    }
    with transient_settings(config):
        return {(n, s.type) for n, line in enumerate(text.split("\n")) for s in scan_line(line)}


pieces = st.sampled_from(
    [*SECRETS.values(), JWT, PRIVATE_KEY, "Проверь", "ключ", "review", "the", " ", "\t", "\n",
     ". ", "«", "»", "—", "://", "@", "_", "-", "=", "/", "é", "🔑", "PRIVATE KEY", "AKIA",
     "ghp_", " aws key = '", "'", _random(ALNUM + "/+", 40), "1234567890:", "https:",
     "//registry.example.org/:_authToken=", "\u017f", "\u212a", "٣"]
) | st.text(alphabet=ALNUM + "_-+/=.\\:@ ", max_size=30)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(pieces, max_size=12).map("".join))
def test_the_screen_never_hides_what_detect_secrets_finds(text: str) -> None:
    """Whatever detect-secrets finds on its own, the screened scan finds too, and nothing else."""
    expected = detect_secrets_alone(text)
    assert {(text.count("\n", 0, f.start), f.kind) for f in scan_text(text)} == expected
    if expected:
        assert suspect(text)


# --- the allowlist -------------------------------------------------------------------------

ALLOWLIST = "secrets-allowlist.json"
EXAMPLE = "postgres://app:" + "hunter2hunter2" + "@localhost/app"


def digest_in(line: str) -> str:
    return line.split('{"')[1].split('"')[0]


def allow(catalog: Catalog, entries: dict[str, Any]) -> Path:
    path = catalog.path(ALLOWLIST)
    path.write_text(json.dumps(entries, indent=2) + "\n", encoding="utf-8")
    return path


def example_in_role_one(catalog: Catalog) -> str:
    """A false positive (a documentation DSN) in role one, bumped and locked; its digest."""
    plant(catalog, "instructions", f"Example connection string: {EXAMPLE}")
    catalog.index["bundles"][0]["roles"][0]["version"] = 2
    catalog.write()
    (line,) = catalog.check().lines
    assert f'allow it in {ALLOWLIST}: "one": {{"' in line
    return digest_in(line)


def test_an_allowed_finding_passes_and_the_hash_is_of_the_match(catalog: Catalog) -> None:
    digest = example_in_role_one(catalog)
    allow(catalog, {"one": {digest: "a documentation example, not a real password"}})
    catalog.lock()
    assert catalog.check().code == 0
    assert EXAMPLE.split("://")[1].split("@")[0] not in catalog.path(ALLOWLIST).read_text()


def test_an_entry_allows_its_role_only(catalog: Catalog) -> None:
    digest = example_in_role_one(catalog)
    allow(catalog, {"two": {digest: "allowed for another role"}})
    result = catalog.check()
    assert 'role "one": "instructions" holds a credential (Basic Auth Credentials)' in result.out


def test_an_entry_that_allows_nothing_is_an_error_and_fix_prunes_it(catalog: Catalog) -> None:
    digest = example_in_role_one(catalog)
    stale = "0" * 64
    path = allow(
        catalog,
        {"one": {digest: "documentation example", stale: "was fixed"}, "gone": {stale: "old"}},
    )
    result = catalog.check()
    assert result.lines == [
        f"{at_string(catalog, ALLOWLIST, '0' * 12, 0)}: entry 000000000000… allows nothing: it "
        'matches nothing in role "one" any more; remove it, or run `rolecat check --fix`',
        f"{at_string(catalog, ALLOWLIST, '0' * 12, 1)}: entry 000000000000… allows nothing: "
        'role "gone" is not in the catalog; remove it, or run `rolecat check --fix`',
    ]
    fixed = catalog.check("--fix")
    assert fixed.code == 0, fixed.out
    assert fixed.lines[:2] == [
        f'pruned {ALLOWLIST}: 000000000000… of role "one"',
        f'pruned {ALLOWLIST}: 000000000000… of role "gone"',
    ]
    assert json.loads(path.read_text()) == {"one": {digest: "documentation example"}}
    assert catalog.check().code == 0


def test_stale_entries_wait_while_the_catalog_is_broken(catalog: Catalog) -> None:
    allow(catalog, {"one": {"1" * 64: "reason"}})
    catalog.files[("alpha", "ru")]["roles"][0]["emoji"] = "🔥"
    catalog.write()
    assert "allows nothing" not in catalog.check().out


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({"one": {"abc": "short"}}, "keys must match ^[0-9a-f]{64}$ (the SHA-256 that"),
        ({"one": {"a" * 64: " "}}, "must not be empty"),
        ({"one": {}}, '"one" is empty: remove it or fill it'),
        ({"One": {"a" * 64: "why"}}, "keys must match ^[a-z0-9-]+$"),
    ],
)
def test_malformed_allowlist(catalog: Catalog, entries: dict[str, Any], message: str) -> None:
    allow(catalog, entries)
    line = only_line(catalog)
    assert line.startswith(f"{ALLOWLIST}:") and message in line


def test_findings_and_fix(catalog: Catalog) -> None:
    """--fix never allows a finding: it refuses the lock while a credential is in the catalog."""
    plant(catalog, "instructions", SECRETS["GitHub Token"])
    fixed = catalog.check("--fix")
    assert fixed.code == 1
    assert "holds a credential (GitHub Token)" in fixed.out
    assert not catalog.path(ALLOWLIST).exists()


# --- what is published as written, and what messages quote -----------------------------------


def as_yaml(catalog: Catalog) -> Path:
    catalog.lock()
    assert convert_catalog(catalog.root, "yaml").diagnostics == []
    assert catalog.check().code == 0
    return catalog.root / "bundles/alpha/en.yaml"


@pytest.mark.parametrize("where", ["a comment", "an anchor", "a comment after a value"])
def test_a_credential_outside_every_value_of_a_yaml_source_is_refused_where_it_stands(
    catalog: Catalog, where: str
) -> None:
    secret = SECRETS["GitHub Token"]
    source = as_yaml(catalog)
    text = source.read_text(encoding="utf-8")
    if where == "a comment":
        text = f"# GITHUB_TOKEN={secret}\n{text}"
        line, col = 1, len("# GITHUB_TOKEN=") + 1
    elif where == "an anchor":
        text = text.replace("schemaVersion: 1", f"schemaVersion: &{secret} 1", 1)
        line = text[: text.index(secret)].count("\n") + 1
        col = text.split("\n")[line - 1].index(secret) + 1
    else:
        text = text.replace("schemaVersion: 1", f"schemaVersion: 1  # {secret}", 1)
        line = text[: text.index(secret)].count("\n") + 1
        col = text.split("\n")[line - 1].index(secret) + 1
    source.write_text(text, encoding="utf-8")
    result = catalog.check()
    assert result.code == 1
    (reported,) = result.lines
    assert reported.startswith(f"bundles/alpha/en.yaml:{line}:{col}: a credential (GitHub Token)")
    assert "published as written" in reported
    assert secret_free(result.out + result.err, secret)


def test_a_credential_in_a_value_of_a_yaml_source_is_reported_once(catalog: Catalog) -> None:
    secret = SECRETS["GitHub Token"]
    source = as_yaml(catalog)
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace("Be precise.", f"Use {secret}.", 1), encoding="utf-8")
    result = catalog.check()
    assert result.code == 1
    assert len([line for line in result.lines if "credential" in line]) == 1


def test_no_message_quotes_a_credential(catalog: Catalog) -> None:
    """Another rule showing the value it is about must not echo what the secret scan hid."""
    secret = SECRETS["GitHub Token"]
    plant(catalog, "emoji", secret)
    result = catalog.check()
    assert result.code == 1
    assert any("must be the same in every language" in line for line in result.lines)
    assert secret_free(result.out + result.err, secret)
    result = catalog.check("--format", "json")
    assert secret_free(result.out + result.err, secret)
