"""One build of the site, from its check (``on_config``) to its last page: a :class:`SiteBuild`
holds the build's state and does its steps; the plugin only calls them in MkDocs' order.

From a checked catalog it adds the raw tree the server fetches, the instruction and export files,
the pages and the feeds to MkDocs' files; while a preview's catalog is broken, the pages that show
its problems instead (:mod:`site_plugins.catalog.files` says how each becomes a file)."""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from build_tools.check import CheckResult, check_catalog, default_lock, lock_place
from build_tools.diagnostics import Diagnostic
from build_tools.exports import freshness, site_files
from build_tools.exports.marketplace import KEBAB, Listing, kebab, marketplace_files
from build_tools.history.replay import Reading
from build_tools.history.versions import History, Reach
from build_tools.model.catalog import Catalog, last_modified
from build_tools.wire import judged, raw_tree, site_paths
from site_plugins.catalog import chrome, files, theme
from site_plugins.catalog.config import RolesCatalogConfig
from site_plugins.catalog.files import Contents
from site_plugins.catalog.handwritten import Handwritten, place
from site_plugins.catalog.preview import Preview
from site_plugins.catalog.timings import Timings
from site_plugins.pages import roles, site
from site_plugins.pages.facts import SiteFacts
from site_plugins.pages.history_feeds import FeedSite, FeedWriter
from site_plugins.pages.install import Places
from site_plugins.pages.labels import FALLBACK
from site_plugins.pages.rendering import Renderer, SitePage, nav_title

Logger = logging.Logger | logging.LoggerAdapter[logging.Logger]


