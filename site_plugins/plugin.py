"""The MkDocs plugin ``roles-catalog``: MkDocs events in, ``build_tools`` calls out.

It checks the catalog before MkDocs cleans the site directory and adds the raw tree and the pages
as virtual files (:mod:`site_plugins.generated`). While serving, a failing check becomes the
preview page instead of an exception (MkDocs 1.6 holds every request while a rebuild keeps
raising), and a :class:`~site_plugins.preview.PreviewState` keeps what rebuilds reuse.
``mkdocs build`` publishes atomically (:mod:`site_plugins.publishing`), as the very last step
of the build: whatever writes into the site writes into ``config.site_dir`` before it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from build_tools.diagnostics import Diagnostic
from build_tools.history.replay import Reading
from build_tools.history.versions import History, Reach
from build_tools.model.catalog import Catalog
from build_tools.wire import site_paths
from site_plugins import chrome, generated, pages, preview, rendering, theme
from site_plugins.config import RolesCatalogConfig
from site_plugins.labels import FALLBACK
from site_plugins.publishing import AtomicPublishing
from site_plugins.timings import Timings

log = get_plugin_logger("roles-catalog")  # its lines start "roles-catalog:", as mkdocs.yml names it


class RolesCatalogPlugin(BasePlugin[RolesCatalogConfig]):
    """Check the catalog, then publish its raw files and its pages in the same build."""

    def __init__(self) -> None:
        self.preview: preview.PreviewState | None = None  # only while serving
        self.publishing: AtomicPublishing | None = None  # only for `mkdocs build`
        self.build = generated.Build()
        # The committed history, read in another process while the build does other work.
        self.reading: Reading | None = None
        self.timings = Timings.from_environment()

    def on_startup(self, *, command: str, dirty: bool) -> None:
        if command == "serve":
            # `make serve` runs `mkdocs serve --dirty`: each edit rebuilds only what it changed.
            self.preview = preview.PreviewState.start(dirty=dirty)
            self.timings.follow_server()
        else:  # from the start, as MkDocs' own count of a strict build's warnings
            self.publishing = AtomicPublishing(seeded=dirty)

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.timings.mark("config")
        if not self.config.enabled:
            self.build = generated.Build()
            return config
        if not self.config.formats or len(set(self.config.formats)) != len(self.config.formats):
            raise PluginError("roles-catalog: 'formats' lists json, yaml or both, each once")
        theme.use_shipped_theme(config)
        base = Path(config.config_file_path).parent if config.config_file_path else Path.cwd()
        state = self.preview
        build = self.build = generated.start(config, self.config, base, state)
        if self.publishing is not None:  # a preview builds into a directory of its own
            owned = generated.owned(build, config, base)
            self.publishing.guard(config, owned)
        result = generated.checked(build, config, self.config, state, log)
        self._settle(config, result.catalog if result.ok else None, result.diagnostics)
        if self.publishing is not None:
            self.publishing.stage(config)
        self._stop_reading()  # a preview build that never needed its history
        if build.catalog is not None and self.config.history:
            # Read in another process while MkDocs and the raw files go ahead (see on_files).
            known = state.committed if state else None
            self.reading = Reading(build.catalog_dir, build.lock, known)
        if build.catalog is not None:
            chrome.switch_languages_on(config)
        self.timings.mark("checked")
        return config

    def _settle(
        self, config: MkDocsConfig, catalog: Catalog | None, problems: list[Diagnostic]
    ) -> None:
        """Keep a good catalog; refuse a bad one: abort a build, or show the problems in serve."""
        build = self.build
        build.catalog, build.problems = (catalog, []) if not problems else (None, problems)
        if not problems:
            return
        count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        lines = "\n".join(str(d) for d in problems)
        where = generated.shown(build.catalog_dir)
        if self.preview is None:
            raise PluginError(f"the catalog {where} has {count}; nothing was built:\n{lines}")
        # A warning would abort a strict build, and MkDocs 1.6 then stalls the preview server.
        level = logging.INFO if config.strict else logging.WARNING
        log.log(level, f"the catalog {where} has {count}; the preview shows them:\n{lines}")

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        if not self.config.enabled:
            return files
        self.timings.mark("files")
        build, state = self.build, self.preview
        handwritten = sorted(f.src_uri for f in files.documentation_pages())
        if build.catalog is not None:
            found, problems = generated.catalog_files(
                build, config, files, self._history, state, self.config.formats
            )
            if not problems:
                if state is not None:
                    state.last_good = list(build.pages)
                generated.add(build, files, config, found, state)
                config.nav = [*pages.nav(build.catalog), *(config.nav or handwritten)]
                self.timings.mark("files_done")
                return files
            build.pages = {}
            self._settle(config, None, problems)
        # The catalog failed its check and we are serving: every known page shows the problems.
        last_good = state.last_good if state else []
        shown = generated.problem_pages(build, files, last_good, generated.shown(build.catalog_dir))
        generated.add(build, files, config, shown, state)
        home = site_paths.home_page()
        config.nav = [
            {rendering.nav_title(build.pages[home].title): home},
            *(config.nav or handwritten),
        ]
        self.timings.mark("files_done")
        return files

    def _history(self) -> History:
        """The catalog's versions from git, with what is being built as the newest state."""
        build, state = self.build, self.preview
        assert build.catalog is not None
        if not self.config.history:
            return History(Reach(unavailable="off")).including(build.catalog)
        known = state.committed if state else None
        if self.reading is None:
            self.reading = Reading(build.catalog_dir, build.lock, known)
        self.timings.mark("history")
        committed, self.reading = self.reading.result(), None
        self.timings.mark("history_done")
        if committed is not known:  # read anew, not reused by a preview rebuild
            generated.log_history(committed, log)
        if state is not None:  # a build lets it go with the catalog, before the search index
            state.committed = committed
        return committed.including(build.catalog)

    def on_env(
        self, env: jinja2.Environment, *, config: MkDocsConfig, files: Files
    ) -> jinja2.Environment:
        self.timings.mark("env")
        env.globals["rolecat"] = chrome.PageLanguage(config.theme.dirs)
        if self.preview is not None:
            env.bytecode_cache = self.preview.compiled_templates
            preview.read_unread_pages(files, config, self.build.pages)
        return env

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        self.build.raw_released = False

    @event_priority(100)  # before the search index is made
    def _let_go(self, *, config: MkDocsConfig) -> None:
        """Every page is written: the catalog is no longer needed, nor its pages' contexts.

        Their memory goes back to the system before Pagefind indexes the site, so a large
        catalog's build never holds both.
        """
        self.timings.mark("post_build")
        self.build.catalog, self.build.pages = None, {}
        if self.preview is None:  # a preview keeps its catalog in its memos, and reloads sooner
            preview.return_free_memory()

    @event_priority(-1000)  # the very last: after every plugin, whatever priority it chose
    def _publish(self, *, config: MkDocsConfig) -> None:
        self.timings.mark("published")
        if self.publishing is not None:
            self.publishing.publish(config)

    on_post_build = CombinedEvent(_let_go, _publish)

    def on_build_error(self, *, error: Exception) -> None:
        self._stop()

    def on_shutdown(self) -> None:
        self._stop()  # an interrupted build (Ctrl-C) reaches neither event above

    def _stop(self) -> None:
        if self.publishing is not None:
            self.publishing.discard()
        self._stop_reading()

    def _stop_reading(self) -> None:
        if self.reading is not None:
            self.reading.close()
            self.reading = None

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        made = self.build.pages.get(page.file.src_uri)
        if made is None:
            return markdown
        generated.page_meta(page, made, self.build.pending.get(page.file.src_uri))
        return ""

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        # MkDocs reads every page before it writes any: a generated page's content is rendered
        # only when the page is written (below), so a large catalog's pages are never all held.
        return "" if page.file.src_uri in self.build.pages else html

    def on_page_context(self, context: Any, *, page: Page, config: MkDocsConfig, nav: Any) -> Any:
        build = self.build
        if build.catalog is not None:
            # The sidebar's entries we name, in the language of the page they are shown on.
            language = page.meta.get(chrome.META_KEY, FALLBACK)
            build.nav_words.show(nav.pages, language, build.pages)
        made = build.pages.get(page.file.src_uri)
        if made is not None:
            # The content is rendered by our autoescaping templates, never by Markdown.
            try:
                page.content = made.html
            except jinja2.TemplateError as error:
                where = getattr(error, "filename", None) or build.pages_renderer.templates_dirs[0]
                raise PluginError(
                    f"cannot render {page.file.src_uri} from {where}: "
                    f"{type(error).__name__}: {error}"
                ) from None
        generated.release_raw_files(build, serving=self.preview is not None)
        return context

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        if page.file.src_uri in self.build.pages:
            page.content = None  # written and indexed
        return output

    def on_serve(
        self, server: LiveReloadServer, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer:
        if self.config.enabled:
            preview.quicken(server)
            # MkDocs watches the theme only with --watch-theme: the overrides are watched here.
            templates = (*self.build.pages_renderer.templates_dirs, *theme.override_dirs(config))
            for watched in (self.build.catalog_dir, *templates):
                server.watch(str(watched))
        return server
