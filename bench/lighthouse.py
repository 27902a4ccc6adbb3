"""``python -m bench.lighthouse``: the site as the web's page tools judge it, Lighthouse 12.

It builds the site of our catalog (``catalog/``, with its git history, so the version pages are
there) the way ``make site`` does, into a temporary directory; serves it on 127.0.0.1 gzipped, as
GitHub Pages or a CDN would (``bench/static_host.py``); and runs Lighthouse from the npm cache of
``tests/support/node_tools.py`` on one page of each type, with its default (mobile) settings, in
Chromium. Lighthouse is noisy, so each page is measured ``--runs`` times and each score is the
median. Beside it, the same pages of plain MkDocs + Material (``bench/plain.py``: the same pages
as Markdown, Material's own search), so a score can be told apart as ours or Material's.

For every score under :data:`BAR`, the audits that cost it points (weighted, score under 1),
worst first, so a developer sees what to fix. The page types are found in the built site, not
assumed: a type the site lacks is reported missing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.lighthouse_report import (
    CATEGORIES,
    PageResult,
    benchmark_index,
    error_lines,
    failing_lines,
    summarize,
    table,
    to_json,
)
from bench.static_host import hosted

REPO = Path(__file__).resolve().parent.parent
PACKAGE, VERSION = "lighthouse", "12.2.3"
"""Pinned as in tests/support/node_tools.py (and .ci/run), which install it into the same cache."""
RUNS = 3
CHROME_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
)
PAGE_TYPES = ("home", "gallery-en", "gallery-ru", "bundle-en", "role-en", "role-ru", "version-en")
SITES = ("rolecat", "plain Material")
RUN_TIMEOUT = 300


class Failure(Exception):
    """Something did not run: the message is the one line the bench prints before exiting 1."""


def say(message: str) -> None:
    """Progress goes to stderr, so stdout is only the report."""
    print(message, file=sys.stderr, flush=True)


# --- the pages ---------------------------------------------------------------------------------


def discover(site: Path) -> dict[str, str | None]:
    """The URL path of one page of each type in the built ``site``, ``None`` where it has none.
    Bundles and roles come in the catalog's order from the site's ``index.json`` where there is
    one, else from its directories; the version page is the first role page with a ``v2/``."""

    def page(*parts: str) -> str | None:
        relative = "/".join(parts)
        return f"/{relative}/" if (site / relative / "index.html").is_file() else None

    pairs = roles_in(site)
    bundles = list(dict.fromkeys(bundle for bundle, _slug in pairs))

    def first(language: str, *below: str) -> str | None:
        return next(
            (found for bundle, slug in pairs if (found := page(language, bundle, slug, *below))),
            None,
        )

    return {
        "home": "/" if (site / "index.html").is_file() else None,
        "gallery-en": page("en"),
        "gallery-ru": page("ru"),
        "bundle-en": next((found for b in bundles if (found := page("en", b))), None),
        "role-en": first("en"),
        "role-ru": first("ru"),
        "version-en": first("en", "v2"),
    }


def roles_in(site: Path) -> list[tuple[str, str]]:
    """Every ``(bundle, slug)`` the site publishes: from ``index.json``, else its directories
    ``<lang>/<bundle>/<slug>/`` that hold a page (``v<n>/`` is a version, not a role)."""
    try:
        index = json.loads((site / "index.json").read_text(encoding="utf-8"))
        return [(b["id"], r["slug"]) for b in index["bundles"] for r in b["roles"]]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    found: dict[tuple[str, str], None] = {}
    for language in sorted(p for p in site.iterdir() if p.is_dir()):
        for bundle in sorted(p for p in language.iterdir() if (p / "index.html").is_file()):
            for role in sorted(p for p in bundle.iterdir() if (p / "index.html").is_file()):
                if not (role.name[:1] == "v" and role.name[1:].isdigit()):
                    found[(bundle.name, role.name)] = None
    return list(found)


# --- the sites ---------------------------------------------------------------------------------


def source_date_epoch() -> str:
    """The last commit's time, as ``make site`` takes it (the sitemap's and feeds' dates)."""
    try:
        done = subprocess.run(
            ["git", "log", "-1", "--format=%ct"], cwd=REPO, capture_output=True, text=True
        )
    except OSError:
        return "0"
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "0"


def _mkdocs(config: Path, site: Path, cwd: Path, catalog: Path | None) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": source_date_epoch()}
    if catalog is not None:
        env["ROLES_CATALOG_DIR"] = str(catalog)
    argv = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)]
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:]
        raise Failure(f"mkdocs build -f {config} failed (exit {done.returncode}): {''.join(last)}")


