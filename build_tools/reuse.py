"""What a preview's rebuild takes over from the previous one: the work done per file.

An edit in ``make serve`` changes one file of the catalog, yet a check reads, parses, validates,
hashes and scans every file again: most of a rebuild's check at 500 roles. Here each file is
parsed and validated once per content (its bytes, and those of the instruction files it inlines),
and an unchanged file keeps its :class:`Document`, so its roles' lock hashes and its secret-scan
findings are reused too. Rules across files (unique slugs, the site's paths, the allowlist, the
lock) still run over the whole catalog at every rebuild: only what one file decides alone is kept.

Each rebuild keeps what it used and lets the rest go, so a preview holds one catalog's worth.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from build_tools.diagnostics import Diagnostic
from build_tools.lock import bundle_hashes
from build_tools.model import schema
from build_tools.model.catalog import (
    SOURCE_FORMATS,
    Bundle,
    CatalogSource,
    DirectorySource,
    read_document,
)
from build_tools.rules.secret_scan import Hit, SecretScan
from build_tools.sources.json_reader import Document


@dataclass
class _Read:
    """One file as read: the bytes it was read from, and what reading it gave."""

    sources: dict[str, bytes | None]
    """Each candidate name (``stem.json``, ``stem.yaml``, ...) and its bytes, ``None``: absent."""
    inside: dict[str, bytes | None]
    """The instruction files it inlined, and their bytes."""
    document: Document | None
    problems: list[Diagnostic]


class _Recording:
    """A catalog source that serves the bytes already read and remembers what else was read."""

    def __init__(self, source: CatalogSource, known: dict[str, bytes | None]) -> None:
        self.source = source
        self.known = known
        self.inside: dict[str, bytes | None] = {}

    def read(self, relpath: str) -> bytes | None:
        if relpath in self.known:
            return self.known[relpath]
        return self.source.read(relpath)

    def read_inside(self, relpath: str) -> bytes | None:
        data = self.source.read_inside(relpath)  # what it raises is not remembered: read again
        self.inside[relpath] = data
        return data

    def listing(self) -> list[str] | None:
        return self.source.listing()


@dataclass
class Reuse:
    """Per-file results of the previous check, by content; hand the same one to each rebuild."""

    _documents: dict[tuple[str, str], _Read] = field(default_factory=dict)
    _used: dict[tuple[str, str], _Read] = field(default_factory=dict)
    _hashes: dict[str, tuple[object, list[tuple[str, Document]], dict[str, str]]] = field(
        default_factory=dict
    )
    _hashes_used: dict[str, tuple[object, list[tuple[str, Document]], dict[str, str]]] = field(
        default_factory=dict
    )
    _hits: dict[int, tuple[Document, list[Hit]]] = field(default_factory=dict)
    _hits_used: dict[int, tuple[Document, list[Hit]]] = field(default_factory=dict)

    def start(self) -> None:
        """A new check begins: what the last one used is what this one may reuse."""
        if self._used or self._hashes_used or self._hits_used:
            self._documents, self._used = self._used, {}
            self._hashes, self._hashes_used = self._hashes_used, {}
            self._hits, self._hits_used = self._hits_used, {}

    def read(
        self, source: CatalogSource, stem: str, kind: schema.Kind
    ) -> tuple[Document | None, list[Diagnostic]]:
        """:func:`catalog.read_document`, or what it gave for the same bytes last time."""
        if not isinstance(source, DirectorySource):
            return read_document(source, stem, kind)
        known: dict[str, bytes | None] = {}
        try:
            for extension in SOURCE_FORMATS:
                known[stem + extension] = source.read(stem + extension)
        except OSError:  # too large, unreadable: read_document says so, every time
            return read_document(source, stem, kind)
        key = (stem, kind)
        before = self._documents.get(key)
        if before is not None and before.sources == known and _same_inside(source, before):
            self._used[key] = before
            return before.document, list(before.problems)
        recording = _Recording(source, known)
        document, problems = read_document(recording, stem, kind)
        if not any(d.rule in _NOT_REMEMBERED for d in problems):
            self._used[key] = _Read(known, recording.inside, document, problems)
        return document, list(problems)

    def bundle_hashes(self, bundle: Bundle) -> dict[str, str]:
        """:func:`lock.bundle_hashes`, kept while the bundle's entry and files stay the same."""
        files = [(language, file.document) for language, file in bundle.files.items()]
        before = self._hashes.get(bundle.id)
        if before is not None and _same_files(before[1], files) and before[0] == bundle.entry:
            hashes = before[2]
        else:
            hashes = bundle_hashes(bundle)
        self._hashes_used[bundle.id] = (bundle.entry, files, hashes)
        return dict(hashes)

    def scan_bundle(self, scan: SecretScan, bundle: Bundle) -> None:
        """:meth:`SecretScan.bundle`, each file's findings kept while it is the same document."""
        for file in bundle.files.values():
            document = file.document
            before = self._hits.get(id(document))
            if before is not None and before[0] is document:
                found = before[1]
                scan.hits.extend(found)
            else:
                start = len(scan.hits)
                scan.bundle_file(document)
                found = scan.hits[start:]
            self._hits_used[id(document)] = (document, found)


_NOT_REMEMBERED = frozenset({"unreadable", "file-too-large", "instructions-file"})
"""Problems of reading itself rather than of the bytes read: the next rebuild looks again."""


def _same_inside(source: DirectorySource, before: _Read) -> bool:
    for relpath, data in before.inside.items():
        try:
            if source.read_inside(relpath) != data:
                return False
        except OSError:
            return False
    return True


def _same_files(a: list[tuple[str, Document]], b: list[tuple[str, Document]]) -> bool:
    return len(a) == len(b) and all(x == y and d is e for (x, d), (y, e) in zip(a, b, strict=True))
