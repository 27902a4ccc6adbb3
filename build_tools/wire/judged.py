"""What the server fetches, judged as the server judges it: the published bytes, not the sources.

A source can pass every rule and still publish a file the server refuses: a bundle whose instruction
files are inlined, or a YAML source whose JSON form is larger, goes over the 1,000,000-byte cap; a
writer could lose a value. So every file the site publishes, in every format, is judged here as it
is published (``wire.wire_files`` makes the bytes, the same call the build makes): its size, and
the server's type guards (DESIGN.md, "Wire contract") on the values it holds, which are the values
that were checked: the writers are proven to keep them, and a build reads them back (see
:func:`_judge`).
``rolecat check`` and the build run this same judgement.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from build_tools.diagnostics import Diagnostic, Pointer, describe_pointer
from build_tools.model.catalog import Catalog
from build_tools.sources.formats import Format, parse
from build_tools.sources.javascript import is_id
from build_tools.sources.json_reader import MAX_FILE_BYTES, Document, SourceError
from build_tools.wire.raw_tree import (
    FORMATS,
    INDEX_STEM,
    documents,
    sized_document,
    wire_files,
)


@dataclass
class Memo:
    """What one build or preview rebuild hands the next step, or the next rebuild."""

    files: dict[tuple[Format, bytes], bytes] = field(default_factory=dict)
    """:func:`wire.raw_files`' memo: the files the check wrote, which the build then publishes."""
    verdicts: dict[tuple[str, bytes], str | None] = field(default_factory=dict)
    """The judgement of each file by its path and bytes: a rebuild judges only what changed."""
    digests: dict[str, str] | None = None
    """A build's, kept instead of ``files``: the SHA-256 of each file judged, by its site path.
    A build writes each file once, and holding every YAML file it writes from a JSON catalog
    until MkDocs copies them would add the catalog's size again to the build's peak; the raw
    tree makes each again as it is written and refuses bytes other than those judged
    (:class:`build_tools.wire.raw_tree.Published`)."""

    @classmethod
    def for_build(cls) -> Memo:
        return cls(digests={})


def judge(
    catalog: Catalog,
    formats: Sequence[Format] = FORMATS,
    memo: Memo | None = None,
    known: dict[int, list[Diagnostic]] | None = None,
) -> list[Diagnostic]:
    """Every problem of every published file, each named at the source that makes it.

    ``catalog`` must have passed every rule. ``known`` holds :func:`judge_document`'s answer by
    the ``id`` of each document a worker judged already (a check without a memo).
    """
    if memo is None:
        return [
            diagnostic
            for stem, document in documents(catalog)
            for diagnostic in (
                known[id(document)]
                if known is not None and id(document) in known
                else judge_document(stem, document, formats)
            )
        ]
    found: list[Diagnostic] = []
    verdicts: dict[tuple[str, bytes], str | None] = {}
    guarded: dict[int, str | None] = {}
    digests = memo.digests
    files = wire_files(catalog, formats, memo.files if digests is None else None)
    keep = digests is None  # a preview's next rebuild reuses the verdicts; a build keeps no bytes
    for path, document, data in files:
        key = (path, data) if keep and data is not None else None
        if key is not None and key in memo.verdicts:
            problem = memo.verdicts[key]
        else:
            if id(document) not in guarded:
                guarded[id(document)] = guard(document.data, _kind(path))
            problem = _judge(path, document, data, guarded[id(document)], True)
        if key is not None:
            verdicts[key] = problem
        if digests is not None and data is not None:
            digests[path] = hashlib.sha256(data).hexdigest()
        if problem is not None:
            found.append(Diagnostic(document.path, 0, 0, problem, "published"))
    memo.verdicts = verdicts
    return found


def judge_document(stem: str, document: Document, formats: Sequence[Format]) -> list[Diagnostic]:
    """:func:`judge` of one source published at ``stem``, in every format, without a memo."""
    found: list[Diagnostic] = []
    refused: str | None = None
    for number, (path, _document, data) in enumerate(sized_document(stem, document, formats)):
        if number == 0:
            refused = guard(document.data, _kind(path))
        problem = _judge(path, document, data, refused, False)
        if problem is not None:
            found.append(Diagnostic(document.path, 0, 0, problem, "published"))
    return found


def _kind(path: str) -> str:
    return "index" if path.startswith(INDEX_STEM + ".") else "bundle"


