"""The site's search as a reader meets it: time to first results and bytes per query, in Chromium.

``python -m bench.search`` (or ``make bench``, which runs it with M) builds the site of a synthetic
catalog of 500 roles x 2 languages with 4,000-character instructions, serves it on 127.0.0.1 and,
in a fresh browser context each run (empty cache), opens a role page, waits until it has loaded
(the search warms up meanwhile: Pagefind's script, the language's index metadata, its
WebAssembly), presses "/" and types a word. It reports the time from the first keystroke until the
first result is on screen, and the bytes the browser fetched from then on (index chunks and the
fragments of the results shown).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bench.generate import generate
from bench.measure import median

REPO = Path(__file__).resolve().parent.parent
ROLES = 500
LANGUAGES = ("en", "ru")
INSTRUCTIONS = 4000
QUERIES = {"en": "rollback", "ru": "откат"}
"""One word of the generator's vocabulary per language: it is in most roles' instructions, so a
query returns hundreds of pages (the page shows ten)."""
TARGET_SECONDS = 0.5
TARGET_BYTES = 1_000_000
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]

# In the page: from the first keystroke until the first result is in the list.
WATCH = """() => {
  window.__firstResult = new Promise(resolve => {
    const list = document.querySelector(".md-search-result__list");
    new MutationObserver(() => {
      if (list.querySelector(".md-search-result__item")) resolve(performance.now());
    }).observe(list, { childList: true });
  });
  document.addEventListener("keydown", () => {
    window.__typed = window.__typed || performance.now();
  }, { capture: true });
}"""


@dataclass
class SearchResult:
    """Per language: seconds to first results, bytes per query, bytes of the warm-up."""

    first: dict[str, list[float]] = field(default_factory=dict)
    query_bytes: dict[str, list[int]] = field(default_factory=dict)
    warm_bytes: dict[str, list[int]] = field(default_factory=dict)
    results: dict[str, int] = field(default_factory=dict)


def catalog(work: Path) -> Path:
    """The synthetic catalog, generated once and cached while the generator stays the same."""
    params = {"roles": ROLES, "languages": LANGUAGES, "instructions": INSTRUCTIONS, "seed": 1}
    key = hashlib.sha256(
        json.dumps(params).encode() + (REPO / "bench" / "generate.py").read_bytes()
    ).hexdigest()[:12]
    target = work / "catalogs" / f"search-{key}"
    stamp = target.with_suffix(".done")
    if not (stamp.exists() and target.is_dir()):
        shutil.rmtree(target, ignore_errors=True)
        generate(target, ROLES, languages=LANGUAGES, instructions=INSTRUCTIONS, seed=1)
        stamp.write_text(json.dumps(params) + "\n", encoding="utf-8")
    return target


def build(source: Path, site: Path) -> None:
    shutil.rmtree(site, ignore_errors=True)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "ROLES_CATALOG_DIR": str(source)}
    argv = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(REPO / "mkdocs.yml")]
    subprocess.run([*argv, "-d", str(site)], cwd=REPO, env=env, check=True)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def hosted(site: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def chromium() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return shutil.which("chromium")


def measure(work: Path, runs: int) -> SearchResult:
    """Build the site, then time ``runs`` queries per language, each in a fresh context."""
    from playwright.sync_api import sync_playwright

    result = SearchResult()
    site = work / "run" / "search-site"
    build(catalog(work), site)
    with hosted(site) as url, sync_playwright() as playwright:
        executable = chromium()
        browser = playwright.chromium.launch(
            args=LAUNCH_ARGS, **({"executable_path": executable} if executable else {})
        )
        for lang, word in QUERIES.items():
            for _ in range(runs):
                first, query, load, count = _query(browser, f"{url}{lang}/", word)
                result.first.setdefault(lang, []).append(first)
                result.query_bytes.setdefault(lang, []).append(query)
                result.warm_bytes.setdefault(lang, []).append(load)
                result.results[lang] = count
        browser.close()
    shutil.rmtree(site, ignore_errors=True)
    return result


def _query(browser: Any, language_root: str, word: str) -> tuple[float, int, int, int]:
    """One query on a freshly loaded role page, in a new context (empty cache): seconds to the
    first result, bytes fetched for the query, bytes of the page load, results found."""
    context = browser.new_context()
    page = context.new_page()
    fetched: dict[str, int] = {"load": 0, "query": 0}
    phase = "load"

    def finished(request: Any) -> None:
        sizes = request.sizes()
        fetched[phase] += sizes["responseBodySize"] + sizes["responseHeadersSize"]

    page.on("requestfinished", finished)
    page.goto(f"{language_root}bundle-0000/role-00000/", wait_until="networkidle")
    page.evaluate(WATCH)
    phase = "query"
    page.keyboard.press("/")
    page.keyboard.type(word)
    first = float(page.evaluate("window.__firstResult.then(t => t - window.__typed)")) / 1000
    page.wait_for_load_state("networkidle")
    meta = page.locator(".md-search-result__meta").inner_text()
    context.close()
    return first, fetched["query"], fetched["load"], int("".join(filter(str.isdigit, meta)) or 0)


def table(result: SearchResult) -> str:
    lines = [
        "| page language | query | results | first results after typing | bytes for the query "
        "| bytes of the page load, search warm-up included |",
        "|---|---|---|---|---|---|",
    ]
    for lang, word in QUERIES.items():
        first = median(result.first.get(lang, []))
        query = median([float(b) for b in result.query_bytes.get(lang, [])])
        warm = median([float(b) for b in result.warm_bytes.get(lang, [])])
        lines.append(
            f"| {lang} | {word} | {result.results.get(lang, 0):,} | "
            + ("—" if first is None else f"{first:.3f} s")
            + " | "
            + ("—" if query is None else f"{query:,.0f}")
            + " | "
            + ("—" if warm is None else f"{warm:,.0f}")
            + " |"
        )
    return "\n".join(lines)


def targets(result: SearchResult | None) -> list[tuple[str, bool | None, str]]:
    """The issue's search targets, worst language first."""
    firsts = [median(v) for v in result.first.values()] if result else []
    sizes = [median([float(b) for b in v]) for v in result.query_bytes.values()] if result else []
    first = max((v for v in firsts if v is not None), default=None)
    size = max((v for v in sizes if v is not None), default=None)
    return [
        (
            f"search at {ROLES} roles x {len(LANGUAGES)} languages: first results ≤ "
            f"{TARGET_SECONDS} s after typing",
            None if first is None else first <= TARGET_SECONDS,
            "—" if first is None else f"{first:.3f} s (slowest language)",
        ),
        (
            f"search: ≤ {TARGET_BYTES:,} bytes transferred for a query",
            None if size is None else size <= TARGET_BYTES,
            "—" if size is None else f"{size:,.0f} bytes (largest language)",
        ),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.search", description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="queries per language (median)")
    parser.add_argument("--work", type=Path, default=REPO / ".bench")
    args = parser.parse_args(argv)
    (args.work / "run").mkdir(parents=True, exist_ok=True)
    result = measure(args.work.resolve(), args.runs)
    print(table(result))
    for text, holds, numbers in targets(result):
        mark = "? NOT MEASURED" if holds is None else ("✔ MET" if holds else "✘ NOT MET")
        print(f"  {mark:<15} {text}: {numbers}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
