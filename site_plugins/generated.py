"""What a build adds to MkDocs' files: from a checked catalog, the raw tree the server fetches,
the instruction files, the pages and the feeds; or, while a preview's catalog is broken, the
pages that show its problems instead."""

from __future__ import annotations

import functools
import logging
import os
import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

from build_tools.check import CheckResult, check_catalog, default_lock, lock_place
from build_tools.diagnostics import Diagnostic
from build_tools.exports import Export, site_files
from build_tools.history.versions import History
from build_tools.model.catalog import Catalog, last_modified
from build_tools.sources.formats import Format
from build_tools.wire import judged, raw_tree, site_paths
from site_plugins import chrome, history_feeds, pages, preview, rendering, theme
from site_plugins.config import RolesCatalogConfig
from site_plugins.labels import labels
from site_plugins.text_files import EncodedFile

Logger = logging.Logger | logging.LoggerAdapter[logging.Logger]

Contents = dict[str, bytes | str | pages.MarkedText | Export | raw_tree.Published]
"""Site path -> what MkDocs writes there (a page's is its source: empty, rendered later)."""


@dataclass
class Build:
    """One build's state, from its check (``on_config``) to its last page."""

    catalog_dir: Path = Path("catalog")
    lock: Path | None = None
    renderer: rendering.Renderer | None = None
    published: judged.Memo = field(default_factory=judged.Memo)
    """The files the check wrote and judged, for the raw tree."""
    catalog: Catalog | None = None
    """The catalog, once it passed its check; ``None`` after a failed one (a preview)."""
    problems: list[Diagnostic] = field(default_factory=list)
    pages: dict[str, rendering.SitePage] = field(default_factory=dict)
    pending: dict[str, str] = field(default_factory=dict)
    """While previewing: the pages of roles the lock has not recorded, and the label that says
    what to do."""
    files: Files = field(default_factory=lambda: Files([]))
    raw_released: bool = False
    nav_words: chrome.NavWords = field(default_factory=chrome.NavWords)
    """The sidebar's entries we name, per page language."""

    @property
    def pages_renderer(self) -> rendering.Renderer:
        assert self.renderer is not None, "on_config makes the renderer"
        return self.renderer


def start(
    config: MkDocsConfig,
    options: RolesCatalogConfig,
    base: Path,
    state: preview.PreviewState | None,
) -> Build:
    """A build of the catalog the options name, with what a preview reuses."""
    if config.site_url:  # the overview advertises it as AI_AGENT_ROLES_CATALOG_URL
        from build_tools.wire.fetch import BaseUrlError, normalize_base

        try:
            normalize_base(config.site_url)
        except BaseUrlError as error:
            raise PluginError(f"site_url: {error}") from None
    # realpath, unlike Path.resolve, reports no symlink loop: the check names it, in one line.
    catalog_dir = Path(os.path.realpath(base / options.catalog_dir))
    if not os.environ.get("SOURCE_DATE_EPOCH", "").isdigit():
        # The feeds' and the sitemap's dates: two builds of one catalog are byte-identical, in
        # git or not; the clock would make every build differ.
        os.environ["SOURCE_DATE_EPOCH"] = str(last_modified(catalog_dir))
    return Build(
        catalog_dir,
        Path(os.path.realpath(base / options.lock)) if options.lock else None,
        rendering.Renderer(
            theme.page_template_dirs(base, options.page_templates),
            use_directory_urls=config.use_directory_urls,
            formats=options.formats,
            memo=state.render_memo if state else None,
            compiled=state.compiled_pages if state else None,
            model_tiers=options.model_tiers,
        ),
        state.memo if state else judged.Memo.for_build(),
    )


def owned(build: Build, config: MkDocsConfig, base: Path) -> dict[str, Path]:
    """What the build reads, which its site directory must neither replace nor hold."""
    found = {
        "the catalog directory": build.catalog_dir,
        "the lock": build.lock or default_lock(build.catalog_dir),
        "the config file": Path(config.config_file_path or base / "mkdocs.yml"),
        "the page templates": build.pages_renderer.templates_dirs[0],
    }
    if config.theme.custom_dir:
        found["the theme overrides"] = Path(config.theme.custom_dir)
    return found


