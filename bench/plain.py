"""The plain-MkDocs baseline: the plugin's pages written out as Markdown files, built without it.

The plugin must cost little more than MkDocs and Material cost anyway for the same site, so the
baseline is that same site with no plugin: every page the plugin would generate, as a Markdown file
(front matter title and language switcher, the rendered HTML as the body), the hand-written pages,
the raw files as static files, the same nav, theme, overrides and other plugins.

Two baselines differ only in their search: ``material``, what people would build instead, is
Material's built-in search plugin (lunr; the header shows Material's own search box, as our
overrides' header and search box are Pagefind's and are left out); ``pagefind`` keeps our
``rolecat-search`` plugin, so Pagefind indexes both sides. The pages are the same files.
"""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import yaml
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils.yaml import yaml_load

from build_tools.check import check_catalog
from build_tools.history.replay import read_history
from build_tools.history.versions import History
from build_tools.model.catalog import Catalog
from build_tools.wire import judged, raw_tree, site_paths
from site_plugins.catalog import theme
from site_plugins.catalog.build import SiteBuild
from site_plugins.catalog.config import RolesCatalogConfig
from site_plugins.catalog.files import Contents, page_meta
from site_plugins.pages import site
from site_plugins.pages.rendering import Renderer, SitePage

PLUGIN = "roles-catalog"
PAGEFIND = "rolecat-search"
SEARCHES = ("material", "pagefind")
"""``material``: Material's built-in search instead of ours; ``pagefind``: ours on both sides."""
PAGEFIND_PARTIALS = ("partials/header.html", "partials/search.html")
"""Our overrides that put Pagefind's search box where Material puts its own."""


def _plugin_entry(plugins: list[Any], search: str = "pagefind") -> tuple[list[Any], dict[str, Any]]:
    """The plugin list without ``roles-catalog``, and that entry's options; with the ``material``
    search, Material's ``search`` plugin in the place of ``rolecat-search``."""
    kept, options = [], {}
    for entry in plugins:
        name = entry if isinstance(entry, str) else next(iter(entry))
        if name == PLUGIN:
            options = {} if isinstance(entry, str) else dict(entry[PLUGIN] or {})
        elif name == PAGEFIND and search == "material":
            kept.append("search")
        else:
            kept.append(entry)
    if search == "material" and "search" not in kept:
        kept.insert(0, "search")
    return kept, options


MANIFEST = "plain.json"
HOOK = "plain_hook.py"
HOOK_SOURCE = '''"""What the theme's overrides need to show the plugin's pages as the plugin
shows them, and the downloads kept as files; nothing of the roles-catalog plugin's work.

- Files the plugin publishes to download whose names end in .md (the tools' exports): MkDocs would
  render them as pages, so they are marked static, as the plugin marks them.
- The overrides' labels in each page's language, and the sidebar's entries the plugin names in
  the language of the page they are shown on.
"""

import json
from pathlib import Path

from mkdocs.structure.files import File

from site_plugins.catalog import chrome
from site_plugins.pages.labels import FALLBACK

MANIFEST = json.loads((Path(__file__).parent / "plain.json").read_text())
DOWNLOADS = set(MANIFEST["downloads"])
GENERATED = set(MANIFEST["generated"])
NAV_WORDS = chrome.NavWords() if hasattr(chrome, "NavWords") else None


class Download(File):
    def is_documentation_page(self):
        return False


def on_files(files, config):
    for found in [f for f in files if f.src_uri in DOWNLOADS]:
        files.remove(found)
        files.append(Download(found.src_uri, config.docs_dir, config.site_dir, False))
    return files


def on_env(env, config, files):
    env.globals["rolecat"] = chrome.PageLanguage(config.theme.dirs)
    return env


def on_page_context(context, page, config, nav):
    if NAV_WORDS is not None:
        NAV_WORDS.show(nav.pages, page.meta.get(chrome.META_KEY, FALLBACK), GENERATED)
    return context
'''
"""The plain project's one hook (MkDocs' own ``hooks:``), no roles-catalog: what the theme's
overrides need to show the same pages (labels, sidebar entries), the downloads kept as files."""


def plugin_files(
    repo: Path,
    catalog_dir: Path,
    catalog: Catalog,
    site_url: str | None,
    history: History,
    options: dict[str, Any],
) -> tuple[Contents, dict[str, SitePage]]:
    """Every file the plugin adds to a build of this catalog, as its own ``SiteBuild`` makes
    them (pages, raw tree, instruction and export files, feeds), and the pages among them."""
    settings = SimpleNamespace(
        site_url=site_url,
        use_directory_urls=True,
        docs_dir="docs",
        config_file_path=str(repo / "mkdocs.yml"),
        site_name=options.get("site_name", "Agent roles catalog"),
        site_author=None,
        site_description=None,
        site_dir="site",
        user_configs=[],
    )
    plugin_options = SimpleNamespace(
        catalog_dir=str(catalog_dir),
        lock=None,
        page_templates=options.get("page_templates"),
        formats=tuple(options.get("formats") or raw_tree.FORMATS),
        model_tiers=bool(options.get("model_tiers")),
        history=True,
        marketplace_name=options.get("marketplace_name"),
        marketplace_owner=options.get("marketplace_owner"),
    )
    build = SiteBuild(
        cast(MkDocsConfig, settings),
        cast(RolesCatalogConfig, plugin_options),
        None,
        logging.getLogger("bench"),
    )
    # The check ran without the build: the raw files are written anew, not from its digests.
    build.catalog, build.published = catalog, judged.Memo()
    contents, problems = build.catalog_files(Files([]), lambda: history)
    if problems:
        raise SystemExit(f"bench: the plugin's files of {catalog_dir}: {problems[0]}")
    return contents, build.pages


