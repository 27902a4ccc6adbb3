"""``python -m bench``: one table of what every stage costs at S, M and L, and the issue's targets.

S is a copy of ``catalog/``; M and L are synthetic (``bench/generate.py``: 500 and 5,000 roles,
en + ru, 8,000-character instructions), generated once into the work directory and reused while the
generator and its parameters stay the same. Each number is the median of ``--runs`` runs; every
command runs as its own process, as people run it. The machine is noisy, so the targets use ratios
against a baseline measured in the same run, back to back: ``rolecat check`` against the floor
(``bench/floor.py``), the plugin's build against plain MkDocs + Material building the same pages
(``bench/plain.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path

from bench import plain, search, serve
from bench.generate import generate
from bench.history import CATALOG, generate_history
from bench.measure import Run, median, run

REPO = Path(__file__).resolve().parent.parent
SIZES: dict[str, int | None] = {"S": None, "M": 500, "L": 5000}
"""Roles per size; S is the repository's own catalog."""
LANGUAGES = ("en", "ru")
INSTRUCTIONS = 8000
MiB = 1024 * 1024
TIMES = "\N{MULTIPLICATION SIGN}"

TARGET_CHECK = 1.3
TARGET_BUILD = 1.2
TARGET_PAGE_GROWTH = 1.2
TARGET_RELOAD = 1.5
TARGET_MEMORY_MIB = 600
HISTORY_COMMITS = 300


def say(message: str) -> None:
    """Progress goes to stderr, so stdout is only the report."""
    print(message, file=sys.stderr, flush=True)


@dataclass
class Row:
    """Everything measured for one size."""

    size: str
    catalog: Path
    roles: int = 0
    languages: int = 0
    check: list[float | None] = field(default_factory=list)
    """Seconds of each run, ``None`` where the run failed: run i pairs with the floor's run i."""
    floor: list[float | None] = field(default_factory=list)
    plugin: list[float | None] = field(default_factory=list)
    plain: list[float | None] = field(default_factory=list)
    plugin_rss_kib: list[int] = field(default_factory=list)
    plugin_one_kib: list[int] = field(default_factory=list)
    """The largest resident set of one process of the plugin's build (``wait4``)."""
    plain_rss_kib: list[int] = field(default_factory=list)
    page_bytes: float | None = None
    serve: serve.ServeResult | None = None
    failures: list[str] = field(default_factory=list)
    check_stages: str = ""
    """Where the check's time goes (bench/check_stages.py), measured at L."""

    def check_ratio(self) -> float | None:
        return _paired_ratio(self.check, self.floor)

    def build_ratio(self) -> float | None:
        return _paired_ratio(self.plugin, self.plain)


def _paired_ratio(
    numerators: Sequence[float | None], denominators: Sequence[float | None]
) -> float | None:
    """The median of per-run ratios, run i against run i: each run timed both back to back, under
    the same noise. A failed run (``None``) leaves no ratio: it fails the target instead of
    shifting the pairs."""
    pairs = list(zip(numerators, denominators, strict=True))
    if not pairs or any(a is None or b is None or b <= 0 for a, b in pairs):
        return None
    return median([a / b for a, b in pairs])  # type: ignore[operator]


# --- catalogs --------------------------------------------------------------------------------


def catalog_for(size: str, work: Path) -> Path:
    """S: a fresh copy of ``catalog/``. M, L: the cached synthetic catalog, generated if needed."""
    roles = SIZES[size]
    if roles is None:
        copy = work / "run" / "S-catalog"
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(REPO / "catalog", copy)
        return copy
    params = {"roles": roles, "languages": LANGUAGES, "instructions": INSTRUCTIONS, "seed": 1}
    return _cached(
        work,
        size,
        params,
        ["generate.py"],
        f"generating {roles:,} roles x {len(LANGUAGES)} languages",
        lambda target: generate(
            target, roles, languages=LANGUAGES, instructions=INSTRUCTIONS, seed=1
        ),
    )


