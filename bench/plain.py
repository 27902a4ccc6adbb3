"""The plain-MkDocs baseline: the plugin's pages written out as Markdown files, built without it.

The plugin must cost little more than MkDocs and Material cost anyway for the same site, so the
baseline is that same site with no plugin: every page the plugin would generate, as a Markdown file
(front matter title and language switcher, the rendered HTML as the body), the hand-written pages,
the raw files as static files, the same nav, theme, overrides and other plugins.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import yaml
from mkdocs.utils.yaml import yaml_load

from build_tools.check import check_catalog
from build_tools.history.replay import read_history
from build_tools.model.catalog import Catalog
from build_tools.wire import raw_tree, site_paths
from site_plugins import chrome, history_feeds, pages, rendering, theme

PLUGIN = "roles-catalog"


def _plugin_entry(plugins: list[Any]) -> tuple[list[Any], dict[str, Any]]:
    """The plugin list without ``roles-catalog``, and that entry's options."""
    kept, options = [], {}
    for entry in plugins:
        name = entry if isinstance(entry, str) else next(iter(entry))
        if name == PLUGIN:
            options = {} if isinstance(entry, str) else dict(entry[PLUGIN] or {})
        else:
            kept.append(entry)
    return kept, options


def role_pages(catalog: Catalog) -> list[str]:
    """Site paths of every role page (``<lang>/<bundle>/<slug>/index.html``)."""
    return [
        site_paths.role_page(language, bundle.id, slug).removesuffix(".md") + ".html"
        for bundle in catalog.bundles
        for language in bundle.languages
        if language in bundle.files
        for _pointer, slug, _version in bundle.roles
    ]


def _markdown(page: rendering.SitePage) -> str:
    """One page as Markdown: what the plugin puts in ``page.meta``, then its HTML as the body."""
    meta: dict[str, Any] = {
        "title": rendering.nav_title(page.title),
        chrome.META_KEY: page.lang,
        "rolecat_alternates": [
            {"name": a.name, "link": a.link, "lang": a.lang} for a in page.alternates
        ],
    }
    if not page.searchable:
        meta["search"] = {"exclude": True}
    # JSON is YAML: one line per key, no quoting questions.
    front = "".join(
        f"{key}: {json.dumps(value, ensure_ascii=False)}\n" for key, value in meta.items()
    )
    return f"---\n{front}---\n\n{page.html}\n"


def prepare(catalog_dir: Path, project: Path, repo: Path) -> tuple[Path, list[str]]:
    """Write the plain project into ``project``; return its ``mkdocs.yml`` and the role pages."""
    config_file = repo / "mkdocs.yml"
    with config_file.open("rb") as stream:
        config: dict[str, Any] = yaml_load(stream)
    config["plugins"], options = _plugin_entry(config.get("plugins") or [])
    formats = tuple(options.get("formats") or raw_tree.FORMATS)
    result = check_catalog(catalog_dir)
    if not result.ok or result.catalog is None:
        lines = "\n".join(str(d) for d in result.diagnostics[:5])
        raise SystemExit(f"bench: {catalog_dir} fails its check:\n{lines}")
    catalog = result.catalog
    renderer = rendering.Renderer(
        theme.page_template_dirs(repo, options.get("page_templates")), formats=formats
    )

    if project.exists():
        shutil.rmtree(project)
    docs = project / "docs"
    docs.mkdir(parents=True)
    source_docs = repo / str(config.get("docs_dir") or "docs")
    handwritten = sorted(p.relative_to(source_docs).as_posix() for p in source_docs.rglob("*.md"))
    shutil.copytree(source_docs, docs, dirs_exist_ok=True)
    site_url = config.get("site_url") or None
    history = read_history(catalog_dir).including(catalog)
    for page in pages.catalog_pages(catalog, renderer, site_url, history):
        target = docs / page.src_uri
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_markdown(page), encoding="utf-8")
    raw = raw_tree.raw_files(catalog, formats)
    raw[raw_tree.CHECKSUMS] = raw_tree.checksums(raw)
    languages = catalog.languages
    raw.update(
        history_feeds.feed_files(catalog, history, languages, history_feeds.FeedSite(site_url))
    )
    for path, content in raw.items():
        target = docs / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)

    chosen = dict(config.get("theme") or {})
    custom = chosen.get("custom_dir")
    chosen["custom_dir"] = str(repo / custom if custom else theme.shipped() / "overrides")
    chosen["features"] = [*dict.fromkeys([*(chosen.get("features") or []), *theme.FEATURES])]
    validation = dict(config.get("validation") or {})
    validation.pop("omitted_files", None)
    validation["nav"] = {**dict(validation.get("nav") or {}), "omitted_files": "info"}
    config.update(
        docs_dir="docs",
        strict=False,
        theme=chosen,
        validation=validation,
        nav=[*pages.nav(catalog), *handwritten],
        extra={**dict(config.get("extra") or {}), "alternate": True},
    )
    config_path = project / "mkdocs.yml"
    config_path.write_text(
        yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    return config_path, role_pages(catalog)
