"""The MkDocs plugin ``rolecat-search``: its options, and the index made after a build (and, while
serving, in the background) by :mod:`site_plugins.search.pagefind`."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.pages import Page

from site_plugins.catalog.plugin_events import only_ours
from site_plugins.search.pagefind import PART_MIB, MiB, Placed, index_site

log = get_plugin_logger("rolecat-search")

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
        self._processes: list[subprocess.Popen[str]] = []
        self._generation = 0
        self._threads: list[threading.Thread] = []
        self.quiet = quiet

    def cancel(self) -> None:
        with self._lock:
            self._generation += 1
            self._changed.notify_all()
            for process in self._processes:
                if process.poll() is None:
                    process.terminate()
            self._processes = []

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
                self._processes = [p for p in self._processes if p.poll() is None] + [process]
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


class SearchConfig(Config):
    enabled = c.Type(bool, default=True)
    """Turn the search off (the header then has no search box)."""
    part_mib = c.Type(int, default=PART_MIB)
    """A language with more MiB of HTML than this is indexed in parts (see above)."""


class PagefindSearchPlugin(BasePlugin[SearchConfig]):
    def __init__(self) -> None:
        self.background: Background | None = None
        self.placed: Placed | None = None
        """A build's pages, cut for Pagefind as they are written."""

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
        self._discard()

    def on_env(self, env: Any, *, config: MkDocsConfig, files: Any) -> Any:
        # Before the build splits (site_plugins/catalog/split_pages.py): both processes place.
        if self.config.enabled and self.background is None and pages_stay_written(config):
            self.placed = Placed(Path(config.site_dir))
        return env

    @event_priority(-1_000_000)  # the very last: the page as MkDocs writes it
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        if self.placed is not None and output.strip():
            written = output.encode("utf-8", errors="xmlcharrefreplace")  # as MkDocs writes it
            self.placed.place(page.file.dest_uri, written)
        return output

    def on_build_error(self, *, error: Exception) -> None:
        self._discard()

    def _discard(self) -> None:
        placed, self.placed = self.placed, None
        if placed is not None:
            shutil.rmtree(placed.scratch, ignore_errors=True)

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        placed, self.placed = self.placed, None
        if not self.config.enabled:
            return
        site_dir = Path(config.site_dir)
        if self.background is not None:
            self.background.request(site_dir)
            return
        problem = index_site(site_dir, part_bytes=self.config.part_mib * MiB, placed=placed)
        if problem is not None:
            raise PluginError(f"search: Pagefind could not index {site_dir}: {problem}")


def pages_stay_written(config: MkDocsConfig) -> bool:
    """Whether each page stays as MkDocs writes it until the index is made: no plugin but
    rolecat's handles a page after ours, or the written site before the index."""
    return only_ours(config, ("post_page", "post_build"))
