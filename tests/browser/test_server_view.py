"""The role page shows what the server will store and run (gitmost develop 3a579489): an absent
autoStart as the server's default (catalogRoleContentFields), and, with model_tiers off, the
model id the server asks its provider for (role-model-config.ts)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from build_tools.check import update_lock
from tests.support.paths import OUR_CATALOG
from tests.support.site_builds import copy_catalog, mkdocs_build, our_config


def _without_auto_start(catalog: Path, slug: str) -> None:
    for language in ("en", "ru"):
        path = catalog / f"bundles/engineering/{language}.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        for role in data["roles"]:
            if role["slug"] == slug:
                del role["autoStart"]
        path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    index = json.loads((catalog / "index.json").read_text(encoding="utf-8"))
    for bundle in index["bundles"]:
        for entry in bundle["roles"]:
            if entry["slug"] == slug:
                entry["version"] += 1  # autoStart is hashed
    (catalog / "index.json").write_text(json.dumps(index, indent=2), encoding="utf-8")
    assert update_lock(catalog).diagnostics == []


@pytest.fixture(scope="module")
def literal_url(tmp_path_factory: pytest.TempPathFactory, static_host: Any) -> str:
    """Our catalog, one role without autoStart, built with model_tiers off."""
    root = tmp_path_factory.mktemp("server-view")
    catalog = copy_catalog(OUR_CATALOG, root / "catalog")
    _without_auto_start(catalog, "code-reviewer")
    config = our_config(
        root,
        ("model_tiers: true", "model_tiers: false"),
        ("strict: true", "strict: false"),  # tier words warn with model_tiers off
    )
    done = mkdocs_build(config, catalog, root / "site")
    assert done.returncode == 0, done.output
    assert 'chatModel "sonnet" is a tier word' in done.output  # a warning, logged by MkDocs
    return str(static_host(root / "site"))


def test_a_role_without_auto_start_starts_on_its_own_as_the_server_defaults(
    page: Page, literal_url: str
) -> None:
    page.goto(f"{literal_url}en/engineering/code-reviewer/")
    expect(page.locator("td.rolecat-autostart")).to_have_text("yes (the server's default)")
    page.goto(f"{literal_url}ru/engineering/code-reviewer/")
    expect(page.locator("td.rolecat-autostart")).to_have_text("да (по умолчанию на сервере)")
    page.goto(f"{literal_url}en/engineering/test-engineer/")  # autoStart written: no note
    expect(page.locator("td.rolecat-autostart .rolecat-default")).to_have_count(0)


@pytest.mark.parametrize(
    ("path", "lines"),
    [
        ("engineering/test-engineer", ["sonnet", "driver: the workspace's default provider"]),
        ("engineering/incident-responder", ["best", "driver: the workspace's default provider"]),
        ("writing/translator", ["gpt-4o-mini", "driver: openai"]),
        ("engineering/code-reviewer", ["server default"]),
    ],
)
def test_without_tiers_the_model_row_is_the_model_id_the_server_asks_for(
    page: Page, literal_url: str, path: str, lines: list[str]
) -> None:
    page.goto(f"{literal_url}en/{path}/")
    cell = page.locator("td.rolecat-model")
    assert cell.inner_text().splitlines() == lines
    expect(cell.locator(".rolecat-chain")).to_have_count(0)  # no tiers walked
