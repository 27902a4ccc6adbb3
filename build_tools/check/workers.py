"""A large catalog's bundles read, parsed, schema-checked, hashed, scanned, judged and put to the
rules of one bundle in worker processes.

At 5,000 roles the check spends most of its time on each bundle alone (its parsing, its schema,
its lock hashes, the secret scan of its strings, the rules that look at one bundle and the
judgement of its published files), work that needs nothing from any other bundle: split over the
machine's cores it takes a fraction of the wall clock. The parent checks runs of bundles from
the first on, in the index's order, and forked workers from the last back, each run the same way
(:func:`_check_run`). A worker sends back what the parent needs: each file's values but its
roles' instructions, its diagnostics, its bundle's hashes, the scan's hits, the published files'
verdicts and the diagnostics of the rules of one bundle (:data:`BUNDLE_RULES`,
:data:`SERVER_BUNDLE_RULES`) on the run. The positions of values are not sent (a YAML file's
marks do not pickle, and a clean file never needs one): the parent reads the file again when
a diagnostic asks, and works them out from its bytes exactly as a file parsed here would. The
parent then runs the rules across bundles on the whole catalog, so every diagnostic is the
sequential path's.

Only ``rolecat check`` uses it (``check_catalog(parallel=True)``, whose result keeps no
catalog), above :data:`PARALLEL_FILES` declared files, where ``fork`` starts processes; ``--fix``,
the exports, the build and the preview stay sequential.
"""

from __future__ import annotations

import contextlib
import os
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from build_tools.check.read_again import ReadAgain, SentFile
from build_tools.diagnostics import Diagnostic, Pointer
from build_tools.lock import bundle_hashes
from build_tools.model import schema
from build_tools.model.catalog import (
    Bundle,
    BundleFile,
    Catalog,
    CatalogSource,
    DirectorySource,
    declared_bundles,
    read_document,
    wire_path,
)
from build_tools.rules.across_files import BUNDLE_RULES, run_rules
from build_tools.rules.secret_scan import (
    Finding,
    Hit,
    SecretScan,
    scanned_as_source,
    source_findings,
)
from build_tools.rules.server_contract import SERVER_BUNDLE_RULES
from build_tools.sources.formats import Format
from build_tools.sources.json_reader import Document
from build_tools.wire.judged import judge_document

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

PARALLEL_FILES = 48
"""Declared bundle files from which workers are started: below it, forking them costs more than
they save (about 20 ms at 2 workers; 48 files of the synthetic catalogs take some 0.1 s)."""
RUNS_PER_PROCESS = 4
"""Runs of bundles per process. The parent checks runs from the first on and the workers from
the last back, and they meet where the work is done: the shorter the runs, the less one waits
for the other there, but each is one more hand-over between processes, which cost the parent
more than the wait saved at 16 runs a process (5,000 roles x 2, 2 cores)."""

_Hit = tuple[str, Finding, Pointer, str, str, str | None, str | None]
"""A hit as a worker sends it: the language of its file, then :class:`Hit`'s other fields."""


@dataclass
class _Read:
    """What a worker found in one bundle."""

    files: dict[str, tuple[SentFile, list[Diagnostic]]]
    hashes: dict[str, str]
    hits: list[_Hit]
    judged: dict[str, list[Diagnostic]]
    """Each read file's published forms judged ahead (:func:`judged.judge_document`): the parent
    uses them only if the whole catalog passes its rules, as it would judge them then."""
    sourced: dict[str, list[Finding]]
    """The secret scan of each read YAML file's whole text (:func:`source_findings`)."""


@dataclass
class _Run:
    """What a worker found in a run of bundles."""

    reads: list[_Read]
    rules: list[Diagnostic]
    """Of :data:`BUNDLE_RULES`, on a catalog of the run's bundles."""
    server: list[Diagnostic]
    """Of :data:`SERVER_BUNDLE_RULES`, the same way."""


