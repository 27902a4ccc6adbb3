"""``python -m bench``: what rolecat costs against what people would run instead, side by side.

Two comparisons, each timed back to back in one run, because the machine is noisy and only a ratio
of two commands timed under the same noise says something:

- **the check**: ``rolecat check`` against the checker people have today, the upstream
  ``check.mjs`` of each generation (``bench/peers.py``), on the same catalog directory, lock
  included: S, the upstream fixtures (6 roles), and L, 5,000 roles x 2 languages, each in JSON
  (``check-json.mjs``) and YAML (``check-yaml.mjs``); the bare Python floor (``bench/floor.py``)
  beside them for the JSON catalogs;
- **the site**: ``mkdocs build`` through the plugin against plain MkDocs + Material building the
  same pages with its built-in search (``bench/plain.py``), and, as a second baseline, the same
  with Pagefind on both sides; then the cost of one role page against its floor, Jinja2 rendering
  the same page and writing it (``bench/page_floor.py``).

S is the upstream fixtures for the checkers and a copy of ``catalog/`` for the site; M and L are
synthetic (``bench/generate.py``: 500 and 5,000 roles, en + ru, 8,000-character instructions),
generated once into the work directory and reused while the generator and its parameters stay the
same, as are their YAML forms and the ``yaml`` npm package the YAML checker imports. Each number
is the median of ``--runs`` runs; every command runs as its own process, as people run it.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path

from bench import handwritten, peers, plain, search, serve
from bench.catalogs import (
    INSTRUCTIONS,
    LANGUAGES,
    REPO,
    SIZES,
    MiB,
    cached,
    catalog_for,
    say,
    shape,
)
from bench.checkers import (
    GENERATIONS,
    TARGET_CHECK,
    CheckRow,
    Target,
    check_table,
    check_targets,
    measure_checkers,
)
from bench.history import CATALOG, generate_history
from bench.measure import TIMES, Run, markdown, median, paired_ratio, ratio_text, run, secs
from build_tools.model.catalog import last_modified

TARGET_BUILD = 1.2
"""The plugin's build at most this many times plain MkDocs + Material building the same roles
written by hand as Markdown (bench/handwritten.py), with its built-in search."""
BUILD_TARGET_SIZES = ("M",)
TARGET_PAGE_MS = 3.0
"""The plugin's build at M, per role page, at most this many milliseconds."""
TARGET_PAGE_GROWTH = 1.2
TARGET_RELOAD = 0.5
TARGET_HISTORY_RELOAD = 1.5
TARGET_MEMORY_MIB = 600
HISTORY_COMMITS = 300
BASELINES = ("markdown", "material", "pagefind")
"""The plain builds: the roles written as Markdown with Material's built-in search (the target's,
bench/handwritten.py); the plugin's own pages as Markdown with Material's built-in search, and
with Pagefind on both sides (bench/plain.py)."""
BUILD_PHASES = (
    ("start", "config", "Python, imports and MkDocs' config"),
    ("config", "checked", "our check"),
    ("checked", "files", "MkDocs' file list (docs and theme)"),
    ("files", "files_done", "our pages and raw files"),
    ("files_done", "env", "MkDocs' navigation"),
    ("env", "post_build", "MkDocs reading, rendering and writing every page"),
    ("post_build", "published", "after the pages: Pagefind and publishing"),
    ("published", "end", "the process's exit"),
)
"""Where a plugin build's time goes: between two marks of ``site_plugins/catalog/timings.py``
(``start``: the process started, ``end``: it exited), with what runs in between."""


_paired_ratio = paired_ratio  # the names the bench's tests and the history's table know
_secs, _ratio, _markdown, _shape, _cached = secs, ratio_text, markdown, shape, cached


@dataclass
class Row:
    """Everything measured of the site for one size."""

    size: str
    catalog: Path
    roles: int = 0
    languages: int = 0
    plugin: list[float | None] = field(default_factory=list)
    """Seconds of each run, ``None`` where the run failed: run i pairs with the baselines' run i."""
    plugin_others: list[float | None] = field(default_factory=list)
    """The plugin's runs paired with the second lines' baselines (the plain builds of its own
    pages), timed after the target's pair: empty where only those baselines are timed."""
    markdown: list[float | None] = field(default_factory=list)
    """Plain MkDocs + Material with its built-in search, the roles written as Markdown."""
    markdown_rss_kib: list[int] = field(default_factory=list)
    plain: list[float | None] = field(default_factory=list)
    """Plain MkDocs + Material with its built-in search."""
    pagefind: list[float | None] = field(default_factory=list)
    """Plain MkDocs + Material with our Pagefind search (``rolecat-search``), as the plugin."""
    plugin_rss_kib: list[int] = field(default_factory=list)
    """The plugin build's peak: the sum over its process tree, or its largest process if more."""
    plugin_one_kib: list[int] = field(default_factory=list)
    """The largest resident set of one process of the plugin's build (its ``VmHWM``)."""
    plain_rss_kib: list[int] = field(default_factory=list)
    pagefind_rss_kib: list[int] = field(default_factory=list)
    role_pages: int = 0
    page_bytes: float | None = None
    page_floor: float | None = None
    """Seconds of bench/page_floor.py for every role page: Jinja2 rendering them and writing."""
    phases: list[dict[str, float]] = field(default_factory=list)
    """Per plugin build, the seconds of each of :data:`BUILD_PHASES`."""
    serve: serve.ServeResult | None = None
    failures: list[str] = field(default_factory=list)
    check_stages: str = ""
    """Where the check's time goes (bench/check_stages.py), measured at L."""
    profile: str = ""
    """Where one plugin build's time goes, by function (cProfile), measured at M."""

    def build_ratio(self) -> float | None:
        """Plugin / plain MkDocs + Material with its built-in search, the roles as Markdown."""
        return paired_ratio(self.plugin, self.markdown) if self.markdown else None

    def same_pages_ratio(self) -> float | None:
        """Plugin / plain MkDocs + Material with its built-in search, the plugin's pages."""
        return paired_ratio(self.plugin_others or self.plugin, self.plain) if self.plain else None

    def pagefind_ratio(self) -> float | None:
        """Plugin / plain MkDocs + Material with Pagefind on both sides."""
        plugin = self.plugin_others or self.plugin
        return paired_ratio(plugin, self.pagefind) if self.pagefind else None