def _cached(
    work: Path,
    name: str,
    params: dict[str, object],
    sources: list[str],
    what: str,
    make: Callable[[Path], object],
) -> Path:
    """``work/catalogs/<name>-<key>``, made by ``make`` unless the same ``params`` and generator
    sources (in bench/) made it before."""
    code = b"".join((REPO / "bench" / source).read_bytes() for source in sources)
    key = hashlib.sha256(json.dumps(params).encode() + code).hexdigest()[:12]
    target = work / "catalogs" / f"{name}-{key}"
    stamp = target.with_suffix(".done")
    if stamp.exists() and target.is_dir():
        say(f"{name}: cached {_shown(target)}")
        return target
    for old in (work / "catalogs").glob(f"{name}-*"):
        shutil.rmtree(old) if old.is_dir() else old.unlink()
    say(f"{name}: {what} ...")
    started = time.perf_counter()
    make(target)
    stamp.write_text(json.dumps(params) + "\n", encoding="utf-8")
    say(f"{name}: done in {time.perf_counter() - started:.1f} s")
    return target


def _shown(path: Path) -> str:
    try:
        return path.relative_to(REPO).as_posix()
    except ValueError:
        return str(path)


def _shape(catalog: Path) -> tuple[int, int, int]:
    """Roles, languages and bytes of index and bundle files, read plainly from the index."""
    index = json.loads((catalog / "index.json").read_text(encoding="utf-8"))
    roles = sum(len(b["roles"]) for b in index["bundles"])
    languages = len({lang for b in index["bundles"] for lang in b["languages"]})
    size = sum(p.stat().st_size for p in catalog.rglob("*.json"))
    return roles, languages, size


# --- stages ----------------------------------------------------------------------------------


def _floor(catalog: Path) -> Run:
    return run([sys.executable, str(REPO / "bench" / "floor.py"), str(catalog)], cwd=REPO)


def _check(catalog: Path) -> Run:
    return run([sys.executable, "-m", "build_tools", "check", "--catalog", str(catalog)], cwd=REPO)


def _build(config: Path, site: Path, cwd: Path, catalog: Path | None, source: Path) -> Run:
    """``mkdocs build``, counted as failed unless what it wrote is verified: the raw index as the
    catalog has it, and the first role's page, written by this very build and showing its name.
    ``source`` is the catalog the pages come from (``catalog`` is ``None`` for plain MkDocs)."""
    if site.exists():
        shutil.rmtree(site)
    env = {"NO_MKDOCS_2_WARNING": "1"}
    if catalog is not None:
        env["ROLES_CATALOG_DIR"] = str(catalog)
    argv = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)]
    started = time.time()
    result = run(argv, cwd=cwd, env=env)
    problem = _site_problem(site, source, started) if result.ok else None
    if problem is None:
        return result
    return replace(result, returncode=-1, stderr=f"{result.stderr}\nnot verified: {problem}")


def _site_problem(site: Path, catalog: Path, started: float) -> str | None:
    """What is missing or stale in a built site, or ``None``."""
    index = json.loads((catalog / "index.json").read_bytes())
    published = site / "index.json"
    if not published.is_file() or published.read_bytes() != (catalog / "index.json").read_bytes():
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


def measure_size(size: str, work: Path, runs: int, build_runs: int, keep: bool) -> Row:
    """Check vs floor, then plugin build vs plain build, for one catalog size."""
    catalog = catalog_for(size, work)
    row = Row(size, catalog)
    row.roles, row.languages, _bytes = _shape(catalog)
    say(f"{size}: {row.roles:,} roles x {row.languages} languages, {_bytes / MiB:.1f} MiB of JSON")

    _floor(catalog), _check(catalog)  # warm the page cache and the bytecode caches alike
    for number in range(runs):
        _record(row, "floor", _floor(catalog), row.floor)
        checked = _check(catalog)
        if checked.ok and checked.stdout.strip() != "OK":
            checked = replace(checked, returncode=-1)
        _record(row, "rolecat check", checked, row.check)
        say(f"{size}: check/floor run {number + 1}/{runs}")
    if size == "L":
        stages = run([sys.executable, "-m", "bench.check_stages", str(catalog)], cwd=REPO)
        row.check_stages = stages.stdout.rstrip() if stages.ok else f"failed:\n{stages.tail()}"

    scratch = work / "run"
    project = scratch / f"{size}-plain"
    say(f"{size}: writing the plain-MkDocs project (the same pages as Markdown) ...")
    plain_config, role_pages = plain.prepare(catalog, project, REPO)
    plugin_site, plain_site = scratch / f"{size}-site-plugin", scratch / f"{size}-site-plain"
    for number in range(build_runs):
        result = _build(REPO / "mkdocs.yml", plugin_site, REPO, catalog, catalog)
        if _record(row, "plugin build", result, row.plugin):
            row.plugin_rss_kib.append(result.peak_kib)
            row.plugin_one_kib.append(result.max_rss_kib)
        result = _build(plain_config, plain_site, project, None, catalog)
        if _record(row, "plain build", result, row.plain):
            row.plain_rss_kib.append(result.peak_kib)
        say(
            f"{size}: builds run {number + 1}/{build_runs}: plugin {_secs(row.plugin[-1:])}, "
            f"plain {_secs(row.plain[-1:])}"
        )
    if any(row.plugin):
        sizes = [(plugin_site / page).stat().st_size for page in role_pages]
        row.page_bytes = sum(sizes) / len(sizes) if sizes else None
    if not keep:
        for path in (project, plugin_site, plain_site):
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