@dataclass
class _Shared:
    """What a forked worker inherits from the parent. A run goes to a worker as its number
    only: the parent fills its own bundles with what it reads, and a run handed over later
    would be pickled with every file the parent had read into it by then."""

    root: Path
    index: Document
    formats: Sequence[Format]
    size: int
    """Bundles per run (the last may be shorter)."""
    claims: Any
    """Who checks each run, in memory the parent and the workers share: :data:`_NOBODY`
    until the parent (:data:`_PARENT`) or a worker (:data:`_WORKER`) claims it, under the
    array's lock."""


_shared: _Shared | None = None
"""In a worker: what the parent handed it as the process was forked."""
_NOBODY, _PARENT, _WORKER = 0, 1, 2
_CLAIM_SECONDS = 10.0
"""How long the parent waits for the claims' lock: only a worker killed while it held the lock
(a few instructions) keeps it longer, and that worker's run is then reported as not checked."""


def usable_cores() -> int:
    """The cores this process may run on (its affinity, as a container or ``taskset`` sets it),
    not every core of the machine."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _inherit(shared: _Shared) -> None:
    global _shared
    _shared = shared


def _runs(bundles: list[Bundle], size: int) -> list[list[Bundle]]:
    """The bundles, ``size`` to a run."""
    return [bundles[start : start + size] for start in range(0, len(bundles), size)]


def _read_bundles(number: int) -> _Run | None:
    """In a worker: run ``number``, sent back at once; ``None`` if the parent claimed it first."""
    assert _shared is not None, "the pool's initializer hands the workers what they share"
    with _shared.claims.get_lock():
        if _shared.claims[number] != _NOBODY:
            return None
        _shared.claims[number] = _WORKER
    index, formats = _shared.index, _shared.formats
    bundles = _runs(declared_bundles(index), _shared.size)[number]  # none read yet
    return _check_run(DirectorySource(_shared.root), index, bundles, formats, sending=True)[0]


_Documents = dict[str, tuple[Document | None, list[Diagnostic]]]
"""What :func:`read_document` gave for each bundle file, by its stem (``bundles/<id>/<lang>``)."""


def _check_run(
    source: CatalogSource,
    index: Document,
    bundles: list[Bundle],
    formats: Sequence[Format],
    *,
    sending: bool = False,
) -> tuple[_Run, _Documents]:
    """A run of bundles read and checked on its own, in a worker (``sending`` its files back) or
    for the parent's share."""
    documents: _Documents = {}
    reads = [_read_bundle(source, bundle, formats, documents, sending) for bundle in bundles]
    run = Catalog(source, index, bundles)
    found = _Run(reads, run_rules(run, BUNDLE_RULES), run_rules(run, SERVER_BUNDLE_RULES))
    return found, documents


def _read_bundle(
    source: CatalogSource,
    bundle: Bundle,
    formats: Sequence[Format],
    documents: _Documents,
    sending: bool,
) -> _Read:
    """What :func:`load_catalog` and the check's ``on_bundle`` do for one bundle; each file
    read goes into ``documents`` too."""
    files: dict[str, tuple[SentFile, list[Diagnostic]]] = {}
    for language in bundle.languages:
        stem = wire_path(bundle.id, language, "")
        document, found = documents[stem] = read_document(source, stem, "bundle")
        if document is not None and not found:
            bundle.files[language] = BundleFile(bundle.id, language, document)
        sent = (
            None
            if document is None or not sending
            else (
                document.path,
                _sent_data(document.data),
                len(document.raw),
                zlib.crc32(document.raw),
                document.inlined,
            )
        )
        files[language] = (sent, found)
    scan = SecretScan()
    scan.bundle(bundle)
    languages = {id(file.document): language for language, file in bundle.files.items()}
    hits = [
        (
            languages[id(h.document)],
            h.finding,
            h.pointer,
            h.text,
            h.where,
            h.slug,
            h.instructions_file,
        )
        for h in scan.hits
    ]
    ahead = {}
    for language, file in bundle.files.items():
        with contextlib.suppress(Exception):  # a file the rules refuse: judged later, if at all
            ahead[language] = judge_document(
                wire_path(bundle.id, language, ""), file.document, formats
            )
    sourced = {
        language: source_findings(file.document)
        for language, file in bundle.files.items()
        if scanned_as_source(file.document)
    }
    return _Read(files, bundle_hashes(bundle), hits, ahead, sourced)