# --- the site --------------------------------------------------------------------------------


def _build(
    config: Path,
    site: Path,
    cwd: Path,
    catalog: Path | None,
    source: Path,
    timings: Path | None = None,
    raw: bool = True,
) -> Run:
    """``mkdocs build``, counted as failed unless what it wrote is verified: the raw index as the
    catalog has it, and the first role's page, written by this very build and showing its name.
    ``source`` is the catalog the pages come from (``catalog`` is ``None`` for plain MkDocs);
    ``timings`` the file the plugin marks its phases in; without ``raw``, a site with no raw files
    (the hand-written baseline), whose first role's page is verified alone."""
    if site.exists():
        shutil.rmtree(site)
    env = _build_env(source, catalog)
    if timings is not None:
        timings.unlink(missing_ok=True)
        env["ROLECAT_TIMINGS"] = str(timings)
    argv = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)]
    started = time.time()
    result = run(argv, cwd=cwd, env=env)
    problem = _site_problem(site, source, started, raw) if result.ok else None
    if problem is None:
        return result
    return replace(result, returncode=-1, stderr=f"{result.stderr}\nnot verified: {problem}")


PROFILED = 25
"""Functions shown of a profiled build, by their own time and by their time with their calls."""


def profile_build(catalog: Path, scratch: Path) -> str:
    """Where one plugin build of ``catalog`` spends its time, by function: ``mkdocs build`` under
    cProfile (which slows each call down, so the shares count, not the seconds), the functions
    with the most time of their own and with the most time in all."""
    import pstats

    stats_file, site = scratch / "build.prof", scratch / "profiled-site"
    env = _build_env(catalog, catalog)
    argv = [sys.executable, "-m", "cProfile", "-o", str(stats_file), "-m", "mkdocs", "build"]
    done = run([*argv, "-q", "-f", str(REPO / "mkdocs.yml"), "-d", str(site)], cwd=REPO, env=env)
    shutil.rmtree(site, ignore_errors=True)
    if not done.ok or not stats_file.is_file():
        return f"the profiled build failed:\n{done.tail()}"
    stats = pstats.Stats(str(stats_file))
    stats_file.unlink()
    table = stats.stats  # type: ignore[attr-defined]
    total = max(cumulative for _calls, _primitive, _own, cumulative, _callers in table.values())

    def name(where: tuple[str, int, str]) -> str:
        path, line, function = where
        for prefix in (f"{REPO}/", "site-packages/"):
            if prefix in path:
                path = path.split(prefix, 1)[1]
        return f"{function} ({path}:{line})" if line else function

    def lines(key: int, what: str) -> list[str]:
        ranked = sorted(table.items(), key=lambda item: item[1][key], reverse=True)[:PROFILED]
        out = [f"  by {what} (of {total:.2f} s profiled):"]
        for where, (_calls, primitive, own, cumulative, _callers) in ranked:
            out.append(
                f"    {own:6.2f} s own {cumulative:6.2f} s in all {primitive:>9,} calls  "
                f"{name(where)}"
            )
        return out

    return "\n".join([*lines(2, "own time"), *lines(3, "time with its calls")])


def _build_env(source: Path, catalog: Path | None) -> dict[str, str]:
    """A build's environment: the dates of the sitemap and the feeds the same on both sides
    (the plugin's, the catalog's last change, which plain MkDocs would otherwise take from the
    clock), and the catalog the plugin builds (``None``: plain MkDocs)."""
    env = {"NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": str(last_modified(source))}
    if catalog is not None:
        env["ROLES_CATALOG_DIR"] = str(catalog)
    return env


def build_phases(marks: list[tuple[str, float]], started: float, ended: float) -> dict[str, float]:
    """Seconds of each of :data:`BUILD_PHASES` from the plugin's marks (the first of each name)."""
    at: dict[str, float] = {"start": started, "end": ended}
    for name, moment in marks:
        at.setdefault(name, moment)
    return {what: at[b] - at[a] for a, b, what in BUILD_PHASES if a in at and b in at}


def _read_marks(path: Path) -> list[tuple[str, float]]:
    if not path.is_file():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return [(m["mark"], float(m["t"])) for m in map(json.loads, lines) if m]


