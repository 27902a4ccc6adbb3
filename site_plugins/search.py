"""The MkDocs plugin ``rolecat-search``: Pagefind's index of the written site, per page language.

Material's own search (lunr) ships every page's text to every visitor: 15 MB for a catalog of
1,000 role pages, seconds before the first result. Pagefind reads the pages once they are written,
makes one index per ``<html lang>`` (with stemming where Pagefind has a stemmer, Russian included)
and a browser fetches only the chunks a query needs. It indexes what templates mark
``data-pagefind-body`` and skips what they mark ``data-pagefind-ignore``; the header's search box
(templates/overrides/partials/search.html) queries it.

A build waits for the index and fails with one line if Pagefind fails, before the site is
published. ``mkdocs serve`` indexes in the background once a rebuild is done, so a preview reloads
as soon as its pages are written and its search follows a moment later.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger

from build_tools.site_paths import SEARCH_DIR

log = get_plugin_logger(__name__)

ENTRY = "pagefind-entry.json"


class SearchConfig(Config):
    enabled = c.Type(bool, default=True)
    """Turn the search off (the header then has no search box)."""


def pagefind_command(site_dir: Path) -> list[str]:
    """Pagefind as installed with rolecat (the ``pagefind[bin]`` package), on one site directory."""
    return [
        sys.executable,
        "-m",
        "pagefind",
        "--site",
        str(site_dir),
        "--output-subdir",
        SEARCH_DIR,
        "--silent",
    ]


def index_site(site_dir: Path) -> str | None:
    """Write the search index into ``site_dir``; on failure, one line saying why."""
    try:
        done = subprocess.run(
            pagefind_command(site_dir), capture_output=True, text=True, check=False
        )
    except OSError as error:
        return f"cannot run Pagefind: {error.strerror}"
    return _outcome(site_dir, done.returncode, done.stderr + done.stdout)


def _outcome(site_dir: Path, returncode: int, output: str) -> str | None:
    if returncode == 0:
        _sort_entry(site_dir / SEARCH_DIR / ENTRY)
        return None
    said = [line.strip() for line in output.splitlines() if line.strip()]
    return said[-1] if said else f"Pagefind exited with status {returncode}"


def _sort_entry(path: Path) -> None:
    """Pagefind lists the languages of its entry file in a random order; sorted, two builds of
    the same site are identical byte for byte."""
    with contextlib.suppress(OSError, ValueError):
        entry = json.loads(path.read_bytes())
        path.write_text(
            json.dumps(entry, ensure_ascii=False, sort_keys=True, separators=(",", ":")), "utf-8"
        )


class Background:
    """Index the preview once it is quiet: after a rebuild, in the background and at a low
    priority; a rebuild that starts meanwhile stops it (and asks again when it is done), so
    indexing never slows down the next reload."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._generation = 0

    def cancel(self) -> None:
        with self._lock:
            self._generation += 1
            if self._process is not None and self._process.poll() is None:
                self._process.terminate()

    def request(self, site_dir: Path) -> None:
        with self._lock:
            generation = self._generation
        threading.Thread(
            target=self._index, args=(site_dir, generation), name="pagefind", daemon=True
        ).start()

    def _index(self, site_dir: Path, generation: int) -> None:
        with self._lock:
            if generation != self._generation:
                return
            try:
                process = subprocess.Popen(
                    pagefind_command(site_dir),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                )
            except OSError as error:
                log.info(f"the preview has no search index: cannot run Pagefind: {error}")
                return
            self._process = process
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, process.pid, 10)
        output, _ = process.communicate()
        with self._lock:
            stale = generation != self._generation
        problem = None if stale else _outcome(site_dir, process.returncode, output)
        # Info, not a warning: a warning between two builds would fail the next strict one.
        if problem is not None:
            log.info(f"the preview's search index was not updated: {problem}")


class PagefindSearchPlugin(BasePlugin[SearchConfig]):
    def __init__(self) -> None:
        self.background: Background | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.background = Background() if command == "serve" else None

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        if self.background is not None:
            self.background.cancel()

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if not self.config.enabled:
            return
        site_dir = Path(config.site_dir)
        if self.background is not None:
            self.background.request(site_dir)
            return
        problem = index_site(site_dir)
        if problem is not None:
            raise PluginError(f"search: Pagefind could not index {site_dir}: {problem}")
