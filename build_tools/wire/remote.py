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

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
from build_tools.rules.secret_report import redact
from build_tools.rules.server_contract import SERVER_RULES
from build_tools.sources.formats import EXTENSIONS, Format
from build_tools.sources.javascript import ID_SOURCE
from build_tools.sources.json_reader import TIMEOUT_SECONDS
from build_tools.wire import raw_tree
from build_tools.wire.fetch import (
    GENERATIONS,
    HTML,
    Fetched,
    FetchError,
    fetch,
    html_message,
    normalize_base,
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
            if HTML.match(fetched.body):
                raise FetchError(
                    url, html_message(fetched, self.format), "fetch-html", missing=True
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
    for diagnostic in redact(sorted(set(diagnostics))):
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
                f"{index}, then run `rolecat check --fix`"
            )
            rule = "live-version-lower"
        elif mine.hash != theirs.hash and mine.version <= theirs.version:
            message = (
                f'role "{slug}" differs from the live one at {base} (version '
                f"{_show(theirs.version)}), but its version is {_show(mine.version)} here: readers "
                f"would not see the change; bump it in {index} above {_show(theirs.version)}, then "
                "run `rolecat check --fix`"
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