def _site_problem(site: Path, catalog: Path, started: float, raw: bool = True) -> str | None:
    """What is missing or stale in a built site, or ``None``."""
    index = json.loads((catalog / "index.json").read_bytes())
    published = site / "index.json"
    if raw and (
        not published.is_file() or published.read_bytes() != (catalog / "index.json").read_bytes()
    ):
        return f"{published} is missing or is not the catalog's index.json"
    bundle = index["bundles"][0]
    language, slug = bundle["languages"][0], bundle["roles"][0]["slug"]
    source = json.loads((catalog / "bundles" / bundle["id"] / f"{language}.json").read_bytes())
    name = next(role["name"] for role in source["roles"] if role["slug"] == slug)
    page = site / language / bundle["id"] / slug / "index.html"
    if not page.is_file() or page.stat().st_mtime < started - 1:
        return f"{page} is missing or older than the build"
    if html.escape(name, quote=False) not in page.read_text(encoding="utf-8"):
        return f"{page} does not show the role's name {name!r}"
    return None


def _record(row: Row, what: str, result: Run, times: list[float | None]) -> bool:
    """Each run takes its place, a failed one as ``None``: run i always pairs with run i."""
    if result.ok:
        times.append(result.seconds)
        return True
    times.append(None)
    row.failures.append(f"{what} failed (exit {result.returncode}):\n{result.tail()}")
    say(f"{row.size}: {what} FAILED:\n{result.tail()}")
    return False


def measure_site(
    size: str, work: Path, build_runs: int, keep: bool, baselines: Sequence[str] = BASELINES
) -> Row:
    """The plugin's build against the plain builds of the same pages, for one catalog size."""
    catalog = catalog_for(size, work)
    row = Row(size, catalog)
    row.roles, row.languages, _bytes = _shape(catalog)
    say(f"{size}: {row.roles:,} roles x {row.languages} languages, {_bytes / MiB:.1f} MiB of JSON")
    if size == "L":
        stages = run([sys.executable, "-m", "bench.check_stages", str(catalog)], cwd=REPO)
        row.check_stages = stages.stdout.rstrip() if stages.ok else f"failed:\n{stages.tail()}"

    scratch = work / "run"
    projects: dict[str, Path] = {}
    role_pages: list[str] = []
    for baseline in baselines:
        project = scratch / f"{size}-plain-{baseline}"
        if baseline == "markdown":
            say(f"{size}: writing the plain-MkDocs project of the roles as Markdown ...")
            projects[baseline], pages = handwritten.prepare(catalog, project)
            role_pages = role_pages or pages
            continue
        say(f"{size}: writing the plain-MkDocs project ({baseline} search, the same pages) ...")
        projects[baseline], role_pages = plain.prepare(catalog, project, REPO, search=baseline)
    row.role_pages = len(role_pages)
    plugin_site = scratch / f"{size}-site-plugin"
    timings = scratch / f"{size}-build-timings.jsonl"
    times = {
        "markdown": (row.markdown, row.markdown_rss_kib),
        "material": (row.plain, row.plain_rss_kib),
        "pagefind": (row.pagefind, row.pagefind_rss_kib),
    }
    # The target's pair alternates alone, then the second lines with plugin runs of their own:
    # a baseline of the plugin's 8,000 files, removed right after it, leaves the disk slower at
    # making files for a minute (ext4 skips the inodes it just freed), which the next build
    # would pay for.
    target = {b: c for b, c in projects.items() if b == "markdown"}
    others = {b: c for b, c in projects.items() if b != "markdown"}
    loops = [(row.plugin, target)] if target else []
    if others:
        loops.append((row.plugin_others if target else row.plugin, others))
    for plugin_times, paired in loops:
        for number in range(build_runs):
            # The last site removed first: its removal is no phase of the build.
            shutil.rmtree(plugin_site, ignore_errors=True)
            started = time.time()
            result = _build(REPO / "mkdocs.yml", plugin_site, REPO, catalog, catalog, timings)
            if _record(row, "plugin build", result, plugin_times):
                row.plugin_rss_kib.append(result.peak_kib)
                row.plugin_one_kib.append(result.max_rss_kib)
                marks = _read_marks(timings)
                row.phases.append(build_phases(marks, started, started + result.seconds))
            for baseline, config in paired.items():
                site = scratch / f"{size}-site-plain-{baseline}"
                raw = baseline != "markdown"
                result = _build(config, site, config.parent, None, catalog, raw=raw)
                seconds, peaks = times[baseline]
                if _record(row, f"plain build ({baseline} search)", result, seconds):
                    peaks.append(result.peak_kib)
                if not keep:
                    shutil.rmtree(site, ignore_errors=True)
            said = ", ".join(f"{b} {_secs(times[b][0][-1:])}" for b in paired)
            say(
                f"{size}: builds run {number + 1}/{build_runs}: plugin "
                f"{_secs(plugin_times[-1:])}, plain {said}"
            )
    if size == "M":
        say(f"{size}: one more plugin build, profiled ...")
        row.profile = profile_build(catalog, scratch)
    if any(row.plugin):
        sizes = [(plugin_site / page).stat().st_size for page in role_pages]
        row.page_bytes = sum(sizes) / len(sizes) if sizes else None
        floor_dir = scratch / f"{size}-page-floor"
        shutil.rmtree(floor_dir, ignore_errors=True)
        argv = [sys.executable, "-m", "bench.page_floor", str(catalog), str(plugin_site)]
        floor = run([*argv, str(floor_dir)], cwd=REPO)
        if floor.ok:
            row.page_floor = float(json.loads(floor.stdout)["seconds"])
        else:
            row.failures.append(f"the page floor failed:\n{floor.tail()}")
        shutil.rmtree(floor_dir, ignore_errors=True)
    if not keep:
        for path in (*[c.parent for c in projects.values()], plugin_site):
            shutil.rmtree(path, ignore_errors=True)
    return row


