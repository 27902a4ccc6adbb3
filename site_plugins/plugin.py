"""The MkDocs plugin ``roles-catalog``: MkDocs events in, ``build_tools`` calls out.

It checks the catalog before MkDocs cleans the site directory, then adds the raw tree and the
generated pages as virtual files. During ``mkdocs serve`` a failing check becomes the preview page
instead of an exception, because MkDocs 1.6 holds every request while a rebuild keeps raising.

``mkdocs build`` publishes atomically: once the check passes, MkDocs builds into a staging
directory beside the site directory, which replaces the site directory as the build's very last
step (:meth:`RolesCatalogPlugin.on_post_build`, after every other plugin) and only if nothing
failed. Anything that writes into the site (a search index, another plugin's files) must therefore
run before that step, and it writes into the staging directory: ``config.site_dir`` names it
during the build.
"""

from __future__ import annotations

import logging
import mimetypes
import os
import posixpath
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.utils import CountHandler

from build_tools.check import check_catalog
from build_tools.diagnostics import Diagnostic
from build_tools.history.feeds import Feed
from build_tools.history.replay import Reading
from build_tools.history.versions import History, Reach
from build_tools.lock import LOCK_FILE
from build_tools.model.catalog import Catalog, last_modified
from build_tools.reuse import Reuse
from build_tools.wire import judged, raw_tree, site_paths, staging
from site_plugins import chrome, history_feeds, pages, preview, rendering
from site_plugins.config import RolesCatalogConfig
from site_plugins.labels import FALLBACK, labels
from site_plugins.text_files import MarkedTextFile
from site_plugins.timings import Timings

log = get_plugin_logger(__name__)

YAML_CONTENT_TYPE = "text/yaml; charset=utf-8"
"""Shown as text by browsers (``application/yaml`` is downloaded) and decoded as UTF-8."""


