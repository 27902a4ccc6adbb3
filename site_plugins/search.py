"""The MkDocs plugin ``rolecat-search``: Pagefind indexes the written site, one bundle per language.

Material's own search (lunr) ships every page's text to every visitor: 15 MB for a catalog of
1,000 role pages, seconds before the first result. Pagefind reads the pages once they are written
and a browser fetches only the chunks a query needs. Each page language gets its own Pagefind
bundle, ``/pagefind/<lang>/``, indexed by Pagefind runs of its own (with stemming where Pagefind has
a stemmer, Russian included): a page searches its own language.
Pagefind indexes what templates mark ``data-pagefind-body`` and skips what they mark
``data-pagefind-ignore``; the header's search box (templates/overrides/partials/search.html)
queries it.

Pagefind holds some four times the HTML it indexes until it has written the bundle: 900 MiB for the
5,000 Russian role pages of a large catalog. So a language whose pages add up to more than
``part_mib`` MiB of HTML is indexed in parts of about equal size, one Pagefind run each: the first
part is the bundle at ``/pagefind/<lang>/``, the others go beside its files at
``/pagefind/<lang>/<n>/``, listed in its ``rolecat-parts.json``. The search box merges them into
the one index it queries (Pagefind's ``mergeIndex``: each query searches every part and ranks
their results together), and a build's memory then grows with the part, not with the catalog.

A build waits for the index and fails with one line if Pagefind fails, before the site is
published. ``mkdocs serve`` indexes in the background once a rebuild is done, so a preview reloads
as soon as its pages are written and its search follows a moment later.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger

from build_tools.wire.site_paths import SEARCH_DIR

log = get_plugin_logger("rolecat-search")

_LANG = re.compile(rb"<html\b[^>]*?\blang=\"([a-zA-Z0-9-]+)\"")


PARTS_FILE = "rolecat-parts.json"
"""In each language's bundle: its index's other parts, relative to it (``{"parts": ["1/"]}``)."""

MiB = 1024 * 1024
PART_MIB = 64
"""HTML indexed per Pagefind run, at most (unless one page is larger): Pagefind then peaks at
about 250 MiB."""


class SearchConfig(Config):
    enabled = c.Type(bool, default=True)
    """Turn the search off (the header then has no search box)."""
    part_mib = c.Type(int, default=PART_MIB)
    """A language with more MiB of HTML than this is indexed in parts (see above)."""


def pagefind_command(pages: Path, output: Path) -> list[str]:
    """Pagefind as installed with rolecat (the ``pagefind[bin]`` package)."""
    return [
        sys.executable,
        "-m",
        "pagefind",
        "--site",
        str(pages),
        "--output-path",
        str(output),
        "--silent",
    ]


def pages_by_language(
    site_dir: Path, going: Callable[[], bool] = lambda: True
) -> dict[str, list[Path]]:
    """Every HTML page of the site, relative to it, by the language its ``<html lang>`` names;
    nothing once ``going`` says to stop."""
    found: dict[str, list[Path]] = {}
    for page in sorted(site_dir.rglob("*.html")):
        if not going():
            return {}
        relpath = page.relative_to(site_dir)
        if relpath.parts[0] == SEARCH_DIR or relpath.parts[0].startswith("."):
            continue
        with page.open("rb") as stream:
            head = stream.read(4096)
        language = _LANG.search(head)
        if language is not None:
            found.setdefault(language.group(1).decode().lower(), []).append(relpath)
    return found


def split(pages: list[Path], sizes: list[int], most: int) -> list[list[Path]]:
    """``pages`` in order, cut into parts of about equal size (by ``sizes``), as many as it takes
    for each to hold about ``most`` bytes at most."""
    total = sum(sizes)
    count = max(1, -(-total // max(most, 1)))
    parts: list[list[Path]] = [[] for _ in range(count)]
    before = 0
    for page, size in zip(pages, sizes, strict=True):
        # Each page goes to the part its middle byte falls in: parts of total / count bytes.
        parts[min(count - 1, (before + size // 2) * count // max(total, 1))].append(page)
        before += size
    return [part for part in parts if part]


def index_site(
    site_dir: Path,
    started: Callable[[subprocess.Popen[str]], bool] | None = None,
    going: Callable[[], bool] = lambda: True,
    part_bytes: int = PART_MIB * MiB,
) -> str | None:
    """Write one Pagefind bundle per page language into ``site_dir``, in parts of at most about
    ``part_bytes`` of HTML each; on failure, one line saying why. ``started`` sees each Pagefind
    process, and stops the work by returning False; ``going`` is asked between files (a
    preview's rebuild stops the work at once: this runs in the server's process, and reading and
    linking the pages would slow the rebuild down)."""
    output = site_dir / SEARCH_DIR
    shutil.rmtree(output, ignore_errors=True)
    languages = pages_by_language(site_dir, going)
    if not going():
        return "stopped"
    if not languages:
        return "no page names its language in <html lang>: nothing to index"
    # Pagefind reads a directory: each part's pages are linked into one of their own, inside the
    # site directory, so that whatever removes the site (a preview that stops) removes it too.
    with tempfile.TemporaryDirectory(prefix=".rolecat-search-", dir=site_dir) as scratch:
        for language, pages in sorted(languages.items()):
            sizes = [(site_dir / relpath).stat().st_size for relpath in pages]
            parts = split(pages, sizes, part_bytes)
            bundle = output / language
            for number, part in enumerate(parts):
                tree = Path(scratch) / f"{language}-{number}"
                for relpath in part:
                    if not going():
                        return "stopped"
                    _link(site_dir / relpath, tree / relpath)
                problem = _pagefind(tree, bundle / str(number) if number else bundle, started)
                shutil.rmtree(tree)
                if problem is not None:
                    where = f" (part {number + 1} of {len(parts)})" if len(parts) > 1 else ""
                    return f"{language}{where}: {problem}"
            others = [f"{number}/" for number in range(1, len(parts))]
            (bundle / PARTS_FILE).write_text(json.dumps({"parts": others}), encoding="utf-8")
    return None


def _link(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:  # another file system, or no hard links: a copy does as well
        shutil.copyfile(source, target)


def _pagefind(
    pages: Path, output: Path, started: Callable[[subprocess.Popen[str]], bool] | None
) -> str | None:
    try:
        process = subprocess.Popen(
            pagefind_command(pages, output),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
    except OSError as error:
        return f"cannot run Pagefind: {error.strerror}"
    if started is not None and not started(process):
        process.kill()
    said, _ = process.communicate()
    if process.returncode == 0:
        return None
    lines = [line.strip() for line in said.splitlines() if line.strip()]
    return lines[-1] if lines else f"Pagefind exited with status {process.returncode}"


QUIET = 1.0
"""Seconds a preview must go without a rebuild before its search index is made again."""


class Background:
    """Index the preview once it is quiet: a second after a rebuild, in the background and at a
    low priority; a rebuild that starts meanwhile stops it (and asks again when it is done), so
    indexing never slows down the next reload. Pagefind indexes the whole site each time (it has
    no incremental mode): edits in quick succession index once, after the last."""

    def __init__(self, quiet: float = QUIET, part_mib: int = PART_MIB) -> None:
        self.part_mib = part_mib
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._process: subprocess.Popen[str] | None = None
        self._generation = 0
        self._threads: list[threading.Thread] = []
        self.quiet = quiet

    def cancel(self) -> None:
        with self._lock:
            self._generation += 1
            self._changed.notify_all()
            if self._process is not None and self._process.poll() is None:
                self._process.terminate()

    def request(self, site_dir: Path) -> None:
        with self._lock:
            generation = self._generation
            self._threads = [t for t in self._threads if t.is_alive()]
            thread = threading.Thread(
                target=self._index, args=(site_dir, generation), name="pagefind", daemon=True
            )
            self._threads.append(thread)
        thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        """Cancel, and wait until indexing has let go of the site directory: MkDocs removes it
        right after the plugins' ``on_shutdown``, and a Pagefind scratch directory inside it
        that disappears meanwhile would end the server with a traceback."""
        self.cancel()
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(timeout)

    def _index(self, site_dir: Path, generation: int) -> None:
        def started(process: subprocess.Popen[str]) -> bool:
            with self._lock:
                self._process = process
                with contextlib.suppress(OSError):
                    os.setpriority(os.PRIO_PROCESS, process.pid, 10)
                return generation == self._generation

        with self._changed:
            self._changed.wait_for(lambda: generation != self._generation, timeout=self.quiet)
            if generation != self._generation:
                return
        problem = index_site(
            site_dir, started, lambda: generation == self._generation, self.part_mib * MiB
        )
        with self._lock:
            stale = generation != self._generation
        # Info, not a warning: a warning between two builds would fail the next strict one.
        if problem is not None and not stale:
            log.info(f"the preview's search index was not updated: {problem}")


class PagefindSearchPlugin(BasePlugin[SearchConfig]):
    def __init__(self) -> None:
        self.background: Background | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.background = Background(part_mib=self.config.part_mib) if command == "serve" else None

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        if self.config.part_mib < 1:
            raise PluginError(f"part_mib must be at least 1 (MiB), not {self.config.part_mib}")
        # A rebuild begins: stop indexing the last one before the catalog is checked.
        if self.background is not None:
            self.background.cancel()
        return config

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        if self.background is not None:
            self.background.cancel()

    def on_shutdown(self) -> None:
        if self.background is not None:
            self.background.stop()

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if not self.config.enabled:
            return
        site_dir = Path(config.site_dir)
        if self.background is not None:
            self.background.request(site_dir)
            return
        problem = index_site(site_dir, part_bytes=self.config.part_mib * MiB)
        if problem is not None:
            raise PluginError(f"search: Pagefind could not index {site_dir}: {problem}")