@dataclass
class HistoryRow:
    """The M catalog with a git history: the build with it, without it, and plain MkDocs."""

    commits: int
    catalog: Path
    versions: int = 0
    pages: int = 0
    read: list[float] = field(default_factory=list)
    plugin: list[float | None] = field(default_factory=list)
    without: list[float | None] = field(default_factory=list)
    plain: list[float | None] = field(default_factory=list)
    plugin_rss_kib: list[int] = field(default_factory=list)
    serve: serve.ServeResult | None = None
    failures: list[str] = field(default_factory=list)


def history_for(work: Path, commits: int) -> Path:
    """The cached repository of M with ``commits`` commits (bench/history.py), made if needed."""
    roles = SIZES["M"] or 0
    params = {"roles": roles, "commits": commits, "instructions": INSTRUCTIONS, "seed": 1}
    repository = _cached(
        work,
        "H",
        params,
        ["generate.py", "history.py"],
        f"writing M in a git repository of {commits} commits",
        lambda target: generate_history(target, roles, commits, instructions=INSTRUCTIONS),
    )
    return repository / CATALOG


def _read_history(catalog: Path) -> Run:
    """Reading the history alone, as its own process: what the build spends on it."""
    code = (
        "import sys, time; from pathlib import Path; "
        "from build_tools.history.replay import read_history; "
        "t = time.perf_counter(); h = read_history(Path(sys.argv[1])); "
        "print(time.perf_counter() - t, sum(len(r.versions) for r in h.roles.values()))"
    )
    return run([sys.executable, "-c", code, str(catalog)], cwd=REPO)


def measure_history(
    work: Path, runs: int, commits: int, keep: bool, builds: bool = True, pause: float = 0.0
) -> HistoryRow:
    """The plugin's build of M with its history against the same catalog outside git (no
    history), and against plain MkDocs building the same pages (version pages included);
    then ``make serve``. Without ``builds``, only ``make serve``."""
    catalog = history_for(work, commits)
    row = HistoryRow(commits, catalog)
    scratch = work / "run"
    if builds:
        _history_builds(row, catalog, scratch, runs, keep)
    # `make serve` in a clone of the repository, so the edits leave the cached one clean.
    clone = scratch / "H-serve"
    if clone.exists():
        shutil.rmtree(clone)
    subprocess.run(["git", "clone", "-q", str(catalog.parent), str(clone)], check=True)
    say(f"history: make serve, {runs} one-role edit(s) ...")
    row.serve = serve.measure(clone / "catalog", scratch, REPO, runs, in_place=True, pause=pause)
    for problem in row.serve.problems:
        say(f"history: serve: {problem}")
    if not keep:
        shutil.rmtree(clone, ignore_errors=True)
    return row


def _history_builds(row: HistoryRow, catalog: Path, scratch: Path, runs: int, keep: bool) -> None:
    without = scratch / "H-no-git" / "catalog"
    if without.parent.exists():
        shutil.rmtree(without.parent)
    shutil.copytree(catalog, without)
    say("history: writing the plain-MkDocs project of the same pages ...")
    plain_config, _roles = plain.prepare(catalog, scratch / "H-plain", REPO)
    row.pages = sum(1 for _ in (scratch / "H-plain" / "docs").rglob("index.md"))
    sites = {name: scratch / f"H-site-{name}" for name in ("plugin", "without", "plain")}
    mkdocs_yml = REPO / "mkdocs.yml"
    for number in range(runs):
        result = _read_history(catalog)
        if result.ok:
            seconds, versions = result.stdout.split()
            row.read.append(float(seconds))
            row.versions = int(versions)
        else:
            row.failures.append(f"reading the history failed:\n{result.tail()}")
        builds = [  # what, its times, config, site, directory, catalog (None: plain MkDocs)
            ("plugin build with history", row.plugin, mkdocs_yml, "plugin", REPO, catalog),
            ("plugin build without history", row.without, mkdocs_yml, "without", REPO, without),
            ("plain build", row.plain, plain_config, "plain", scratch / "H-plain", None),
        ]
        for what, times, config, site, cwd, built_from in builds:
            result = _build(config, sites[site], cwd, built_from, built_from or catalog)
            times.append(result.seconds if result.ok else None)
            if not result.ok:
                row.failures.append(f"{what} failed:\n{result.tail()}")
            elif times is row.plugin:
                row.plugin_rss_kib.append(result.peak_kib)
        say(
            f"history: run {number + 1}/{runs}: with {_secs(row.plugin[-1:])}, without "
            f"{_secs(row.without[-1:])}, plain {_secs(row.plain[-1:])}"
        )
    if not keep:
        for path in (*sites.values(), scratch / "H-plain", without.parent):
            shutil.rmtree(path, ignore_errors=True)


