"""The build target's baseline: the site a team would write by hand instead of rolecat.

One Markdown page per role and language (its name under an H1 with its emoji, its description, a
table of its metadata, its instructions in a fenced block), a home page, and a ``mkdocs.yml`` of
plain Material with its built-in search and a nav of the home page alone: the shape of
``makedocs.py CATALOG OUT MAX_ROLES --nav minimal`` in ``../shared/bench/``, made here so that a
fresh clone measures the same baseline with nothing beside it. ``mkdocs build`` of it is the
denominator of the target "the plugin's build within 1.2x of plain Material".
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

CONFIG = """\
site_name: Agent roles perf baseline
theme:
  name: material
nav:
  - Home: index.md
validation:
  nav:
    omitted_files: ignore
"""


def role_page(role: dict[str, Any], bundle: str, language: str, version: object) -> str:
    """A role as a team would write it in Markdown."""
    launch = role.get("launchMessage") or "—"
    return (
        f"# {role.get('emoji') or ''} {role['name']}\n\n{role.get('description') or ''}\n\n"
        "| Field | Value |\n|---|---|\n"
        f"| Slug | `{role['slug']}` |\n| Bundle | `{bundle}` |\n| Language | `{language}` |\n"
        f"| Version | {version} |\n| Auto start | {'yes' if role.get('autoStart') else 'no'} |\n"
        f"| Launch message | {launch} |\n\n"
        f"## Instructions\n\n```text\n{role['instructions']}\n```\n"
    )


def prepare(catalog: Path, project: Path) -> tuple[Path, list[str]]:
    """Write the project of ``catalog`` (JSON sources) into ``project``: its ``mkdocs.yml``, and
    each role page's path in the built site, as the plugin's pages are compared by."""
    if project.exists():
        shutil.rmtree(project)
    docs = project / "docs"
    docs.mkdir(parents=True)
    index = json.loads((catalog / "index.json").read_bytes())
    pages: list[str] = []
    for bundle in index["bundles"]:
        versions = {role["slug"]: role["version"] for role in bundle["roles"]}
        for language in bundle["languages"]:
            source = catalog / "bundles" / bundle["id"] / f"{language}.json"
            folder = docs / language / bundle["id"]
            folder.mkdir(parents=True, exist_ok=True)
            for role in json.loads(source.read_bytes())["roles"]:
                text = role_page(role, bundle["id"], language, versions.get(role["slug"]))
                (folder / f"{role['slug']}.md").write_text(text, encoding="utf-8")
                pages.append(f"{language}/{bundle['id']}/{role['slug']}/index.html")
    roles = sum(len(bundle["roles"]) for bundle in index["bundles"])
    home = f"# Agent roles\n\n{roles} roles, {len(pages)} role pages.\n"
    (docs / "index.md").write_text(home, encoding="utf-8")
    config = project / "mkdocs.yml"
    config.write_text(CONFIG, encoding="utf-8")
    return config, pages