def checked(
    build: Build,
    config: MkDocsConfig,
    options: RolesCatalogConfig,
    state: preview.PreviewState | None,
    log: Logger,
) -> CheckResult:
    """The catalog checked as ``rolecat check`` checks it, for the site this config builds."""
    taken = site_paths.handwritten_names(Path(config.docs_dir), config.use_directory_urls)
    site = site_paths.Site(options.formats, taken, Path(config.site_dir))
    try:
        result = check_catalog(
            build.catalog_dir,
            build.lock,
            site,
            build.published,
            state.reuse if state else None,
            model_tiers=options.model_tiers,
        )
    except Exception as error:  # a bug of rolecat's own: one line, as every problem
        raise PluginError(
            f"internal error checking {shown(build.catalog_dir)}: {type(error).__name__}: {error}"
        ) from None
    for line in result.recovered:
        log.info(line)
    place = lock_place(build.catalog_dir, build.lock)
    if place is not None:
        _say_once(log, place)
    if state is not None and result.only_lock_differs:
        # While editing, a changed role is previewed before its version is bumped; the lock is
        # enforced where it matters, by `mkdocs build` and `rolecat check`.
        lines = "\n".join(str(d) for d in result.diagnostics)
        log.info(
            "the preview shows changes the lock has not recorded; `make site` refuses them "
            f"until they are:\n{lines}"
        )
        assert result.catalog is not None  # the lock is read only for a sound catalog
        build.pending = site_paths.pending_pages(result.catalog, result.changes)
        result.diagnostics = []
    # What the server would change or lose: a warning, so a strict build fails on it (a strict
    # preview logs it, since MkDocs 1.6 stalls a preview whose build fails).
    level = logging.INFO if state is not None and config.strict else logging.WARNING
    for warning in result.warnings:
        log.log(level, str(warning))
    return result


def shown(path: Path) -> str:
    """The catalog directory as people typed it: relative to the working directory when inside."""
    try:
        return path.relative_to(Path.cwd()).as_posix() or "."
    except ValueError:
        return path.as_posix()


def catalog_files(
    build: Build,
    config: MkDocsConfig,
    files: Files,
    history: Callable[[], History],
    state: preview.PreviewState | None,
    formats: Sequence[Format],
) -> tuple[Contents, list[Diagnostic]]:
    """Every file a checked catalog adds, or the problems that stop it (a path taken twice).

    ``history`` is asked for once the raw files are made: it is read in another process
    meanwhile."""
    catalog = build.catalog
    assert catalog is not None
    taken = {f.dest_uri.split("/", 1)[0] for f in files}
    problems = site_paths.collisions(catalog, taken)
    if problems:
        return {}, problems
    generated: Contents = {}
    digests = build.published.digests
    raw = (
        raw_tree.raw_files(catalog, formats, build.published.files)
        if digests is None
        else raw_tree.published_files(catalog, formats, digests)
    )
    # The sums of the raw tree alone: never of the pages or the instruction files.
    generated.update(raw)
    generated[raw_tree.CHECKSUMS] = raw_tree.checksums(raw, state.sums if state else None)
    generated.update(pages.instruction_files(catalog))
    generated.update(site_files(catalog))
    read = history()
    site_url = config.site_url if state is None else None
    built = pages.catalog_pages(
        catalog,
        build.pages_renderer,
        site_url or config.site_url,
        read,
        state.kept if state else None,
    )
    build.pages = {p.src_uri: p for p in built}
    generated.update(dict.fromkeys(build.pages, ""))
    languages = catalog.languages
    feeds = history_feeds.FeedSite(config.site_url or None, config.use_directory_urls)
    written = state.feeds if state else None
    generated.update(history_feeds.feed_files(catalog, read, languages, feeds, written))
    present = {f.src_uri for f in files}
    return generated, site_paths.overwritten(generated, present, config.docs_dir)