def history_table(row: HistoryRow) -> str:
    header = [
        "catalog",
        "commits",
        "versions",
        "pages",
        "history read",
        "build with history",
        "without history",
        "with/without",
        "plain build (same pages)",
        "plugin/plain",
        "peak RSS",
        "serve edit→reload",
    ]
    cells = [
        f"M ({SIZES['M']:,} roles {TIMES} {len(LANGUAGES)})",
        f"{row.commits:,}",
        f"{row.versions:,}",
        f"{row.pages:,}",
        _secs(row.read),
        _secs(row.plugin),
        _secs(row.without),
        _ratio(_paired_ratio(row.plugin, row.without)),
        _secs(row.plain),
        _ratio(_paired_ratio(row.plugin, row.plain)),
        _mib(row.plugin_rss_kib),
        _reload(row.serve),
    ]
    return "\n".join(
        [
            "| " + " | ".join(header) + " |",
            "|" + "---|" * len(header),
            "| " + " | ".join(cells) + " |",
        ]
    )


def measure_serve(row: Row, work: Path, edits: int, pause: float = 0.0) -> None:
    say(f"{row.size}: make serve, {edits} one-role edit(s) ...")
    row.serve = serve.measure(row.catalog, work / "run", REPO, edits, pause=pause)
    for problem in row.serve.problems:
        say(f"{row.size}: serve: {problem}")


# --- report ----------------------------------------------------------------------------------


def _mib(values: Sequence[int]) -> str:
    return f"{max(values) / 1024:,.0f} MiB" if values else "—"


def _ms(seconds: float | None, pages: int) -> str:
    return "—" if seconds is None or not pages else f"{1000 * seconds / pages:.2f} ms"


def _reload(served: serve.ServeResult | None) -> str:
    if served is None:
        return "—"
    reload = _secs(served.reloads) if served.reloads else "failed"
    return reload + (" (wrong page)" if served.reloads and not served.correct else "")


def table(rows: Sequence[Row]) -> str:
    header = [
        "size",
        f"roles {TIMES} langs",
        "plugin build",
        "plain: roles as Markdown + Material search",
        "plugin/plain Markdown",
        "plain: same pages + Material search",
        "plugin/plain same pages",
        "plain: same pages + Pagefind",
        "plugin/plain (Pagefind both)",
        "bytes/role page",
        "peak RSS plugin: tree (one process)",
        "peak RSS plain (Material search)",
        "per role page: plugin (floor)",
        "serve edit→reload",
    ]
    cells = []
    for row in rows:
        plugin = median([v for v in row.plugin if v is not None])
        cells.append(
            [
                row.size,
                f"{row.roles:,} {TIMES} {row.languages}",
                _secs(row.plugin),
                _secs(row.markdown),
                _ratio(row.build_ratio()),
                _secs(row.plain),
                _ratio(row.same_pages_ratio()),
                _secs(row.pagefind),
                _ratio(row.pagefind_ratio()),
                "—" if row.page_bytes is None else f"{row.page_bytes:,.0f}",
                f"{_mib(row.plugin_rss_kib)} ({_mib(row.plugin_one_kib).removesuffix(' MiB')})",
                f"{_mib(row.markdown_rss_kib)} Markdown, {_mib(row.plain_rss_kib)} same pages",
                f"{_ms(plugin, row.role_pages)} ({_ms(row.page_floor, row.role_pages)})",
                _reload(row.serve),
            ]
        )
    return _markdown(header, cells)


def per_page(row: Row) -> list[str]:
    """The cost of one role page against its floor, and where a build's time goes."""
    plugin = median([v for v in row.plugin if v is not None])
    if plugin is None or not row.role_pages:
        return []
    floor = row.page_floor
    ratio = "" if not floor else f", {plugin / floor:,.0f}{TIMES} its floor"
    out = [
        f"per role page at {row.size}: the plugin's build {_ms(plugin, row.role_pages)} "
        f"({plugin:.2f} s / {row.role_pages:,} role pages){ratio}; the floor "
        f"{_ms(floor, row.role_pages)} (bench/page_floor.py: each role page's content from our "
        "templates and the whole page from one Jinja2 template, written); plain MkDocs + "
        "Material search of the roles as Markdown "
        f"{_ms(median([v for v in row.markdown if v is not None]), row.role_pages)}"
    ]
    phases = median_phases(row.phases)
    if phases:
        out.append(
            f"  where the plugin's build goes at {row.size} (median per phase, seconds; per role "
            "page): "
            + ", ".join(
                f"{what} {seconds:.2f} ({_ms(seconds, row.role_pages)})" for what, seconds in phases
            )
        )
    return out


def median_phases(phases: Sequence[dict[str, float]]) -> list[tuple[str, float]]:
    names = [what for _a, _b, what in BUILD_PHASES]
    found = []
    for name in names:
        value = median([p[name] for p in phases if name in p])
        if value is not None:
            found.append((name, value))
    return found


