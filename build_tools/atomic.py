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
command is refused instead.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

JOURNAL_PREFIX = ".rolecat-change-"
_PLAN, _COMMITTED, _ROLLING_BACK = "plan.json", "committed", "rolling-back"


class WriteError(Exception):
    """A change that could not be made, at ``path`` for ``reason``; nothing was changed."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason
        self.message = f"{path}: {reason}"


@dataclass
class Transaction:
    """Files to write and to remove, applied together by :meth:`apply`."""

    root: Path
    """The catalog directory: the journal goes there (targets may lie elsewhere, e.g. a lock)."""
    writes: dict[Path, bytes] = field(default_factory=dict)
    removes: list[Path] = field(default_factory=list)

    def write(self, path: Path, content: bytes) -> None:
        """Write ``content`` to ``path`` (through a symlink: the file it names is replaced)."""
        self.writes[Path(os.path.realpath(path))] = content

    def remove(self, path: Path) -> None:
        self.removes.append(Path(os.path.abspath(path)))

    def apply(self) -> None:
        """Make every write and removal, or none of them; raises :class:`WriteError`."""
        recover(self.root)
        if not self.writes and not self.removes:
            return
        try:
            import tempfile  # a transaction is rare; a check never starts one

            journal = Path(tempfile.mkdtemp(prefix=JOURNAL_PREFIX, dir=self.root))
        except OSError as error:
            raise WriteError(self.root, f"cannot write here: {_reason(error)}") from None
        held = _hold(journal)
        try:
            plan = self._prepare(journal)
            _write_file(journal / _COMMITTED, b"")
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

    def _prepare(self, journal: Path) -> _Plan:
        """Everything written and flushed beside its target; on failure, nothing is left."""
        plan = _Plan.of(journal, self.writes, self.removes)
        try:
            for path in [*self.writes, *self.removes]:
                _can_replace(path)
            _write_file(journal / _PLAN, plan.dumps())
            _sync_directory(journal)
            for entry in plan.entries:
                if entry.backup is not None:
                    _keep(entry.target, entry.backup)
                if entry.temporary is not None:
                    _write_file(entry.temporary, self.writes[entry.target], like=entry.target)
            for staged, content in plan.staged(self.writes).items():
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
    entries: list[_Entry]
    """Files in directories that exist: each replaced, created or removed by one rename."""
    trees: list[Path]
    """New directories, each built inside the journal and moved into place by one rename, so
    that no directory of a change that never happened is left behind."""

    @classmethod
    def of(cls, journal: Path, writes: dict[Path, bytes], removes: list[Path]) -> _Plan:
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
        return cls(journal, entries, trees)

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
                "entries": [
                    [str(e.target), e.temporary and str(e.temporary), e.backup and str(e.backup)]
                    for e in self.entries
                ],
                "trees": [str(t) for t in self.trees],
            }
        ).encode()

    @classmethod
    def loads(cls, journal: Path, raw: bytes) -> _Plan:
        data = json.loads(raw)
        entries = [
            _Entry(Path(t), Path(n) if n else None, Path(b) if b else None)
            for t, n, b in data["entries"]
        ]
        return cls(journal, entries, [Path(t) for t in data["trees"]])


def _new_tree(target: Path) -> Path | None:
    """The outermost directory above ``target`` that does not exist yet, if any."""
    missing = [p for p in target.parents if not os.path.lexists(p)]
    return missing[-1] if missing else None


def recover(root: Path) -> list[str]:
    """Finish or undo each change a killed command left in ``root``; what was done, a line each.

    Raises :class:`WriteError` while another rolecat command is changing the catalog.
    """
    done = []
    try:
        journals = sorted(root.glob(f"{JOURNAL_PREFIX}*"), key=lambda p: p.stat().st_mtime_ns)
    except OSError:
        return []
    for journal in journals:
        try:
            held = _hold(journal)
        except OSError:
            continue  # gone meanwhile, or not a directory of ours
        try:
            done.append(_recover(journal))
        except OSError as error:
            raise WriteError(
                journal, f"cannot finish this interrupted change: {_reason(error)}"
            ) from None
        finally:
            os.close(held)
    return done


def _recover(journal: Path) -> str:
    try:
        plan = _Plan.loads(journal, (journal / _PLAN).read_bytes())
    except (OSError, ValueError, KeyError, TypeError):  # killed before its plan was complete
        _remove_tree(journal)
        return f"removed {journal.name}: an interrupted change that had written nothing"
    names = ", ".join(str(e.target) for e in plan.entries)
    if (journal / _COMMITTED).exists() and not (journal / _ROLLING_BACK).exists():
        _forward(plan)
        _finish(journal, plan)
        return f"finished an interrupted change: {names}"
    _backward(plan, committed=(journal / _COMMITTED).exists())
    _remove_tree(journal)
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
        _write_file(journal / _ROLLING_BACK, b"")


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
    descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
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
