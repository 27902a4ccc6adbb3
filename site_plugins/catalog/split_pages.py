"""``mkdocs build`` writes its pages in two processes: MkDocs renders them one by one, on one core.

Once every page is read and the template environment is made (``on_env``), the build forks. Both
processes then go through MkDocs' own page loop, and each page is rendered by the first of the
two to reach its run of :data:`CLAIM_PAGES` pages (:class:`Claims`, in memory both share): the
second process starts on the pages at once, the first once it has copied the static files and
written the sitemap, and both end together, whatever each had to do besides (the exports' files
take a second or more to copy on some disks, none on others). In the second process every other
file is marked excluded, and it has no templates of its own to write. A page the other process
renders is rendered here as nothing (``page.meta`` ``rolecat_skip``: ``templates/overrides/
main.html`` then extends an empty template, and MkDocs writes no file for an empty page). Both
render with the same state, from the same fork, through the same code: the pages are the ones one
process writes, byte for byte.

What the second process logs is held and logged again by the first once it is done (before any
plugin's ``on_post_build``), so a strict build counts its warnings, and its failure fails the
build with one line. It always ends with ``os._exit``: nothing it inherited (temporary
directories, the staging directory) is cleaned up twice.

The build splits only where that changes nothing but the time: a ``mkdocs build`` (a preview
rebuilds a few pages), on a system with ``fork``, with no thread but the build's own running, at
least :data:`SPLIT_PAGES` pages, no plugin but rolecat's that handles a page as it is rendered
(another plugin's ``on_page_context`` or ``on_post_page`` would see half the pages), and a build
holding at most :data:`SPLIT_MEMORY_MIB`: the fork's own memory grows to about half of what it
shares (the pages it renders, the objects it touches), and a large catalog's build stays within
its memory in one process.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import mmap
import multiprocessing
import os
import pickle
import resource
import signal
import sys
import threading
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

from site_plugins.catalog.plugin_events import only_ours

log = logging.getLogger("mkdocs.plugins.roles-catalog")

SPLIT_PAGES = 200
"""Fewer pages than this are rendered in one process: the fork would cost more than it saves."""
SPLIT_MEMORY_MIB = 400
"""A build holding more than this renders in one process: with a fork's half again, it would
pass 600 MiB (5,000 roles x 2 languages hold some 560 MiB here)."""
CLAIM_PAGES = 25
"""Pages taken at once by the process that reaches them first: a bundle's role pages, which
share their sidebar (``nav_cache``); the two processes end at most that many pages apart."""
SKIP_KEY = "rolecat_skip"
"""In ``page.meta``: the other process renders this page."""
PAGE_EVENTS = ("page_context", "post_page")
"""The events MkDocs sends for a page as it renders it."""
_SKIPPED = "Page skipped: '{}'. Generated empty output."
"""What MkDocs logs of a page it did not write (mkdocs/commands/build.py)."""
_NEVER = 1
"""A log level below DEBUG, never logged: the second process's anchor checks (the first
process checks every page's)."""