def targets(rows: dict[str, Row], history: HistoryRow | None = None) -> list[Target]:
    """Each target of the site: its text, whether it holds (None: not measured), the numbers."""
    found: list[Target] = []
    large, medium = rows.get("L"), rows.get("M")
    for size in BUILD_TARGET_SIZES:
        row = rows.get(size)
        ratio = row.build_ratio() if row else None
        found.append(
            (
                f"plugin build ≤ {TARGET_BUILD}{TIMES} plain MkDocs + Material with its built-in "
                f"search, the roles written as Markdown, at {size}",
                None
                if row is None or not row.markdown
                else ratio is not None and ratio <= TARGET_BUILD,
                _ratio(ratio),
            )
        )
    plugin = median([v for v in medium.plugin if v is not None]) if medium else None
    per_page_ms = (
        1000 * plugin / medium.role_pages if medium and plugin and medium.role_pages else None
    )
    found.append(
        (
            f"the plugin's build at M ≤ {TARGET_PAGE_MS:g} ms per role page",
            None if per_page_ms is None else per_page_ms <= TARGET_PAGE_MS,
            "—" if per_page_ms is None else f"{per_page_ms:.2f} ms",
        )
    )
    one = max(large.plugin_one_kib) / 1024 if large and large.plugin_one_kib else None
    tree = max(large.plugin_rss_kib) / 1024 if large and large.plugin_rss_kib else None
    built = large is not None and bool(large.plugin) and None not in large.plugin
    found.append(
        (
            f"peak memory of the plugin build at L < {TARGET_MEMORY_MIB} MiB, as its largest "
            "single process and as the sum of its process tree (Pagefind included)",
            None
            if large is None
            else built and one is not None and tree is not None and tree < TARGET_MEMORY_MIB,
            "—"
            if one is None or tree is None
            else f"largest process {one:,.0f} MiB, process tree {tree:,.0f} MiB",
        )
    )
    served = medium.serve if medium else None
    reload = median(served.reloads) if served else None
    found.append(
        (
            f"make serve: one-role edit at M shown (rebuilt and reloaded) in ≤ {TARGET_RELOAD} s, "
            "rest of the site correct",
            None
            if served is None
            else (reload is not None and served.correct and reload <= TARGET_RELOAD),
            ("—" if reload is None else f"{reload:.2f} s")
            + ("" if served is None else f", site correct: {'yes' if served.correct else 'NO'}"),
        )
    )
    growth = None
    if large and medium and large.page_bytes and medium.page_bytes:
        growth = large.page_bytes / medium.page_bytes
    found.append(
        (
            f"bytes per role page at L ≤ {TARGET_PAGE_GROWTH}{TIMES} M",
            None if growth is None else growth <= TARGET_PAGE_GROWTH,
            f"{_ratio(growth)}"
            + (
                f" ({large.page_bytes:,.0f} / {medium.page_bytes:,.0f} bytes)"
                if growth and large and medium and large.page_bytes and medium.page_bytes
                else ""
            ),
        )
    )
    commits = history.commits if history else HISTORY_COMMITS
    ratio = paired_ratio(history.plugin, history.plain) if history else None
    found.append(
        (
            f"with a history of {commits} commits at M: plugin build ≤ {TARGET_BUILD}{TIMES} plain "
            "MkDocs + Material with Pagefind, same pages (version pages included)",
            None if history is None else ratio is not None and ratio <= TARGET_BUILD,
            _ratio(ratio),
        )
    )
    served = history.serve if history else None
    reload = median(served.reloads) if served else None
    found.append(
        (
            f"with a history of {commits} commits at M: make serve, one-role edit rebuilt and "
            f"reloaded in ≤ {TARGET_HISTORY_RELOAD} s, rest of the site correct",
            None
            if served is None
            else (reload is not None and served.correct and reload <= TARGET_HISTORY_RELOAD),
            "—" if reload is None else f"{reload:.2f} s",
        )
    )
    return found


def summary(rows: dict[str, Row], checks: Sequence[CheckRow]) -> str:
    """The performance targets in one table: each line's work, both sides and the ratio."""
    header = ["work", "baseline", "baseline's time", "rolecat", "ratio", "target"]
    cells: list[list[str]] = []
    medium, large = rows.get("M"), rows.get("L")
    if medium is not None:
        cells.append(
            [
                f"build M ({medium.roles:,} roles {TIMES} {medium.languages})",
                "plain MkDocs + Material, the roles as Markdown, built-in search",
                _secs(medium.markdown),
                _secs(medium.plugin),
                _ratio(medium.build_ratio()),
                f"≤ {TARGET_BUILD}{TIMES}",
            ]
        )
        plugin = median([v for v in medium.plugin if v is not None])
        floor = medium.page_floor
        cells.append(
            [
                "time per role page, M (the build / its role pages)",
                "Jinja2 render + write of the same page (bench/page_floor.py)",
                _ms(floor, medium.role_pages),
                _ms(plugin, medium.role_pages),
                _ratio(plugin / floor if plugin and floor else None),
                f"≤ {TARGET_PAGE_MS:g} ms",
            ]
        )
    for checked in checks:
        if checked.size not in TARGET_CHECK:
            continue
        cells.append(
            [
                f"rolecat check {checked.size} ({checked.generation.upper()})",
                f"upstream check-{checked.generation}.mjs"
                + (f" (skipped: {checked.skipped})" if checked.skipped else ""),
                _secs(checked.peer),
                _secs(checked.check),
                _ratio(checked.ratio()),
                f"≤ {TARGET_CHECK[checked.size]}{TIMES}",
            ]
        )
    if medium is not None and medium.serve is not None:
        served = ["a one-role edit under make serve, M", "—", "—", _reload(medium.serve), "—"]
        cells.append([*served, f"≤ {TARGET_RELOAD} s"])
    if large is not None:
        baseline = large.markdown_rss_kib or large.plain_rss_kib
        what = "roles as Markdown" if large.markdown_rss_kib else "same pages"
        cells.append(
            [
                "peak memory of the L build (process tree)",
                f"plain MkDocs + Material, {what}",
                _mib(baseline),
                _mib(large.plugin_rss_kib),
                _ratio(max(large.plugin_rss_kib) / max(baseline))
                if baseline and large.plugin_rss_kib
                else "—",
                f"< {TARGET_MEMORY_MIB} MiB",
            ]
        )
    return _markdown(header, cells)


