"""Read a published catalog the way the server does: ``rolecat verify`` and ``check --against``.

The server (see DESIGN.md, "Wire contract") strips trailing slashes from its base URL, refuses
redirects and non-2xx answers, gives each request 10 s in total, refuses bodies over 1,000,000 bytes
however they arrive, and parses them: its earlier generation ``index.json`` and
``bundles/<id>/<lang>.json`` with ``JSON.parse``, its current one the same paths in ``.yaml`` with a
strict YAML 1.2 parser. A deploy is only proven when a client with exactly those rules can read it,
so this module is that client, once per generation; everything after the bytes (parsing, schemas,
cross-file rules, content hashes) is the catalog core, unchanged.
"""

from __future__ import annotations

import contextlib
import http.client
import re
import socket
import ssl
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from build_tools.diagnostics import Diagnostic, Pointer, describe_pointer
from build_tools.lock import Entry, current_entries
from build_tools.model.catalog import (
    BUNDLES_DIR,
    ID_PATTERN,
    INDEX,
    Catalog,
    DirectorySource,
    load_catalog,
    wire_path,
)
from build_tools.rules.across_files import run_rules
from build_tools.rules.server_contract import SERVER_RULES, js_trim
from build_tools.sources.formats import EXTENSIONS, Format
from build_tools.sources.javascript import ID_SOURCE
from build_tools.sources.json_reader import MAX_FILE_BYTES, TIMEOUT_SECONDS
from build_tools.wire import raw_tree

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
_HTML = re.compile(rb"(?:\xef\xbb\xbf)?[ \t\r\n]*<[!?a-z]", re.IGNORECASE)
"""A body that starts like markup: neither JSON nor a YAML catalog can."""


class BaseUrlError(ValueError):
    """A base URL the server would not accept: a usage error, not a failed deploy."""


def normalize_base(base: str) -> str:
    """The base as the server uses it: trimmed, ``http(s)://`` only, trailing slashes stripped."""
    base = js_trim(base)  # as the server reads AI_AGENT_ROLES_CATALOG_URL
    if any(
        character.isspace() or ord(character) < 0x20 or ord(character) == 0x7F for character in base
    ):
        raise BaseUrlError(f"the base URL holds a space or a control character: {base!r}")
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


def _html_message(fetched: Fetched, format: Format) -> str:
    content_type = fetched.content_type or "none"
    found = _TITLE.search(fetched.body[:4096])
    title = found.group(1).decode("utf-8", "replace").strip() if found else ""
    about = f' (title "{" ".join(title.split())[:80]}")' if title else ""
    return (
        f"answered with an HTML page{about}, Content-Type {content_type}: this is not "
        f"{format.upper()}, so the server's {PARSERS[format]} fails. Is the file published at "
        "this path, or does the host serve an error or fallback page with status 200?"
    )


@dataclass
class RemoteSource:
    """One generation of a published catalog as a :class:`CatalogSource`, read as the server does.

    Each file is fetched once. Only ``index.<ext>`` and ``bundles/<id>/<lang>.<ext>`` of this
    generation's format, with ids and languages matching ``^[a-z0-9-]+$``, are ever requested; the
    check comes before the URL is built.
    """

    base: str
    timeout: float = TIMEOUT_SECONDS
    format: Format = "json"
    fetched: dict[str, Fetched] = field(default_factory=dict)
    failures: dict[str, FetchError] = field(default_factory=dict)

    @property
    def index(self) -> str:
        return f"index{EXTENSIONS[self.format]}"

    def url(self, relpath: str) -> str:
        return f"{self.base}/{relpath}"

    def read_inside(self, relpath: str) -> bytes | None:
        return None  # published files carry their instructions inline

    def read(self, relpath: str) -> bytes | None:
        extension = EXTENSIONS[self.format]
        if not relpath.endswith(extension):
            return None  # each generation fetches its own format only (never .yml)
        if relpath in self.fetched:
            return self.fetched[relpath].body
        if relpath in self.failures:
            raise self.failures[relpath]
        if not _servable(relpath, extension):
            raise FetchError(
                f"{self.base}/…",
                f"refused to build a URL for {relpath!r}: bundle ids and languages must match "
                f"{ID_SOURCE}",
                "fetch-refused-url",
            )
        url = self.url(relpath)
        try:
            fetched = fetch(url, self.timeout)
            if _HTML.match(fetched.body):
                raise FetchError(
                    url, _html_message(fetched, self.format), "fetch-html", missing=True
                )
        except FetchError as error:
            self.failures[relpath] = error
            raise
        self.fetched[relpath] = fetched
        return fetched.body

    def listing(self) -> list[str] | None:
        return None  # a static host cannot list a directory; undeclared files are unknowable


