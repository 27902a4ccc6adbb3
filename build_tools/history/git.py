"""git, run the same whatever the user's configuration: one ``git log`` and one
``git cat-file --batch`` per history, with the blobs each commit changed read a little ahead."""

from __future__ import annotations

import os
import posixpath
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from build_tools.history.versions import Commit
from build_tools.lock import LOCK_FILE
from build_tools.model.catalog import (
    BUNDLES_DIR,
)


class HistoryUnavailable(Exception):
    """Git cannot tell us the catalog's history: ``why`` is a :attr:`Reach.unavailable` code."""

    def __init__(self, why: str, detail: str = "") -> None:
        super().__init__(detail or why)
        self.why = why
        self.detail = detail


@dataclass(frozen=True)
class Repository:
    top: Path
    prefix: str
    """The catalog directory inside the repository: ``""`` or ``"catalog/"``."""
    head: str
    shallow: frozenset[str]
    """Commits whose parents this checkout does not have."""

    @classmethod
    def find(cls, root: Path) -> Repository:
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


class Blobs:
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
    def open(cls, top: Path, plan: list[list[str]]) -> Iterator[Blobs]:
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
class Tree:
    """The catalog's files at one commit, read from git objects (a :class:`CatalogSource`)."""

    prefix: str
    files: dict[str, tuple[str, str]]
    """Repository path -> (mode, blob)."""
    blobs: Blobs
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
