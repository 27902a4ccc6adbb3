"""A fast edit-preview loop: ``mkdocs serve --dirty`` rebuilds only the pages an edit changed.

MkDocs 1.6 counts every generated file as modified, so ``--dirty`` alone rebuilds the whole site.
Generated files here say whether they changed since the last build. What ``--dirty`` leaves to
plugins is done here too: the pages of removed roles are deleted and hand-written pages are
rebuilt when the navigation changes.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import gc
import hashlib
import logging
import mimetypes
import os
from collections.abc import Container, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache
from mkdocs.livereload import LiveReloadServer
from mkdocs.structure.files import File, Files

from build_tools.history.feeds import Feed
from build_tools.history.versions import History
from build_tools.reuse import Reuse
from build_tools.wire import judged
from site_plugins.rendering import KeptPages


class GeneratedFile(File):
    """A generated file that knows whether its content changed since the previous build."""

    changed: bool = True

    def is_modified(self) -> bool:
        return self.changed


class CompiledTemplates(jinja2.BytecodeCache):
    """The theme's templates, compiled once per preview session instead of at every rebuild
    (MkDocs makes a new template environment each time). Jinja2 checks each template's source
    checksum, so an edited template is compiled again."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


class DirtyBuildNotice(logging.Filter):
    """Drops MkDocs' warning about dirty builds: here they are exact, and under ``strict`` the
    warning would abort every rebuild of the preview."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "A 'dirty' build is being performed" not in record.getMessage()


def digest(*parts: object) -> str:
    """A fingerprint of what a file shows; texts and bytes are hashed without copying them."""
    hasher = hashlib.sha1()
    for part in parts:
        if isinstance(part, bytes):
            hasher.update(part)
        elif isinstance(part, str):
            hasher.update(part.encode("utf-8", "surrogatepass"))
        else:
            hasher.update(repr(part).encode("utf-8", "surrogatepass"))
        hasher.update(b"\0")
    return hasher.hexdigest()


_NOTHING = object()


class Incremental:
    """What the previous build published, to tell a dirty rebuild what changed."""

    def __init__(self) -> None:
        self.site_wide = ""
        self.shown: dict[str, object] = {}

    def mark(self, files: Files, shown: dict[str, object], site_wide: str, site_dir: Path) -> None:
        """Flag each generated file changed or not; clear what a dirty build would leave stale.

        ``shown`` is what each generated file shows (its bytes, a page's HTML and title...),
        compared by equality: an unchanged page's HTML is the same object as before, which
        compares at once, where hashing every page would take longer than the edit's own work.
        """
        everything = site_wide != self.site_wide
        for file in files:
            if isinstance(file, GeneratedFile):
                file.changed = everything or self.shown.get(file.src_uri, _NOTHING) != shown.get(
                    file.src_uri, _NOTHING
                )
            elif everything and file.is_documentation_page():
                # A hand-written page carries the navigation too: without its output MkDocs
                # rebuilds it.
                _remove(site_dir / file.dest_uri)
        for gone in self.shown.keys() - shown.keys():
            _remove(site_dir / _dest_uri(gone))
        self.shown, self.site_wide = shown, site_wide


POLLING_INTERVAL = 0.1
"""Seconds between two looks at the watched files (MkDocs: 0.5 s, on average a quarter of a
second before a save is even noticed). A look lists a few directories: a catalog of 500 roles has
some 50 files, and the theme is not watched. MkDocs' build delay stays 0.1 s: a save that one
look catches half written, the next sees done, and the two make one rebuild."""


@dataclass
class PreviewState:
    """What ``mkdocs serve`` keeps from one rebuild to the next; it exists only while serving.

    Each memo holds what the last build made, reused as it is while its input is the same."""

    incremental: Incremental | None
    """With ``--dirty`` (``make serve``): which pages an edit changed."""
    memo: judged.Memo = field(default_factory=judged.Memo)
    """The raw files the last check wrote and judged."""
    render_memo: dict[Hashable, str] = field(default_factory=dict)
    reuse: Reuse = field(default_factory=Reuse)
    kept: KeptPages = field(default_factory=KeptPages)
    sums: dict[str, tuple[bytes, str]] = field(default_factory=dict)
    """The raw files' SHA-256 by path, with the bytes they were computed from."""
    feeds: dict[str, tuple[Feed, bytes]] = field(default_factory=dict)
    compiled_templates: CompiledTemplates = field(default_factory=CompiledTemplates)
    compiled_pages: CompiledTemplates = field(default_factory=CompiledTemplates)
    committed: History | None = None
    """The committed history, reused while HEAD stays the same."""
    last_good: list[str] = field(default_factory=list)
    """Page paths of the last good build: while the catalog is broken each shows the problems,
    so a browser that live-reloads any role page lands on them instead of a 404."""

    @classmethod
    def start(cls, *, dirty: bool) -> PreviewState:
        incremental = Incremental() if dirty else None
        if incremental is not None:
            logging.getLogger("mkdocs.commands.build").addFilter(DirtyBuildNotice())
        # The preview serves the raw YAML as the manual asks of every host (deploying.md): as
        # text a browser shows (MkDocs would send application/octet-stream, which it downloads).
        mimetypes.add_type(YAML_CONTENT_TYPE, ".yaml")
        return cls(incremental)


YAML_CONTENT_TYPE = "text/yaml; charset=utf-8"
"""Shown as text by browsers (``application/yaml`` is downloaded) and decoded as UTF-8."""


def quicken(server: LiveReloadServer) -> None:
    """Notice a save sooner: MkDocs 1.6 has no option for its watcher's polling interval, so it
    is set on watchdog's polling observer and on each of its watches (``mkdocs serve`` starts the
    observer after the plugins' ``on_serve``). Left as it was where watchdog differs."""
    observer: Any = server.observer
    with contextlib.suppress(AttributeError, TypeError):
        if observer.timeout > POLLING_INTERVAL:
            observer._timeout = POLLING_INTERVAL  # the watches added from here on
            for emitter in observer.emitters:
                emitter._timeout = POLLING_INTERVAL


def return_free_memory() -> None:
    """Collect, then hand freed heap pages back to the system (glibc's ``malloc_trim``).

    CPython keeps freed memory for reuse, but a single large allocation (a search index of
    hundreds of megabytes) is served by fresh pages: without this, the peak is both together.
    Elsewhere than glibc this does nothing but collect.
    """
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        _libc().malloc_trim(0)


@functools.cache
def _libc() -> ctypes.CDLL:
    """Looked up once: ``find_library`` runs ``ldconfig`` in a process of its own."""
    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")


def _dest_uri(src_uri: str) -> str:
    """Where a generated file was written: a page's ``index.md`` as ``index.html``, any other
    file (a role's ``.claude.md`` and ``.agent.md`` exports among them) as it is."""
    if src_uri == "index.md" or src_uri.endswith("/index.md"):
        return src_uri.removesuffix(".md") + ".html"
    return src_uri


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.remove(path)


def read_unread_pages(files: Files, config: Any, generated: Container[str]) -> None:
    """``--dirty`` reads only the pages it rebuilds, and a page never read has no title: the
    sidebar would show "None" for each hand-written page an edit did not touch."""
    for file in files.documentation_pages():
        page = file.page
        if page is not None and page.markdown is None and file.src_uri not in generated:
            page.read_source(config)