def compile_bytecode() -> None:
    """rolecat's modules compiled to bytecode, as ``pip install`` compiles them: where
    ``PYTHONDONTWRITEBYTECODE`` is set, every timed process would otherwise compile each of its
    modules from source at each start (some 40 ms of a small check)."""
    import compileall

    for package in ("build_tools", "site_plugins"):
        compileall.compile_dir(REPO / package, quiet=1)


def cpu_model() -> str:
    """The processor's name from ``/proc/cpuinfo`` (Linux), else what ``platform`` says."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def machine(node: str | None) -> str:
    """What the numbers were measured on: processors, Python, node."""
    return (
        f"{os.cpu_count()} CPUs ({cpu_model()}), {platform.machine()}, "
        f"{platform.system()} {platform.release()}, Python {platform.python_version()} "
        f"(rolecat's bytecode compiled first), "
        f"node {peers.node_version(node) if node else 'not installed'}"
    )


def environment() -> str:
    """When, at which commit and with what the numbers were measured."""
    versions = ", ".join(
        f"{name} {metadata.version(name)}" for name in ("mkdocs", "mkdocs-material", "Jinja2")
    )
    try:
        commit = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
    except OSError:
        commit = "?"
    return f"{time.strftime('%Y-%m-%d')}, commit {commit or '?'}, {versions}"


def report(
    rows: Sequence[Row],
    args: argparse.Namespace,
    history: HistoryRow | None = None,
    searched: search.SearchResult | None = None,
    checks: Sequence[CheckRow] = (),
    node: str | None = None,
) -> str:
    by_size = {row.size: row for row in rows}
    out: list[str] = []
    if checks:
        out += ["The check, against the checker people have today:", "", check_table(checks), ""]
        out.append(
            "check.mjs: `node <catalog>/scripts/check.mjs`, the upstream checker of the catalog's "
            "generation copied there from the peers, the lock at scripts/content-hashes.json; "
            "rolecat check: `python -m build_tools check --catalog <catalog>`, the same directory "
            "(it finds the lock where check.mjs keeps it). Each printed OK and exited 0 before "
            "it was timed. floor: bench/floor.py, json.loads of every file + every role's lock "
            "hash (orjson, as the check) compared with the lock, nothing else."
        )
        for checked in checks:
            where = f"{checked.size} {checked.generation}"
            if checked.skipped is not None:
                out.append(f"{where}: check.mjs skipped: {checked.skipped}")
            out.extend(f"{where}: FAILED: {failure}" for failure in checked.failures)
        out.append("")
    if rows or checks:
        out += ["The targets, each against what a user would run instead:", ""]
        out += [summary(by_size, checks), ""]
    if rows:
        out += ["The site, against the site people would build instead:", "", table(rows), ""]
    if history is not None:
        out += [history_table(history), ""]
    runs = f"{args.runs} run{'s' if args.runs != 1 else ''}"
    note = f"Median of {runs} each"
    if "L" in by_size:
        builds = min(args.runs, args.l_build_runs)
        note += f" (the mkdocs builds at L: {builds} run{'s' if builds != 1 else ''} each)"
    out.append(
        note + "; ratios are medians of per-run ratios, each run timing both commands back to back"
        " (the plugin against the roles as Markdown alone first, then against the same pages with"
        " plugin runs of their own: the removal of a site of 8,000 files slows the disk's next"
        " files for a minute)."
    )
    if rows:
        out.append(
            "A build counts only when verified (the raw index.json as the catalog has it, the "
            "first role's page written by it, with the role's name); a failed run has no ratio "
            "and fails its target. plugin build: `mkdocs build` of mkdocs.yml; plain, roles as "
            "Markdown: each role a Markdown page as a team would write it, plain Material with "
            "its built-in search and a nav of the home page (bench/handwritten.py, the shape of "
            "../shared/bench/makedocs.py --nav minimal); plain, same pages: the plugin's "
            "pages as Markdown (bench/plain.py), same nav, theme, overrides and raw files, no "
            "roles-catalog plugin, with Material's built-in search (its own header and search "
            "box) or with Pagefind (rolecat-search) as the plugin's site. bytes/role page: mean "
            "size of <lang>/<bundle>/<slug>/index.html. peak RSS: max over runs of the build's "
            "peak, the summed resident sets of the build process and the processes it runs "
            "(Pagefind) sampled every 20 ms, or the largest of one process if larger "
            "(bench/measure.py); in brackets the largest single process (its own VmHWM)."
        )
    for row in rows:
        out.extend(per_page(row))
    served_at = [(row.size, row.serve) for row in rows]
    if history is not None:
        served_at.append((f"M with {history.commits} commits of history", history.serve))
    for where, served in served_at:
        if served is not None:
            each = ", ".join(f"{s:.2f}" for s in served.reloads) or "none"
            startup = "—" if served.startup is None else f"{served.startup:.1f} s"
            out.append(
                f"serve at {where}: `make serve`, first build until the home page is served "
                f"{startup}; one-role edits (instructions of one role in one language file, no "
                f"version bump), write to reload signal: {each} s; site correct after each edit: "
                f"{'yes' if served.correct else 'NO'}"
            )
            phases = serve.median_phases(served)
            if phases:
                out.append(
                    "  where the time goes (median per phase, seconds): "
                    + ", ".join(f"{name} {seconds:.2f}" for name, seconds in phases)
                )
            out.extend(f"  - {problem}" for problem in served.problems)
    for row in rows:
        if row.profile:
            out.append(f"Where one plugin build's time goes at {row.size} (cProfile):")
            out.append(row.profile)
    for row in rows:
        if row.check_stages:
            out.append(
                f"Where rolecat check's work goes at {row.size}, all of it in one process "
                "(bench/check_stages.py; the check splits each bundle's work over the cores):"
            )
            out.append(row.check_stages)
    for row in rows:
        out.extend(f"{row.size}: {failure}" for failure in row.failures)
    if history is not None:
        out.append(
            f"history: M in a git repository of {history.commits} commits (bench/history.py), "
            "each one role's edit and bump; history read: `read_history` alone, in its own "
            "process; without history: the same catalog copied outside git; plain build: "
            "bench/plain.py of the same pages with Pagefind, version and health pages included."
        )
        out.extend(f"history: {failure}" for failure in history.failures)
    if searched is not None:
        out += ["", "Search (bench/search.py, median of each run's query):", search.table(searched)]
    out.append(f"Machine: {machine(node)}.")
    out.append(f"Measured {environment()}.")
    out += ["", "Targets:"]
    every = [*check_targets(checks), *targets(by_size, history), *search.targets(searched)]
    for text, holds, numbers in every:
        mark = "? NOT MEASURED" if holds is None else ("✔ MET" if holds else "✘ NOT MET")
        out.append(f"  {mark:<15} {text}: {numbers}")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--sizes", default="S,M,L", help="comma-separated, of S, M, L")
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (median)")
    parser.add_argument(
        "--l-build-runs",
        type=int,
        default=1,
        help="runs of each mkdocs build at L, at most --runs (a build of L takes minutes)",
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=REPO / ".bench",
        help="work directory: cached catalogs and the yaml npm package stay, the rest is "
        "removed unless --keep",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the built sites and plain projects"
    )
    parser.add_argument(
        "--history",
        type=int,
        default=HISTORY_COMMITS,
        help="commits of M's synthetic git history, measured with M (0: skip)",
    )
    parser.add_argument(
        "--only",
        choices=["check", "site", "serve"],
        help="measure only this stage (check: the checkers at each size; site: the builds; "
        "serve: `make serve` edits at each size, and with history)",
    )
    parser.add_argument(
        "--plain",
        default=",".join(BASELINES),
        help="the plain builds, comma-separated: markdown (the roles written as Markdown, "
        "Material's built-in search: the target's), material (the plugin's pages as Markdown, "
        "Material's built-in search) and pagefind (the same, Pagefind on both sides)",
    )
    parser.add_argument(
        "--pause",
        type=float,
        default=0.0,
        help="seconds between two serve edits (0: one right after the other; 5: time for the "
        "preview's search index to be made in between, as while someone reads the page)",
    )
    args = parser.parse_args(argv)
    sizes = [s.strip().upper() for s in args.sizes.split(",") if s.strip()]
    unknown = [s for s in sizes if s not in SIZES]
    if unknown or not sizes or args.runs < 1 or args.l_build_runs < 1:
        parser.error(f"sizes are S, M and L; runs at least 1 (got {args.sizes!r}, {args.runs})")
    baselines = [b.strip() for b in args.plain.split(",") if b.strip()]
    if not baselines or any(b not in BASELINES for b in baselines):
        parser.error(f"--plain names markdown, material or pagefind (got {args.plain!r})")
    work: Path = args.work.resolve()
    (work / "run").mkdir(parents=True, exist_ok=True)
    node = shutil.which("node")
    compile_bytecode()

    rows: list[Row] = []
    checks: list[CheckRow] = []
    searched = None
    history = None
    for size in [s for s in SIZES if s in sizes]:
        if args.only in (None, "check"):
            for generation in GENERATIONS:
                checks.append(measure_checkers(size, generation, work, args.runs, node))
        if args.only == "check":
            continue
        build_runs = min(args.runs, args.l_build_runs) if size == "L" else args.runs
        if args.only == "serve":
            row = Row(size, catalog_for(size, work))
            row.roles, row.languages, _bytes = _shape(row.catalog)
            measure_serve(row, work, args.runs, args.pause)
            if size == "M" and args.history > 0:
                history = measure_history(
                    work, args.runs, args.history, args.keep, builds=False, pause=args.pause
                )
            rows.append(row)
            continue
        row = measure_site(size, work, build_runs, args.keep, baselines)
        if size == "M" and args.only is None:
            measure_serve(row, work, args.runs, args.pause)
            if args.history > 0:
                history = measure_history(
                    work, args.runs, args.history, args.keep, pause=args.pause
                )
            say(f"search: {search.ROLES} roles x 2 languages, a query in Chromium ...")
            searched = search.measure(work, args.runs)
        rows.append(row)
    if not args.keep:
        shutil.rmtree(work / "run", ignore_errors=True)
    print(report(rows, args, history, searched, checks, node))
    return 0


if __name__ == "__main__":
    sys.exit(main())
