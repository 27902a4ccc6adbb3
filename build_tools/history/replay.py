"""Every published version of every role, read from the catalog's git history.

One ``git log`` lists, oldest first, the commits that changed the catalog (or its lock), with the
blob of every file they added, changed or removed; one ``git cat-file --batch`` reads the blobs.
Replaying those changes gives the catalog's files at each commit, which are checked as
``rolecat check`` would check them: a commit whose catalog fails (a broken file, a stale lock)
could not have been published, so it is skipped. Files unchanged since the previous commit are not
read or parsed again, and only the bundles a commit changed are checked, hashed and compared again,
so reading a history costs about one check of each changed file, not one of the catalog per commit.

A role's versions are the version numbers it had, each with the commit and date it was first
published and the content it was last published with. A shallow checkout (``git clone --depth``)
or a catalog outside git still builds: :class:`Reach` says how far back the history goes.
"""

from __future__ import annotations

import json
import multiprocessing
import pickle
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from build_tools.diagnostics import Diagnostic, Pointer, one_line
from build_tools.history.git import Blobs, HistoryUnavailable, Repository, Tree
from build_tools.history.versions import (
    Commit,
    History,
    Reach,
    RoleHistory,
    Version,
    bundle_roles,
    content_of,
    withhold,
)
from build_tools.lock import LOCK_FILE, role_hash
from build_tools.model import schema
from build_tools.model.catalog import (
    Bundle,
    Catalog,
    CatalogSource,
    load_catalog,
    read_document,
)
from build_tools.rules.across_files import (
    BUNDLE_RULES,
    CATALOG_RULES,
    run_rules,
)
from build_tools.rules.allowlist import ALLOWLIST_FILE
from build_tools.sources.json_reader import Document


def read_history(root: Path, lock: Path | None = None, reuse: History | None = None) -> History:
    """The committed history of the catalog in ``root`` (and of its lock, by default inside it).

    Never raises for want of history: without git, outside a repository or before the first
    commit, the history is empty and its :class:`Reach` says why. ``reuse`` is returned as it is
    when it was read from the same commit.
    """
    try:
        repo = Repository.find(root)
        key = repo.key(lock, root)
        if reuse is not None and reuse.key == key:
            return reuse
        return _Replay(repo, repo.path_of(lock or root / LOCK_FILE), key).run()
    except HistoryUnavailable as error:
        return History(Reach(unavailable=error.why, detail=error.detail))