def build_time(catalog_dir: Path) -> datetime:
    """When the build happened, for the feeds and the sitemap: ``SOURCE_DATE_EPOCH``, else when
    the catalog's files last changed. Two builds of one catalog are byte-identical, in git or
    not; the clock would make every build differ."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    return datetime.fromtimestamp(
        int(epoch) if epoch.isdigit() else last_modified(catalog_dir), UTC
    )


class SiteBuild:
    """One build's state and steps. A preview's rebuild is a new one, with the same
    :class:`Preview`, whose memos it reuses."""

    def __init__(
        self,
        config: MkDocsConfig,
        options: RolesCatalogConfig,
        preview: Preview | None,
        log: Logger,
    ) -> None:
        self.config, self.options, self.preview, self.log = config, options, preview, log
        self.timings = preview.timings if preview else Timings.from_environment()
        self.timings.mark("config")
        if config.site_url:  # the overview advertises it as AI_AGENT_ROLES_CATALOG_URL
            from build_tools.wire.fetch import BaseUrlError, normalize_base

            try:
                normalize_base(config.site_url)
            except BaseUrlError as error:
                raise PluginError(f"site_url: {error}") from None
        base = Path(config.config_file_path).parent if config.config_file_path else Path.cwd()
        self.base = base
        # realpath, unlike Path.resolve, reports no symlink loop: the check names it, in one line.
        self.catalog_dir = Path(os.path.realpath(base / options.catalog_dir))
        self.lock = Path(os.path.realpath(base / options.lock)) if options.lock else None
        self.time = build_time(self.catalog_dir)
        self.renderer = Renderer(
            theme.page_template_dirs(base, options.page_templates),
            use_directory_urls=config.use_directory_urls,
            formats=options.formats,
            model_tiers=options.model_tiers,
            memo=preview.pages if preview else None,
        )
        self.listing = _listing(config, options)
        # A preview is served at MkDocs' own address (which `mkdocs serve` puts in site_url):
        # its pages never name that as where the site is published.
        published = None if preview else (config.site_url or "").rstrip("/") or None
        self.renderer.site = SiteFacts(
            url=published,
            name=config.site_name,
            names=tuple(sorted(options.site_names.items())),
            language=config.theme.get("language") or FALLBACK,
            places=Places(self.listing.name, _site_dir_written(config)),
        )
        self.site_name = config.site_name
        """The site's name as mkdocs.yml gives it: each page names the site in its language."""
        self.published = preview.memo if preview else judged.Memo.for_build()
        """The files the check wrote and judged, for the raw tree."""
        self.catalog: Catalog | None = None
        """The catalog, once it passed its check; ``None`` after a failed one (a preview)."""
        self.problems: list[Diagnostic] = []
        self.pages: dict[str, SitePage] = {}
        self.pending: dict[str, str] = {}
        """While previewing: the pages of roles the lock has not recorded, and the label that
        says what to do."""
        self.files = Files([])
        self.raw_released = False
        self.handwritten: Handwritten | None = None
        """The repository's own pages and their languages, once the files are known."""
        self.navs: dict[str, chrome.LanguageNav] | None = None
        """Each language's part of the sidebar, once MkDocs has made the navigation."""
        self.reading: Reading | None = None
        """The committed history, read in another process while the build does other work."""

    @property
    def shown_dir(self) -> str:
        """The catalog directory as people typed it: relative to the working directory when
        inside."""
        try:
            return self.catalog_dir.relative_to(Path.cwd()).as_posix() or "."
        except ValueError:
            return self.catalog_dir.as_posix()

    def owned(self) -> dict[str, Path]:
        """What the build reads, which its site directory must neither replace nor hold."""
        config = self.config
        found = {
            "the catalog directory": self.catalog_dir,
            "the lock": self.lock or default_lock(self.catalog_dir),
            "the config file": Path(config.config_file_path or self.base / "mkdocs.yml"),
            "the page templates": self.renderer.templates_dirs[0],
        }
        if config.theme.custom_dir:
            found["the theme overrides"] = Path(config.theme.custom_dir)
        return found

    # --- the check ------------------------------------------------------------------------------

    def check(self) -> None:
        """The catalog checked as ``rolecat check`` checks it, for the site this config builds;
        kept when good, refused when bad (see :meth:`settle`)."""
        result = self._checked()
        self.settle(result.catalog if result.ok else None, result.diagnostics)
        if self.catalog is not None:
            chrome.switch_languages_on(self.config)
        self.timings.mark("checked")

    def _checked(self) -> CheckResult:
        config, options, preview, log = self.config, self.options, self.preview, self.log
        taken = site_paths.handwritten_names(Path(config.docs_dir), config.use_directory_urls)
        where = site_paths.Site(options.formats, taken, Path(config.site_dir))
        try:
            result = check_catalog(
                self.catalog_dir,
                self.lock,
                where,
                self.published,
                preview.reuse if preview else None,
                model_tiers=options.model_tiers,
            )
        except Exception as error:  # a bug of rolecat's own: one line, as every problem
            raise PluginError(
                f"internal error checking {self.shown_dir}: {type(error).__name__}: {error}"
            ) from None
        for line in result.recovered:
            log.info(line)
        place = lock_place(self.catalog_dir, self.lock)
        if place is not None:
            _say_once(log, place)
        if preview is not None and result.only_lock_differs:
            # While editing, a changed role is previewed before its version is bumped; the lock
            # is enforced where it matters, by `mkdocs build` and `rolecat check`.
            lines = "\n".join(str(d) for d in result.diagnostics)
            log.info(
                "the preview shows changes the lock has not recorded; `make site` refuses them "
                f"until they are:\n{lines}"
            )
            assert result.catalog is not None  # the lock is read only for a sound catalog
            self.pending = site_paths.pending_pages(result.catalog, result.changes)
            result.diagnostics = []
        # What the server would change or lose: a warning, so a strict build fails on it (a
        # strict preview logs it, since MkDocs 1.6 stalls a preview whose build fails).
        level = logging.INFO if preview is not None and config.strict else logging.WARNING
        for warning in result.warnings:
            log.log(level, str(warning))
        return result

    def settle(self, catalog: Catalog | None, problems: list[Diagnostic]) -> None:
        """Keep a good catalog; refuse a bad one: abort a build, or show the problems in serve."""
        self.catalog, self.problems = (catalog, []) if not problems else (None, problems)
        if not problems:
            return
        count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        lines = "\n".join(str(d) for d in problems)
        if self.preview is None:
            raise PluginError(
                f"the catalog {self.shown_dir} has {count}; nothing was built:\n{lines}"
            )
        # A warning would abort a strict build, and MkDocs 1.6 then stalls the preview server.
        level = logging.INFO if self.config.strict else logging.WARNING
        self.log.log(
            level, f"the catalog {self.shown_dir} has {count}; the preview shows them:\n{lines}"
        )

    # --- the history ----------------------------------------------------------------------------

    def start_reading(self) -> None:
        """Read the history in another process while MkDocs and the raw files go ahead."""
        if self.catalog is not None and self.options.history:
            known = self.preview.committed if self.preview else None
            self.reading = Reading(self.catalog_dir, self.lock, known)

    def stop_reading(self) -> None:
        if self.reading is not None:
            self.reading.close()
            self.reading = None

    def history(self) -> History:
        """The catalog's versions from git, with what is being built as the newest state."""
        assert self.catalog is not None
        if not self.options.history:
            return History(Reach(unavailable="off")).including(self.catalog)
        known = self.preview.committed if self.preview else None
        if self.reading is None:
            self.reading = Reading(self.catalog_dir, self.lock, known)
        self.timings.mark("history")
        committed, self.reading = self.reading.result(), None
        self.timings.mark("history_done")
        if committed is not known:  # read anew, not reused by a preview rebuild
            log_history(committed, self.log)
        if self.preview is not None:  # a build lets it go with the catalog, before the index
            self.preview.committed = committed
        return committed.including(self.catalog)

    # --- the files ------------------------------------------------------------------------------

    def add_files(self, found: Files) -> None:
        """Add what the build publishes to MkDocs' files, and the sidebar's entries."""
        self.timings.mark("files")
        config, preview = self.config, self.preview
        handwritten = sorted(f.src_uri for f in found.documentation_pages())
        if self.catalog is not None:
            contents, problems = self.catalog_files(found, self.history)
            if not problems:
                if preview is not None:
                    preview.last_good = list(self.pages)
                self._add(found, contents)
                config.nav = site.nav(self.catalog, self._handwritten_nav(found))
                self.timings.mark("files_done")
                return
            self.pages = {}
            self.settle(None, problems)
        # The catalog failed its check and we are serving: every known page shows the problems.
        self._add(found, self._problem_pages(found))
        home = site_paths.home_page()
        config.nav = [{nav_title(self.pages[home].title): home}, *(config.nav or handwritten)]
        self.timings.mark("files_done")

    def _handwritten_nav(self, found: Files) -> dict[str, list[Any]]:
        """The repository's pages in each language's sidebar: its own nav from mkdocs.yml in
        every language, else each page in the language it is written in."""
        assert self.catalog is not None
        languages = self.catalog.languages
        root = self.renderer.site.home_language(self.catalog)
        written = place(found, languages, root, self.config.use_directory_urls)
        self.handwritten = written
        if self.config.nav:
            return {language: list(self.config.nav) for language in languages}
        for line in written.untranslated(languages):
            _say_once(self.log, line)
        return dict(written.nav(languages))

    def catalog_files(
        self, found: Files, history: Callable[[], History]
    ) -> tuple[Contents, list[Diagnostic]]:
        """Every file a checked catalog adds, or the problems that stop it (a path taken twice).

        ``history`` is asked for once the raw files are made: it is read in another process
        meanwhile."""
        catalog, config, preview, formats = (
            self.catalog,
            self.config,
            self.preview,
            self.options.formats,
        )
        assert catalog is not None
        problems = site_paths.collisions(catalog, {f.dest_uri.split("/", 1)[0] for f in found})
        if problems:
            return {}, problems
        contents: Contents = {}
        digests = self.published.digests
        raw = (
            raw_tree.raw_files(catalog, formats, self.published.files)
            if digests is None
            else raw_tree.published_files(catalog, formats, digests)
        )
        # The sums of the raw tree alone: never of the pages or the instruction files.
        contents.update(raw)
        contents[raw_tree.CHECKSUMS] = raw_tree.checksums(raw, preview.sums if preview else None)
        contents.update(roles.instruction_files(catalog))
        read = history()
        notes = freshness.notes(catalog, read)  # a translation behind says so where it travels
        contents.update(site_files(catalog, notes))
        contents.update(marketplace_files(catalog, self.listing, notes))
        built = site.catalog_pages(catalog, self.renderer, read)
        self.pages = {p.src_uri: p for p in built}
        contents.update(dict.fromkeys(self.pages, ""))
        feeds = FeedSite(config.site_url or None, self.time, config.use_directory_urls)
        writer = preview.feeds if preview else FeedWriter()
        contents.update(writer.files(catalog, read, catalog.languages, feeds))
        present = {f.src_uri for f in found}
        return contents, site_paths.overwritten(contents, present, config.docs_dir)

    def _problem_pages(self, found: Files) -> Contents:
        """While a preview's catalog fails its check: every page it had shows the problems."""
        last_good = self.preview.last_good if self.preview else []
        uris = dict.fromkeys([site_paths.home_page(), *last_good])
        self.pages = {
            uri: site.problems_page(uri, self.problems, self.renderer, self.shown_dir)
            for uri in uris
            if found.get_file_from_path(uri) is None
        }
        return dict.fromkeys(self.pages, "")

    def _add(self, found: Files, contents: Contents) -> None:
        incremental = self.preview.incremental if self.preview else None
        files.add(found, contents, self, incremental)
        self.files = found

    # --- the pages ------------------------------------------------------------------------------

    def dated(self, found: Files) -> None:
        """Every page is dated by the build time, which MkDocs' sitemap shows."""
        day = self.time.strftime("%Y-%m-%d")
        for file in found.documentation_pages():
            if file.page is not None:
                file.page.update_date = day

    def page_markdown(self, page: Page, markdown: str) -> str:
        made = self.pages.get(page.file.src_uri)
        if made is None:
            written = self.handwritten
            if written is not None and page.file.src_uri in written.language:
                page.meta[chrome.META_KEY] = written.language[page.file.src_uri]
                page.meta["rolecat_alternates"] = written.alternates(page.file.src_uri)
            return markdown
        files.page_meta(page, made, self.pending.get(page.file.src_uri))
        files.render_no_markdown(page)
        return ""

    def page_context(self, page: Page, context: dict[str, Any], nav: Navigation) -> None:
        """The page's part of the sidebar and the site's name, in the page's language, and a
        generated page's content."""
        self.speak(context, nav, page.meta.get(chrome.META_KEY))
        made = self.pages.get(page.file.src_uri)
        if made is not None:
            files.show_content(page, made, self.renderer)
        self._release_raw_files()

    def speak(self, context: dict[str, Any], nav: Navigation, language: str | None) -> None:
        """A page in ``language`` (the root language when ``None``) shows that language's
        sidebar and names the site in it. MkDocs renders one page at a time from one config,
        so the name is set for each page and given back when the build ends (:meth:`let_go`)."""
        if self.catalog is None:
            return
        language = language or self.renderer.site.home_language(self.catalog)
        if self.navs is None:
            self.navs = chrome.language_navs(nav, self.catalog.languages)
        shown = self.navs.get(language)
        if shown is not None:
            context["nav"] = shown
        self.config.site_name = self.renderer.site.name_in(language)

    def _release_raw_files(self) -> None:
        """Once MkDocs has written the raw files, their bytes need not stay in memory."""
        if self.raw_released:
            return
        self.raw_released = True
        files.release(self.files, self.pages)
        if self.preview is None and self.catalog is not None:
            # Nor the sources' bytes, published now: a build locates nothing in them any more.
            for document in self.catalog.documents():
                document.let_go_of_source()

    def let_go(self) -> None:
        """Every page is written: the catalog is no longer needed, nor its pages' contexts, so a
        large catalog's build never holds them while the search index is made."""
        self.timings.mark("post_build")
        self.catalog, self.pages, self.navs = None, {}, None
        self.config.site_name = self.site_name

    def watched(self) -> list[Path]:
        """What a preview rebuilds on: the catalog, the page templates and the theme overrides
        (MkDocs watches the theme only with ``--watch-theme``)."""
        return [self.catalog_dir, *self.renderer.templates_dirs, *theme.override_dirs(self.config)]


