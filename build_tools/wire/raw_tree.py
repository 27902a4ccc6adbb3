"""The raw tree a server fetches from a published site: a pure function of a checked catalog.

The server reads ``<base>/index.json`` and ``<base>/bundles/<id>/<lang>.json`` (its later
generation the same paths in ``.yaml``). Each file is published in every requested format: as
its source bytes where the source is in that format and names no instruction file, so what was
checked is exactly what is served; otherwise written from the checked values (instructions
inlined), deterministically. The JSON Schemas go under ``schema/``; the lock never does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import TypeVar

from build_tools.model.catalog import Catalog, wire_path
from build_tools.model.schema import schema_text
from build_tools.sources.formats import (
    EXTENSIONS,
    Format,
    compact_json,
    dump,
    format_of,
    json_size_bound,
    shape,
    yaml_size_bound,
)
from build_tools.sources.json_reader import MAX_FILE_BYTES, Document

_T = TypeVar("_T")

SCHEMA_DIR = "schema"
"""Where the published JSON Schemas live on the site."""

FORMATS: tuple[Format, ...] = ("json", "yaml")
"""Both wire formats, JSON first: the one today's server reads."""

INDEX_STEM = "index"

CHECKSUMS = "sha256sums"
"""Beside the raw tree: the SHA-256 of each raw file, as ``sha256sum`` writes them."""


def raw_files(
    catalog: Catalog,
    formats: Sequence[Format] = FORMATS,
    memo: dict[tuple[Format, bytes], bytes] | None = None,
) -> dict[str, bytes]:
    """Site-relative path -> bytes of every raw file, in sorted path order.

    ``catalog`` must come from a check without errors. ``memo`` keeps files written anew from one
    call to the next, by source bytes: a preview that rebuilds after each edit rewrites only the
    files that changed, and a build writes again none of those its check judged. It holds only
    what this call used.
    """
    return _with_schemas({path: data for path, _doc, data in wire_files(catalog, formats, memo)})


@dataclass(frozen=True, eq=False)  # compared by what it makes, never by its document
class Published:
    """A raw file of a build, made again from its source as it is written, one at a time (see
    :attr:`build_tools.wire.judged.Memo.digests`)."""

    path: str
    document: Document
    format: Format
    digest: str
    """The SHA-256 of the bytes the check judged."""

    def encoded(self) -> bytes:
        data = published_bytes(self.document, self.format)
        if hashlib.sha256(data).hexdigest() != self.digest:  # never, as the writers are pure
            raise ValueError(f"{self.path} is not what was judged: nothing was published")
        return data


def published_files(
    catalog: Catalog, formats: Sequence[Format], digests: Mapping[str, str]
) -> dict[str, Published | bytes]:
    """:func:`raw_files` for a build whose check kept the ``digests`` of what it judged."""
    files: dict[str, Published | bytes] = {}
    for stem, document in documents(catalog):
        for format in formats:
            path = stem + EXTENSIONS[format]
            files[path] = Published(path, document, format, digests[path])
    return _with_schemas(files)


def _with_schemas(files: dict[str, _T]) -> dict[str, _T | bytes]:
    """The raw files and the published JSON Schemas, in sorted path order."""
    found: dict[str, _T | bytes] = dict(files)
    found[f"{SCHEMA_DIR}/index.schema.json"] = schema_text("index")
    found[f"{SCHEMA_DIR}/bundle.schema.json"] = schema_text("bundle")
    return dict(sorted(found.items()))


def wire_files(
    catalog: Catalog,
    formats: Sequence[Format] = FORMATS,
    memo: dict[tuple[Format, bytes], bytes] | None = None,
) -> Iterator[tuple[str, Document, bytes]]:
    """(site path, source document, bytes) of every file the server fetches, one at a time."""
    used: dict[tuple[Format, bytes], bytes] = {}
    for stem, document in documents(catalog):
        for format in formats:
            key = (format, document.raw)
            if memo is not None and not document.inlined and key in memo:
                data = memo[key]
            else:
                data = published_bytes(document, format)
            if memo is not None:
                used[key] = data
            yield stem + EXTENSIONS[format], document, data
    if memo is not None:
        memo.clear()
        memo.update(used)


def sized_document(
    stem: str, document: Document, formats: Sequence[Format] = FORMATS
) -> Iterator[tuple[str, Document, bytes | None]]:
    """:func:`wire_files` of one source for a check, which publishes nothing: a file written
    anew is written only when its size is not proven under the server's cap without writing it
    (else ``None``), from a JSON text of its values (the source's own, or orjson's compact one)
    and their shape. One source at a time, so that a worker can judge the files it read."""
    json_source = format_of(document.path) == "json" and not document.inlined
    json_text = document.raw if json_source else compact_json(document.data)
    value_shape = cache(partial(shape, document.data))
    for format in formats:
        data: bytes | None = None
        if not _written_anew(document, format):
            data = document.raw
        elif json_text is None:
            data = published_bytes(document, format)
        else:
            bound = (
                json_size_bound(json_text, value_shape())
                if format == "json"
                else yaml_size_bound(document.data, json_text, value_shape())
            )
            if bound is None or bound > MAX_FILE_BYTES:
                data = published_bytes(document, format)
        yield stem + EXTENSIONS[format], document, data


def documents(catalog: Catalog) -> list[tuple[str, Document]]:
    """The site path without its extension and the source of each file the server fetches."""
    documents = [(INDEX_STEM, catalog.index)]
    for bundle in catalog.bundles:
        for language in bundle.languages:
            documents.append((wire_path(bundle.id, language, ""), bundle.files[language].document))
    return documents


def checksums(
    files: Mapping[str, bytes | Published], known: dict[str, tuple[bytes, str]] | None = None
) -> bytes:
    """``sha256sum``'s output for ``files``, so ``sha256sum -c sha256sums`` works at the site root.

    Paths are site-relative and made of ids and fixed names, so none needs ``sha256sum``'s
    escaping (a backslash or a line break). ``known`` keeps each file's sum with its bytes from
    one call to the next (a preview's rebuilds): the same bytes object is not hashed again.
    """
    lines = []
    used: dict[str, tuple[bytes, str]] = {}
    for path, content in sorted(files.items()):
        if isinstance(content, Published):
            lines.append(f"{content.digest}  {path}\n")
            continue
        before = known.get(path) if known is not None else None
        digest = (
            before[1]
            if before is not None and before[0] is content
            else hashlib.sha256(content).hexdigest()
        )
        used[path] = (content, digest)
        lines.append(f"{digest}  {path}\n")
    if known is not None:
        known.clear()
        known.update(used)
    return "".join(lines).encode("utf-8")


def published_bytes(document: Document, format: Format) -> bytes:
    """The source itself where it is in ``format`` and inlines nothing; else written anew."""
    return dump(document.data, format) if _written_anew(document, format) else document.raw


def _written_anew(document: Document, format: Format) -> bool:
    return bool(document.inlined) or format_of(document.path) != format


def index_path(formats: Sequence[Format] = FORMATS) -> str:
    """Where people are pointed for the index: the first published format."""
    return INDEX_STEM + EXTENSIONS[formats[0]]


def bundle_path(bundle_id: str, language: str, formats: Sequence[Format] = FORMATS) -> str:
    return wire_path(bundle_id, language, EXTENSIONS[formats[0]])