def _servable(relpath: str, extension: str) -> bool:
    if relpath == f"index{extension}":
        return True
    parts = relpath.split("/")
    return (
        len(parts) == 3
        and parts[0] == BUNDLES_DIR
        and bool(ID_PATTERN.match(parts[1]))
        and parts[2].endswith(extension)
        and bool(ID_PATTERN.match(parts[2].removesuffix(extension)))
    )


@dataclass(frozen=True)
class Problem:
    """One failure of a published catalog, named by its URL."""

    url: str
    line: int
    col: int
    message: str
    rule: str = "fetch"
    pointer: Pointer = ()

    def diagnostic(self) -> Diagnostic:
        """The same problem as every other: its file is the URL (how ``--format`` shows it)."""
        return Diagnostic(self.url, self.line, self.col, self.message, self.rule, self.pointer)

    def __str__(self) -> str:
        where = f":{self.line}:{self.col}" if self.line else ""
        return f"{self.url}{where}: {self.message}"


@dataclass
class Remote:
    """What reading one generation of a published catalog found: its catalog, its problems."""

    source: RemoteSource
    catalog: Catalog | None
    problems: list[Problem]

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def format(self) -> Format:
        return self.source.format

    @property
    def generation(self) -> str:
        return GENERATIONS[self.source.format]


def read_remote(base: str, timeout: float = TIMEOUT_SECONDS, format: Format = "json") -> Remote:
    """Fetch one generation's index, then every declared bundle file, then run every rule of check.

    Raises :class:`BaseUrlError` for a base the server would not use.
    """
    source = RemoteSource(normalize_base(base), timeout, format)
    catalog, diagnostics = load_catalog(source)
    if catalog is not None:
        diagnostics += run_rules(catalog)
        diagnostics += [d for d in run_rules(catalog, SERVER_RULES) if d.severity == "error"]
    problems = []
    for diagnostic in sorted(set(diagnostics)):
        failure = source.failures.get(diagnostic.file)
        if failure is not None and diagnostic.rule == "unreadable":
            problems.append(Problem(failure.url, 0, 0, failure.message, failure.rule))
        else:
            problems.append(
                Problem(
                    source.url(diagnostic.file),
                    diagnostic.line,
                    diagnostic.col,
                    diagnostic.message,
                    diagnostic.rule,
                    diagnostic.pointer,
                )
            )
    return Remote(source, catalog, problems)


