"""Model hints as published and shown, and no credential in a built site."""

from __future__ import annotations

import json
import string
from pathlib import Path

from build_tools.check import check_catalog, update_lock
from build_tools.sources.formats import dump_yaml, parse
from tests.support.paths import OUR_CATALOG
from tests.support.site_builds import Build, build, copy_catalog, write_catalog


def test_published_files_keep_model_config_as_written(tmp_path: Path) -> None:
    """The alias stays an alias and the key order stays the author's, in JSON and in YAML."""
    catalog = write_catalog(tmp_path / "catalog", {"tools": ["en"]})
    written = {"driver": "ollama", "chatModel": "opus"}
    source = catalog / "bundles/tools/en.json"
    data = json.loads(source.read_text("utf-8"))
    data["roles"][0]["modelConfig"] = written
    source.write_text(json.dumps(data, indent=2), encoding="utf-8")
    yaml_data = json.loads(json.dumps(data))
    yaml_data["roles"][1]["modelConfig"] = {"chatModel": "best", "driver": "gemini"}
    (catalog / "bundles/tools/en.yaml").write_bytes(
        dump_yaml(
            yaml_data,
        )
    )
    source.unlink()
    index = json.loads((catalog / "index.json").read_text("utf-8"))
    for role in index["bundles"][0]["roles"]:
        role["version"] = 2
    (catalog / "index.json").write_text(json.dumps(index), encoding="utf-8")
    assert update_lock(catalog).diagnostics == []
    built = build(catalog, tmp_path / "site")
    assert built.returncode == 0, built.output
    for extension in ("json", "yaml"):
        path = built.site / f"bundles/tools/en.{extension}"
        published = parse(path.name, path.read_bytes())
        first, second = (role["modelConfig"] for role in published["roles"])
        assert list(first.items()) == list(written.items())
        assert list(second.items()) == [("chatModel", "best"), ("driver", "gemini")]


def test_our_catalog_shows_every_kind_of_hint(our_site: Build) -> None:
    """The five display cases, as built (the browser tests show them on screen): in words first,
    then as the server reads them, in the folded details."""
    fact = '<span class="rolecat-fact-label">Model:</span> '
    expected = {
        "writing/release-notes-writer": (f"{fact}Lite, light and fastest</li>", "lite</code>"),
        "engineering/test-engineer": (
            f'title="If flash is not set up, it uses lite.">{fact}Flash, fast</li>',
            "<code>chatModel: sonnet</code> · "
            '<span class="rolecat-chain" title="The tiers the server tries, in order, until the '
            'deployment binds one">flash → lite</span>',
        ),
        "engineering/incident-responder": (f"{fact}The strongest available</li>", "best</code>"),
        "writing/translator": (f"{fact}<code>gpt-4o-mini</code></li>", "gpt-4o-mini</code>"),
        "engineering/code-reviewer": (f"{fact}Default model</li>", ">Default model</dd>"),
    }
    for path, (shown, raw) in expected.items():
        text = (our_site.site / "en" / path / "index.html").read_text("utf-8")
        assert shown in text, path
        details = text[text.index('class="rolecat-server-details"') :]
        assert raw in details, path


def test_a_secret_fails_the_build_and_is_never_printed(tmp_path: Path) -> None:
    catalog = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    secret = "ghp" + "_" + (string.ascii_letters + string.digits)[:36]
    prompt = catalog / "prompts/reviewer.md"
    prompt.parent.mkdir()
    prompt.write_text(f"Review code.\n\nThe CI token is {secret}.\n", encoding="utf-8")
    source = catalog / "bundles/engineering/en.json"
    data = json.loads(source.read_text("utf-8"))
    del data["roles"][0]["instructions"]
    data["roles"][0]["instructionsFile"] = "../../prompts/reviewer.md"
    source.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("the published site", encoding="utf-8")
    failed = build(catalog, site)
    assert failed.returncode == 1
    assert (
        'prompts/reviewer.md:3:17: role "code-reviewer": its instructions file (named in '
        "bundles/engineering/en.json) holds a credential (GitHub Token)" in failed.output
    )
    assert secret[4:16] not in failed.output
    assert [p.name for p in site.iterdir()] == ["index.html"]


def test_the_allowlist_is_checked_but_never_published(tmp_path: Path) -> None:
    catalog = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    source = catalog / "bundles/writing/en.json"
    data = json.loads(source.read_text("utf-8"))
    data["roles"][0]["launchMessage"] = "Docs run at https://docs:" + "changeme" + "@wiki.test/"
    source.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    found = check_catalog(catalog).diagnostics
    assert [d.rule for d in found] == ["secret"]
    digest = found[0].message.split('{"')[1].split('"')[0]
    (catalog / "secrets-allowlist.json").write_text(
        json.dumps({"technical-writer": {digest: "the wiki's public demo login"}}), encoding="utf-8"
    )
    index = catalog / "index.json"
    index.write_text(
        index.read_text("utf-8").replace(
            '"slug": "technical-writer",\n          "version": 1',
            '"slug": "technical-writer",\n          "version": 2',
        ),
        encoding="utf-8",
    )
    assert update_lock(catalog).diagnostics == []
    built = build(catalog, tmp_path / "site")
    assert built.returncode == 0, built.output
    published = {p.name for p in built.site.rglob("*")}
    assert "secrets-allowlist.json" not in published
    assert "content-hashes.json" not in published


def test_a_credential_in_a_yaml_comment_or_anchor_never_reaches_the_site(tmp_path: Path) -> None:
    """A YAML source is published as its own bytes: the build refuses what is outside values."""
    from tests.support.catalog_files import our_catalog_as_yaml
    from tests.support.fake_credentials import SECRETS

    secret = SECRETS["GitHub Token"]
    for where in ("comment", "anchor"):
        catalog = our_catalog_as_yaml(tmp_path / where / "catalog")
        source = catalog / "bundles/engineering/en.yaml"
        text = source.read_text(encoding="utf-8")
        if where == "comment":
            text = f"# GITHUB_TOKEN={secret}\n{text}"
        else:
            text = text.replace("schemaVersion: 1", f"schemaVersion: &{secret} 1", 1)
        source.write_text(text, encoding="utf-8")
        failed = build(catalog, tmp_path / where / "site")
        assert failed.returncode == 1, failed.output
        assert "a credential (GitHub Token) outside any value" in failed.output
        assert secret not in failed.output
        assert not (tmp_path / where / "site").exists()


def test_with_model_tiers_off_a_tier_word_fails_a_strict_build(tmp_path: Path) -> None:
    """The warning is a MkDocs warning: a strict build fails on it (role-model-config.ts
    passes chatModel to the provider as the model id)."""
    from tests.support.site_builds import mkdocs_build, our_config

    config = our_config(tmp_path, ("model_tiers: true", "model_tiers: false"))
    done = mkdocs_build(config, OUR_CATALOG, tmp_path / "site")
    assert done.returncode == 1
    assert 'warning: role "test-engineer": chatModel "sonnet" is a tier word' in done.output
    assert not (tmp_path / "site").exists()