class RolesCatalogPlugin(BasePlugin[RolesCatalogConfig]):
    """Check the catalog, then publish its raw files and its pages in the same build."""

    def __init__(self) -> None:
        self.serving = False
        self.catalog_dir = Path("catalog")
        self.catalog: Catalog | None = None
        self.problems: list[Diagnostic] = []
        self.pages: dict[str, rendering.SitePage] = {}
        # Page paths of the last good build: while serving a broken catalog, each shows the problems
        # so a browser that live-reloads any role page lands on them instead of a 404.
        self.last_good: list[str] = []
        self.incremental: preview.Incremental | None = None
        # While serving, what the last build wrote anew (raw files, page contents), reused as is.
        self.memo: judged.Memo | None = None
        self.render_memo: dict[Hashable, str] | None = None
        self.reuse: Reuse | None = None
        self.kept: rendering.KeptPages | None = None
        # While serving, the raw files' SHA-256 by path, with the bytes they were computed from.
        self.sums: dict[str, tuple[bytes, str]] | None = None
        self.feeds: dict[str, tuple[Feed, bytes]] | None = None
        self.files = Files([])
        self.raw_released = False
        self.compiled_templates = preview.CompiledTemplates()
        self.compiled_pages = preview.CompiledTemplates()
        # This build's files as its check wrote and judged them, for on_files.
        self.published = judged.Memo()
        self.dirty = False
        # An atomic build: where the site goes, the staging directory MkDocs writes into instead,
        # and the warnings that make a strict build fail after its last plugin event.
        self.site_dir: Path | None = None
        self.staging: Path | None = None
        self.warnings = CountHandler()
        self.warnings.setLevel(logging.WARNING)
        self.pending: dict[str, str] = {}
        """While previewing: the pages of roles the lock has not recorded, and the label that
        says what to do."""
        self.lock: Path | None = None
        # The committed history, reused while HEAD stays the same (each preview rebuild), and
        # the one being read while the build does other work.
        self.committed: History | None = None
        self.reading: Reading | None = None
        self.timings = Timings.from_environment()

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"
        self.dirty = dirty
        if not self.serving:  # from the start, as MkDocs' own count of a strict build's warnings
            logging.getLogger("mkdocs").addHandler(self.warnings)
        # `make serve` runs `mkdocs serve --dirty`: each edit rebuilds only the pages it changed.
        self.incremental = preview.Incremental() if self.serving and dirty else None
        if self.incremental is not None:
            logging.getLogger("mkdocs.commands.build").addFilter(preview.DirtyBuildNotice())
        if self.serving:
            self.timings.follow_server()
            self.memo, self.render_memo = judged.Memo(), {}
            self.reuse, self.sums, self.kept, self.feeds = Reuse(), {}, rendering.KeptPages(), {}
            # The preview serves the raw YAML as README asks of every host: as text a browser
            # shows (MkDocs would send application/octet-stream, which a browser downloads).
            mimetypes.add_type(YAML_CONTENT_TYPE, ".yaml")

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.timings.mark("config")
        self.catalog, self.problems, self.pages, self.pending = None, [], {}, {}
        if not self.config.enabled:
            return config
        if not self.config.formats or len(set(self.config.formats)) != len(self.config.formats):
            raise PluginError("roles-catalog: 'formats' lists json, yaml or both, each once")
        base = Path(config.config_file_path).parent if config.config_file_path else Path.cwd()
        # realpath, unlike Path.resolve, reports no symlink loop: the check names it, in one line.
        self.catalog_dir = Path(os.path.realpath(base / self.config.catalog_dir))
        lock = self.lock = (
            Path(os.path.realpath(base / self.config.lock)) if self.config.lock else None
        )
        if not self.serving:  # a preview builds into a directory of its own
            self._guard(config, base)
        if not os.environ.get("SOURCE_DATE_EPOCH", "").isdigit():
            # The feeds' and the sitemap's dates: two builds of one catalog are byte-identical,
            # in git or not; the clock would make every build differ.
            os.environ["SOURCE_DATE_EPOCH"] = str(last_modified(self.catalog_dir))
        if config.site_url:  # the overview advertises it as AI_AGENT_ROLES_CATALOG_URL
            from build_tools.wire.fetch import BaseUrlError, normalize_base

            try:
                normalize_base(config.site_url)
            except BaseUrlError as error:
                raise PluginError(f"site_url: {error}") from None
        self.renderer = rendering.Renderer(
            base / self.config.page_templates,
            use_directory_urls=config.use_directory_urls,
            formats=self.config.formats,
            memo=self.render_memo,
            compiled=self.compiled_pages if self.serving else None,
            model_tiers=self.config.model_tiers,
        )
        taken = site_paths.handwritten_names(Path(config.docs_dir), config.use_directory_urls)
        site = site_paths.Site(self.config.formats, taken, Path(config.site_dir))
        self.published = self.memo or judged.Memo()
        try:
            result = check_catalog(
                self.catalog_dir,
                lock,
                site,
                self.published,
                self.reuse,
                model_tiers=self.config.model_tiers,
            )
        except Exception as error:  # a bug of rolecat's own: one line, as every problem
            raise PluginError(
                f"internal error checking {_shown(self.catalog_dir)}: {type(error).__name__}: "
                f"{error}"
            ) from None
        for line in result.recovered:
            log.info(line)
        if self.serving and result.only_lock_differs:
            # While editing, a changed role is previewed before its version is bumped; the lock
            # is enforced where it matters, by `mkdocs build` and `rolecat check`.
            lines = "\n".join(str(d) for d in result.diagnostics)
            log.info(
                "the preview shows changes the lock has not recorded; `make site` refuses them "
                f"until they are:\n{lines}"
            )
            assert result.catalog is not None  # the lock is read only for a sound catalog
            self.pending = preview.pending_pages(result.catalog, result.changes)
            result.diagnostics = []
        # What the server would change or lose: a warning, so a strict build fails on it (a
        # strict preview logs it, since MkDocs 1.6 stalls a preview whose build fails).
        level = logging.INFO if self.serving and config.strict else logging.WARNING
        for warning in result.warnings:
            log.log(level, str(warning))
        if result.ok and result.catalog is not None:
            self._settle(config, result.catalog, [])
        else:
            self._settle(config, None, result.diagnostics)
        if not self.serving:
            self._stage(config)
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
        self.timings.mark("checked")
        return config

    def _guard(self, config: MkDocsConfig, base: Path) -> None:
        """Refuse a site directory that would replace or hold what the build reads."""
        owned = {
            "the catalog directory": self.catalog_dir,
            "the lock": self.lock or self.catalog_dir / LOCK_FILE,
            "the config file": Path(config.config_file_path or base / "mkdocs.yml"),
            "the page templates": base / self.config.page_templates,
        }
        if config.theme.custom_dir:
            owned["the theme overrides"] = Path(config.theme.custom_dir)
        refused = staging.refusal(Path(config.site_dir), owned)
        if refused is not None:
            raise PluginError(f"{refused}; nothing was built")

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
        self.timings.mark("files")
        handwritten = sorted(f.src_uri for f in files.documentation_pages())
        if self.catalog is not None:
            taken = {f.dest_uri.split("/", 1)[0] for f in files}
            problems = site_paths.collisions(self.catalog, taken)
            generated: dict[str, bytes | str | pages.MarkedText] = {}
            if not problems:
                memo = self.published.files
                raw = raw_tree.raw_files(self.catalog, self.config.formats, memo)
                self.published = self.memo or judged.Memo()  # a build lets its files go
                # The sums of the raw tree alone: never of the pages or the instruction files.
                generated.update(raw)
                generated[raw_tree.CHECKSUMS] = raw_tree.checksums(raw, self.sums)
                generated.update(pages.instruction_files(self.catalog))
            if not problems:
                site_url = config.site_url if not self.serving else None
                history = self._history()
                built = pages.catalog_pages(
                    self.catalog, self.renderer, site_url or config.site_url, history, self.kept
                )
                self.pages = {p.src_uri: p for p in built}
                generated.update(dict.fromkeys(self.pages, ""))
                languages = rendering.catalog_languages(self.catalog)
                feeds = history_feeds.FeedSite(config.site_url or None, config.use_directory_urls)
                generated.update(
                    history_feeds.feed_files(self.catalog, history, languages, feeds, self.feeds)
                )
                present = {f.src_uri for f in files}
                problems = [
                    Diagnostic(
                        path,
                        0,
                        0,
                        f"{config.docs_dir}/{path} would overwrite what the plugin generates "
                        "there; rename or remove it",
                    )
                    for path in generated
                    if path in present
                ]
            if problems:
                self.pages = {}
                self._settle(config, None, problems)
            else:
                self.last_good = list(self.pages)
                self._add(files, config, generated)
                config.nav = [*pages.nav(self.catalog), *(config.nav or handwritten)]
                self.timings.mark("files_done")
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
            {rendering.nav_title(self.pages[site_paths.home_page()].title): site_paths.home_page()},
            *(config.nav or handwritten),
        ]
        self.timings.mark("files_done")
        return files

    def _history(self) -> History:
        """The catalog's versions from git, with what is being built as the newest state."""
        assert self.catalog is not None
        if not self.config.history:
            return History(Reach(unavailable="off")).including(self.catalog)
        if self.reading is None:
            self.reading = Reading(self.catalog_dir, self.lock, self.committed)
        self.timings.mark("history")
        committed, self.reading = self.reading.result(), None
        self.timings.mark("history_done")
        if committed is not self.committed:  # read anew, not reused by a preview rebuild
            reach = committed.reach
            if reach.unavailable:
                log.info(f"no history of the catalog: {reach.detail or reach.unavailable}")
            for commit in committed.skipped:
                why = (
                    f"it cannot be read: {commit.unreadable}"
                    if commit.unreadable
                    else "the catalog there fails its check, so it was never published"
                )
                log.info(f"history: commit {commit.short} ({commit.subject}) is skipped: {why}")
            for role in committed.roles.values():
                for version in role.versions:
                    if version.withheld:
                        log.info(
                            f"history: role {role.slug} version {version.number}: "
                            f"{', '.join(version.withheld)} left out of the site (it held a "
                            "credential)"
                        )
        if self.serving:  # a build lets it go with the catalog, before the search index is written
            self.committed = committed
        return committed.including(self.catalog)

    def _add(
        self,
        files: Files,
        config: MkDocsConfig,
        generated: dict[str, bytes | str | pages.MarkedText],
    ) -> None:
        # Where the catalog is, seen from the docs directory: edit links are made from it.
        catalog = posixpath.relpath(
            self.catalog_dir.as_posix(), Path(config.docs_dir).resolve().as_posix()
        )
        shown: dict[str, object] = {}
        for path, content in generated.items():
            file: File
            if isinstance(content, pages.MarkedText):
                file = MarkedTextFile.of(config, path, content)
                content = content.text
            else:
                file = preview.GeneratedFile.generated(config, path, content=content)
            page = self.pages.get(path)
            if self.incremental is not None:  # only a dirty preview needs to know what changed
                # What the file shows, compared with the last build's: a page's HTML comes from
                # the renderer's memo, the very same string while its page is unchanged.
                shown[path] = (
                    (
                        page.html,
                        page.title,
                        page.lang,
                        page.alternates,
                        page.in_nav,
                        self.pending.get(path),
                    )
                    if page is not None
                    else content
                )
            if page is not None:
                if not page.in_nav:
                    # Role pages stay out of the sidebar: Material writes the whole nav into
                    # every page, so a nav of every role grows the site with the square of it.
                    file.inclusion = InclusionLevel.NOT_IN_NAV
                if page.source is not None:
                    file.edit_uri = posixpath.normpath(posixpath.join(catalog, page.source))
            files.append(file)
        self.files = files
        if self.incremental is not None:
            self.incremental.mark(files, shown, self._site_wide(config), Path(config.site_dir))

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
        self.timings.mark("env")
        env.globals["rolecat"] = chrome.PageLanguage(config.theme.dirs)
        if self.serving:
            env.bytecode_cache = self.compiled_templates
            # --dirty reads only the pages it rebuilds, and a page never read has no title: the
            # sidebar would show "None" for each hand-written page an edit did not touch.
            for file in files.documentation_pages():
                page = file.page
                if page is not None and page.markdown is None and file.src_uri not in self.pages:
                    page.read_source(config)
        return env

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        self.raw_released = False

    @event_priority(100)  # before the search index is made
    def _let_go(self, *, config: MkDocsConfig) -> None:
        """Every page is written: the catalog is no longer needed, nor its pages' contexts.

        Their memory goes back to the system before Pagefind indexes the site, so a large
        catalog's build never holds both.
        """
        self.timings.mark("post_build")
        self.catalog, self.pages = None, {}
        if not self.serving:  # a preview keeps its catalog in its memos, and reloads sooner
            preview.return_free_memory()

    @event_priority(-1000)  # the very last: after every plugin, whatever priority it chose
    def _publish(self, *, config: MkDocsConfig) -> None:
        """Swap the staged build in, unless a warning will fail this strict build right after."""
        self.timings.mark("published")
        if self.staging is None or self.site_dir is None:
            return
        if config.strict and self.warnings.get_counts():
            return  # MkDocs aborts the build now; on_build_error removes the staging directory
        try:
            staging.swap_in(self.staging, self.site_dir)
        except OSError as error:
            raise PluginError(
                f"the site was built but could not replace {self.site_dir}: {error.strerror}"
            ) from None
        self.staging = None
        config.site_dir = str(self.site_dir)  # for what runs next, such as gh-deploy
        self._stop_counting()

    on_post_build = CombinedEvent(_let_go, _publish)

    def _stage(self, config: MkDocsConfig) -> None:
        """Point MkDocs at a staging directory; the site directory is replaced at the end."""
        self.site_dir = Path(config.site_dir)
        try:
            self.staging = staging.stage(self.site_dir, seeded=self.dirty)
        except OSError as error:
            raise PluginError(
                f"cannot build beside {self.site_dir}: {error.strerror or error}"
            ) from None
        config.site_dir = str(self.staging)

    def on_build_error(self, *, error: Exception) -> None:
        self._unstage()
        self._stop_reading()

    def on_shutdown(self) -> None:
        self._unstage()  # an interrupted build (Ctrl-C) reaches neither event above
        self._stop_reading()

    def _unstage(self) -> None:
        if self.staging is not None:
            staging.discard(self.staging)
            self.staging = None
        self._stop_counting()

    def _stop_counting(self) -> None:
        logging.getLogger("mkdocs").removeHandler(self.warnings)
        self.warnings = CountHandler()
        self.warnings.setLevel(logging.WARNING)

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
        page.meta["title"] = rendering.nav_title(generated.title)
        page.meta[chrome.META_KEY] = generated.lang
        action = self.pending.get(page.file.src_uri)
        page.meta["rolecat_banner"] = labels(generated.lang)[action] if action else None
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

    def on_page_context(self, context: Any, *, page: Page, config: MkDocsConfig, nav: Any) -> Any:
        home = self.files.get_file_from_path(site_paths.home_page())
        if self.catalog is not None and home is not None and home.page is not None:
            # The sidebar's "Overview" in the language of the page it is shown on.
            words = labels(page.meta.get(chrome.META_KEY, FALLBACK))
            home.page.title = rendering.nav_title(words["overview"])
        generated = self.pages.get(page.file.src_uri)
        if generated is not None:
            # The content is rendered by our autoescaping templates, never by Markdown.
            try:
                page.content = generated.html
            except jinja2.TemplateError as error:
                raise PluginError(
                    f"cannot render {page.file.src_uri} from {self.renderer.templates_dir}: "
                    f"{type(error).__name__}: {error}"
                ) from None
        if not self.raw_released:
            # MkDocs has written the raw files by now; their bytes need not stay in memory.
            self.raw_released = True
            for file in self.files:
                if isinstance(file, preview.GeneratedFile) and file.src_uri not in self.pages:
                    file.content_bytes = b""
            if not self.serving:
                # Their pages go back to the system: the largest pages, rendered next, are
                # megabytes each and would take fresh ones on top (the build's peak, at L).
                preview.return_free_memory()
        return context

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        if page.file.src_uri in self.pages:
            page.content = None  # written and indexed
        return output

    def on_serve(
        self, server: LiveReloadServer, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer:
        if self.config.enabled:
            preview.quicken(server)
            server.watch(str(self.catalog_dir))
            server.watch(str(self.renderer.env.loader.searchpath[0]))  # type: ignore[union-attr]
            if config.theme.custom_dir:  # MkDocs watches the theme only with --watch-theme
                server.watch(config.theme.custom_dir)
        return server


def _shown(path: Path) -> str:
    """The catalog directory as people typed it: relative to the working directory when inside."""
    try:
        return path.relative_to(Path.cwd()).as_posix() or "."
    except ValueError:
        return path.as_posix()
