"""A static host that serves a built site as GitHub Pages or a CDN does: text gzipped.

Python's ``http.server`` sends every file as it is on disk, and a page tool (Lighthouse) measuring
it would judge bytes no host sends. This one, on 127.0.0.1 and a free port, from a thread:

- gzips HTML, CSS, JavaScript, JSON, SVG, XML and plain text when the request accepts gzip
  (``Content-Encoding: gzip``, ``Vary: Accept-Encoding``), each file compressed once;
- sends text with ``charset=utf-8`` and every file with ``Cache-Control: max-age=600``, as GitHub
  Pages does;
- answers a missing file with the site's ``404.html`` and status 404, as GitHub Pages does;
- otherwise behaves as ``http.server`` (a directory's ``index.html``, the redirect of a directory
  URL without its slash, ``Range`` ignored).
"""

from __future__ import annotations

import email.utils
import functools
import gzip
import io
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import urlsplit

COMPRESSED = frozenset({".html", ".css", ".js", ".mjs", ".json", ".svg", ".xml", ".txt"})
"""The text types a host compresses (GitHub Pages and CDNs compress these, and more)."""
CACHE_CONTROL = "max-age=600"
"""GitHub Pages' header on every file."""
NOT_FOUND = "404.html"


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an ``Accept-Encoding`` header accepts gzip (``gzip`` or ``*``, not at ``q=0``)."""
    for item in (accept_encoding or "").split(","):
        name, _semicolon, parameters = item.partition(";")
        if name.strip().lower() not in ("gzip", "x-gzip", "*"):
            continue
        quality = parameters.strip().lower().removeprefix("q=").strip()
        try:
            return not quality or float(quality) > 0
        except ValueError:
            return False
    return False


@functools.lru_cache(maxsize=1024)
def _compressed(path: Path, _mtime_ns: int, _size: int) -> bytes:
    """The gzip of one file (``mtime`` and size in the key: a file rewritten is compressed anew);
    no name or time in the header, so the same file always gives the same bytes."""
    return gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)


class GzipHandler(SimpleHTTPRequestHandler):
    """``http.server``'s static files, with what a real host adds (the module's docstring)."""

    def send_head(self) -> BinaryIO | None:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not urlsplit(self.path).path.endswith("/"):
                return super().send_head()  # the redirect to the URL with its slash
            path = path / "index.html"
        if not path.is_file():
            return self._not_found()
        if path.suffix.lower() not in COMPRESSED or not accepts_gzip(
            self.headers.get("Accept-Encoding")
        ):
            return super().send_head()
        return self._send(HTTPStatus.OK, path, gzipped=True)

    def _not_found(self) -> BinaryIO | None:
        page = Path(str(self.directory)) / NOT_FOUND
        if not page.is_file():
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        return self._send(
            HTTPStatus.NOT_FOUND, page, gzipped=accepts_gzip(self.headers.get("Accept-Encoding"))
        )

    def _send(self, status: HTTPStatus, path: Path, *, gzipped: bool) -> BinaryIO:
        stat = path.stat()
        body = _compressed(path, stat.st_mtime_ns, stat.st_size) if gzipped else path.read_bytes()
        self.send_response(status)
        self.send_header("Content-Type", self.guess_type(str(path)))
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", email.utils.formatdate(stat.st_mtime, usegmt=True))
        self.end_headers()
        return io.BytesIO(body)

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        found = super().guess_type(path)
        textual = found.startswith("text/") or found.endswith(("json", "xml", "javascript"))
        return f"{found}; charset=utf-8" if textual and "charset" not in found else found

    def end_headers(self) -> None:
        self.send_header("Cache-Control", CACHE_CONTROL)
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the bench's output is its report


@contextmanager
def hosted(site: Path) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1, a free port, from a thread; yields its base URL (``/`` is the
    site's root)."""
    handler = functools.partial(GzipHandler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
