"""The built site as the real Claude Code and Copilot CLIs read it: a marketplace they add, whose
plugins install exactly the catalog's roles, and whose updates arrive after an edit.

The catalog is hostile (tests/support/site_builds.py's payloads in every text field) beside a
plain bundle, so every agent file also proves its front matter keeps the catalog's strings.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from build_tools.check import update_lock
from build_tools.exports.marketplace import (
    CLAUDE_MARKETPLACE,
    COPILOT_MARKETPLACE,
    plugin_name,
)
from build_tools.model.catalog import load_catalog
from build_tools.rules.server_contract import Stored
from tests.support.node_tools import NodeTool, node_tool
from tests.support.site_builds import Build, build, write_catalog, write_payload_catalog

MARKETPLACE = "agent-roles-catalog"  # our mkdocs.yml's site_name, in kebab-case


def make_catalog(root: Path) -> Path:
    """The payload bundle (en, ru) and a plain one (en) in one catalog."""
    write_payload_catalog(root / "payload")
    write_catalog(root / "plain", {"plain": ["en"]})
    index = json.loads((root / "payload" / "index.json").read_text(encoding="utf-8"))
    plain = json.loads((root / "plain" / "index.json").read_text(encoding="utf-8"))
    index["bundles"] += plain["bundles"]
    catalog = root / "catalog"
    shutil.copytree(root / "payload", catalog)
    shutil.copytree(root / "plain" / "bundles" / "plain", catalog / "bundles" / "plain")
    (catalog / "index.json").write_text(json.dumps(index, ensure_ascii=False), encoding="utf-8")
    assert not update_lock(catalog).diagnostics
    return catalog


def built(catalog: Path, site: Path) -> Build:
    done = build(catalog, site)
    assert done.returncode == 0, done.output
    return done


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("marketplace")
    return built(make_catalog(root), root / "site").site


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def expected_roles(catalog_dir: Path) -> dict[str, dict[str, tuple[str, str]]]:
    """(name, instructions) of every role, by plugin and slug."""
    catalog, problems = load_catalog(catalog_dir)
    assert catalog is not None and not problems
    found: dict[str, dict[str, tuple[str, str]]] = {}
    for bundle in catalog.bundles:
        for language, file in bundle.files.items():
            roles = found.setdefault(plugin_name(bundle.id, language), {})
            for _pointer, slug, _version in bundle.roles:
                role = file.role(slug)
                assert role is not None
                roles[slug] = (Stored.of(role.fields).name or slug, role.instructions or "")
    return found


def agent(path: Path) -> tuple[dict[str, Any], str]:
    """An agent file's front matter, as YAML 1.2 reads it, and its body."""
    text = path.read_bytes().decode("utf-8")
    assert text.startswith("---\n")
    front, body = text[4:].split("\n---\n", 1)
    return YAML(typ="safe").load(front), body


def test_the_site_lists_one_plugin_per_bundle_and_language(site: Path) -> None:
    for path in (CLAUDE_MARKETPLACE, COPILOT_MARKETPLACE):
        marketplace = read_json(site / path)
        assert marketplace["name"] == MARKETPLACE and marketplace["owner"]["name"]
        names = [p["name"] for p in marketplace["plugins"]]
        assert names == ["payload-en", "payload-ru", "plain-en"], path
        for entry in marketplace["plugins"]:
            folder = site / entry["source"]
            manifest = next(folder.glob("**/plugin.json"))
            assert read_json(manifest)["version"] == entry["version"], entry["name"]
    # A plain bundle's plugin describes it in its own words.
    plain = read_json(site / CLAUDE_MARKETPLACE)["plugins"][2]
    assert plain["description"] == "plain (en): plain-first en, plain-second en"


def test_every_agent_keeps_the_catalog_strings(site: Path) -> None:
    roles = expected_roles(site.parent / "catalog")
    for path, suffix in ((CLAUDE_MARKETPLACE, ".md"), (COPILOT_MARKETPLACE, ".agent.md")):
        for entry in read_json(site / path)["plugins"]:
            agents = sorted((site / entry["source"] / "agents").iterdir())
            assert [a.name for a in agents] == sorted(s + suffix for s in roles[entry["name"]])
            for file in agents:
                front, body = agent(file)
                name, instructions = roles[entry["name"]][file.name.removesuffix(suffix)]
                assert body == instructions
                assert front["name"] == (name if suffix == ".agent.md" else front["name"])
                assert set(front) <= {"name", "description", "model"}


def test_claude_code_validates_the_site_and_every_plugin(site: Path, tmp_path: Path) -> None:
    claude = node_tool("claude")
    done = claude.run(tmp_path / "home", "plugin", "validate", str(site))
    assert done.returncode == 0, done.stdout + done.stderr
    for entry in read_json(site / CLAUDE_MARKETPLACE)["plugins"]:
        done = claude.run(tmp_path / "home", "plugin", "validate", str(site / entry["source"]))
        assert done.returncode == 0, done.stdout + done.stderr