class Claims:
    """Which process renders each page: the first to reach the run of pages it is in. Both
    processes go through the pages in the same order; a run's byte in memory they share says
    whether it is taken."""

    def __init__(self, pages: Sequence[File]) -> None:
        self._runs = {file.src_uri: number // CLAIM_PAGES for number, file in enumerate(pages)}
        self._taken = mmap.mmap(-1, max(1, len(self._runs) // CLAIM_PAGES + 1))  # shared
        self._lock = multiprocessing.get_context("fork").Lock()

    def take(self, page: Page) -> bool:
        """Whether this process renders ``page``: its run was not taken by the other yet, or
        this process took it (a page outside the build's, unknown here: the first process)."""
        run = self._runs.get(page.file.src_uri)
        if run is None:
            return not in_second()
        mine = 2 if in_second() else 1
        with self._lock:
            if not self._taken[run]:
                self._taken[run] = mine
            return self._taken[run] == mine


class SplitPages:
    """One build's pages split between this process and a forked one."""

    def __init__(self, pid: int, reader: int, claims: Claims) -> None:
        self.pid, self._reader, self.claims = pid, reader, claims
        self.skipped: dict[str, Page] = {}
        """The pages the other process renders, by source path."""
        self._quiet = _DropSkipped()
        logging.getLogger("mkdocs.commands.build").addFilter(self._quiet)

    @classmethod
    def start(cls, config: MkDocsConfig, files: Files) -> SplitPages | None:
        """Fork, where :func:`worth_it`; in the new process, set it to render its share and
        return ``None``; in this one, the split."""
        pages = files.documentation_pages(inclusion=InclusionLevel.is_included)
        if not worth_it(config, len(pages)):
            log.debug(f"the {len(pages)} pages are rendered here, in one process")
            return None
        log.debug(f"the {len(pages)} pages rendered in two processes")
        claims = Claims(pages)
        reader, writer = os.pipe()
        gc.freeze()  # the objects both share: no collection in the child touches (copies) them
        pid = os.fork()
        if pid == 0:
            os.close(reader)
            _become_second(config, files, claims, writer)
            return None
        gc.unfreeze()
        os.close(writer)
        return cls(pid, reader, claims)

    def renders(self, page: Page) -> bool:
        """Whether this process renders ``page``; if not, it is rendered here as nothing."""
        if self.claims.take(page):
            return True
        self.skipped[page.file.src_uri] = page
        page.meta[SKIP_KEY] = True
        self._quiet.lines.add(_SKIPPED.format(page.file.src_uri))
        return False

    def join(self) -> None:
        """Wait for the other process; log what it logged; fail as it failed."""
        logging.getLogger("mkdocs.commands.build").removeFilter(self._quiet)
        here = time.monotonic()
        with os.fdopen(self._reader, "rb") as stream:
            sent = stream.read()  # to its end before waiting: a full pipe would block it
        _pid, status = os.waitpid(self.pid, 0)
        records, failure, there = pickle.loads(sent) if sent else ([], None, here)
        log.debug(
            f"the fork rendered {len(self.skipped)} pages and ended {there - here:+.2f} s after "
            "this process's pages"
        )
        for record in records:
            logging.getLogger(record.name).handle(record)
        if failure is None and os.waitstatus_to_exitcode(status) != 0:
            failure = f"it ended with status {os.waitstatus_to_exitcode(status)}"
        for page in self.skipped.values():
            page.meta.pop(SKIP_KEY, None)
        if failure is not None:
            raise PluginError(f"roles-catalog: the pages rendered in a second process: {failure}")

    def stop(self) -> None:
        """The build failed here: end the other process too."""
        logging.getLogger("mkdocs.commands.build").removeFilter(self._quiet)
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.waitpid(self.pid, 0)
        with contextlib.suppress(OSError):
            os.close(self._reader)


def worth_it(config: MkDocsConfig, pages: int) -> bool:
    """Whether splitting changes nothing but the time (see the module): no page event but
    rolecat's plugins' (``site_plugins``)."""
    if not hasattr(os, "fork") or pages < SPLIT_PAGES or threading.active_count() != 1:
        return False
    if held_mib() > SPLIT_MEMORY_MIB:
        return False
    return only_ours(config, PAGE_EVENTS)


def held_mib() -> float:
    """The most this process has held so far (its peak resident set), in MiB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)  # bytes there, KiB here


# --- the second process --------------------------------------------------------------------


@dataclass
class _Second:
    """The forked process's state: where it sends what it logged, and what it logged."""

    writer: int | None = None
    records: list[logging.LogRecord] = field(default_factory=list)
    split: SplitPages | None = None
    """Its side of the split: which pages it renders."""


_second = _Second()


class _Hold(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        _second.records.append(record)


class _DropSkipped(logging.Filter):
    """MkDocs' line for each page the other process writes, which this one left empty."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() not in self.lines


def _become_second(config: MkDocsConfig, files: Files, claims: Claims, writer: int) -> None:
    """Render only pages from here on, those ``claims`` gives it: every other file excluded, no
    templates of the theme's or the config's, no anchors checked (the first process checks them
    all), and what is logged held for the first process."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C: gone at once, nothing cleaned up
    _second.writer = writer
    root = logging.getLogger("mkdocs")
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.addHandler(_Hold())
    _second.split = SplitPages(os.getppid(), -1, claims)
    for file in files:
        if not file.is_documentation_page():
            file.inclusion = InclusionLevel.EXCLUDED
    config.theme.static_templates.clear()
    config.extra_templates.clear()
    config.validation.links.anchors = _NEVER


def in_second() -> bool:
    return _second.writer is not None


def renders(split: SplitPages | None, page: Page) -> bool:
    """Whether this process renders ``page``: ``split`` is the first process's split (``None``
    in the second process, whose split is its own, and in a build that did not split)."""
    here = split if split is not None else _second.split
    return here is None or here.renders(page)


def end_second(error: BaseException | None = None) -> None:
    """In the second process: send what it logged (and why it failed) and end it."""
    status = 0 if error is None else 1
    try:
        failure = None
        if error is not None:
            failure = str(error) or type(error).__name__
            if not isinstance(error, PluginError):
                detail = "".join(traceback.format_exception(error))
                _second.records.append(_record(logging.DEBUG, detail))
        records = [_sendable(record) for record in _second.records]
        data = pickle.dumps((records, failure, time.monotonic()))
        assert _second.writer is not None
        with os.fdopen(_second.writer, "wb") as stream:
            stream.write(data)
    except BaseException:  # whatever happens, the process ends here
        status = 2
    finally:
        os._exit(status)


def _record(level: int, message: str) -> logging.LogRecord:
    return logging.LogRecord("mkdocs.plugins.roles-catalog", level, __file__, 0, message, (), None)


def _sendable(record: logging.LogRecord) -> logging.LogRecord:
    """The record with its message made: its arguments may not pickle."""
    copy = logging.makeLogRecord(record.__dict__)
    copy.msg, copy.args = record.getMessage(), ()
    if record.exc_info:
        copy.exc_text = "".join(traceback.format_exception(*record.exc_info))
    copy.exc_info = None
    return copy
