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
import os
import pickle
import posixpath
import subprocess
import threading
from collections.abc import Collection, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import IO, Any

from build_tools.diagnostics import Diagnostic, Pointer, one_line
from build_tools.lock import LOCK_FILE, role_hash
from build_tools.model import schema
from build_tools.model.catalog import (
    BUNDLES_DIR,
    Bundle,
    Catalog,
    CatalogSource,
    load_catalog,
    read_document,
)
from build_tools.rules.across_files import (
    BUNDLE_RULES,
    CATALOG_RULES,
    SAME_IN_EVERY_LANGUAGE,
    run_rules,
)
from build_tools.rules.allowlist import ALLOWLIST_FILE
from build_tools.rules.secret_scan import scan_text
from build_tools.sources.json_reader import Document

FIELDS = (
    "emoji",
    "name",
    "description",
    "instructions",
    "autoStart",
    "launchMessage",
    "modelConfig",
)
"""What a version of a role shows, per language."""

TRANSLATED = tuple(f for f in FIELDS if f not in (*SAME_IN_EVERY_LANGUAGE, "modelConfig"))
"""The fields a translator writes: a change to them in one language and not another is news."""

Content = dict[str, dict[str, Any]]
"""A role's fields by language."""


@dataclass(frozen=True)
class Commit:
    id: str
    date: datetime
    author: str
    subject: str
    unreadable: str = ""
    """Why the commit or the catalog at it cannot be read, if so: it is skipped, with this."""

    def without_credentials(self) -> Commit:
        """Its author and subject are published: one that holds a credential is left out."""
        author = WITHHELD if scan_text(self.author) else self.author
        subject = WITHHELD if scan_text(self.subject) else self.subject
        return replace(self, author=author, subject=subject)

    @property
    def short(self) -> str:
        return self.id[:7]


WITHHELD = ""
"""What stands for a text left out of the history because it held a credential."""


@dataclass(frozen=True)
class Reach:
    """How far back the history goes, and why not further."""

    start: datetime | None = None
    """The date of the oldest commit read."""
    truncated: bool = False
    """The checkout is shallow and the catalog is older than it: earlier versions are unknown."""
    unavailable: str | None = None
    """Why there is no history at all: ``no-git``, ``not-a-repository``, ``no-commits``,
    ``not-committed``, ``off`` (not asked for) or ``git-error``."""
    detail: str = ""
    """What git said, for ``git-error``."""


@dataclass(eq=False)
class Version:
    """One version number of a role, as published (compared and hashed by identity)."""

    number: int | float
    bundle: str
    content: Content
    commit: Commit | None
    """Where it was first published; ``None``: not committed yet (the working tree)."""
    at_start: bool = False
    """Already in the catalog where a truncated history starts: its date and past are unknown."""
    removed: Commit | None = None
    """The role left the catalog at this commit, after this version."""
    withheld: tuple[str, ...] = ()
    """``"en instructions"`` for each text left out because it held a credential: an old
    version is published on its page, in diffs and feeds, and a credential never is."""

    @property
    def languages(self) -> list[str]:
        return list(self.content)


@dataclass(frozen=True)
class Stale:
    """A translation that did not change when other languages did, at a version bump."""

    since: Version
    changed: tuple[str, ...]
    """The languages that changed at ``since``."""