def _secs(values: Sequence[float | None]) -> str:
    value = median([v for v in values if v is not None])
    return "—" if value is None else f"{value:.2f} s"


def _ratio(value: float | None) -> str:
    """``—`` where a run failed: the failure is printed under the table."""
    return "—" if value is None else f"{value:.2f}{TIMES}"


def _mib(values: Sequence[int]) -> str:
    return f"{max(values) / 1024:,.0f} MiB" if values else "—"


def _reload(served: serve.ServeResult | None) -> str:
    if served is None:
        return "—"
    reload = _secs(served.reloads) if served.reloads else "failed"
    return reload + (" (wrong page)" if served.reloads and not served.correct else "")


def table(rows: Sequence[Row]) -> str:
    header = [
        "size",
        f"roles {TIMES} langs",
        "rolecat check",
        "floor",
        "check/floor",
        "plugin build",
        "plain build",
        "plugin/plain",
        "bytes/role page",
        "peak RSS plugin (plain)",
        "serve edit→reload",
    ]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        cells = [
            row.size,
            f"{row.roles:,} {TIMES} {row.languages}",
            _secs(row.check),
            _secs(row.floor),
            _ratio(row.check_ratio()),
            _secs(row.plugin),
            _secs(row.plain),
            _ratio(row.build_ratio()),
            "—" if row.page_bytes is None else f"{row.page_bytes:,.0f}",
            f"{_mib(row.plugin_rss_kib)} ({_mib(row.plain_rss_kib).removesuffix(' MiB')})",
            _reload(row.serve),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def targets(
    rows: dict[str, Row], history: HistoryRow | None = None
) -> list[tuple[str, bool | None, str]]:
    """Each target of the issue: its text, whether it holds (None: not measured), the numbers."""
    found: list[tuple[str, bool | None, str]] = []
    large, medium = rows.get("L"), rows.get("M")

    ratio = large.check_ratio() if large else None
    found.append(
        (
            f"rolecat check ≤ {TARGET_CHECK}{TIMES} the floor at L",
            None if large is None else ratio is not None and ratio <= TARGET_CHECK,
            _ratio(ratio),
        )
    )
    ratio = medium.build_ratio() if medium else None
    found.append(
        (
            f"plugin build ≤ {TARGET_BUILD}{TIMES} plain MkDocs + Material, same pages, at M",
            None if medium is None else ratio is not None and ratio <= TARGET_BUILD,
            _ratio(ratio),
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
    served = medium.serve if medium else None
    reload = median(served.reloads) if served else None
    found.append(
        (
            f"make serve: one-role edit at M rebuilt and reloaded in ≤ {TARGET_RELOAD} s, "
            "rest of the site correct",
            None
            if served is None
            else (reload is not None and served.correct and reload <= TARGET_RELOAD),
            ("—" if reload is None else f"{reload:.2f} s")
            + ("" if served is None else f", site correct: {'yes' if served.correct else 'NO'}"),
        )
    )
    peak = max(large.plugin_rss_kib) / 1024 if large and large.plugin_rss_kib else None
    built = large is not None and None not in large.plugin
    found.append(
        (
            f"peak memory of the plugin build at L < {TARGET_MEMORY_MIB} MiB, search included",
            None if large is None else built and peak is not None and peak < TARGET_MEMORY_MIB,
            "—"
            if peak is None or large is None
            else f"{peak:,.0f} MiB (its largest process alone: {_mib(large.plugin_one_kib)})",
        )
    )
    commits = history.commits if history else HISTORY_COMMITS
    ratio = _paired_ratio(history.plugin, history.plain) if history else None
    found.append(
        (
            f"with a history of {commits} commits at M: plugin build ≤ {TARGET_BUILD}{TIMES} plain "
            "MkDocs + Material, same pages (version pages included)",
            None if history is None else ratio is not None and ratio <= TARGET_BUILD,
            _ratio(ratio),
        )
    )
    served = history.serve if history else None
    reload = median(served.reloads) if served else None
    found.append(
        (
            f"with a history of {commits} commits at M: make serve, one-role edit rebuilt and "
            f"reloaded in ≤ {TARGET_RELOAD} s, rest of the site correct",
            None
            if served is None
            else (reload is not None and served.correct and reload <= TARGET_RELOAD),
            "—" if reload is None else f"{reload:.2f} s",
        )
    )
    return found


def environment() -> str:
    """What the numbers were measured on, so a pasted table says where it came from."""
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
    return (
        f"{time.strftime('%Y-%m-%d')}, commit {commit or '?'}, Python {platform.python_version()}, "
        f"{versions}, {os.cpu_count()} CPUs, {platform.machine()}"
    )


def report(
    rows: Sequence[Row],
    args: argparse.Namespace,
    history: HistoryRow | None = None,
    searched: search.SearchResult | None = None,
) -> str:
    by_size = {row.size: row for row in rows}
    out = [table(rows), ""]
    if history is not None:
        out += [history_table(history), ""]
    runs = f"{args.runs} run{'s' if args.runs != 1 else ''}"
    note = f"Median of {runs} each"
    if "L" in by_size:
        builds = min(args.runs, args.l_build_runs)
        note += f" (the mkdocs builds at L: {builds} run{'s' if builds != 1 else ''} each)"
    out.append(
        note + "; ratios are medians of per-run ratios, each run timing both commands back to back."
    )
    out.append(
        "rolecat check: `python -m build_tools check --catalog DIR` (prints OK). floor: "
        "bench/floor.py, json.loads of every file + every role's lock hash (orjson, as the "
        "check) compared with the lock, nothing else. A build counts only when verified (the "
        "raw index.json as the catalog has it, the first role's page written by it, with the "
        "role's name); a failed run has no ratio and fails its target. "
        "plugin build: `mkdocs build` of mkdocs.yml; plain build: the same pages as Markdown, same "
        "nav, theme and other plugins, no roles-catalog plugin. bytes/role page: mean size of "
        "<lang>/<bundle>/<slug>/index.html. peak RSS: max over runs of the build's peak, the "
        "summed resident sets of the build process and the processes it runs (Pagefind) sampled "
        "every 20 ms, or the largest of one process if larger (bench/measure.py)."
    )
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
        if row.check_stages:
            out.append(f"Where rolecat check's time goes at {row.size} (bench/check_stages.py):")
            out.append(row.check_stages)
    for row in rows:
        out.extend(f"{row.size}: {failure}" for failure in row.failures)
    if history is not None:
        out.append(
            f"history: M in a git repository of {history.commits} commits (bench/history.py), "
            "each one role's edit and bump; history read: `read_history` alone, in its own "
            "process; without history: the same catalog copied outside git; plain build: "
            "bench/plain.py of the same pages, version and health pages included."
        )
        out.extend(f"history: {failure}" for failure in history.failures)
    if searched is not None:
        out += ["", "Search (bench/search.py, median of each run's query):", search.table(searched)]
    out.append(f"Measured {environment()}.")
    out += ["", "Targets:"]
    for text, holds, numbers in [*targets(by_size, history), *search.targets(searched)]:
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
        help="work directory: cached catalogs stay, the rest is removed unless --keep",
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
        choices=["serve"],
        help="measure only this stage (serve: `make serve` edits at each size, and with history)",
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
    work: Path = args.work.resolve()
    (work / "run").mkdir(parents=True, exist_ok=True)

    rows = []
    searched = None
    history = None
    for size in [s for s in SIZES if s in sizes]:
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
        row = measure_size(size, work, args.runs, build_runs, args.keep)
        if size == "M":
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
    print(report(rows, args, history, searched))
    return 0


if __name__ == "__main__":
    sys.exit(main())