class Reading:
    """A history being read in a process of its own while the build does other work.

    Reading is mostly Python and git, so another process (not a thread) is what lets it run on
    another core. Where a process cannot be started, :meth:`result` reads in this one.
    """

    def __init__(self, root: Path, lock: Path | None, reuse: History | None) -> None:
        self._arguments = (root, lock, reuse)
        self._done: History | None = None
        self._executor: ProcessPoolExecutor | None = None
        self._future: Future[History] | None = None
        try:
            key = Repository.find(root).key(lock, root)
        except HistoryUnavailable as error:  # no git, no repository: nothing to read
            self._done = History(Reach(unavailable=error.why, detail=error.detail))
            return
        if reuse is not None and reuse.key == key:
            self._done = reuse
            return
        try:
            self._executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            self._future = self._executor.submit(read_history, root, lock)
        except (OSError, RuntimeError):
            self.close()

    def result(self) -> History:
        if self._done is None:
            try:
                if self._future is None:
                    raise RuntimeError("no process")
                self._done = self._future.result()
            except (OSError, RuntimeError, BrokenProcessPool, pickle.PickleError):
                self._done = read_history(*self._arguments)
            finally:
                self.close()
        return self._done

    def close(self) -> None:
        """Stop reading (a build that failed before it needed the history)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


class _Documents:
    """Parsed files by the blobs they came from; each commit keeps only what it used."""

    def __init__(self) -> None:
        self._previous: dict[Any, tuple[Document | None, list[Diagnostic], list[Any]]] = {}
        self._used: dict[Any, tuple[Document | None, list[Diagnostic], list[Any]]] = {}
        self._valid_bundles: list[Any] = []
        """The ``bundles`` of the last index found valid."""

    def validate(self, kind: schema.Kind, document: Document) -> list[Diagnostic]:
        """The shape of a file; of an index, only its bundles that differ from the last valid one.

        A commit changes an index in a version or two, and checking every bundle's every role
        again is most of what reading the index costs. The index schema constrains each bundle
        on its own (nothing across them, such as unique items), so the unchanged ones hold.
        """
        bundles = document.data.get("bundles")
        if kind == "index" and isinstance(bundles, list) and bundles:
            known = self._valid_bundles
            changed = [b for i, b in enumerate(bundles) if i >= len(known) or b != known[i]]
            if schema.screen("index")({**document.data, "bundles": changed or bundles[:1]}):
                self._valid_bundles = bundles
                return []
        return schema.validate(kind, document)

    def next_commit(self) -> None:
        self._previous, self._used = self._used, {}

    def read(
        self, source: CatalogSource, stem: str, kind: schema.Kind
    ) -> tuple[Document | None, list[Diagnostic]]:
        assert isinstance(source, Tree)
        try:
            key = (stem, kind, *(source.blob(stem + ext) for ext in (".json", ".yaml", ".yml")))
        except PermissionError:
            return read_document(source, stem, kind)
        found = self._used.get(key) or self._previous.get(key)
        if found is not None and all(_blob_or_none(source, p) == b for p, b in found[2]):
            self._used[key] = found
            return found[0], found[1]
        source.read_inside_log.clear()
        document, problems = read_document(source, stem, kind, self.validate)
        inside = [(p, _blob_or_none(source, p)) for p in source.read_inside_log]
        self._used[key] = (document, problems, inside)
        return document, problems


def _blob_or_none(source: Tree, relpath: str) -> str | None:
    try:
        return source.blob(relpath)
    except PermissionError:
        return None


class _BundleKey:
    """What a bundle's roles, rules and hashes depend on: its index entry and its parsed files.

    Files come from :class:`_Documents`, so an unchanged file is the same object from one commit to
    the next: a bundle whose key is the same needs no second look.
    """

    def __init__(self, bundle: Bundle) -> None:
        self.pointer = bundle.pointer
        self.entry = bundle.entry
        self.documents = [(lang, file.document) for lang, file in bundle.files.items()]

    def same(self, other: _BundleKey | None) -> bool:
        return (
            other is not None
            and self.pointer == other.pointer
            and len(self.documents) == len(other.documents)
            and all(
                a == c and b is d
                for (a, b), (c, d) in zip(self.documents, other.documents, strict=True)
            )
            and self.entry == other.entry
        )


@dataclass
class _Checked:
    """One bundle as checked at the previous commit."""

    key: _BundleKey
    roles: list[tuple[Pointer, str, Any]]
    sound: bool
    texts: dict[str, tuple[dict[str, dict[str, Any]], str]]
    """Each role's objects by language, and their lock hash."""
    locked: dict[str, dict[str, Any]]
    """What the lock must record for its roles: ``{slug: {"version": v, "hash": h}}``."""

    @classmethod
    def check(cls, catalog: Catalog, bundle: Bundle, before: _Checked | None) -> _Checked:
        """The bundle's rules and hashes; a role whose texts equal those ``before`` (a commit
        changes one or two roles of a file) keeps its hash."""
        sound = not run_rules(Catalog(catalog.source, catalog.index, [bundle]), BUNDLE_RULES)
        texts: dict[str, tuple[dict[str, dict[str, Any]], str]] = {}
        locked: dict[str, dict[str, Any]] = {}
        for slug, version, objects in bundle_roles(bundle):
            if not objects or slug in texts:
                continue
            known = before.texts.get(slug) if before else None
            digest = known[1] if known and known[0] == objects else role_hash(objects)
            texts[slug] = (objects, digest)
            locked[slug] = {"version": version, "hash": digest}
        return cls(_BundleKey(bundle), bundle.roles, sound, texts, locked)