@functools.cache
def _say_once(log: Logger, line: str) -> None:
    """A preview rebuilds many times: a fact that does not change is logged at the first."""
    log.info(line)


def _site_dir_written(config: MkDocsConfig) -> str:
    """The site's folder as mkdocs.yml names it: where a checkout has it after ``make site``,
    whatever folder this build writes (``mkdocs build -d``), so every build shows the same."""
    written = [c["site_dir"] for c in config.user_configs if isinstance(c.get("site_dir"), str)]
    return written[0] if written else "site"  # the file's; a later one is -d


def _listing(config: MkDocsConfig, options: RolesCatalogConfig) -> Listing:
    """What the site's marketplaces say of themselves, from the plugin's options and the site's."""
    site_name = config.site_name or ""
    name = options.marketplace_name or kebab(site_name) or "agent-roles"
    if not KEBAB.fullmatch(name):
        raise PluginError(
            f'marketplace_name: "{name}" is not kebab-case (lowercase letters, digits, hyphens)'
        )
    owner = options.marketplace_owner or config.site_author or site_name or name
    description = config.site_description or f"The agent roles of {site_name or name}"
    return Listing(name, owner, description)


def log_history(committed: History, log: Logger) -> None:
    """What the build log says of a history read anew: where it stops, what it left out."""
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
                    f"{', '.join(version.withheld)} left out of the site (it held a credential)"
                )