def _judge(
    path: str, document: Document, data: bytes | None, refused: str | None, read_back: bool
) -> str | None:
    """The size of the bytes (``None``: not written, proven under the cap), and the server's
    type guards on their values.

    A file published as its source holds the values that were checked; one written anew holds
    them too: the JSON writer is the standard library's, and what the YAML writer writes reads
    back the same in every reader (the property test of tests/core/test_published_yaml.py). So
    the check reads nothing back; a build (which passes a :class:`Memo`) still does, as a
    second proof at the pace of a build, before anything is published.
    """
    published = f"the published {path}" + (" (instructions inlined)" if document.inlined else "")
    if data is not None and len(data) > MAX_FILE_BYTES:
        return (
            f"{published} is {len(data):,} bytes; the server refuses files over "
            f"{MAX_FILE_BYTES:,} bytes: shorten {_sources(document)}"
        )
    if read_back and data is not None and data != document.raw:
        try:
            value = parse(path, data)
        except SourceError as error:
            first = error.diagnostics[0]
            where = f" at {first.line}:{first.col}" if first.line else ""
            return f"{published} does not read back as the server reads it{where}: {first.message}"
        if value != document.data:
            return f"{published} reads back with other values than were checked"
    if refused is not None:
        return f"the server's type guards refuse {published}: {refused}"
    return None


def _sources(document: Document) -> str:
    """The source file and, largest first, the instruction files it inlines."""
    if not document.inlined:
        return document.path
    roles = document.data["roles"]
    sizes = sorted(
        (-len(roles[index]["instructions"].encode()), path)
        for path, index in document.inlined.items()
    )
    shown = ", ".join(f"{path} ({-size:,} bytes)" for size, path in sizes[:3])
    more = f" and {len(sizes) - 3:,} more" if len(sizes) > 3 else ""
    return f"{document.path} or the instruction files it inlines: {shown}{more}"


def guard(value: Any, kind: str) -> str | None:
    """The server's type guards for an index or a bundle file: what it refuses, or ``None``."""
    problems = _index(value) if kind == "index" else _bundle(value)
    return next(problems, None)


def _index(value: Any) -> Iterator[str]:
    if not isinstance(value, dict):
        yield "the file is not an object"
        return
    yield from _require(value, "schemaVersion", _number, "a number", ())
    for bundle in _objects(value, "bundles", ()):
        if isinstance(bundle, str):
            yield bundle
            continue
        at, entry = bundle
        yield from _require(entry, "id", is_id, "an id (^[a-z0-9-]+$)", at)
        yield from _require(entry, "name", _texts, "an object of strings", at)
        if "description" in entry:
            yield from _require(entry, "description", _texts, "an object of strings", at)
        yield from _require(entry, "languages", _ids, "an array of ids (^[a-z0-9-]+$)", at)
        for role in _objects(entry, "roles", at):
            if isinstance(role, str):
                yield role
                continue
            yield from _require(role[1], "slug", _string, "a string", role[0])
            yield from _require(role[1], "version", _number, "a number", role[0])


_ABSENT: Any = object()

_ROLE_FIELDS: dict[str, tuple[Any, str]] = {
    "slug": (lambda v: isinstance(v, str), "a string"),
    "name": (lambda v: isinstance(v, str), "a string"),
    "instructions": (lambda v: isinstance(v, str), "a string"),
    "emoji": (lambda v: v is _ABSENT or isinstance(v, str), "a string"),
    "description": (lambda v: v is _ABSENT or isinstance(v, str), "a string"),
    "autoStart": (lambda v: v is _ABSENT or isinstance(v, bool), "a boolean"),
    "launchMessage": (
        lambda v: v is _ABSENT or v is None or isinstance(v, str),
        "a string or null",
    ),
    "modelConfig": (
        lambda v: v is _ABSENT or v is None or isinstance(v, dict),
        "an object or null",
    ),
}
"""Every role field the server tests, and what it must be (an optional one: if present)."""


def _bundle(value: Any) -> Iterator[str]:
    if not isinstance(value, dict):
        yield "the file is not an object"
        return
    yield from _require(value, "schemaVersion", _number, "a number", ())
    yield from _require(value, "language", _string, "a string", ())
    for role in _objects(value, "roles", ()):
        if isinstance(role, str):
            yield role
            continue
        at, fields = role
        for name, (test, kind) in _ROLE_FIELDS.items():
            if not test(fields.get(name, _ABSENT)):
                yield f"{describe_pointer((*at, name))} is not {kind}"


def _objects(
    value: dict[str, Any], field: str, at: Pointer
) -> Iterator[tuple[Pointer, dict[str, Any]] | str]:
    """Each object of the array ``value[field]`` with its pointer; what is wrong, as a string."""
    items = value.get(field)
    if not isinstance(items, list):
        yield f"{describe_pointer((*at, field))} is not an array"
        return
    for position, item in enumerate(items):
        where = (*at, field, position)
        yield (
            (where, item)
            if isinstance(item, dict)
            else f"{describe_pointer(where)} is not an object"
        )


def _require(value: dict[str, Any], field: str, test: Any, kind: str, at: Pointer) -> Iterator[str]:
    if not test(value.get(field)):
        yield f"{describe_pointer((*at, field))} is not {kind}"


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _texts(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())


def _ids(value: Any) -> bool:
    return isinstance(value, list) and all(is_id(v) for v in value)