@dataclass
class RoleHistory:
    slug: str
    versions: list[Version]
    """Oldest first; the same number appears again only after the role was removed."""

    def previous(self, version: Version) -> Version | None:
        position = self._position(version)
        return self.versions[position - 1] if position > 0 else None

    def stale(self, version: Version) -> dict[str, Stale]:
        """Translations possibly out of date in ``version``, by language."""
        return self._stale[self._position(version)]

    def changed_languages(self, version: Version) -> list[str]:
        """Languages whose translated text differs from the previous version (or is new)."""
        previous = self.previous(version)
        if previous is None or version.at_start:
            return []
        return [
            lang
            for lang in version.languages
            if _translated(previous.content.get(lang)) != _translated(version.content[lang])
        ]

    def _position(self, version: Version) -> int:
        return next(i for i, v in enumerate(self.versions) if v is version)

    @cached_property
    def _stale(self) -> list[dict[str, Stale]]:
        """A bump that changes an up-to-date language and leaves another alone makes the other
        stale until it changes; a stale translation catching up, or a new language, makes no
        other stale."""
        found: list[dict[str, Stale]] = []
        stale: dict[str, Stale] = {}
        for position, version in enumerate(self.versions):
            previous = self.versions[position - 1] if position else None
            if previous is None or version.at_start:
                stale = {}
            else:
                changed = self.changed_languages(version)
                new = [lang for lang in changed if lang not in previous.content]
                caught_up = [lang for lang in changed if lang in stale]
                leading = [lang for lang in changed if lang not in new and lang not in caught_up]
                stale = {
                    lang: why
                    for lang, why in stale.items()
                    if lang in version.content and lang not in changed
                }
                if leading:
                    since = Stale(version, tuple(changed))
                    for lang in version.languages:
                        if lang not in changed and lang not in stale:
                            stale[lang] = since
            found.append(stale)
        return found


def _translated(fields: dict[str, Any] | None) -> tuple[Any, ...] | None:
    return None if fields is None else tuple(fields.get(name) for name in TRANSLATED)


def changed_fields(old: dict[str, Any] | None, new: dict[str, Any] | None) -> list[str]:
    """The fields of one language that differ between two versions, in display order."""
    old, new = old or {}, new or {}
    return [name for name in FIELDS if old.get(name, _ABSENT) != new.get(name, _ABSENT)]


_ABSENT = object()


@dataclass
class History:
    """Every role's versions, and how far back they were read."""

    reach: Reach
    roles: dict[str, RoleHistory] = field(default_factory=dict)
    skipped: list[Commit] = field(default_factory=list)
    """Commits whose catalog fails its check: never published, so not versions."""
    key: tuple[str, ...] = ()
    """What the history was read from, to reuse it while that stays the same."""

    def including(self, catalog: Catalog) -> History:
        """This history with the catalog being built as its newest state.

        A role whose version differs from its last committed one gets a version without a
        commit; one whose content differs at the same version (an edit previewed before its bump)
        shows that content. The committed history itself is left as it was, to be reused.
        """
        roles = dict(self.roles)
        for slug, bundle, number, texts in _roles_of(catalog):
            content = _content(texts)
            known = roles.get(slug)
            versions = known.versions if known else []
            last = versions[-1] if versions else None
            if last is not None and last.removed is None and last.number == number:
                if last.content != content or last.bundle != bundle:
                    newest = replace(last, content=content, bundle=bundle)
                    roles[slug] = RoleHistory(slug, [*versions[:-1], newest])
                continue
            roles[slug] = RoleHistory(slug, [*versions, Version(number, bundle, content, None)])
        return History(self.reach, roles, self.skipped, self.key)


def _roles_of(catalog: Catalog) -> Iterator[tuple[str, str, Any, dict[str, dict[str, Any]]]]:
    """(slug, bundle id, version, role object by language) of every role, once each."""
    seen: set[str] = set()
    for bundle in catalog.bundles:
        for slug, number, texts in _bundle_roles(bundle):
            if slug not in seen:
                seen.add(slug)
                yield slug, bundle.id, number, texts


def _bundle_roles(bundle: Bundle) -> Iterator[tuple[str, Any, dict[str, dict[str, Any]]]]:
    """(slug, version, role object by language) of every role of one bundle."""
    for _pointer, slug, number in bundle.roles:
        texts = {}
        for language in bundle.languages:
            file = bundle.files.get(language)
            found = file.role(slug) if file else None
            if found is not None:
                texts[language] = found[1]
        yield slug, number, texts


