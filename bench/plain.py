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
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import yaml
from mkdocs.config import load_config
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils.yaml import yaml_load

from build_tools.check import check_catalog
from build_tools.history.replay import read_history
from build_tools.history.versions import History, Reach
from build_tools.model.catalog import Catalog
from build_tools.wire import judged, site_paths
from site_plugins.catalog import theme
from site_plugins.catalog.build import SiteBuild
from site_plugins.catalog.files import Contents, page_meta
from site_plugins.catalog.plugin import RolesCatalogPlugin
from site_plugins.pages import site
from site_plugins.pages.rendering import SitePage

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
- The hand-written pages in each language: a translation (about.ru.md) published at /about/ru/,
  each page's language and its translations for the switcher (site_plugins.catalog.handwritten).
- Each page's sidebar in its own language and the site's name in it (the plugin's
  SiteBuild.speak), the 404 page's in the root language; the overrides' labels in each page's
  language.
"""

import json
from pathlib import Path

from mkdocs.structure.files import File, Files

from site_plugins.catalog import chrome, handwritten

MANIFEST = json.loads((Path(__file__).parent / "plain.json").read_text(encoding="utf-8"))
DOWNLOADS = set(MANIFEST["downloads"])
HANDWRITTEN = set(MANIFEST["handwritten"])
LANGUAGES = MANIFEST["languages"]
ROOT = MANIFEST["root"]
NAMES = MANIFEST["names"]
STATE = {"written": None, "navs": None, "site_name": None}


class Download(File):
    def is_documentation_page(self):
        return False


def on_files(files, config):
    for found in [f for f in files if f.src_uri in DOWNLOADS]:
        files.remove(found)
        files.append(Download(found.src_uri, config.docs_dir, config.site_dir, False))
    own = Files([f for f in files if f.src_uri in HANDWRITTEN])
    STATE["written"] = handwritten.place(own, LANGUAGES, ROOT, config.use_directory_urls)
    STATE["navs"], STATE["site_name"] = None, config.site_name
    return files


def on_env(env, config, files):
    env.globals["rolecat"] = chrome.PageLanguage(config.theme.dirs, LANGUAGES)
    return env


def on_page_markdown(markdown, page, config, files):
    written = STATE["written"]
    if page.file.src_uri in written.language:
        page.meta[chrome.META_KEY] = written.language[page.file.src_uri]
        page.meta["rolecat_alternates"] = written.alternates(page.file.src_uri)
    return markdown


def speak(context, nav, language, config):
    language = language or ROOT
    if STATE["navs"] is None:
        STATE["navs"] = chrome.language_navs(nav, LANGUAGES)
    shown = STATE["navs"].get(language)
    if shown is not None:
        context["nav"] = shown
    config.site_name = NAMES.get(language) or STATE["site_name"]


def on_page_context(context, page, config, nav):
    speak(context, nav, page.meta.get(chrome.META_KEY), config)
    return context


def on_template_context(context, template_name, config):
    if context.get("nav") is not None:
        speak(context, context["nav"], None, config)
    return context


def on_post_build(config):
    config.site_name = STATE["site_name"]
'''
"""The plain project's one hook (MkDocs' own ``hooks:``), no roles-catalog: what the theme's
overrides need to show the same pages (labels, each language's sidebar and site name, the
hand-written translations' places), the downloads kept as files."""


def stand_in(repo: Path, catalog_dir: Path) -> SiteBuild:
    """The plugin's own :class:`SiteBuild` for the repository's ``mkdocs.yml``, loaded and
    validated as ``mkdocs build`` loads it (every plugin option with its default), reading
    ``catalog_dir``; nothing is checked, built or written."""
    config = load_config(str(repo / "mkdocs.yml"))
    plugin = config.plugins.get(PLUGIN)
    if not isinstance(plugin, RolesCatalogPlugin):
        raise SystemExit(f"bench: {repo / 'mkdocs.yml'} has no {PLUGIN} plugin")
    options = plugin.config
    options.catalog_dir = str(catalog_dir)
    with warnings.catch_warnings():
        # SiteBuild reads MkDocs' deprecated ``user_configs`` (the site_dir mkdocs.yml names),
        # which ``mkdocs build`` logs as INFO and pytest's warning filter would make an error.
        warnings.filterwarnings("ignore", "user_configs is never used", DeprecationWarning)
        return SiteBuild(config, options, None, logging.getLogger("bench"))


def history_of(build: SiteBuild, catalog: Catalog) -> History:
    """The history the plugin's build reads for ``catalog`` (``SiteBuild.history``), read here in
    this process: none when the ``history`` option is off."""
    if not build.options.history:
        return History(Reach(unavailable="off")).including(catalog)
    return read_history(build.catalog_dir, build.lock).including(catalog)


def plugin_files(
    build: SiteBuild, catalog: Catalog, history: History
) -> tuple[Contents, dict[str, SitePage]]:
    """Every file the plugin adds to a build of this catalog, as its own ``SiteBuild`` makes
    them (pages, raw tree, instruction and export files, feeds), and the pages among them."""
    # The check ran without the build: the raw files are written anew, not from its digests.
    build.catalog, build.published = catalog, judged.Memo()
    contents, problems = build.catalog_files(Files([]), lambda: history)
    if problems:
        raise SystemExit(f"bench: the plugin's files of {build.catalog_dir}: {problems[0]}")
    return contents, build.pages


def plugin_nav(build: SiteBuild, catalog: Catalog, docs: Path, pages: list[str]) -> list[Any]:
    """The sidebar the plugin's build makes (``SiteBuild.add_files``): a section per language,
    with the hand-written ``pages`` of ``docs`` in each language's."""
    use_directory_urls = build.config.use_directory_urls
    found = Files([File(page, str(docs), "site", use_directory_urls) for page in pages])
    return site.nav(catalog, build._handwritten_nav(found))


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
    config["plugins"], _options = _plugin_entry(config.get("plugins") or [], search)
    build = stand_in(repo, catalog_dir)
    result = check_catalog(catalog_dir, model_tiers=build.options.model_tiers)
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
    contents, built = plugin_files(build, catalog, history_of(build, catalog))
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
    facts = build.renderer.site
    manifest = {
        "downloads": downloads,
        "handwritten": handwritten,
        "languages": list(catalog.languages),
        "root": facts.home_language(catalog),
        "names": {language: facts.name_in(language) for language in catalog.languages},
    }
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
        nav=plugin_nav(build, catalog, docs, handwritten),
        extra={**dict(config.get("extra") or {}), "alternate": True},
    )
    config_path = project / "mkdocs.yml"
    config_path.write_text(
        yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    return config_path, role_pages(catalog)
