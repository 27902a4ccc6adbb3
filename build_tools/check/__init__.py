"""The one entry point that checks a catalog: the CLI and the MkDocs plugin both call it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from build_tools.atomic import Transaction, WriteError, recover
from build_tools.check.read_again import ChangedWhileChecked
from build_tools.check.workers import WorkerReads
from build_tools.diagnostics import Diagnostic
from build_tools.lock import (
    LOCK_FILE,
    Change,
    Entry,
    Lock,
    bundle_hashes,
    changes,
    current_entries,
    diagnose,
    read_lock,
    read_lock_bytes,
    render,
)
from build_tools.model.catalog import (
    Bundle,
    Catalog,
    DirectorySource,
    load_catalog,
    read_document,
    relative,
)
from build_tools.rules.across_files import BUNDLE_RULES, CATALOG_RULES, run_rules
from build_tools.rules.allowlist import (
    ALLOWLIST_FILE,
    STALE,
    Allowlist,
    judge,
    prune,
    read_allowlist,
)
from build_tools.rules.secret_report import redact
from build_tools.rules.secret_scan import SecretScan
from build_tools.rules.server_contract import (
    SERVER_BUNDLE_RULES,
    SERVER_CATALOG_RULES,
    literal_model_words,
)
from build_tools.scope import catalog_scope
from build_tools.wire import judged, site_paths
from build_tools.wire.site_paths import Site

if TYPE_CHECKING:  # only a preview reuses what the last check read
    from build_tools.reuse import Reuse


@dataclass
class CheckResult:
    """What a check found. The lock is compared only once the catalog itself is sound."""

    catalog: Catalog | None
    diagnostics: list[Diagnostic]
    lock: Lock | None = None
    current: dict[str, Entry] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)
    lock_unreadable: list[Diagnostic] = field(default_factory=list)
    allowlist: Allowlist | None = None
    stale_allowed: list[tuple[str, str]] = field(default_factory=list)
    """Allowlist entries that allow nothing: ``--fix`` prunes them."""
    warnings: list[Diagnostic] = field(default_factory=list)
    """What the server would take but change or lose (a name it renames on import, whitespace
    it trims): reported, never refused."""
    recovered: list[str] = field(default_factory=list)
    """What was done to changes that killed commands left half made, one line each."""

    @property
    def only_lock_differs(self) -> bool:
        """The catalog is sound and only its lock is out of date (the lock is read only then)."""
        return self.lock is not None and not self.ok

    @property
    def ok(self) -> bool:
        return not self.diagnostics


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Checking allocates millions of objects and no cycles: the collector would only rescan."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


UPSTREAM_LOCK = f"scripts/{LOCK_FILE}"
"""Where the upstream checker (``scripts/check.mjs``) keeps the lock, inside the catalog."""


def default_lock(root: Path) -> Path:
    """The lock beside the sources; where only the upstream checker's exists, that one."""
    own, upstream = root / LOCK_FILE, root / UPSTREAM_LOCK
    return upstream if not own.exists() and upstream.is_file() else own


def lock_place(root: Path, lock_path: Path | None) -> str | None:
    """The line that says the lock was found in the upstream checker's place, else ``None``."""
    if lock_path is not None or default_lock(root) == root / LOCK_FILE:
        return None
    return f"the lock is {root / UPSTREAM_LOCK}, where the upstream checker keeps it"


def check_catalog(
    root: Path,
    lock_path: Path | None = None,
    site: Site | None = None,
    memo: judged.Memo | None = None,
    reuse: Reuse | None = None,
    *,
    pruning: bool = False,
    model_tiers: bool = False,
    parallel: bool = False,
) -> CheckResult:
    """Every rule of the catalog and of the site it publishes, the published files as the server
    reads them, then the lock; diagnostics sorted by file and position.

    ``site`` says what is published where (both formats, no hand-written pages and no directory
    by default); ``memo`` keeps the published files for the build that follows and what was
    judged for the next rebuild of a preview; ``reuse`` what each file gave the last check;
    ``pruning`` judges the catalog as if the allowlist's stale entries were gone already;
    ``model_tiers`` says the deployment resolves tier words (else each one warns); ``parallel``
    lets a large catalog be checked in worker processes (:mod:`build_tools.check.workers`), for
    a report only: the result then keeps no catalog.

    A change that a killed rolecat command left half made is finished or undone first (see
    :mod:`build_tools.atomic`), so the catalog read is the one before it or the one after.
    """
    try:
        recovered = recover(catalog_scope(root, lock_path))
    except WriteError as error:
        where = relative(root, error.path)
        return CheckResult(None, [Diagnostic(where, 0, 0, error.reason, "interrupted-change")])
    lock_path = lock_path or default_lock(root)
    with _no_cycle_collection():
        try:
            result = _check(
                root,
                lock_path,
                site or Site(),
                memo,
                reuse,
                pruning=pruning,
                model_tiers=model_tiers,
                parallel=parallel,
            )
        except ChangedWhileChecked as error:
            result = CheckResult(None, error.diagnostics)
    if parallel:
        result.catalog = None  # workers send no instructions back
    result.recovered = recovered
    result.diagnostics = redact(result.diagnostics)
    result.warnings = redact(result.warnings)
    return result


