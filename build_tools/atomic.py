"""Change a catalog's files all or none, whatever happens midway.

A scaffold edits the index and every language file of a bundle, ``convert`` writes every source
anew and removes the old ones, ``--fix`` rewrites the lock and the allowlist. Each is one
:class:`Change`. Its new bytes are written and flushed to disk beside their targets first, next to
a plan of what goes where, in a journal directory ``.rolecat-change-XXXXXXXX`` in the catalog; one
rename of a marker commits the change, and only then are the targets replaced, each by a rename.
Anything that fails before the commit (a full disk, a file too large for ``RLIMIT_FSIZE``, a
read-only or immutable target) removes what was written and leaves every file as it was. A process
killed at any point leaves a journal: the next rolecat command that reads or changes the catalog
(a check, a build, a scaffold) rolls an uncommitted change back and a committed one forward, so
the catalog is the old state or the new one, never a mix.

A journal that a running command still holds (a ``flock`` on its directory) is never touched: the
command is refused instead. A journal is acted on only if rolecat could have written it
(:mod:`build_tools.journal`): anything else is refused in one line and left for a person to read.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from build_tools.journal import COMMITTED, PLAN, PREFIX, ROLLING_BACK, Foreign, read_journal
from build_tools.scope import OutOfScope, Scope

JOURNAL_PREFIX = PREFIX


class WriteError(Exception):
    """A change that could not be made, at ``path`` for ``reason``; nothing was changed."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason
        self.message = f"{path}: {reason}"


@dataclass
class Transaction:
    """Files to write and to remove, applied together by :meth:`apply`."""

    scope: Scope
    """What the command may write; its journal goes in the scope's root."""
    writes: dict[Path, bytes] = field(default_factory=dict)
    removes: list[Path] = field(default_factory=list)

    @property
    def root(self) -> Path:
        return self.scope.root

    def write(self, path: Path, content: bytes) -> None:
        """Write ``content`` to ``path``, which must be a file of the scope's (never a symlink)."""
        self.writes[Path(os.path.abspath(path))] = content

    def remove(self, path: Path) -> None:
        self.removes.append(Path(os.path.abspath(path)))

    def apply(self) -> None:
        """Make every write and removal, or none of them; raises :class:`WriteError`."""
        recover(self.scope)
        if not self.writes and not self.removes:
            return
        try:
            writes = {self.scope.confine(p): content for p, content in self.writes.items()}
            removes = [self.scope.confine(p) for p in self.removes]
            for path in [*writes, *removes]:
                _can_replace(path)
        except OutOfScope as refused:
            raise WriteError(refused.path, refused.reason) from None
        except OSError as error:
            raise WriteError(Path(error.filename or self.root), _reason(error)) from None
        try:
            import tempfile  # a transaction is rare; a check never starts one

            journal = Path(tempfile.mkdtemp(prefix=JOURNAL_PREFIX, dir=self.root))
        except OSError as error:
            raise WriteError(self.root, f"cannot write here: {_reason(error)}") from None
        held = _hold(journal)
        try:
            plan = self._prepare(journal, writes, removes)
            _write_file(journal / COMMITTED, b"")
            _sync_directory(journal)
            try:
                _forward(plan)
            except OSError as error:
                _mark_rolling_back(journal)
                _backward(plan, committed=True)
                raise _failure(plan, error) from None
            _finish(journal, plan)
        finally:
            os.close(held)

    def _prepare(self, journal: Path, writes: dict[Path, bytes], removes: list[Path]) -> _Plan:
        """Everything written and flushed beside its target; on failure, nothing is left."""
        plan = _Plan.of(journal, self.scope.writer, writes, removes)
        try:
            _write_file(journal / PLAN, plan.dumps())
            _sync_directory(journal)
            for entry in plan.entries:
                if entry.backup is not None:
                    _keep(entry.target, entry.backup)
                if entry.temporary is not None:
                    _write_file(entry.temporary, writes[entry.target], like=entry.target)
            for staged, content in plan.staged(writes).items():
                staged.parent.mkdir(parents=True, exist_ok=True)
                _write_file(staged, content)
            for directory in {e.target.parent for e in plan.entries}:
                _sync_directory(directory)
        except OSError as error:
            _backward(plan, committed=False)
            _remove_tree(journal)
            raise _failure(plan, error) from None
        return plan


@dataclass(frozen=True)
class _Entry:
    target: Path
    temporary: Path | None  # the new bytes; None for a removal
    backup: Path | None  # a hard link to what the target was, to undo with; None if it was not


