"""Real HTTP servers on loopback, started and stopped by the tests, and what they serve.

Two kinds of host: ``python -m http.server`` in a subprocess (a plain static host, as a deploy
would be), and an in-process host whose answer for each path a test scripts, to play every fault
the server must survive.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from build_tools.model.catalog import load_catalog
from build_tools.sources.formats import Format
from build_tools.wire import raw_tree


def copy_catalog(source: Path, target: Path, *, with_lock: bool = True) -> Path:
    """A writable copy (fixtures are read-only); without the lock it is what a site publishes."""
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source / "index.json", target / "index.json")
    shutil.copytree(source / "bundles", target / "bundles")
    if with_lock and (source / "content-hashes.json").exists():
        shutil.copy2(source / "content-hashes.json", target / "content-hashes.json")
    return target


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@dataclass
class StaticServer:
    """``python -m http.server`` serving one directory; ``url`` has no trailing slash."""

    url: str


Answer = Callable[[BaseHTTPRequestHandler], None]


"""How the scripted host answers one path: writes status, headers and body itself."""


def send(
    handler: BaseHTTPRequestHandler,
    body: bytes,
    *,
    status: int = 200,
    content_type: str = "application/json",
    headers: dict[str, str] | None = None,
    length: bool = True,
) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    if length:
        handler.send_header("Content-Length", str(len(body)))
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.end_headers()
    # The client may stop reading, as it should for a refused answer.
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        handler.wfile.write(body)


@dataclass
class ScriptedHost:
    """Serves a catalog's files from memory; ``answers`` overrides what one path gets."""

    files: dict[str, bytes]
    answers: dict[str, Answer] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)
    prefix: str = ""
    url: str = ""

    def handle(self, handler: BaseHTTPRequestHandler) -> None:
        self.requests.append(handler.path)
        path = handler.path.removeprefix(self.prefix).lstrip("/")
        if path in self.answers:
            self.answers[path](handler)
        elif path in self.files:
            send(handler, self.files[path])
        else:
            send(handler, b"Not Found", status=404, content_type="text/plain")


def catalog_files(root: Path) -> dict[str, bytes]:
    """The JSON sources of ``root`` by catalog-relative path: a deploy of the JSON generation."""
    files = {"index.json": (root / "index.json").read_bytes()}
    for path in sorted((root / "bundles").rglob("*.json")):
        files[path.relative_to(root).as_posix()] = path.read_bytes()
    return files


def published_files(root: Path, formats: tuple[Format, ...] = raw_tree.FORMATS) -> dict[str, bytes]:
    """What a build of ``root`` publishes for the server, in ``formats`` (no schemas, no lock)."""
    catalog, problems = load_catalog(root)
    assert catalog is not None and not problems, problems
    return {
        path: data
        for path, data in raw_tree.raw_files(catalog, formats).items()
        if not path.startswith(f"{raw_tree.SCHEMA_DIR}/")
    }


def publish(root: Path, target: Path, formats: tuple[Format, ...] = raw_tree.FORMATS) -> Path:
    """Write what a build of ``root`` publishes for the server into ``target``, as a deploy."""
    for path, data in published_files(root, formats).items():
        (target / path).parent.mkdir(parents=True, exist_ok=True)
        (target / path).write_bytes(data)
    return target


class LoopbackServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # a dripping handler must not hold up the end of a test

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients that hang up or refuse a certificate are what these tests are about


def drip(data: bytes, every: float) -> Callable[[BaseHTTPRequestHandler], None]:
    """Write raw bytes one at a time, ``every`` seconds apart, until done or the client leaves."""

    def write(handler: BaseHTTPRequestHandler) -> None:
        for byte in data:
            try:
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return
            time.sleep(every)

    return write


StartStatic = Callable[[Path], StaticServer]


"""The ``static_server`` fixture: serve a directory, get its server."""


StartHost = Callable[..., ScriptedHost]


"""The ``scripted_host`` fixture: serve files with scripted answers."""
