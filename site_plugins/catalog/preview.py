"""A fast edit-preview loop: ``mkdocs serve --dirty`` rebuilds only the pages an edit changed.

MkDocs 1.6 counts every generated file as modified, so ``--dirty`` alone rebuilds the whole site.
Generated files here say whether they changed since the last build. What ``--dirty`` leaves to
plugins is done here too: the pages of removed roles are deleted and hand-written pages are
rebuilt when the navigation changes.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
from collections.abc import Container
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mkdocs.livereload import LiveReloadServer
from mkdocs.structure.files import File, Files

from build_tools.history.versions import History
from build_tools.reuse import Reuse
from build_tools.wire import judged
from site_plugins.catalog.timings import Timings
from site_plugins.pages.history_feeds import FeedWriter
from site_plugins.pages.memo import CompiledTemplates, PageMemo


class GeneratedFile(File):
    """A generated file that knows whether its content changed since the previous build."""

    changed: bool = True

    def is_modified(self) -> bool:
        return self.changed


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

YAML_CONTENT_TYPE = "text/yaml; charset=utf-8"
"""Shown as text by browsers (``application/yaml`` is downloaded) and decoded as UTF-8."""


@dataclass
class Preview:
    """What ``mkdocs serve`` keeps from one rebuild to the next; it exists only while serving.

    Each memo holds what the last build made, reused as it is while its input is the same."""

    incremental: Incremental | None
    """With ``--dirty`` (``make serve``): which pages an edit changed."""
    timings: Timings
    memo: judged.Memo = field(default_factory=judged.Memo)
    """The raw files the last check wrote and judged."""
    reuse: Reuse = field(default_factory=Reuse)
    pages: PageMemo = field(default_factory=PageMemo)
    sums: dict[str, tuple[bytes, str]] = field(default_factory=dict)
    """The raw files' SHA-256 by path, with the bytes they were computed from."""
    feeds: FeedWriter = field(default_factory=FeedWriter)
    compiled_templates: CompiledTemplates = field(default_factory=CompiledTemplates)
    """The theme's templates (the pages' own are in ``pages``)."""
    committed: History | None = None
    """The committed history, reused while HEAD stays the same."""
    last_good: list[str] = field(default_factory=list)
    """Page paths of the last good build: while the catalog is broken each shows the problems,
    so a browser that live-reloads any role page lands on them instead of a 404."""
    _notice: DirtyBuildNotice = field(default_factory=DirtyBuildNotice)

    @classmethod
    def start(cls, *, dirty: bool) -> Preview:
        preview = cls(Incremental() if dirty else None, Timings.from_environment())
        if dirty:
            logging.getLogger("mkdocs.commands.build").addFilter(preview._notice)
        preview.timings.follow_server()
        return preview

    def close(self) -> None:
        """The session is over: what it added to MkDocs' loggers goes with it."""
        logging.getLogger("mkdocs.commands.build").removeFilter(self._notice)
        self.timings.stop_following()


def quick_server(server: LiveReloadServer) -> LiveReloadServer:
    """The preview's server: MkDocs' own, made anew with two differences, as ``on_serve`` may.

    - It looks at the watched files every :data:`POLLING_INTERVAL` seconds: MkDocs' server takes
      the interval as an argument that ``mkdocs serve`` does not pass.
    - It serves ``.yaml`` as text a browser shows, as the manual asks of every host (deploying.md;
      MkDocs would send ``application/octet-stream``, which a browser downloads).

    Only public interfaces are used: the new server watches what MkDocs' watched (its observer's
    emitters), and the old one, never started, is closed. Nothing outside this server changes."""
    host, port = server.server_address[:2]
    quick = LiveReloadServer(
        server.builder,
        str(host),
        int(port),
        server.root,
        server.mount_path,
        polling_interval=POLLING_INTERVAL,
        shutdown_delay=server.shutdown_delay,
    )
    quick.error_handler = server.error_handler
    for watched in _watched(server):
        quick.watch(watched)
    quick.set_app(_yaml_as_text(quick.get_app()))
    server.server_close()
    return quick


def _watched(server: LiveReloadServer) -> list[str]:
    """What MkDocs' server watches: the path of each of its observer's emitters."""
    return sorted({str(emitter.watch.path) for emitter in server.observer.emitters})


def _yaml_as_text(app: Any) -> Any:
    """A WSGI middleware that sends ``.yaml`` files with :data:`YAML_CONTENT_TYPE`."""

    def serve(environ: dict[str, Any], start_response: Any) -> Any:
        if not str(environ.get("PATH_INFO", "")).endswith(".yaml"):
            return app(environ, start_response)

        def start(status: str, headers: list[tuple[str, str]], *info: Any) -> Any:
            typed = [
                (name, YAML_CONTENT_TYPE if name.lower() == "content-type" else value)
                for name, value in headers
            ]
            return start_response(status, typed, *info)

        return app(environ, start)

    return serve


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