@dataclass(frozen=True)
class _Plan:
    journal: Path
    writer: str
    """The kind of command that wrote it (:attr:`Scope.writer`): only that kind finishes it."""
    entries: list[_Entry]
    """Files in directories that exist: each replaced, created or removed by one rename."""
    trees: list[Path]
    """New directories, each built inside the journal and moved into place by one rename, so
    that no directory of a change that never happened is left behind."""

    @classmethod
    def of(
        cls, journal: Path, writer: str, writes: dict[Path, bytes], removes: list[Path]
    ) -> _Plan:
        # Short names, whatever the target's: a target may be as long as a name can be.
        tag = journal.name.removeprefix(JOURNAL_PREFIX)
        entries: list[_Entry] = []
        trees: list[Path] = []
        for number, target in enumerate([*writes, *removes]):
            top = _new_tree(target) if target in writes else None
            if top is not None:
                if top not in trees:
                    trees.append(top)
                continue
            hidden = target.parent / f".rolecat-{tag}-{number}"
            temporary = hidden.with_name(hidden.name + "-new") if target in writes else None
            existed = os.path.lexists(target)
            backup = hidden.with_name(hidden.name + "-old") if existed else None
            entries.append(_Entry(target, temporary, backup))
        return cls(journal, writer, entries, trees)

    def staged(self, writes: dict[Path, bytes]) -> dict[Path, bytes]:
        """Where each file of a new directory is written inside the journal."""
        found = {}
        for target, content in writes.items():
            top = _new_tree(target)
            if top is not None:
                found[self.staging(top) / target.relative_to(top)] = content
        return found

    def staging(self, tree: Path) -> Path:
        return self.journal / f"tree-{self.trees.index(tree)}"

    def dumps(self) -> bytes:
        return json.dumps(
            {
                "writer": self.writer,
                "entries": [
                    [str(e.target), e.temporary and str(e.temporary), e.backup and str(e.backup)]
                    for e in self.entries
                ],
                "trees": [str(t) for t in self.trees],
            }
        ).encode()


def _new_tree(target: Path) -> Path | None:
    """The outermost directory above ``target`` that does not exist yet, if any."""
    missing = [p for p in target.parents if not os.path.lexists(p)]
    return missing[-1] if missing else None


def recover(scope: Scope) -> list[str]:
    """Finish or undo each change a killed command of ``scope``'s kind left in its root; what
    was done, a line each.

    Raises :class:`WriteError` while another rolecat command is changing the catalog, and for a
    journal rolecat could not have written (:mod:`build_tools.journal`), touching nothing.
    """
    done = []
    try:
        found = [p for p in scope.root.glob(f"{JOURNAL_PREFIX}*") if _is_directory(p)]
        found.sort(key=lambda p: p.lstat().st_mtime_ns)
    except OSError:
        return []
    for directory in found:
        try:
            held = _hold(directory)
        except OSError:
            continue  # gone meanwhile
        try:
            line = _recover(directory, scope)
        except Foreign as foreign:
            raise WriteError(directory, foreign.message) from None
        except OSError as error:
            raise WriteError(
                directory, f"cannot finish this interrupted change: {_reason(error)}"
            ) from None
        finally:
            os.close(held)
        if line:
            done.append(line)
    return done


def _is_directory(path: Path) -> bool:
    """A real directory: a file or a symlink of that name is no journal of ours, and left alone."""
    return stat.S_ISDIR(os.lstat(path).st_mode)


def _recover(directory: Path, scope: Scope) -> str | None:
    read = read_journal(directory, scope)
    if read is None:  # killed before its plan was complete
        _remove_tree(directory)
        return f"removed {directory.name}: an interrupted change that had written nothing"
    if read.writer != scope.writer:
        return None  # another command's change: that command finishes it
    entries = [_Entry(target, new, backup) for target, new, backup in read.entries]
    plan = _Plan(directory, read.writer, entries, read.trees)
    names = ", ".join(str(e.target) for e in plan.entries)
    if read.committed and not read.rolling_back:
        _forward(plan)
        _finish(directory, plan)
        return f"finished an interrupted change: {names}"
    _backward(plan, committed=read.committed)
    _remove_tree(directory)
    return f"undid an interrupted change: {names} as they were"