def plugin_options(repo: Path) -> dict[str, Any]:
    """The ``roles-catalog`` options of the repository's ``mkdocs.yml``."""
    with (repo / "mkdocs.yml").open("rb") as stream:
        config: dict[str, Any] = yaml_load(stream)
    return _plugin_entry(config.get("plugins") or [])[1]


def renderer_for(repo: Path, options: dict[str, Any]) -> Renderer:
    """The page renderer the plugin makes with these options (``SiteBuild``)."""
    return Renderer(
        theme.page_template_dirs(repo, options.get("page_templates")),
        formats=tuple(options.get("formats") or raw_tree.FORMATS),
        model_tiers=bool(options.get("model_tiers")),
    )


def role_pages(catalog: Catalog) -> list[str]:
    """Site paths of every role page (``<lang>/<bundle>/<slug>/index.html``)."""
    return [
        site_paths.role_page(language, bundle.id, slug).removesuffix(".md") + ".html"
        for bundle in catalog.bundles
        for language in bundle.languages
        if language in bundle.files
        for _pointer, slug, _version in bundle.roles
    ]


def _markdown(page: SitePage) -> str:
    """One page as Markdown: what the plugin puts in ``page.meta`` (its own ``page_meta``), then
    its HTML as the body."""
    holder = SimpleNamespace(meta={})
    page_meta(cast(Page, holder), page, None)
    meta: dict[str, Any] = {k: v for k, v in holder.meta.items() if v is not None}
    # JSON is YAML: one line per key, no quoting questions.
    front = "".join(
        f"{key}: {json.dumps(value, ensure_ascii=False)}\n" for key, value in meta.items()
    )
    return f"---\n{front}---\n\n{page.html}\n"


def prepare(
    catalog_dir: Path, project: Path, repo: Path, search: str = "pagefind"
) -> tuple[Path, list[str]]:
    """Write the plain project into ``project``; return its ``mkdocs.yml`` and the role pages.
    ``search`` is one of :data:`SEARCHES`."""
    if search not in SEARCHES:
        raise ValueError(f"search is one of {SEARCHES}, not {search!r}")
    config_file = repo / "mkdocs.yml"
    with config_file.open("rb") as stream:
        config: dict[str, Any] = yaml_load(stream)
    config["plugins"], options = _plugin_entry(config.get("plugins") or [], search)
    tiers = bool(options.get("model_tiers"))
    result = check_catalog(catalog_dir, model_tiers=tiers)
    if not result.ok or result.catalog is None:
        lines = "\n".join(str(d) for d in result.diagnostics[:5])
        raise SystemExit(f"bench: {catalog_dir} fails its check:\n{lines}")
    catalog = result.catalog

    if project.exists():
        shutil.rmtree(project)
    docs = project / "docs"
    docs.mkdir(parents=True)
    source_docs = repo / str(config.get("docs_dir") or "docs")
    handwritten = sorted(p.relative_to(source_docs).as_posix() for p in source_docs.rglob("*.md"))
    shutil.copytree(source_docs, docs, dirs_exist_ok=True)
    site_url = config.get("site_url") or None
    history = read_history(catalog_dir).including(catalog)
    contents, built = plugin_files(repo, catalog_dir, catalog, site_url, history, options)
    downloads = []
    for path, content in contents.items():
        target = docs / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if path in built:
            target.write_text(_markdown(built[path]), encoding="utf-8")
            continue
        if isinstance(content, str):
            content = content.encode("utf-8")
        target.write_bytes(content if isinstance(content, bytes) else content.encoded())
        if path.endswith(".md"):  # a file to download, which MkDocs would take for a page
            downloads.append(path)
    manifest = {"downloads": downloads, "generated": sorted(built)}
    (project / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    (project / HOOK).write_text(HOOK_SOURCE, encoding="utf-8")
    config["hooks"] = [*(config.get("hooks") or []), HOOK]

    chosen = dict(config.get("theme") or {})
    custom = chosen.get("custom_dir")
    overrides = repo / custom if custom else theme.shipped() / "overrides"
    if search == "material":  # Material's own header and search box, over the rest of ours
        shutil.copytree(overrides, project / "overrides")
        for partial in PAGEFIND_PARTIALS:
            (project / "overrides" / partial).unlink(missing_ok=True)
        overrides = project / "overrides"
    chosen["custom_dir"] = str(overrides)
    chosen["features"] = [*dict.fromkeys([*(chosen.get("features") or []), *theme.FEATURES])]
    validation = dict(config.get("validation") or {})
    validation.pop("omitted_files", None)
    validation["nav"] = {**dict(validation.get("nav") or {}), "omitted_files": "info"}
    config.update(
        docs_dir="docs",
        strict=False,
        theme=chosen,
        validation=validation,
        nav=[*site.nav(catalog), *handwritten],
        extra={**dict(config.get("extra") or {}), "alternate": True},
    )
    config_path = project / "mkdocs.yml"
    config_path.write_text(
        yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    return config_path, role_pages(catalog)