def install_all(claude: NodeTool, home: Path, source: str, site: Path) -> Path:
    """Add the marketplace and install every plugin; the plugins' cache."""
    done = claude.run(home, "plugin", "marketplace", "add", source)
    assert done.returncode == 0, done.stdout + done.stderr
    for entry in read_json(site / CLAUDE_MARKETPLACE)["plugins"]:
        done = claude.run(home, "plugin", "install", f"{entry['name']}@{MARKETPLACE}")
        assert done.returncode == 0, done.stdout + done.stderr
    return home / ".claude" / "plugins" / "cache" / MARKETPLACE


def installed(cache: Path, site: Path) -> dict[str, dict[str, bytes]]:
    """Each installed plugin's agents, at the version the site lists."""
    found = {}
    for entry in read_json(site / CLAUDE_MARKETPLACE)["plugins"]:
        agents = cache / entry["name"] / entry["version"] / "agents"
        found[entry["name"]] = {p.name: p.read_bytes() for p in sorted(agents.iterdir())}
    return found


def published(site: Path) -> dict[str, dict[str, bytes]]:
    return {
        entry["name"]: {
            p.name: p.read_bytes() for p in sorted((site / entry["source"] / "agents").iterdir())
        }
        for entry in read_json(site / CLAUDE_MARKETPLACE)["plugins"]
    }


def test_claude_code_installs_exactly_the_published_agents(site: Path, tmp_path: Path) -> None:
    claude = node_tool("claude")
    cache = install_all(claude, tmp_path / "home", str(site), site)
    assert installed(cache, site) == published(site)


def test_a_git_checkout_of_the_site_is_a_marketplace(site: Path, tmp_path: Path) -> None:
    claude = node_tool("claude")
    repo, clone = tmp_path / "published", tmp_path / "clone"
    shutil.copytree(site, repo)
    git = ["git", "-c", "user.name=CI", "-c", "user.email=ci@example.test"]
    subprocess.run([*git, "init", "-q", "-b", "gh-pages", str(repo)], check=True)
    subprocess.run([*git, "-C", str(repo), "add", "-A"], check=True)
    subprocess.run([*git, "-C", str(repo), "commit", "-q", "-m", "site"], check=True)
    subprocess.run(["git", "clone", "-q", f"file://{repo}", str(clone)], check=True)
    cache = install_all(claude, tmp_path / "home", str(clone), clone)
    assert installed(cache, clone) == published(site)


def test_an_edit_arrives_by_claude_plugin_update(tmp_path: Path) -> None:
    claude = node_tool("claude")
    catalog = make_catalog(tmp_path)
    site = built(catalog, tmp_path / "site").site
    home = tmp_path / "home"
    cache = install_all(claude, home, str(site), site)
    before = {e["name"]: e["version"] for e in read_json(site / CLAUDE_MARKETPLACE)["plugins"]}

    index = read_json(catalog / "index.json")
    index["bundles"][1]["roles"][0]["version"] = 2  # plain-first
    (catalog / "index.json").write_text(json.dumps(index), encoding="utf-8")
    english = read_json(catalog / "bundles" / "plain" / "en.json")
    english["roles"][0]["instructions"] = "Be plain-first, version two."
    (catalog / "bundles" / "plain" / "en.json").write_text(json.dumps(english), encoding="utf-8")
    assert not update_lock(catalog).diagnostics
    built(catalog, site)

    after = {e["name"]: e["version"] for e in read_json(site / CLAUDE_MARKETPLACE)["plugins"]}
    assert after["plain-en"] != before["plain-en"]
    assert (
        after["payload-en"] == before["payload-en"] and after["payload-ru"] == before["payload-ru"]
    )
    done = claude.run(home, "plugin", "marketplace", "update", MARKETPLACE)
    assert done.returncode == 0, done.stdout + done.stderr
    done = claude.run(home, "plugin", "update", f"plain-en@{MARKETPLACE}")
    assert done.returncode == 0, done.stdout + done.stderr
    _front, body = agent(cache / "plain-en" / after["plain-en"] / "agents" / "plain-first.md")
    assert body == "Be plain-first, version two."


def test_copilot_cli_installs_every_plugin_as_agents(site: Path, tmp_path: Path) -> None:
    copilot = node_tool("copilot")
    home = tmp_path / "home"
    done = copilot.run(home, "plugin", "marketplace", "add", str(site.resolve()))
    assert done.returncode == 0, done.stdout + done.stderr
    plugins = read_json(site / COPILOT_MARKETPLACE)["plugins"]
    for entry in plugins:
        done = copilot.run(home, "plugin", "install", f"{entry['name']}@{MARKETPLACE}")
        assert done.returncode == 0, done.stdout + done.stderr
        # Copilot loads a local marketplace's plugin live from its folder: the published agents.
        folder = (site / entry["source"]).resolve()
        assert f"loaded live from {folder}" in done.stdout, done.stdout
    listed = copilot.run(home, "plugin", "list")
    for entry in plugins:
        assert f"{entry['name']}@{MARKETPLACE} (v{entry['version']}) (enabled)" in listed.stdout
    roles = expected_roles(site.parent / "catalog")
    for entry in plugins:
        agents = site / entry["source"] / "agents"
        for slug, (name, instructions) in roles[entry["name"]].items():
            front, body = agent(agents / f"{slug}.agent.md")
            assert (front["name"], body) == (name, instructions)