def compare_generations(remotes: Sequence[Remote]) -> list[Problem]:
    """Where a deploy publishes both generations, each ``.yaml`` file must give exactly the
    values of its ``.json`` twin: a file cut short or edited by hand would otherwise serve one
    generation of the server other prompts than the other. Names each file and the first field
    that differs."""
    by_format = {remote.format: remote for remote in remotes if remote.catalog is not None}
    json_remote, yaml_remote = by_format.get("json"), by_format.get("yaml")
    if json_remote is None or yaml_remote is None:
        return []
    assert json_remote.catalog is not None and yaml_remote.catalog is not None
    pairs = [(json_remote.catalog.index, yaml_remote.catalog.index)]
    yaml_bundles = {bundle.id: bundle for bundle in yaml_remote.catalog.bundles}
    for bundle in json_remote.catalog.bundles:
        twin = yaml_bundles.get(bundle.id)
        for language, file in bundle.files.items():
            other = twin.files.get(language) if twin is not None else None
            if other is not None:
                pairs.append((file.document, other.document))
    problems = []
    for json_document, yaml_document in pairs:
        pointer = _first_difference(json_document.data, yaml_document.data, ())
        if pointer is not None:
            problems.append(
                Problem(
                    yaml_remote.source.url(yaml_document.path),
                    0,
                    0,
                    f"differs from {json_remote.source.url(json_document.path)} at "
                    f'"{describe_pointer(pointer)}": the two generations of the server would read '
                    "different values; publish both from one build",
                    "generations-differ",
                    pointer,
                )
            )
    return problems


def _first_difference(left: Any, right: Any, pointer: Pointer) -> Pointer | None:
    """Where two JSON values first differ (an object's keys in the left one's order)."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in [*left, *(k for k in right if k not in left)]:
            if key not in left or key not in right:
                return (*pointer, key)
            found = _first_difference(left[key], right[key], (*pointer, key))
            if found is not None:
                return found
        return None
    if isinstance(left, list) and isinstance(right, list):
        for position, (a, b) in enumerate(zip(left, right, strict=False)):
            found = _first_difference(a, b, (*pointer, position))
            if found is not None:
                return found
        return None if len(left) == len(right) else (*pointer, min(len(left), len(right)))
    both_numbers = _is_number(left) and _is_number(right)
    return None if (type(left) is type(right) or both_numbers) and left == right else pointer


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def read_live(base: str, timeout: float = TIMEOUT_SECONDS) -> Remote:
    """The live catalog for a comparison: its JSON generation, or its YAML one where it has only
    that (no ``index.json``, but an ``index.yaml``)."""
    remote = read_remote(base, timeout, "json")
    failure = remote.source.failures.get(INDEX)
    if failure is None or not failure.missing:
        return remote
    fallback = read_remote(base, timeout, "yaml")
    return fallback if fallback.source.index in fallback.source.fetched else remote


@dataclass(frozen=True)
class Summary:
    """What one generation read: ``2 bundles, 2 languages (en, ru), 6 roles, 5 .json files, …``."""

    bundles: int
    languages: list[str]
    files: int
    roles: int
    bytes: int
    extension: str = ".json"

    def __str__(self) -> str:
        def plural(n: int, word: str) -> str:
            return f"{n:,} {word}{'' if n == 1 else 's'}"

        return (
            f"{plural(self.bundles, 'bundle')}, {plural(len(self.languages), 'language')} "
            f"({', '.join(self.languages)}), {plural(self.roles, 'role')}, "
            f"{plural(self.files, self.extension + ' file')}, {plural(self.bytes, 'byte')}"
        )


def summarize(remote: Remote) -> Summary:
    catalog = remote.catalog
    bundles = catalog.bundles if catalog is not None else []
    languages = sorted({language for bundle in bundles for language in bundle.files})
    roles = len({slug for bundle in bundles for _, slug, _ in bundle.roles})
    fetched = remote.source.fetched.values()
    return Summary(
        len(bundles),
        languages,
        len(fetched),
        roles,
        sum(len(f.body) for f in fetched),
        EXTENSIONS[remote.format],
    )


@dataclass(frozen=True)
class Freshness:
    """How one published file compares with the file a build of the local catalog publishes."""

    relpath: str
    url: str
    state: str  # "current", "differs", "not published", "not local", "unread"

    @property
    def current(self) -> bool:
        return self.state == "current"

    @property
    def stale(self) -> bool:
        """Known to differ from the build; an ``unread`` file is neither current nor stale."""
        return self.state not in ("current", "unread")


class NotBuildable(Exception):
    """The local catalog fails its check, so there is no build to compare a deploy with."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__(f"{len(diagnostics)} problem{'s' if len(diagnostics) != 1 else ''}")
        self.diagnostics = diagnostics