def problem_pages(build: Build, files: Files, last_good: list[str], shown: str) -> Contents:
    """While a preview's catalog fails its check: every page it had shows the problems."""
    uris = dict.fromkeys([site_paths.home_page(), *last_good])
    build.pages = {
        uri: pages.problems_page(uri, build.problems, build.pages_renderer, shown)
        for uri in uris
        if files.get_file_from_path(uri) is None
    }
    return dict.fromkeys(build.pages, "")


def add(
    build: Build,
    files: Files,
    config: MkDocsConfig,
    generated: Contents,
    state: preview.PreviewState | None,
) -> None:
    """Add the generated files to MkDocs' and tell a ``--dirty`` preview what changed."""
    # Where the catalog is, seen from the docs directory: edit links are made from it.
    catalog = posixpath.relpath(
        build.catalog_dir.as_posix(), Path(config.docs_dir).resolve().as_posix()
    )
    incremental = state.incremental if state is not None else None
    shown: dict[str, object] = {}
    for path, content in generated.items():
        file: File
        if isinstance(content, (pages.MarkedText, Export, raw_tree.Published)):
            file = EncodedFile.of(config, path, content)  # compared by value in ``shown``
        else:
            file = preview.GeneratedFile.generated(config, path, content=content)
        page = build.pages.get(path)
        if incremental is not None:  # only a dirty preview needs to know what changed
            # What the file shows, compared with the last build's: a page's HTML comes from
            # the renderer's memo, the very same string while its page is unchanged.
            shown[path] = (
                (
                    page.html,
                    page.title,
                    page.lang,
                    page.alternates,
                    page.in_nav,
                    build.pending.get(path),
                )
                if page is not None
                else content
            )
        if page is not None:
            if not page.in_nav:
                # Role pages stay out of the sidebar: Material writes the whole nav into every
                # page, so a nav of every role grows the site with the square of it.
                file.inclusion = InclusionLevel.NOT_IN_NAV
            if page.source is not None:
                file.edit_uri = posixpath.normpath(posixpath.join(catalog, page.source))
        files.append(file)
    build.files = files
    if incremental is not None:
        incremental.mark(files, shown, _site_wide(build, config), Path(config.site_dir))


def _site_wide(build: Build, config: MkDocsConfig) -> str:
    """What every page shows: the navigation, and the templates it is rendered with."""
    templates = [*build.pages_renderer.templates_dirs, *theme.override_dirs(config)]
    stamps = sorted(
        (str(p), p.stat().st_mtime_ns)
        for d in templates
        if d.is_dir()
        for p in d.rglob("*")
        if p.is_file()
    )
    return preview.digest(config.nav, config.site_url, stamps)


def release_raw_files(build: Build, *, serving: bool) -> None:
    """Once MkDocs has written the raw files, their bytes need not stay in memory."""
    if build.raw_released:
        return
    build.raw_released = True
    for file in build.files:
        if isinstance(file, preview.GeneratedFile) and file.src_uri not in build.pages:
            file.content_bytes = b""
    if serving:
        return
    if build.catalog is not None:
        # Nor the sources' bytes, published now: a build locates nothing in them any more.
        for document in build.catalog.documents():
            document.let_go_of_source()
    # Their pages go back to the system: the largest pages, rendered next, are megabytes each
    # and would take fresh ones on top (the build's peak, at L).
    preview.return_free_memory()


def page_meta(page: Page, made: rendering.SitePage, action: str | None) -> None:
    """A generated page's title, language, banner and alternates, for the theme."""
    page.meta["title"] = rendering.nav_title(made.title)
    page.meta[chrome.META_KEY] = made.lang
    banner = rendering.code_spans(labels(made.lang)[action]) if action else None
    page.meta["rolecat_banner"] = banner  # Markup: the template's escaping leaves its <code>
    page.meta["rolecat_alternates"] = [
        {"name": a.name, "link": a.link, "lang": a.lang} for a in made.alternates
    ]
    if not made.searchable:
        page.meta["search"] = {"exclude": True}
    if made.wide:
        page.meta["hide"] = ["toc"]


@functools.cache
def _say_once(log: Logger, line: str) -> None:
    """A preview rebuilds many times: a fact that does not change is logged at the first."""
    log.info(line)


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
