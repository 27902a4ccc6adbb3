"""One file fetched as the server fetches it: ``http(s)://`` only, no redirects, 2xx only,
one timeout for the whole request, at most 1,000,000 bytes however they arrive."""

from __future__ import annotations

import contextlib
import http.client
import re
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from build_tools.sources.formats import EXTENSIONS, Format
from build_tools.sources.javascript import trim
from build_tools.sources.json_reader import MAX_FILE_BYTES, TIMEOUT_SECONDS

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
"""What ``fetch(..., {redirect: 'error'})`` turns into an error instead of following."""

MISSING_STATUSES = frozenset({404, 410})
"""How a host says it has no such file (``check --against`` then tries the other generation)."""

GENERATIONS: dict[Format, str] = {"json": "JSON generation", "yaml": "YAML generation"}
"""How each server generation is named in what ``verify`` prints."""

PARSERS: dict[Format, str] = {"json": "JSON.parse", "yaml": "YAML parser"}

_INDEXES = frozenset(f"index{extension}" for extension in EXTENSIONS.values())

_CHUNK = 64 * 1024
_TITLE = re.compile(rb"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
HTML = re.compile(rb"(?:\xef\xbb\xbf)?[ \t\r\n]*<[!?a-z]", re.IGNORECASE)
"""A body that starts like markup: neither JSON nor a YAML catalog can."""


class BaseUrlError(ValueError):
    """A base URL the server would not accept: a usage error, not a failed deploy."""


_NOT_IN_URLS = "\"'<>\\^`{|}"
"""Characters that RFC 3986 leaves out of URLs (and ``'``, which ends an HTML attribute too)."""


def normalize_base(base: str) -> str:
    """The base as the server uses it: trimmed, ``http(s)://`` only, trailing slashes stripped."""
    base = trim(base)  # as the server reads AI_AGENT_ROLES_CATALOG_URL
    if any(
        character.isspace() or ord(character) < 0x20 or ord(character) == 0x7F for character in base
    ):
        raise BaseUrlError(f"the base URL holds a space or a control character: {base!r}")
    unsafe = sorted(set(base) & set(_NOT_IN_URLS))
    if unsafe:  # RFC 3986 lets none of them in raw; a page that embeds the URL would break
        raise BaseUrlError(
            f"the base URL holds {' '.join(unsafe)}, which a URL carries only percent-encoded: "
            f"{base!r}"
        )
    try:
        parts = urlsplit(base)
        parts.port  # noqa: B018 (urllib checks the port only when asked for it)
    except ValueError as error:
        raise BaseUrlError(f"not a well-formed URL: {base!r} ({error})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BaseUrlError(
            f"not an http:// or https:// URL: {base!r} (the server only fetches from http(s) URLs)"
        )
    if parts.query or parts.fragment:
        raise BaseUrlError(
            f"the base URL must not carry a query or fragment: {base!r} (the server appends "
            "/index.json to it)"
        )
    return base.rstrip("/")


class FetchError(OSError):
    """One file the server could not read, and why; ``OSError`` so ``load_catalog`` reports it.

    ``missing`` when the host says it has no such file: 404, 410 or an HTML page in its place.
    """

    def __init__(
        self, url: str, message: str, rule: str = "fetch", *, missing: bool = False
    ) -> None:
        super().__init__(0, message)
        self.url = url
        self.message = message
        self.rule = rule
        self.missing = missing

    def __str__(self) -> str:
        return f"{self.url}: {self.message}"


@dataclass(frozen=True)
class Fetched:
    """A body the server would accept at the HTTP level (it may still not be JSON)."""

    url: str
    body: bytes
    content_type: str


def fetch(url: str, timeout: float = TIMEOUT_SECONDS, max_bytes: int = MAX_FILE_BYTES) -> Fetched:
    """GET one URL with the server's rules; raise :class:`FetchError` saying what went wrong.

    The timeout covers the whole request: a watchdog shuts the socket down at the deadline, so a
    host that drips one byte at a time cannot keep us (or the server) waiting.
    """
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        port = parts.port
    except ValueError:
        raise FetchError(url, "invalid port in the URL") from None
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        connection = http.client.HTTPSConnection(
            parts.hostname or "", port, timeout=timeout, context=ssl.create_default_context()
        )
    else:
        connection = http.client.HTTPConnection(parts.hostname or "", port, timeout=timeout)
    expired = threading.Event()
    # Kept here because http.client lets go of the socket once a response will close it.
    sockets: list[socket.socket] = []

    def abort() -> None:
        expired.set()
        for sock in sockets:
            # The plain socket's shutdown, so an SSL socket's state is left alone.
            with contextlib.suppress(OSError):
                socket.socket.shutdown(sock, socket.SHUT_RDWR)

    watchdog = threading.Timer(timeout, abort)
    watchdog.daemon = True
    response: http.client.HTTPResponse | None = None
    received = 0
    started = time.monotonic()
    watchdog.start()
    try:
        connection.connect()
        if connection.sock is not None:
            sockets.append(connection.sock)
        connection.request("GET", target, headers={"Accept": "*/*", "User-Agent": "rolecat"})
        response = connection.getresponse()
        status = response.status
        if status in REDIRECT_STATUSES:
            raise FetchError(
                url,
                _redirect_message(url, status, response.getheader("Location")),
                "fetch-redirect",
            )
        if not 200 <= status < 300:
            raise FetchError(
                url,
                f"HTTP {status} {response.reason}: the server refuses non-2xx answers",
                "fetch-status",
                missing=status in MISSING_STATUSES,
            )
        declared = _content_length(response.getheader("Content-Length"))
        if declared is not None and declared > max_bytes:
            raise FetchError(
                url,
                f"Content-Length is {declared:,} bytes; the server refuses files over "
                f"{max_bytes:,} bytes",
                "fetch-too-large",
            )
        chunks = []
        while True:
            chunk = response.read1(min(_CHUNK, max_bytes + 1 - received))
            if not chunk:
                break
            chunks.append(chunk)
            received += len(chunk)
            if received > max_bytes:
                raise FetchError(
                    url,
                    f"body is over {max_bytes:,} bytes (stopped reading at {received:,}"
                    f"{'' if declared is None else f'; Content-Length said {declared:,}'}); "
                    "the server counts the bytes as they arrive and refuses the file",
                    "fetch-too-large",
                )
        if expired.is_set():
            raise _timed_out(url, timeout, received)
        if declared is not None and received < declared:
            raise FetchError(
                url,
                "connection closed before the whole body arrived "
                f"({received:,} of {declared:,} declared bytes)",
                "fetch-incomplete",
            )
        return Fetched(url, b"".join(chunks), response.getheader("Content-Type") or "")
    except FetchError:
        raise
    except (OSError, http.client.HTTPException, ValueError) as error:
        if expired.is_set() or time.monotonic() - started >= timeout:
            raise _timed_out(url, timeout, received) from None
        raise FetchError(url, _describe_error(error)) from None
    finally:
        watchdog.cancel()
        if response is not None:
            response.close()
        connection.close()


def _content_length(value: str | None) -> int | None:
    if value is None or not value.strip().isdigit():
        return None
    return int(value.strip())


def _timed_out(url: str, timeout: float, received: int) -> FetchError:
    return FetchError(
        url,
        f"timed out after {timeout:g} s with {received:,} body bytes received; the server gives "
        f"up on a request (connect, headers and body together) after {TIMEOUT_SECONDS:g} s",
        "fetch-timeout",
    )


def _redirect_message(url: str, status: int, location: str | None) -> str:
    if not location:
        return f"HTTP {status} redirect without a Location; the server refuses redirects"
    target = urljoin(url, location)
    message = (
        f"HTTP {status} redirect to {target}; the server refuses redirects (fetch with "
        "redirect: 'error')"
    )
    relpath = url.rsplit("/", 1)[-1]
    if relpath in _INDEXES and target.endswith(f"/{relpath}"):
        message += (
            f": set AI_AGENT_ROLES_CATALOG_URL to {target.removesuffix('/' + relpath)} instead"
        )
    else:
        message += ": serve the file itself at this URL"
    return message


def _describe_error(error: BaseException) -> str:
    if isinstance(error, socket.gaierror):
        return f"cannot resolve the host name ({error.strerror})"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused: nothing listens at this host and port"
    if isinstance(error, ssl.SSLError):
        return f"TLS error: {error.reason or error}"
    if isinstance(error, http.client.IncompleteRead):
        return "connection closed before the whole body arrived"
    if isinstance(error, http.client.HTTPException):
        return f"not a valid HTTP answer ({type(error).__name__}: {error})"
    if isinstance(error, OSError) and error.strerror:
        return f"cannot fetch: {error.strerror}"
    return f"cannot fetch: {error}"


def html_message(fetched: Fetched, format: Format) -> str:
    content_type = fetched.content_type or "none"
    found = _TITLE.search(fetched.body[:4096])
    title = found.group(1).decode("utf-8", "replace").strip() if found else ""
    about = f' (title "{" ".join(title.split())[:80]}")' if title else ""
    return (
        f"answered with an HTML page{about}, Content-Type {content_type}: this is not "
        f"{format.upper()}, so the server's {PARSERS[format]} fails. Is the file published at "
        "this path, or does the host serve an error or fallback page with status 200?"
    )