def compare_files(remotes: Sequence[Remote], root: Path) -> list[Freshness]:
    """Is this deploy current? Every file each generation read against what a build of DIR
    publishes at the same path, after inlining and conversion.

    Files a build of the local catalog publishes but the site lacks are listed too: a deploy that
    predates a new bundle or language is stale even if every file it has is identical. Raises
    :class:`NotBuildable` where the local catalog fails its rules (the lock aside).
    """
    local_catalog, problems = load_catalog(DirectorySource(root))
    if local_catalog is not None:
        problems += run_rules(local_catalog)
    if local_catalog is None or problems:
        raise NotBuildable(sorted(set(problems)))
    expected = raw_tree.raw_files(local_catalog, [remote.format for remote in remotes])
    found = []
    for remote in remotes:
        index, fetched = remote.source.index, remote.source.fetched
        mine = {
            path: data
            for path, data in expected.items()
            if path.endswith(EXTENSIONS[remote.format])
            and not path.startswith(f"{raw_tree.SCHEMA_DIR}/")
        }
        for relpath in sorted(set(fetched) | set(mine), key=lambda p: (p != index, p)):
            published, built = fetched.get(relpath), mine.get(relpath)
            failure = remote.source.failures.get(relpath)
            if published is None and (
                (failure is not None and not failure.missing)
                or (failure is None and remote.catalog is None)
            ):
                state = "unread"  # refused (redirect, cap, ...), or its index was unusable
            elif published is None:
                state = "not published"
            elif built is None:
                state = "not local"
            else:
                state = "current" if published.body == built else "differs"
            found.append(Freshness(relpath, remote.source.url(relpath), state))
    return found


def compare_roles(local: Catalog, live: Remote) -> list[Diagnostic]:
    """Roles whose content differs from live without a higher version, or whose version went down.

    This closes the lock's known hole: a role pruned from the lock and re-added with new content at
    its old version passes ``check`` (there is no baseline), but not a comparison with what is live.
    Roles of live bundles that could not be fully read are left out rather than guessed at.
    """
    if live.catalog is None:
        return []
    base, index = live.source.base, local.index.path
    live_entries = _complete_entries(live, live.catalog)
    found = []
    for slug, mine in sorted(current_entries(local).items()):
        theirs = live_entries.get(slug)
        if theirs is None:
            continue
        if mine.version < theirs.version:
            if mine.hash == theirs.hash:
                fix = f"set it back to {_show(theirs.version)}"
            else:
                fix = f"set it above {_show(theirs.version)}"
            message = (
                f'role "{slug}" has version {_show(mine.version)} here but '
                f"{_show(theirs.version)} at {base}: versions must never go down; {fix} in "
                f"{index}, then run `rolecat check --update-hashes`"
            )
            rule = "live-version-lower"
        elif mine.hash != theirs.hash and mine.version <= theirs.version:
            message = (
                f'role "{slug}" differs from the live one at {base} (version '
                f"{_show(theirs.version)}), but its version is {_show(mine.version)} here: readers "
                f"would not see the change; bump it in {index} above {_show(theirs.version)}, then "
                "run `rolecat check --update-hashes`"
            )
            rule = "live-not-bumped"
        else:
            continue
        found.append(local.index.diagnostic(mine.pointer, message, rule))
    return found


def _complete_entries(live: Remote, catalog: Catalog) -> dict[str, Entry]:
    broken = {problem.url for problem in live.problems}
    entries = current_entries(catalog)
    extension = EXTENSIONS[live.format]
    for bundle in catalog.bundles:
        files = [
            live.source.url(wire_path(bundle.id, lang, extension)) for lang in bundle.languages
        ]
        if set(bundle.files) != set(bundle.languages) or broken.intersection(files):
            for _, slug, _ in bundle.roles:
                entries.pop(slug, None)
    return entries


def _show(value: int | float) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