def _content(texts: dict[str, dict[str, Any]]) -> Content:
    return {
        lang: {name: role[name] for name in FIELDS if name in role} for lang, role in texts.items()
    }


def _withhold(content: Content, allowed: Collection[str]) -> tuple[Content, tuple[str, ...]]:
    """``content`` with every field that holds a credential (one the allowlist of its commit
    did not allow) left out, and which fields those were."""
    left_out: list[str] = []
    kept: Content = {}
    for language, fields in content.items():
        kept[language] = dict(fields)
        for name, value in fields.items():
            texts = [value] if isinstance(value, str) else list(_strings_in(value))
            if any(f.digest not in allowed for text in texts for f in scan_text(text)):
                kept[language][name] = WITHHELD if isinstance(value, str) else None
                left_out.append(f"{language} {name}")
    return kept, tuple(left_out)


def _strings_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings_in(item)


class HistoryUnavailable(Exception):
    """Git cannot tell us the catalog's history: ``why`` is a :attr:`Reach.unavailable` code."""

    def __init__(self, why: str, detail: str = "") -> None:
        super().__init__(detail or why)
        self.why = why
        self.detail = detail


def read_history(root: Path, lock: Path | None = None, reuse: History | None = None) -> History:
    """The committed history of the catalog in ``root`` (and of its lock, by default inside it).

    Never raises for want of history: without git, outside a repository or before the first
    commit, the history is empty and its :class:`Reach` says why. ``reuse`` is returned as it is
    when it was read from the same commit.
    """
    try:
        repo = _Repository.find(root)
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
            key = _Repository.find(root).key(lock, root)
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


@dataclass(frozen=True)
class _Repository:
    top: Path
    prefix: str
    """The catalog directory inside the repository: ``""`` or ``"catalog/"``."""
    head: str
    shallow: frozenset[str]
    """Commits whose parents this checkout does not have."""

    @classmethod
    def find(cls, root: Path) -> _Repository:
        out = _git(
            root,
            "rev-parse",
            "--show-toplevel",
            "--show-prefix",
            "--is-shallow-repository",
            "--git-path",
            "shallow",
        )
        top, prefix, shallow, shallow_file = out.decode("utf-8", "replace").split("\n")[:4]
        try:
            head = _git(root, "rev-parse", "--verify", "--quiet", "HEAD").decode().strip()
        except HistoryUnavailable:
            raise HistoryUnavailable("no-commits") from None
        grafts: frozenset[str] = frozenset()
        if shallow == "true":
            try:
                grafts = frozenset((root / shallow_file).read_text("ascii").split())
            except (OSError, ValueError):
                grafts = frozenset()
        return cls(Path(top), prefix, head, grafts)

    def key(self, lock: Path | None, root: Path) -> tuple[str, ...]:
        """What a history read here depends on: the repository, the catalog, its lock, HEAD."""
        return (str(self.top), self.prefix, self.path_of(lock or root / LOCK_FILE) or "", self.head)

    def path_of(self, path: Path) -> str | None:
        """``path`` relative to the repository, ``None`` when it lies outside."""
        try:
            return path.resolve().relative_to(self.top.resolve()).as_posix()
        except ValueError:
            return None

    def log(self, lock: str | None) -> Iterator[tuple[Commit, list[tuple[str, str, str]]]]:
        """Oldest first along the first-parent line: each commit that changed the catalog or the
        lock, with ``(path, mode, blob)`` of every file it changed (blob all zeros: deleted)."""
        paths = [self.prefix or ".", *([lock] if lock else [])]
        out = _git(
            self.top,
            "--literal-pathspecs",
            "log",
            "-z",
            "--reverse",
            "--first-parent",
            "--diff-merges=first-parent",
            "--raw",
            "--no-renames",
            "--no-abbrev",
            "--no-color",
            "--encoding=UTF-8",
            "--format=%x01%H%x00%ct%x00%an%x00%s",
            self.head,
            "--",
            *paths,
        )
        tokens = out.split(b"\0")
        position = 0
        while position < len(tokens):
            token = tokens[position]
            if not token.startswith(b"\x01"):
                position += 1
                continue
            sha, when, author, subject = (
                t.decode("utf-8", "replace") for t in tokens[position : position + 4]
            )
            try:
                commit = Commit(sha[1:], datetime.fromtimestamp(int(when), UTC), author, subject)
            except (ValueError, OverflowError, OSError):
                why = f"its date ({when} seconds since 1970) is out of range"
                commit = Commit(sha[1:], _EPOCH, author, subject, why)
            position += 4
            changed = []
            while position + 1 < len(tokens) and tokens[position].lstrip(b"\n").startswith(b":"):
                _old_mode, mode, _old_blob, blob, _status = (
                    tokens[position].lstrip(b"\n")[1:].decode("ascii").split(" ")
                )
                changed.append(
                    (tokens[position + 1].decode("utf-8", "surrogateescape"), mode, blob)
                )
                position += 2
            yield commit, changed


