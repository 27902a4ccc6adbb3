"""The role page shows what the server will store and run (gitmost develop 3a579489): an absent
autoStart as the server's default (catalogRoleContentFields), and, with model_tiers off, the
model id the server asks its provider for (role-model-config.ts). In words among the role's facts
first, then as the server reads it in the folded details for servers and tools."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

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


def for_servers(page: Page) -> Locator:
    """The role page's folded details for servers and tools, unfolded as a reader does."""
    details = page.locator("details.rolecat-server-details")
    details.locator("summary").click()
    expect(details).to_have_attribute("open", "")
    return details


@pytest.mark.parametrize(
    ("path", "fact", "raw"),
    [
        (
            "en/engineering/code-reviewer",
            "Starts the conversation itself",
            "autoStart: true (the server's default)",
        ),
        (
            "ru/engineering/code-reviewer",
            "Сама начинает разговор",
            "autoStart: true (по умолчанию на сервере)",
        ),
        # autoStart written: no note, whichever way it is written.
        ("en/engineering/test-engineer", "Waits for your first message", "autoStart: false"),
        ("en/engineering/incident-responder", "Starts the conversation itself", "autoStart: true"),
    ],
)
def test_a_role_without_auto_start_starts_on_its_own_as_the_server_defaults(
    page: Page, literal_url: str, path: str, fact: str, raw: str
) -> None:
    page.goto(f"{literal_url}{path}/")
    expect(page.locator(".rolecat-facts li.rolecat-autostart")).to_have_text(fact)
    written = for_servers(page).locator("dd.rolecat-autostart-raw")
    expect(written).to_be_visible()
    expect(written).to_have_text(raw)


@pytest.mark.parametrize(
    ("path", "model", "raw"),
    [
        # A tier word is a model id like any other: the server asks its provider for "sonnet".
        ("engineering/test-engineer", "sonnet", "chatModel: sonnet"),
        ("engineering/incident-responder", "best", "chatModel: best"),
        ("writing/translator", "gpt-4o-mini", "chatModel: gpt-4o-mini · driver openai"),
        ("engineering/code-reviewer", None, "Default model"),
    ],
)
def test_without_tiers_the_model_row_is_the_model_id_the_server_asks_for(
    page: Page, literal_url: str, path: str, model: str | None, raw: str
) -> None:
    page.goto(f"{literal_url}en/{path}/")
    fact = page.locator(".rolecat-facts li.rolecat-model")
    expect(fact).to_have_text(f"Model: {model or 'Default model'}")
    if model:  # the id as written, as code; no tier's name or fallback
        expect(fact.locator("code")).to_have_text(model)
    expect(fact).not_to_have_attribute("title", re.compile("."))
    written = for_servers(page).locator("dd.rolecat-model-raw")
    expect(written).to_be_visible()
    expect(written).to_have_text(raw)
    expect(page.locator(".rolecat-chain")).to_have_count(0)  # no tiers walked