class _Replay:
    """Replays the log over an empty tree, turning each publishable commit into versions.

    Work is per bundle: a commit usually changes the index, the lock and one or two bundle files,
    and only the bundles it changed are checked, hashed and compared again.
    """

    def __init__(self, repo: Repository, lock: str | None, key: tuple[str, ...]) -> None:
        self.repo = repo
        self.lock = lock
        self.key = key
        self.documents = _Documents()
        self.checked: dict[str, _Checked] = {}
        self.recorded: dict[str, _BundleKey] = {}
        """Each bundle as it was at the last publishable commit."""
        self.present: set[str] = set()
        """The roles of the last publishable commit."""
        self.roles: dict[str, RoleHistory] = {}
        self.skipped: list[Commit] = []

    def run(self) -> History:
        files: dict[str, tuple[str, str]] = {}
        first: Commit | None = None
        truncated = False
        log = list(self.repo.log(self.lock))
        plan = [
            [blob for _path, _mode, blob in changed if set(blob) != {"0"}] for _c, changed in log
        ]
        with Blobs.open(self.repo.top, plan) as blobs:
            for number, (commit, changed) in enumerate(log):
                blobs.at_commit(number)
                for path, mode, blob in changed:
                    if set(blob) == {"0"}:
                        files.pop(path, None)
                    elif mode != "160000":  # a submodule has no content here
                        files[path] = (mode, blob)
                if first is None:
                    first = commit
                    truncated = commit.id in self.repo.shallow
                commit = commit.without_credentials()
                if commit.unreadable:
                    self.skipped.append(commit)
                    continue
                tree = Tree(self.repo.prefix, files, blobs)
                try:
                    catalog = self._publishable(tree)
                except HistoryUnavailable:
                    raise
                except Exception as error:  # a file no check foresaw (a lock nested too deep)
                    why = one_line(f"{type(error).__name__}: {error}")[:200]
                    self.skipped.append(replace(commit, unreadable=why))
                    continue
                if catalog is None:
                    self.skipped.append(commit)
                    continue
                self._record(catalog, commit, _allowed(tree), at_start=truncated and not self.roles)
        if first is None:
            return History(Reach(unavailable="not-committed"), key=self.key)
        reach = Reach(start=first.date, truncated=truncated)
        return History(reach, self.roles, self.skipped, self.key)

    def _publishable(self, tree: Tree) -> Catalog | None:
        """The catalog at this commit if ``rolecat check`` would pass it, else ``None``."""
        self.documents.next_commit()
        catalog, problems = load_catalog(tree, read=self.documents.read)
        if catalog is None:
            return None
        checked: dict[str, _Checked] = {}
        sound = not problems
        for bundle in catalog.bundles:
            before = self.checked.get(bundle.id)
            if before is not None and _BundleKey(bundle).same(before.key):
                # The same index entry at the same place: the same roles (a cached_property keeps
                # its value in the instance's __dict__).
                bundle.__dict__["roles"] = before.roles
                found = before
            else:
                found = _Checked.check(catalog, bundle, before)
            checked[bundle.id] = found
            sound = sound and found.sound
        self.checked = checked
        if not sound or run_rules(catalog, CATALOG_RULES):
            return None
        lock = tree.files.get(self.lock) if self.lock else None
        if lock is not None:  # before the catalog had a lock, there was nothing to hold it to
            expected: dict[str, dict[str, Any]] = {}
            for found in checked.values():
                expected.update(found.locked)
            if not _lock_agrees(tree.blobs.read(lock[1]), expected):
                return None
        return catalog

    def _record(
        self,
        catalog: Catalog,
        commit: Commit,
        allowed: dict[str, set[str]],
        at_start: bool,
    ) -> None:
        present: set[str] = set()
        recorded: dict[str, _BundleKey] = {}
        for bundle in catalog.bundles:
            recorded[bundle.id] = key = self.checked[bundle.id].key
            if key.same(self.recorded.get(bundle.id)):
                present.update(slug for _pointer, slug, _number in bundle.roles)
                continue
            for slug, number, texts in bundle_roles(bundle):
                if slug in present:
                    continue
                present.add(slug)
                content, withheld = withhold(content_of(texts), allowed.get(slug, set()))
                known = self.roles.get(slug)
                last = known.versions[-1] if known else None
                if last is not None and slug in self.present and last.number == number:
                    last.content, last.bundle = content, bundle.id  # last published content
                    last.withheld = withheld
                    continue
                version = Version(number, bundle.id, content, commit, at_start, withheld=withheld)
                if known is None:
                    self.roles[slug] = RoleHistory(slug, [version])
                else:
                    known.versions.append(version)
        for slug in self.present - present:
            self.roles[slug].versions[-1].removed = commit
        self.present, self.recorded = present, recorded


def _allowed(tree: Tree) -> dict[str, set[str]]:
    """The digests the catalog's allowlist allowed at this commit, by role."""
    try:
        raw = tree.read(ALLOWLIST_FILE)
        entries = json.loads(raw) if raw is not None else {}
        return {slug: set(digests) for slug, digests in entries.items()}
    except (OSError, ValueError, TypeError, AttributeError, RecursionError):
        return {}


def _lock_agrees(raw: bytes, expected: dict[str, dict[str, Any]]) -> bool:
    """The lock records exactly the catalog's roles, versions and hashes: what
    :func:`build_tools.lock.changes` finds nothing in, compared as plain data."""
    try:
        recorded = json.loads(raw)
    except ValueError:
        return False
    return recorded == expected and not any(
        isinstance(entry["version"], bool) for entry in recorded.values()
    )