_EPOCH = datetime.fromtimestamp(0, UTC)

GIT = (
    "git",
    *("-c", "i18n.logOutputEncoding=UTF-8"),
    *("-c", "log.showRoot=true"),
    *("-c", "log.showSignature=false"),
    *("-c", "log.follow=false"),
    *("-c", "diff.relative=false"),
    *("-c", "diff.noprefix=false"),
    *("-c", "color.ui=never"),
    *("-c", "core.quotePath=true"),
)
"""git with every setting the parser relies on given explicitly: whatever a user's configuration
says (authors in cp1251, no diff for the root commit, signatures in the log), it reads the same."""


def _git(cwd: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(
            [*GIT, *args],
            cwd=cwd,
            capture_output=True,
            check=False,
            env={**os.environ, "LC_ALL": "C", "GIT_OPTIONAL_LOCKS": "0"},
        )
    except FileNotFoundError:
        raise HistoryUnavailable("no-git") from None
    except OSError as error:
        raise HistoryUnavailable("git-error", f"git cannot run: {error.strerror}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = message[0].removeprefix("fatal: ") if message else f"git {args[0]} failed"
        if "not a git repository" in reason:
            raise HistoryUnavailable("not-a-repository")
        raise HistoryUnavailable("git-error", reason)
    return done.stdout


class _CatFile:
    """One ``git cat-file --batch``: a blob id in, its bytes out."""

    def __init__(self, top: Path) -> None:
        try:
            self._process = subprocess.Popen(
                [*GIT, "cat-file", "--batch"],
                cwd=top,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as error:
            raise HistoryUnavailable("git-error", f"git cannot run: {error.strerror}") from None
        assert self._process.stdin is not None and self._process.stdout is not None
        self._in: IO[bytes] = self._process.stdin
        self._out: IO[bytes] = self._process.stdout

    def read(self, blob: str) -> bytes:
        self._in.write(blob.encode("ascii") + b"\n")
        self._in.flush()
        header = self._out.readline().split()
        if len(header) != 3:
            raise HistoryUnavailable("git-error", f"git cannot read object {blob}")
        return self._out.read(int(header[2]) + 1)[:-1]

    def close(self) -> None:
        self._in.close()
        self._out.close()
        self._process.wait()


class _Blobs:
    """File contents by blob id for the whole replay.

    A thread reads the blobs each commit changed a commit or two ahead, so git inflates them on
    one core while the catalog is checked on the other; anything else is read when asked.
    """

    AHEAD = 2
    """Commits read ahead: enough to keep git busy, little to hold in memory."""

    def __init__(self, top: Path, plan: list[list[str]]) -> None:
        self._direct = _CatFile(top)
        self._ahead = _CatFile(top)
        self._plan = plan
        self._ready: dict[str, bytes] = {}
        self._lock = threading.Condition()
        self._commit = 0
        self._fetched = -1
        self._stop = False
        self._failure: HistoryUnavailable | None = None
        self._thread = threading.Thread(target=self._read_ahead, daemon=True)
        self._thread.start()

    @classmethod
    @contextmanager
    def open(cls, top: Path, plan: list[list[str]]) -> Iterator[_Blobs]:
        """``plan``: the blob ids each commit changed, in the order the commits are replayed."""
        blobs = cls(top, plan)
        try:
            yield blobs
        finally:
            with blobs._lock:
                blobs._stop = True
                blobs._lock.notify_all()
            blobs._thread.join()
            blobs._direct.close()
            blobs._ahead.close()

    def _read_ahead(self) -> None:
        try:
            for number, wanted in enumerate(self._plan):
                with self._lock:
                    while number > self._commit + self.AHEAD and not self._stop:
                        self._lock.wait()
                    if self._stop:
                        return
                fetched = {blob: self._ahead.read(blob) for blob in dict.fromkeys(wanted)}
                with self._lock:
                    self._ready.update(fetched)
                    self._fetched = number
                    self._lock.notify_all()
        except HistoryUnavailable as error:
            with self._lock:
                self._failure = error
                self._lock.notify_all()

    def at_commit(self, number: int) -> None:
        """The replay moved on to commit ``number``: what earlier commits changed is let go."""
        with self._lock:
            for earlier in self._plan[self._commit : number]:
                for blob in earlier:
                    self._ready.pop(blob, None)
            self._commit = number
            self._lock.notify_all()

    def read(self, blob: str) -> bytes:
        with self._lock:
            while self._fetched < self._commit and self._failure is None:
                self._lock.wait()
            if self._failure is not None:
                raise self._failure
            found = self._ready.get(blob)
        return found if found is not None else self._direct.read(blob)


_SYMLINK = "120000"
_SYMLINK_HOPS = 8


@dataclass
class _Tree:
    """The catalog's files at one commit, read from git objects (a :class:`CatalogSource`)."""

    prefix: str
    files: dict[str, tuple[str, str]]
    """Repository path -> (mode, blob)."""
    blobs: _Blobs
    read_inside_log: list[str] = field(default_factory=list)

    def blob(self, relpath: str) -> str | None:
        """The blob of a catalog file, through symlinks that stay inside the catalog."""
        path = self.prefix + relpath
        for _ in range(_SYMLINK_HOPS):
            entry = self.files.get(path)
            if entry is None:
                return None
            mode, blob = entry
            if mode != _SYMLINK:
                return blob
            target = self.blobs.read(blob).decode("utf-8", "replace")
            path = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
            if not path.startswith(self.prefix) or target.startswith("/"):
                raise PermissionError(relpath)
        raise PermissionError(relpath)

    def read(self, relpath: str) -> bytes | None:
        blob = self.blob(relpath)
        return None if blob is None else self.blobs.read(blob)

    def read_inside(self, relpath: str) -> bytes | None:
        self.read_inside_log.append(relpath)
        raw = self.read(relpath)
        if raw is None:
            raise FileNotFoundError(relpath)
        return raw

    def listing(self) -> list[str] | None:
        start = self.prefix + BUNDLES_DIR + "/"
        return sorted(p[len(self.prefix) :] for p in self.files if p.startswith(start))


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
        assert isinstance(source, _Tree)
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


def _blob_or_none(source: _Tree, relpath: str) -> str | None:
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
        for slug, version, objects in _bundle_roles(bundle):
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

    def __init__(self, repo: _Repository, lock: str | None, key: tuple[str, ...]) -> None:
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
        with _Blobs.open(self.repo.top, plan) as blobs:
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
                tree = _Tree(self.repo.prefix, files, blobs)
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

    def _publishable(self, tree: _Tree) -> Catalog | None:
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
            for slug, number, texts in _bundle_roles(bundle):
                if slug in present:
                    continue
                present.add(slug)
                content, withheld = _withhold(_content(texts), allowed.get(slug, set()))
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


def _allowed(tree: _Tree) -> dict[str, set[str]]:
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
