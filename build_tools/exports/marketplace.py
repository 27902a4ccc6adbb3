"""The site as a plugin marketplace for Claude Code and for the Copilot CLI: one plugin per bundle
and language, each a folder of agents, so people install roles with their tool's own command and
its update command brings each new version.

Both tools read a ``marketplace.json`` that lists plugins by a ``source`` folder relative to the
marketplace's root (the site's). Claude Code loads every ``agents/*.md`` of a plugin, which would
include Copilot's ``*.agent.md``, so each tool has folders of its own, in the hidden directory its
marketplace file sits in (no language or bundle id can take it).

A plugin's version is what makes a tool update it: Claude Code compares ``plugin.json``'s version
string, so the marketplace entry carries the same one. It is ``<roles>.<sum of role
versions>.<digest>``: readable, and it changes whenever a role of the bundle changes (the lock
makes every change of a role, in any language, bump its version), is added or is removed; the
digest of the (slug, version) pairs tells apart two sets with equal counts and sums. A role's
version covers all its languages, so a bundle's plugins in every language move together, and
other bundles' plugins keep theirs.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from build_tools.exports import Export, claude_code, copilot
from build_tools.model.catalog import Bundle, Catalog
from build_tools.rules.server_contract import Stored

CLAUDE_MARKETPLACE = ".claude-plugin/marketplace.json"
COPILOT_MARKETPLACE = ".github/plugin/marketplace.json"
CLAUDE_PLUGINS = ".claude-plugin/plugins"
COPILOT_PLUGINS = ".github/plugin/plugins"

KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True)
class Listing:
    """What the marketplace says of itself."""

    name: str
    """kebab-case, as ``claude plugin install <plugin>@<name>`` takes it."""
    owner: str
    description: str


def _json(value: dict[str, Any]) -> bytes:
    """A manifest as UTF-8 JSON with a final line break."""
    return (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def kebab(text: str) -> str:
    """A name as a marketplace takes it: lowercase ASCII words joined by hyphens."""
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))


def plugin_name(bundle_id: str, language: str) -> str:
    """The plugin of one bundle in one language: ``writing-en``."""
    return kebab(f"{bundle_id}-{language}")


def version(bundle: Bundle) -> str:
    """The bundle's plugins' version (see the module's docstring)."""
    pairs = sorted((slug, float(number)) for _pointer, slug, number in bundle.roles)
    digest = hashlib.sha256(json.dumps(pairs).encode()).hexdigest()
    total = math.ceil(sum(number for _slug, number in pairs if math.isfinite(number)))
    return f"{len(pairs)}.{max(total, 0)}.{int(digest[:6], 16)}"


def marketplace_files(
    catalog: Catalog, listing: Listing, notes: Mapping[tuple[str, str, str], str] | None = None
) -> dict[str, bytes | Export]:
    """Both marketplaces and every plugin folder, by their paths in the site."""
    files: dict[str, bytes | Export] = {}
    entries: dict[str, list[dict[str, Any]]] = {"claude": [], "copilot": []}
    owner = {"name": listing.owner}
    for bundle in catalog.bundles:
        number = version(bundle)
        for language in bundle.published_languages:
            name = plugin_name(bundle.id, language)
            about = _about(bundle, language)
            manifest = {
                "name": name,
                "version": number,
                "description": about,
                "author": owner,
            }
            agents = _agents(bundle, language, notes or {})
            for tool, folder, make in (
                ("claude", f"{CLAUDE_PLUGINS}/{name}", claude_code),
                ("copilot", f"{COPILOT_PLUGINS}/{name}", copilot),
            ):
                files[f"{folder}/{_MANIFESTS[tool]}"] = _json(manifest)
                for role, note in agents:
                    export = make(role, note)
                    files[f"{folder}/agents/{export.name}"] = export
                entries[tool].append({**manifest, "source": f"./{folder}"})
    for tool, path in (("claude", CLAUDE_MARKETPLACE), ("copilot", COPILOT_MARKETPLACE)):
        files[path] = _json(
            {
                "name": listing.name,
                "owner": owner,
                "metadata": {"description": listing.description},
                "plugins": entries[tool],
            }
        )
    return files


_MANIFESTS = {"claude": ".claude-plugin/plugin.json", "copilot": ".github/plugin/plugin.json"}
"""Where each tool looks for a plugin's manifest, inside its folder."""


def _agents(
    bundle: Bundle, language: str, notes: Mapping[tuple[str, str, str], str]
) -> list[tuple[Any, str | None]]:
    file = bundle.files[language]
    found = []
    for _pointer, slug, _version in bundle.roles:
        role = file.role(slug)
        if role is not None:
            found.append((role, notes.get((language, bundle.id, slug))))
    return found


def _about(bundle: Bundle, language: str) -> str:
    """The plugin's description in its language: the bundle's name and its roles' names."""
    names = [
        Stored.of(role.fields).name or role.slug for role, _note in _agents(bundle, language, {})
    ]
    return f"{_inline(bundle.name(language))}: {', '.join(_inline(n) for n in names)}"


def _inline(text: str) -> str:
    """Catalog text on one line: a tool shows a description as a line."""
    return " ".join(text.split())