def _check(
    root: Path,
    lock_path: Path,
    site: Site,
    memo: judged.Memo | None,
    reuse: Reuse | None,
    *,
    pruning: bool,
    model_tiers: bool,
    parallel: bool,
) -> CheckResult:
    hashes: dict[str, dict[str, str]] = {}
    scan = SecretScan()
    if reuse is not None:
        reuse.start()

    workers = WorkerReads(root, site.formats) if parallel else None

    def read_bundle(bundle: Bundle) -> None:
        # Hashed and scanned while its text is still in the processor's caches.
        if workers is not None and workers.take(bundle, hashes, scan):
            return
        if reuse is not None:
            hashes[bundle.id] = reuse.bundle_hashes(bundle)
            reuse.scan_bundle(scan, bundle)
            return
        hashes[bundle.id] = bundle_hashes(bundle)
        scan.bundle(bundle)

    read = reuse.read if reuse is not None else workers.read if workers else read_document
    try:
        catalog, diagnostics = load_catalog(DirectorySource(root), read_bundle, read)
    finally:
        if workers is not None:
            workers.close()
    if catalog is None:
        return CheckResult(catalog, sorted(set(diagnostics)))
    # The rules of one bundle for the bundles read here: workers ran them on the others.
    here = catalog
    if workers is not None and workers.checked:
        kept = [b for b in catalog.bundles if b.id not in workers.checked]
        here = Catalog(catalog.source, catalog.index, kept)
    across = SERVER_CATALOG_RULES if model_tiers else (*SERVER_CATALOG_RULES, literal_model_words)
    diagnostics += run_rules(here, BUNDLE_RULES) + run_rules(catalog, CATALOG_RULES)
    diagnostics += site_paths.problems(catalog, site)
    found = run_rules(here, SERVER_BUNDLE_RULES) + run_rules(catalog, across)
    if workers is not None:
        diagnostics += workers.rules
        found += workers.server
    warnings = [d for d in found if d.severity == "warning"]
    diagnostics += [d for d in found if d.severity != "warning"]
    scan.index(catalog.index)
    for document in catalog.documents():
        scan.source(document, workers.sourced.get(id(document)) if workers else None)
    allowed, problems = read_allowlist(root)
    verdict = judge(scan.hits, allowed, catalog, complete=not diagnostics)
    diagnostics += problems + [d for d in verdict.diagnostics if not pruning or d.rule != STALE]
    diagnostics += scan.outside_values()
    if not diagnostics:
        diagnostics = judged.judge(catalog, site.formats, memo, workers.judged if workers else None)
    result = CheckResult(catalog, sorted(set(diagnostics)))
    result.warnings = sorted(set(warnings))
    result.allowlist, result.stale_allowed = allowed, verdict.stale
    if diagnostics:
        return result
    result.lock, result.lock_unreadable = read_lock(root, lock_path)
    result.current = current_entries(catalog, hashes)
    if result.lock_unreadable:
        result.diagnostics = result.lock_unreadable
    else:
        result.changes = changes(result.lock, result.current)
        result.diagnostics = sorted(diagnose(catalog, result.lock, c) for c in result.changes)
    return result


@dataclass
class LockUpdate:
    """The outcome of ``--fix``: refused with diagnostics, or written with its changes."""

    diagnostics: list[Diagnostic]
    changes: list[Change]
    written: bool
    pruned: list[str] = field(default_factory=list)
    """Allowlist entries removed because they allowed nothing, one line each."""


def update_lock(root: Path, lock_path: Path | None = None, site: Site | None = None) -> LockUpdate:
    """Rewrite the lock; refuse while the catalog is broken or a changed role is not bumped.

    Allowlist entries that allow nothing are pruned in the same change: removing them never
    publishes more. The lock and the allowlist are written together or not at all.
    """
    path = lock_path or default_lock(root)
    result = check_catalog(root, path, site, pruning=True)
    pruned: list[str] = []
    change = Transaction(catalog_scope(root, lock_path))
    if result.stale_allowed and result.allowlist is not None:
        content, pruned = prune(result.allowlist, result.stale_allowed)
        change.write(root / ALLOWLIST_FILE, content)
    if result.lock is None:
        return LockUpdate(result.diagnostics, [], False)
    if path.exists() and result.lock_unreadable:
        return LockUpdate(result.lock_unreadable, [], False)
    refused = [d for d in result.diagnostics if d.rule == "lock-not-bumped"]
    if refused:
        return LockUpdate(refused, result.changes, False)
    new = render(result.current)
    written = not (path.exists() and read_lock_bytes(path) == new)
    if written:
        change.write(path, new)
    try:
        change.apply()
    except WriteError as error:
        diagnostic = Diagnostic(relative(root, error.path), 0, 0, error.reason, "write-failed")
        return LockUpdate([diagnostic], [], False)
    return LockUpdate(
        [], changes(result.lock, result.current) if written else result.changes, written, pruned
    )