def build_ours(site: Path) -> Path:
    """``catalog/`` through the plugin with the repository's ``mkdocs.yml``, as ``make site``."""
    say(f"lighthouse: building the site of {REPO / 'catalog'} ...")
    _mkdocs(REPO / "mkdocs.yml", site, REPO, REPO / "catalog")
    return site


def build_plain(work: Path) -> Path:
    """The same pages as plain MkDocs + Material with its built-in search (``bench/plain.py``)."""
    from bench import plain  # MkDocs and the plugin's modules, only when a baseline is built

    say("lighthouse: building the plain MkDocs + Material site of the same pages ...")
    try:
        config, _pages = plain.prepare(REPO / "catalog", work / "plain", REPO, search="material")
    except SystemExit as stop:
        raise Failure(str(stop.code).splitlines()[0]) from None
    except Exception as error:  # bench/plain.py drives the plugin's own classes: any slip
        raise Failure(f"bench/plain.py: {type(error).__name__}: {error}") from None
    site = work / "plain-site"
    _mkdocs(config, site, config.parent, None)
    return site


# --- Lighthouse --------------------------------------------------------------------------------


def node_cache() -> Path:
    """The npm cache of tests/support/node_tools.py (``ROLECAT_NODE_TOOLS``)."""
    named = os.environ.get("ROLECAT_NODE_TOOLS")
    return Path(named) if named else Path.home() / ".cache" / "rolecat" / "node-tools"


