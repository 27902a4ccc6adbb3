"""The MkDocs plugin ``roles-catalog``: MkDocs events in, ``build_tools`` calls out.

It checks the catalog before MkDocs cleans the site directory, then adds the raw tree and the
generated pages as virtual files. During ``mkdocs serve`` a failing check becomes the preview page
instead of an exception, because MkDocs 1.6 holds every request while a rebuild keeps raising.
"""

from __future__ import annotations

import logging
import posixpath
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import Files, InclusionLevel
from mkdocs.structure.pages import Page

from build_tools import site_paths, wire
from build_tools.catalog import Catalog
from build_tools.check import check_catalog
from build_tools.diagnostics import Diagnostic
from build_tools.history import History, Reach, Reading
from site_plugins import history_pages, pages, preview
from site_plugins.config import RolesCatalogConfig

log = get_plugin_logger(__name__)


class RolesCatalogPlugin(BasePlugin[RolesCatalogConfig]):
    """Check the catalog, then publish its raw files and its pages in the same build."""

    def __init__(self) -> None:
        self.serving = False
        self.catalog_dir = Path("catalog")
        self.catalog: Catalog | None = None
        self.problems: list[Diagnostic] = []
        self.pages: dict[str, pages.SitePage] = {}
        # Page paths of the last good build: while serving a broken catalog, each shows the problems
        # so a browser that live-reloads any role page lands on them instead of a 404.
        self.last_good: list[str] = []
        self.incremental: preview.Incremental | None = None
        # While serving, what the last build wrote anew (raw files, page contents), reused as is.
        self.raw_memo: dict[Any, bytes] | None = None
        self.render_memo: dict[Hashable, str] | None = None
        self.files = Files([])
        self.rebuilt: list[str] = []
        self.raw_released = False
        self.compiled_templates = preview.CompiledTemplates()
        self.lock: Path | None = None
        # The committed history, reused while HEAD stays the same (each preview rebuild), and
        # the one being read while the build does other work.
        self.committed: History | None = None
        self.reading: Reading | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"
        # `make serve` runs `mkdocs serve --dirty`: each edit rebuilds only the pages it changed.
        self.incremental = preview.Incremental() if self.serving and dirty else None
        if self.incremental is not None:
            logging.getLogger("mkdocs.commands.build").addFilter(preview.DirtyBuildNotice())
        if self.serving:
            self.raw_memo, self.render_memo = {}, {}

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.catalog, self.problems, self.pages = None, [], {}
        if not self.config.enabled:
            return config
        if not self.config.formats or len(set(self.config.formats)) != len(self.config.formats):
            raise PluginError("roles-catalog: 'formats' lists json, yaml or both, each once")
        base = Path(config.config_file_path).parent if config.config_file_path else Path.cwd()
        self.catalog_dir = (base / self.config.catalog_dir).resolve()
        lock = self.lock = (base / self.config.lock).resolve() if self.config.lock else None
        self.renderer = pages.Renderer(
            base / self.config.page_templates,
            use_directory_urls=config.use_directory_urls,
            formats=self.config.formats,
            memo=self.render_memo,
        )
        result = check_catalog(self.catalog_dir, lock)
        if self.serving and result.only_lock_differs:
            # While editing, a changed role is previewed before its version is bumped; the lock
            # is enforced where it matters, by `mkdocs build` and `rolecat check`.
            lines = "\n".join(str(d) for d in result.diagnostics)
            log.info(f"the preview shows unrecorded changes; `mkdocs build` refuses them:\n{lines}")
            result.diagnostics = []
        if result.ok and result.catalog is not None:
            taken = _handwritten_names(Path(config.docs_dir), config.use_directory_urls)
            self._settle(config, result.catalog, site_paths.collisions(result.catalog, taken))
        else:
            self._settle(config, None, result.diagnostics)
        self._stop_reading()  # a preview build that never needed its history
        if self.catalog is not None and self.config.history:
            # Read in another process while MkDocs and the raw files go ahead (see on_files).
            self.reading = Reading(self.catalog_dir, self.lock, self.committed)
        if self.catalog is not None and "alternate" not in config.extra:
            # Material shows its language switcher only when extra.alternate is set, and the
            # generated pages bring their own (templates/overrides/partials/alternate.html). A list
            # here would also make Material emit <link rel="alternate">, fetch each language's
            # sitemap.xml and re-route every click on a link into another language to that
            # language's home page; a bare flag turns on the switcher and nothing else.
            config.extra["alternate"] = True
        return config

    def _settle(
        self, config: MkDocsConfig, catalog: Catalog | None, problems: list[Diagnostic]
    ) -> None:
        """Keep a good catalog; refuse a bad one: abort a build, or show the problems in serve."""
        if not problems:
            self.catalog = catalog
            return
        self.catalog = None
        self.problems = problems
        count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        lines = "\n".join(str(d) for d in problems)
        where = _shown(self.catalog_dir)
        if not self.serving:
            raise PluginError(f"the catalog {where} has {count}; nothing was built:\n{lines}")
        # A warning would abort a strict build, and MkDocs 1.6 then stalls the preview server.
        level = logging.INFO if config.strict else logging.WARNING
        log.log(level, f"the catalog {where} has {count}; the preview shows them:\n{lines}")

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        if not self.config.enabled:
            return files
        handwritten = sorted(f.src_uri for f in files.documentation_pages())
        if self.catalog is not None:
            taken = {f.dest_uri.split("/", 1)[0] for f in files}
            problems = site_paths.collisions(self.catalog, taken)
            generated: dict[str, bytes | str] = {}
            if not problems:
                generated.update(wire.raw_files(self.catalog, self.config.formats, self.raw_memo))
            if not problems:
                generated[wire.CHECKSUMS] = wire.checksums(generated)
                site_url = config.site_url if not self.serving else None
                history = self._history()
                built = pages.catalog_pages(
                    self.catalog, self.renderer, site_url or config.site_url, history
                )
                self.pages = {p.src_uri: p for p in built}
                generated.update(dict.fromkeys(self.pages, ""))
                languages = pages.catalog_languages(self.catalog)
                feeds = history_pages.FeedSite(config.site_url or None, config.use_directory_urls)
                generated.update(history_pages.feed_files(self.catalog, history, languages, feeds))
                problems = [
                    Diagnostic(
                        path,
                        0,
                        0,
                        f"{config.docs_dir}/{path} would overwrite what the plugin generates "
                        "there; rename or remove it",
                    )
                    for path in generated
                    if files.get_file_from_path(path) is not None
                ]
            if problems:
                self.pages = {}
                self._settle(config, None, problems)
            else:
                self.last_good = list(self.pages)
                self._add(files, config, generated)
                config.nav = [*pages.nav(self.catalog), *(config.nav or handwritten)]
                return files
        # The catalog failed its check and we are serving: every known page shows the problems.
        shown = _shown(self.catalog_dir)
        uris = dict.fromkeys([site_paths.home_page(), *self.last_good])
        self.pages = {
            uri: pages.problems_page(uri, self.problems, self.renderer, shown)
            for uri in uris
            if files.get_file_from_path(uri) is None
        }
        self._add(files, config, dict.fromkeys(self.pages, ""))
        config.nav = [
            {pages.nav_title(self.pages[site_paths.home_page()].title): site_paths.home_page()},
            *(config.nav or handwritten),
        ]
        return files

    def _history(self) -> History:
        """The catalog's versions from git, with what is being built as the newest state."""
        assert self.catalog is not None
        if not self.config.history:
            return History(Reach(unavailable="off")).including(self.catalog)
        if self.reading is None:
            self.reading = Reading(self.catalog_dir, self.lock, self.committed)
        committed, self.reading = self.reading.result(), None
        if committed is not self.committed:  # read anew, not reused by a preview rebuild
            reach = committed.reach
            if reach.unavailable:
                log.info(f"no history of the catalog: {reach.detail or reach.unavailable}")
            for commit in committed.skipped:
                log.info(
                    f"history: commit {commit.short} ({commit.subject}) is skipped: the catalog "
                    "there fails its check, so it was never published"
                )
        if self.serving:  # a build lets it go with the catalog, before the search index is written
            self.committed = committed
        return committed.including(self.catalog)

    def _add(self, files: Files, config: MkDocsConfig, generated: dict[str, bytes | str]) -> None:
        docs = Path(config.docs_dir)
        fingerprints: dict[str, str] = {}
        for path, content in generated.items():
            file = preview.GeneratedFile.generated(config, path, content=content)
            page = self.pages.get(path)
            if self.incremental is not None:  # only a dirty preview needs to know what changed
                fingerprints[path] = (
                    preview.digest(page.html, page.title, page.lang, page.alternates, page.in_nav)
                    if page is not None
                    else preview.digest(content)
                )
            if page is not None:
                if not page.in_nav:
                    # Role pages stay out of the sidebar: Material writes the whole nav into
                    # every page, so a nav of every role grows the site with the square of it.
                    file.inclusion = InclusionLevel.NOT_IN_NAV
                if page.source is not None:
                    source = self.catalog_dir / page.source
                    file.edit_uri = posixpath.relpath(source.as_posix(), docs.resolve().as_posix())
            files.append(file)
        self.files = files
        if self.incremental is not None:
            self.incremental.mark(
                files, fingerprints, self._site_wide(config), Path(config.site_dir)
            )

    def _site_wide(self, config: MkDocsConfig) -> str:
        """What every page shows: the navigation, and the templates it is rendered with."""
        templates = [self.renderer.templates_dir]
        if config.theme.custom_dir:
            templates.append(Path(config.theme.custom_dir))
        stamps = sorted(
            (str(p), p.stat().st_mtime_ns)
            for d in templates
            if d.is_dir()
            for p in d.rglob("*")
            if p.is_file()
        )
        return preview.digest(config.nav, config.site_url, stamps)

    def on_env(
        self, env: jinja2.Environment, *, config: MkDocsConfig, files: Files
    ) -> jinja2.Environment:
        if self.serving:
            env.bytecode_cache = self.compiled_templates
        return env

    def on_pre_page(self, page: Page, *, config: MkDocsConfig, files: Files) -> Page:
        self.rebuilt.append(page.url)
        return page

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        self.rebuilt = []
        self.raw_released = False

    @event_priority(100)  # before the search plugin writes its index, the largest thing built
    def _let_go(self, *, config: MkDocsConfig) -> None:
        """Every page is written: the catalog is no longer needed, nor its pages' contexts.

        Their memory goes back to the system before the search index is written: it is the
        largest thing a build makes (text of every page, written out twice), and it would
        otherwise come on top of a catalog that is no longer used.
        """
        self.catalog, self.pages = None, {}
        preview.return_free_memory()

    @event_priority(-100)  # after the search plugin has written its index
    def _merge_search_index(self, *, config: MkDocsConfig) -> None:
        if self.incremental is not None:
            urls = [f.page.url for f in self.files.documentation_pages() if f.page is not None]
            self.incremental.merge_search_index(Path(config.site_dir), self.rebuilt, urls)

    on_post_build = CombinedEvent(_let_go, _merge_search_index)

    def on_build_error(self, *, error: Exception) -> None:
        self._stop_reading()

    def _stop_reading(self) -> None:
        if self.reading is not None:
            self.reading.close()
            self.reading = None

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        generated = self.pages.get(page.file.src_uri)
        if generated is None:
            return markdown
        page.meta["title"] = pages.nav_title(generated.title)
        page.meta["rolecat_alternates"] = [
            {"name": a.name, "link": a.link, "lang": a.lang} for a in generated.alternates
        ]
        if not generated.searchable:
            page.meta["search"] = {"exclude": True}
        return ""

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        # MkDocs reads every page before it writes any: a generated page's content is rendered
        # only when the page is written (below), so a large catalog's pages are never all held.
        return "" if page.file.src_uri in self.pages else html

    @event_priority(100)  # before the search plugin indexes the content
    def on_page_context(self, context: Any, *, page: Page, config: MkDocsConfig, nav: Any) -> Any:
        generated = self.pages.get(page.file.src_uri)
        if generated is not None:
            # The content is rendered by our autoescaping templates, never by Markdown.
            page.content = generated.html
        if not self.raw_released:
            # MkDocs has written the raw files by now; their bytes need not stay in memory.
            self.raw_released = True
            for file in self.files:
                if isinstance(file, preview.GeneratedFile) and file.src_uri not in self.pages:
                    file.content_bytes = b""
        return context

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        if page.file.src_uri in self.pages:
            page.content = None  # written and indexed
        return output

    def on_serve(
        self, server: LiveReloadServer, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer:
        if self.config.enabled:
            server.watch(str(self.catalog_dir))
            server.watch(str(self.renderer.env.loader.searchpath[0]))  # type: ignore[union-attr]
        return server


def _handwritten_names(docs_dir: Path, use_directory_urls: bool) -> list[str]:
    """Top-level names the docs directory will publish (``about.md`` -> ``about``), known before
    MkDocs cleans the site directory, so a colliding id fails the build with the site untouched."""
    if not docs_dir.is_dir():
        return []
    names = []
    for entry in sorted(docs_dir.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_file() and entry.suffix == ".md" and use_directory_urls:
            if entry.stem not in ("index", "README"):
                names.append(entry.stem)
        else:
            names.append(entry.name)
    return names


def _shown(path: Path) -> str:
    """The catalog directory as people typed it: relative to the working directory when inside."""
    try:
        return path.relative_to(Path.cwd()).as_posix() or "."
    except ValueError:
        return path.as_posix()