def _forward(plan: _Plan) -> None:
    """Replace every target; each step may already have been done by a killed process."""
    for tree in plan.trees:
        staged = plan.staging(tree)
        if os.path.lexists(staged):
            tree.parent.mkdir(parents=True, exist_ok=True)
            os.rename(staged, tree)
    for entry in plan.entries:
        if entry.temporary is not None:
            if os.path.lexists(entry.temporary):
                os.replace(entry.temporary, entry.target)
        else:
            _unlink(entry.target)
    for directory in {e.target.parent for e in plan.entries} | {t.parent for t in plan.trees}:
        _sync_directory(directory)


def _backward(plan: _Plan, *, committed: bool) -> None:
    """Put back every target as it was; each step may already have been done by a killed
    process, and only a committed change can have moved a new directory into place."""
    for entry in plan.entries:
        if entry.temporary is not None:
            _unlink(entry.temporary)
        if entry.backup is None:  # the change created it, if it got that far
            _unlink(entry.target)
        elif os.path.lexists(entry.backup):
            if os.path.lexists(entry.target) and os.path.samefile(entry.backup, entry.target):
                os.unlink(entry.backup)  # never replaced: rename(2) would do nothing
            else:
                os.replace(entry.backup, entry.target)
    for tree in plan.trees if committed else []:
        if not os.path.lexists(plan.staging(tree)):  # moved into place: the change made it
            _remove_tree(tree)


def _finish(journal: Path, plan: _Plan) -> None:
    for entry in plan.entries:
        if entry.backup is not None:
            _unlink(entry.backup)
    _remove_tree(journal)


def _mark_rolling_back(journal: Path) -> None:
    with contextlib.suppress(OSError):
        _write_file(journal / ROLLING_BACK, b"")


def _keep(target: Path, backup: Path) -> None:
    """A second name for what ``target`` is now: a hard link, or a copy where links are not."""
    try:
        os.link(target, backup, follow_symlinks=False)
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EMLINK):
            raise
        import shutil

        shutil.copy2(target, backup, follow_symlinks=False)


def _can_replace(path: Path) -> None:
    """Refuse a target that cannot be replaced before anything is written: a directory, a
    read-only or immutable file (opening it to append writes nothing)."""
    if path.is_dir() and not path.is_symlink():
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
    for parent in path.parents:
        if os.path.lexists(parent):
            if not parent.is_dir():
                message = "is a file where a directory must go; move it away first"
                raise NotADirectoryError(errno.ENOTDIR, message, str(parent))
            break
    if os.path.lexists(path):
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | os.O_CLOEXEC))


def _write_file(path: Path, content: bytes, *, like: Path | None = None) -> None:
    """Write ``content`` to a new file and flush it to disk; it keeps ``like``'s permissions."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    try:
        if like is not None and os.path.exists(like):
            os.fchmod(descriptor, os.stat(like).st_mode & 0o7777)
        view = memoryview(content)
        while view:
            view = view[os.write(descriptor, view) :]
        os.fsync(descriptor)
    except OSError as error:  # os.write names no file: say which one
        raise OSError(error.errno, error.strerror, str(path)) from None
    finally:
        os.close(descriptor)


def _sync_directory(path: Path) -> None:
    with contextlib.suppress(OSError):
        descriptor = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def lock_directory(directory: Path) -> int:
    """An open descriptor of ``directory`` holding an exclusive ``flock`` on it, for as long as
    it stays open; ``BlockingIOError`` while another process holds one."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | os.O_NOFOLLOW
    descriptor = os.open(directory, flags)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(descriptor)
        raise
    return descriptor


def _hold(journal: Path) -> int:
    """:func:`lock_directory` of a journal, or :class:`WriteError` while a command holds it."""
    try:
        return lock_directory(journal)
    except BlockingIOError:
        raise WriteError(
            journal.parent, "another rolecat command is changing it right now; try again later"
        ) from None


def _unlink(path: Path) -> None:
    """Remove a file if it is there (its directory may not be)."""
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        os.unlink(path)


def _remove_tree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def _failure(plan: _Plan, error: OSError) -> WriteError:
    where = Path(error.filename) if error.filename else plan.journal
    for entry in plan.entries:  # name the target, not its hidden temporary file
        if where in (entry.temporary, entry.backup):
            where = entry.target
    return WriteError(where, _reason(error))


def _reason(error: OSError) -> str:
    reasons = {
        errno.ENOSPC: "no space left on the device",
        errno.EDQUOT: "disk quota exceeded",
        errno.EFBIG: "the file is larger than this process may write (RLIMIT_FSIZE)",
        errno.EROFS: "the file system is read-only",
        errno.EACCES: "permission denied (read-only?)",
        errno.EPERM: "operation not permitted (an immutable file?)",
    }
    return reasons.get(error.errno or 0, error.strerror or str(error))