def _sent_data(data: Any) -> Any:
    """A bundle file's values as the parent needs them: all but each role's instructions, the
    bulk of the file, which only the work done in the worker reads (the rules of one bundle, the
    lock hashes, the secret scan, the judgement of the published files). The rules across
    bundles read names, slugs and models; the check's result keeps no catalog."""
    roles = data.get("roles") if isinstance(data, dict) else None
    if not isinstance(roles, list):
        return data
    kept = [
        {key: value for key, value in role.items() if key != "instructions"}
        if isinstance(role, dict)
        else role
        for role in roles
    ]
    return {**data, "roles": kept}


@dataclass
class _Pending:
    """A run of bundles, until the parent reaches the first of them: handed to the workers, or
    (``future`` ``None``) the parent's first."""

    bundles: list[Bundle]
    number: int
    future: Future[_Run | None] | None


class WorkerReads:
    """A reader for :func:`load_catalog`: the index read here; if it declares at least
    :data:`PARALLEL_FILES` files, runs of its bundles handed to workers at once and each taken
    back, in the index's order, as the parent reaches it; else every file read here, as before."""

    def __init__(self, root: Path, formats: Sequence[Format]) -> None:
        self._root, self._formats = root, formats
        self.judged: dict[int, list[Diagnostic]] = {}
        """What workers judged, by the ``id`` of each document: for :func:`judged.judge`."""
        self.sourced: dict[int, list[Finding]] = {}
        """What workers' secret scan found in each YAML file's text, by the document's ``id``."""
        self.rules: list[Diagnostic] = []
        """What :data:`BUNDLE_RULES` found in the bundles workers checked."""
        self.server: list[Diagnostic] = []
        """What :data:`SERVER_BUNDLE_RULES` found in them."""
        self.checked: set[str] = set()
        """The ids of those bundles: the rules of one bundle are run here on the others only."""
        self._pool: ProcessPoolExecutor | None = None
        self._claims: Any = None
        self._index: Document | None = None
        self._source: CatalogSource = DirectorySource(root)
        self._pending: dict[str, _Pending] = {}
        self._documents: dict[str, tuple[Document | None, list[Diagnostic]]] = {}
        self._read: dict[str, _Read] = {}

    @property
    def started(self) -> bool:
        return self._pool is not None

    def read(
        self, source: CatalogSource, stem: str, kind: schema.Kind
    ) -> tuple[Document | None, list[Diagnostic]]:
        if self._pool is None:
            self._source = source
            found = read_document(source, stem, kind)
            if kind == "index" and found[0] is not None:
                self._start(found[0])
            return found
        pending = self._pending.get(stem.split("/")[1])
        if pending is not None:
            for bundle in pending.bundles:
                del self._pending[bundle.id]
            self._collect(pending)
        if stem in self._documents:
            return self._documents.pop(stem)
        return read_document(source, stem, kind)  # the parent's share, or a run read again

    def _start(self, index: Document) -> None:
        bundles = declared_bundles(index)
        cores = usable_cores()
        if cores < 2 or sum(len(b.languages) for b in bundles) < PARALLEL_FILES:
            return
        import multiprocessing  # only here: a small catalog's check never starts them
        from concurrent.futures import ProcessPoolExecutor

        if "fork" not in multiprocessing.get_all_start_methods():
            return  # a worker started afresh would import everything and read the index again
        size = max(1, len(bundles) // (cores * RUNS_PER_PROCESS))
        runs = _runs(bundles, size)
        context = multiprocessing.get_context("fork")
        self._claims = context.Array("b", len(runs))
        shared = _Shared(self._root, index, self._formats, size, self._claims)
        # Forked workers start at once, with every module the parent imported and the index.
        self._pool = ProcessPoolExecutor(
            cores - 1, mp_context=context, initializer=_inherit, initargs=(shared,)
        )
        self._index = index
        for bundle in runs[0]:
            self._pending[bundle.id] = _Pending(runs[0], 0, None)
        # The workers take the runs from the last back; the parent checks each run it reaches
        # that no worker has claimed yet (see _collect), so they meet where the work is done.
        for number in range(len(runs) - 1, 0, -1):
            run = runs[number]
            future = self._pool.submit(_read_bundles, number)
            for bundle in run:
                self._pending[bundle.id] = _Pending(run, number, future)

    def _claim(self, numbers: range) -> list[int]:
        """The runs of ``numbers`` that no worker had claimed, claimed now by the parent; none if
        the claims' lock stays held (a worker died holding it: its future says so)."""
        lock = self._claims.get_lock()
        if not lock.acquire(timeout=_CLAIM_SECONDS):
            return []
        try:
            free = [number for number in numbers if self._claims[number] == _NOBODY]
            for number in free:
                self._claims[number] = _PARENT
            return free
        finally:
            lock.release()

    def _collect(self, pending: _Pending) -> None:
        number = pending.number
        if pending.future is None or self._claim(range(number, number + 1)):
            assert self._index is not None
            here, read = _check_run(self._source, self._index, pending.bundles, self._formats)
            self._accept(pending.bundles, here, read)
            return
        assert pending.future is not None
        try:
            run = pending.future.result()
            if run is None:
                raise RuntimeError("the worker left its run unchecked")
        except Exception as error:  # a worker that died or failed: one line per file, no trace
            reason = f"{type(error).__name__}: {error}".splitlines()[0]
            message = f"not checked: the worker process reading it failed ({reason})"
            for bundle in pending.bundles:
                for language in bundle.languages:
                    where = wire_path(bundle.id, language)
                    unread = Diagnostic(where, 0, 0, message, "unreadable")
                    self._documents[wire_path(bundle.id, language, "")] = (None, [unread])
            return
        documents: _Documents = {}
        for bundle, found in zip(pending.bundles, run.reads, strict=True):
            for language, (sent, diagnostics) in found.files.items():
                if sent is not None and not diagnostics and language not in found.judged:
                    return  # not judged there (never, for a sound file): all checked here
                document = None if sent is None else ReadAgain(self._source, sent)
                documents[wire_path(bundle.id, language, "")] = (document, diagnostics)
        self._accept(pending.bundles, run, documents)

    def _accept(self, bundles: list[Bundle], run: _Run, documents: _Documents) -> None:
        """A run checked, in a worker or here: its files for :meth:`read`, the rest for the
        check."""
        self._documents.update(documents)
        self.rules += run.rules
        self.server += run.server
        for bundle, found in zip(bundles, run.reads, strict=True):
            self._read[bundle.id] = found
            for language in found.files:
                document = documents[wire_path(bundle.id, language, "")][0]
                if document is None:
                    continue
                if language in found.judged:
                    self.judged[id(document)] = found.judged[language]
                if language in found.sourced:
                    self.sourced[id(document)] = found.sourced[language]

    def take(self, bundle: Bundle, hashes: dict[str, dict[str, str]], scan: SecretScan) -> bool:
        """The hashes and hits a worker found in ``bundle``, for its documents here; ``False``
        where the bundle was read here instead (or not at all: its worker failed)."""
        found = self._read.pop(bundle.id, None)
        if found is None:
            return False
        hashes[bundle.id] = found.hashes
        for language, finding, pointer, text, where, slug, path in found.hits:
            document = bundle.files[language].document
            scan.hits.append(Hit(finding, document, pointer, text, where, slug, path))
        self.checked.add(bundle.id)
        return True

    def close(self) -> None:
        if self._pool is not None:
            self._claim(range(len(self._claims)))  # nobody needs the runs no worker started
            # The runs the parent checked end at once in the workers: none is cancelled, which
            # Python 3.11 could not report when a worker then died (InvalidStateError).
            self._pool.shutdown(wait=True)
