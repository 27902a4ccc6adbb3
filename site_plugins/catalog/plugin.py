"""The MkDocs plugin ``roles-catalog``: MkDocs' events in, calls of one :class:`SiteBuild` out.

It checks the catalog before MkDocs cleans the site directory and adds the raw tree and the pages
as files. While serving, a failing check becomes the preview page instead of an exception (MkDocs
1.6 holds every request while a rebuild keeps raising), and a :class:`Preview` keeps what
rebuilds reuse. ``mkdocs build`` publishes atomically (:mod:`site_plugins.catalog.publishing`),
as the very last step of the build: whatever writes into the site writes before it.
"""

from __future__ import annotations

from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from site_plugins.catalog import chrome, nav_cache, preview, split_pages, theme
from site_plugins.catalog.build import SiteBuild
from site_plugins.catalog.config import RolesCatalogConfig
from site_plugins.catalog.publishing import AtomicPublishing

log = get_plugin_logger("roles-catalog")  # its lines start "roles-catalog:", as mkdocs.yml names it


class RolesCatalogPlugin(BasePlugin[RolesCatalogConfig]):
    """Check the catalog, then publish its raw files and its pages in the same build."""

    def __init__(self) -> None:
        self.preview: preview.Preview | None = None  # only while serving
        self.publishing: AtomicPublishing | None = None  # only for `mkdocs build`
        self.build: SiteBuild | None = None  # from on_config to the build's end
        self.split: split_pages.SplitPages | None = None  # a build's pages in two processes

    def on_startup(self, *, command: str, dirty: bool) -> None:
        if command == "serve":
            # `make serve` runs `mkdocs serve --dirty`: each edit rebuilds only what it changed.
            self.preview = preview.Preview.start(dirty=dirty)
        else:  # from the start, as MkDocs' own count of a strict build's warnings
            self.publishing = AtomicPublishing(seeded=dirty)

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self._stop_reading()  # a preview build that never needed its history
        self.build = None
        if not self.config.enabled:
            return config
        if not self.config.formats or len(set(self.config.formats)) != len(self.config.formats):
            raise PluginError("roles-catalog: 'formats' lists json, yaml or both, each once")
        theme.use_shipped_theme(config)
        build = self.build = SiteBuild(config, self.config, self.preview, log)
        if self.publishing is not None:  # a preview builds into a directory of its own
            self.publishing.guard(config, build.owned())
        build.check()
        if self.publishing is not None:
            self.publishing.stage(config)
        build.start_reading()
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        if self.build is not None:
            self.build.add_files(files)
        return files

    def _env(
        self, env: jinja2.Environment, *, config: MkDocsConfig, files: Files
    ) -> jinja2.Environment:
        if self.build is None:
            return env
        self.build.timings.mark("env")
        catalog = self.build.catalog
        env.globals["rolecat"] = chrome.PageLanguage(
            config.theme.dirs, catalog.languages if catalog else ()
        )
        self.build.dated(files)
        nav_cache.use_cache(env)
        if self.preview is not None:
            env.bytecode_cache = self.preview.compiled_templates
            preview.read_unread_pages(files, config, self.build.pages)
        return env

    @event_priority(-1_000_000)  # once every plugin made the environment: the fork shares it
    def _split(
        self, env: jinja2.Environment, *, config: MkDocsConfig, files: Files
    ) -> jinja2.Environment:
        if self.build is not None and self.publishing is not None:
            self.split = split_pages.SplitPages.start(config, files)
        return env

    on_env = CombinedEvent(_env, _split)

    @event_priority(1_000_000)  # before any plugin uses the pages: all of them are written
    def _join(self, *, config: MkDocsConfig) -> None:
        if split_pages.in_second():
            split_pages.end_second()
        split, self.split = self.split, None
        if split is not None:
            split.join()

    @event_priority(100)  # before the search index is made
    def _let_go(self, *, config: MkDocsConfig) -> None:
        if self.build is not None:
            self.build.let_go()

    @event_priority(-1000)  # the very last: after every plugin, whatever priority it chose
    def _publish(self, *, config: MkDocsConfig) -> None:
        if self.build is not None:
            self.build.timings.mark("published")
        if self.publishing is not None:
            self.publishing.publish(config)

    on_post_build = CombinedEvent(_join, _let_go, _publish)

    @event_priority(1_000_000)  # the second process ends before any plugin cleans up
    def on_build_error(self, *, error: Exception) -> None:
        if split_pages.in_second():
            split_pages.end_second(error)
        self._stop()

    def on_shutdown(self) -> None:
        self._stop()  # an interrupted build (Ctrl-C) reaches neither event above
        if self.preview is not None:
            self.preview.close()

    def _stop(self) -> None:
        split, self.split = self.split, None
        if split is not None:
            split.stop()
        if self.publishing is not None:
            self.publishing.discard()
        self._stop_reading()

    def _stop_reading(self) -> None:
        if self.build is not None:
            self.build.stop_reading()

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        return markdown if self.build is None else self.build.page_markdown(page, markdown)

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        # MkDocs reads every page before it writes any: a generated page's content is rendered
        # only when the page is written (below), so a large catalog's pages are never all held.
        generated = self.build is not None and page.file.src_uri in self.build.pages
        return "" if generated else html

    def on_page_context(
        self, context: Any, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> Any:
        if self.build is not None and split_pages.renders(self.split, page):
            self.build.page_context(page, context, nav)
        return context

    def on_template_context(self, context: Any, *, template_name: str, config: MkDocsConfig) -> Any:
        # The 404 page: the root language's sidebar and name (its script shows each language).
        if self.build is not None and context.get("nav") is not None:
            self.build.speak(context, context["nav"], None)
        return context

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        if self.build is not None and page.file.src_uri in self.build.pages:
            page.content = None  # written and indexed
        return output

    def on_serve(
        self, server: LiveReloadServer, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer:
        if self.build is None:
            return server
        server = preview.quick_server(server)
        for watched in self.build.watched():
            server.watch(str(watched))
        return server