def lighthouse_cli() -> Path:
    """Lighthouse at its pinned version in the cache, installed there by npm if it is not."""
    modules = node_cache() / "node_modules"
    cli = modules / ".bin" / PACKAGE

    def installed() -> bool:
        try:
            meta = json.loads((modules / PACKAGE / "package.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        return cli.exists() and meta.get("version") == VERSION

    if installed():
        return cli
    npm = shutil.which("npm")
    if npm is None:
        raise Failure(f"{PACKAGE}@{VERSION} is not in {node_cache()} and npm is not installed")
    say(f"lighthouse: npm install {PACKAGE}@{VERSION} into {node_cache()} ...")
    node_cache().mkdir(parents=True, exist_ok=True)
    argv = [npm, "install", "--prefix", str(node_cache()), "--no-audit", "--no-fund"]
    done = subprocess.run([*argv, f"{PACKAGE}@{VERSION}"], capture_output=True, text=True)
    if done.returncode != 0 or not installed():
        tail = "".join(done.stderr.strip().splitlines()[-1:])
        raise Failure(f"npm install {PACKAGE}@{VERSION} failed (exit {done.returncode}): {tail}")
    return cli


def chromium() -> str:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise Failure("no Chromium: install the chromium package or set CHROMIUM=/path/to/it")
    return found


def chromium_version(executable: str) -> str:
    try:
        done = subprocess.run([executable, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "Chromium (version unknown)"
    return done.stdout.strip() or "Chromium (version unknown)"


def lighthouse(cli: Path, url: str, browser: str, out: Path) -> dict[str, Any]:
    """One Lighthouse run of ``url``: its report (LHR), or a :class:`Failure`."""
    argv = [
        str(cli),
        url,
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={' '.join(CHROME_FLAGS)}",
        "--quiet",
        "--no-enable-error-reporting",
    ]
    out.unlink(missing_ok=True)
    env = {**os.environ, "CHROME_PATH": browser}
    try:
        done = subprocess.run(
            argv,
            env=env,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise Failure(f"lighthouse {url}: {error}") from None
    if done.returncode != 0 or not out.is_file():
        tail = "".join((done.stderr.strip() or done.stdout.strip()).splitlines()[-1:])
        raise Failure(f"lighthouse {url} failed (exit {done.returncode}): {tail}")
    try:
        report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise Failure(f"lighthouse {url}: its report does not read: {error}") from None
    problem = report.get("runtimeError")
    if problem:
        raise Failure(f"lighthouse {url}: {problem.get('code')}: {problem.get('message')}")
    return report


def report_name(site: str, kind: str, number: int) -> str:
    """The file a run's whole report is kept in (``--reports``): ``plain-material-home-1.json``."""
    return f"{'-'.join(site.lower().split())}-{kind}-{number}.json"


def measure(
    sites: dict[str, Path],
    pages: dict[str, str],
    runs: int,
    work: Path,
    reports: Path | None = None,
) -> dict[str, list[PageResult]]:
    """Each page of ``pages`` on each site, ``runs`` times; the sites' runs of one page
    alternate, so the machine's drift falls on both alike. A failed run is tried once more.
    ``reports``: where each run's whole Lighthouse report is kept (:func:`report_name`), with
    the elements and scripts behind each audit."""
    cli, browser = lighthouse_cli(), chromium()
    results = {name: [PageResult(kind, path) for kind, path in pages.items()] for name in sites}
    with contextlib.ExitStack() as stack:
        bases = {name: stack.enter_context(hosted(site)) for name, site in sites.items()}
        for index, (kind, path) in enumerate(pages.items()):
            for number in range(runs):
                for name, base in bases.items():
                    if not (sites[name] / path.lstrip("/") / "index.html").is_file():
                        continue
                    url = base + path.lstrip("/")
                    try:
                        report = lighthouse(cli, url, browser, work / "report.json")
                    except Failure as failure:
                        say(f"lighthouse: {failure}; trying once more")
                        report = lighthouse(cli, url, browser, work / "report.json")
                    if reports is not None:
                        reports.mkdir(parents=True, exist_ok=True)
                        kept = reports / report_name(name, kind, number + 1)
                        shutil.copyfile(work / "report.json", kept)
                    run = summarize(report)
                    results[name][index].runs.append(run)
                    say(f"lighthouse: {name} {kind} {path} run {number + 1}/{runs}: {run.brief()}")
    return results


# --- the command -------------------------------------------------------------------------------


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.lighthouse",
        description="Lighthouse 12's four scores (median of --runs runs) of one page of each "
        "type of the site of catalog/, served gzipped on 127.0.0.1, beside plain MkDocs + "
        "Material with the same pages; for each score under 95, the audits that cost it.",
    )
    parser.add_argument("--runs", type=int, default=RUNS, help=f"runs per page (default {RUNS})")
    parser.add_argument(
        "--pages",
        default=",".join(PAGE_TYPES),
        help=f"comma-separated page types (default all: {','.join(PAGE_TYPES)})",
    )
    parser.add_argument(
        "--site",
        type=Path,
        help="measure this built site instead of building one (the baseline is still built "
        "from catalog/, unless --no-baseline)",
    )
    parser.add_argument("--json", type=Path, help="write every score and failing audit here")
    parser.add_argument(
        "--reports",
        type=Path,
        help="keep each run's whole Lighthouse report (JSON) in this directory, as "
        "<site>-<page type>-<run>.json: the elements, resources and scripts behind each audit",
    )
    parser.add_argument(
        "--no-baseline", action="store_true", help="leave out plain MkDocs + Material"
    )
    args = parser.parse_args(argv)
    args.pages = [kind.strip() for kind in args.pages.split(",") if kind.strip()]
    unknown = [kind for kind in args.pages if kind not in PAGE_TYPES]
    if unknown or not args.pages:
        parser.error(f"--pages takes {', '.join(PAGE_TYPES)}, not {', '.join(unknown) or '—'}")
    if args.runs < 1:
        parser.error("--runs is 1 or more")
    if args.site is not None and not (args.site / "index.html").is_file():
        parser.error(f"--site {args.site}: no index.html there")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    try:
        with tempfile.TemporaryDirectory(prefix="rolecat-lighthouse-") as scratch:
            work = Path(scratch)
            sites = {SITES[0]: args.site or build_ours(work / "site")}
            unbuilt = None
            if not args.no_baseline:
                try:
                    sites[SITES[1]] = build_plain(work)
                except Failure as failure:  # ours is still measured; the exit code says it
                    unbuilt = f"{SITES[1]} is not measured: {failure}"
                    say(f"lighthouse: {unbuilt}")
            found = discover(sites[SITES[0]])
            pages = {kind: path for kind in args.pages if (path := found[kind]) is not None}
            missing = [kind for kind in args.pages if found[kind] is None]
            if not pages:
                raise Failure(f"none of the pages asked for is in {sites[SITES[0]]}")
            results = measure(sites, pages, args.runs, work, args.reports)
            browser = chromium_version(chromium())
    except Failure as failure:
        print(f"bench.lighthouse: {failure}", file=sys.stderr)
        return 1
    index = benchmark_index(results)
    print(
        f"Lighthouse {VERSION}, {browser}, default settings (mobile, simulated throttling), "
        f"median of {args.runs} run{'s' if args.runs != 1 else ''} per page, served gzipped "
        f"from 127.0.0.1"
        + ("" if index is None else f"; Lighthouse's benchmark index of this machine {index:.0f}")
        + ".\n"
    )
    print(table(results))
    for kind in missing:
        print(f"\nmissing: no {kind} page in the site")
    for line in [*failing_lines(results), *error_lines(results)]:
        print(line)
    if unbuilt is not None:
        print(f"\n{unbuilt}")
        print(f"bench.lighthouse: {unbuilt}", file=sys.stderr)
    if args.json is not None:
        document = to_json(
            results, missing, runs=args.runs, lighthouse=VERSION, browser=browser, unbuilt=unbuilt
        )
        args.json.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return 0 if unbuilt is None else 1


if __name__ == "__main__":
    raise SystemExit(main())
