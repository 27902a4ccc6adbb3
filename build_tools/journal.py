"""Read a journal that a killed command left, and act on it only if rolecat could have written it.

A journal (:mod:`build_tools.atomic`) tells the next command which files to rename onto which, and
which to remove. Anybody can plant one: a pull request only has to add
``catalog/.rolecat-change-aaaaaaaa/plan.json``. So before a single file is touched the whole
journal is read as rolecat writes it, and refused (:class:`Foreign`) unless

- it is a real directory directly inside the scope's root, not tracked by git (rolecat never
  commits one);
- it holds only what rolecat puts there: its plan, its two markers (regular files, bounded in
  size) and the directories it stages;
- its plan has exactly the shape rolecat writes;
- every path the plan names is a file the running command may write (:class:`Scope`), reached
  through real directories, with its new bytes and backup beside it under the journal's own
  hidden names, and every staged directory holding only such files.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
from dataclasses import dataclass, replace
from pathlib import Path

from build_tools.diagnostics import one_line
from build_tools.scope import OutOfScope, Scope, no_symlink_below
from build_tools.sources.files import Unreadable, read_bounded

PREFIX = ".rolecat-change-"
PLAN, COMMITTED, ROLLING_BACK = "plan.json", "committed", "rolling-back"
MAX_PLAN_BYTES = 64 << 20
"""A plan names three paths a file: 64 MiB holds a change of some 200,000 files."""
_TREE = re.compile(r"tree-(0|[1-9][0-9]{0,8})")


class Foreign(Exception):
    """A journal rolecat could not have written: ``why`` says what gives it away."""

    def __init__(self, journal: Path, why: str) -> None:
        self.journal, self.why = journal, one_line(why)
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return (
            f"not a change rolecat could have made ({self.why}); nothing was done: read it, "
            f"then remove it (rm -r -- {shlex.quote(str(self.journal))})"
        )


@dataclass(frozen=True)
class Journal:
    """A journal's plan, checked: what :func:`build_tools.atomic.recover` may act on."""

    writer: str
    entries: list[tuple[Path, Path | None, Path | None]]
    """(target, its new bytes or ``None`` for a removal, its backup or ``None``)."""
    trees: list[Path]
    committed: bool
    rolling_back: bool


def read_journal(journal: Path, scope: Scope) -> Journal | None:
    """The journal's plan, once every rule above holds; ``None`` for a plan that was never
    finished (a command killed while it wrote its plan, before anything else); raises
    :class:`Foreign`. Another command's journal is returned unjudged: its writer is not ours."""
    info = os.lstat(journal)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise Foreign(journal, "it is not a directory")
    if journal.parent != scope.root:
        raise Foreign(journal, f"it is not directly in {scope.root}")
    if _tracked(journal):
        raise Foreign(journal, "git tracks it, and rolecat never commits a journal")
    names = os.listdir(journal)
    for name in names:
        _own_file(journal, name)
    if PLAN not in names:
        if names:
            raise Foreign(journal, f"it has no {PLAN} but holds {', '.join(sorted(names))}")
        return None
    try:
        raw = read_bounded(journal / PLAN, MAX_PLAN_BYTES)
        text = raw.decode("utf-8")
    except Unreadable as error:
        raise Foreign(journal, f"{PLAN} {error.message}") from None
    except UnicodeDecodeError:
        raise Foreign(journal, f"{PLAN} is not UTF-8") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise Foreign(journal, f"{PLAN} is nested too deeply") from None
    except json.JSONDecodeError as error:
        if names == [PLAN] and _cut_short(error, text):
            return None  # the writer was killed while it wrote its plan, before anything else
        raise Foreign(journal, f"{PLAN} is not JSON: {error}") from None
    found = _shaped(journal, data)
    if found.writer != scope.writer:
        return found
    unnamed = {n for n in names if _TREE.fullmatch(n)} - {
        f"tree-{i}" for i in range(len(found.trees))
    }
    if unnamed:
        raise Foreign(journal, f"it holds {min(unnamed)}, which its plan does not name")
    _confined(journal, scope, found)
    return replace(found, committed=COMMITTED in names, rolling_back=ROLLING_BACK in names)


def _cut_short(error: json.JSONDecodeError, text: str) -> bool:
    """Whether ``text`` fails only because it ends early (the scanner reports an unterminated
    string at its start, everything else where the text ends)."""
    return error.msg.startswith("Unterminated string") or error.pos >= len(text)


def _own_file(journal: Path, name: str) -> None:
    info = os.lstat(journal / name)
    mode = info.st_mode
    if name in (PLAN, COMMITTED, ROLLING_BACK):
        if not stat.S_ISREG(mode):
            raise Foreign(journal, f"{name} is not a regular file")
        if name != PLAN and info.st_size:
            raise Foreign(journal, f"{name} is not empty")
    elif _TREE.fullmatch(name):
        if not stat.S_ISDIR(mode):
            raise Foreign(journal, f"{name} is not a directory")
    else:
        raise Foreign(journal, f"it holds {name}, which rolecat never writes there")


def _shaped(journal: Path, data: object) -> Journal:
    """The plan as :class:`Journal`, if it has exactly the shape :meth:`Plan.dumps` writes."""
    if not isinstance(data, dict) or sorted(data) != ["entries", "trees", "writer"]:
        raise Foreign(journal, f"{PLAN} is not shaped as rolecat writes it")
    writer, entries, trees = data["writer"], data["entries"], data["trees"]
    if not isinstance(writer, str) or not isinstance(entries, list) or not isinstance(trees, list):
        raise Foreign(journal, f"{PLAN} is not shaped as rolecat writes it")
    found: list[tuple[Path, Path | None, Path | None]] = []
    for entry in entries:
        if not isinstance(entry, list) or len(entry) != 3:
            raise Foreign(journal, f"{PLAN}: an entry is not [target, new, backup]")
        target, new, backup = entry
        if new is not None and not isinstance(new, str):
            raise Foreign(journal, f"{PLAN}: an entry is not [target, new, backup]")
        if backup is not None and not isinstance(backup, str):
            raise Foreign(journal, f"{PLAN}: an entry is not [target, new, backup]")
        found.append(
            (
                _plain(journal, target),
                None if new is None else _plain(journal, new),
                None if backup is None else _plain(journal, backup),
            )
        )
    return Journal(writer, found, [_plain(journal, tree) for tree in trees], False, False)


def _plain(journal: Path, value: object) -> Path:
    """A path as rolecat writes one: absolute, normalized, no NUL."""
    if (
        not isinstance(value, str)
        or "\x00" in value
        or not os.path.isabs(value)
        or os.path.normpath(value) != value
        or value.startswith("//")
    ):
        raise Foreign(journal, f"{PLAN} names {str(value)[:200]!r}, not a plain absolute path")
    return Path(value)


def _confined(journal: Path, scope: Scope, plan: Journal) -> None:
    """Every path of ``plan`` is one that the command of ``scope`` may write."""
    tag = re.escape(journal.name.removeprefix(PREFIX))
    hidden = re.compile(rf"\.rolecat-{tag}-(?:0|[1-9][0-9]{{0,8}})-(new|old)")
    try:
        for target, new, backup in plan.entries:
            if scope.confine(target) != target:
                raise OutOfScope(target, "is not named as rolecat names it")
            _regular_or_missing(target)
            for path, kind in ((new, "new"), (backup, "old")):
                if path is None:
                    continue
                match = hidden.fullmatch(path.name)
                if path.parent != target.parent or match is None or match.group(1) != kind:
                    raise OutOfScope(path, f"is not where rolecat keeps {target}'s {kind} bytes")
                _regular_or_missing(path)
        for number, tree in enumerate(plan.trees):
            no_symlink_below(scope.root, tree)
            if tree == scope.root:
                raise OutOfScope(tree, "is the directory the journal is in")
            staged = journal / f"tree-{number}"
            holder = staged if os.path.lexists(staged) else tree
            for relative in _files_below(holder):
                if not scope.allows(tree / relative):
                    raise OutOfScope(tree / relative, "is not a file this command writes")
    except OutOfScope as refused:
        raise Foreign(journal, f"{refused.path} {refused.reason}") from None


def _regular_or_missing(path: Path) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise OutOfScope(path, "is not a regular file")


def _files_below(top: Path) -> list[Path]:
    """Every file under ``top``, relative to it; a symlink or special file is refused."""
    if not os.path.lexists(top):
        return []
    if os.path.islink(top) or not os.path.isdir(top):
        raise OutOfScope(top, "is not a directory")
    found: list[Path] = []
    for directory, subdirectories, names in os.walk(top):
        for name in [*subdirectories, *names]:
            path = Path(directory) / name
            mode = os.lstat(path).st_mode
            if stat.S_ISREG(mode):
                found.append(path.relative_to(top))
            elif not stat.S_ISDIR(mode):
                raise OutOfScope(path, "is not a regular file or a directory")
    return found


def _tracked(journal: Path) -> bool:
    """Whether git tracks anything in ``journal``: no git, or no repository, tracks nothing."""
    import subprocess  # only a journal, which is rare, asks git

    try:
        done = subprocess.run(
            ["git", "-c", "core.fsmonitor=false", "ls-files", "-z", "--", journal.name],
            cwd=journal.parent,
            capture_output=True,
            timeout=30,
            env={**os.environ, "LC_ALL": "C", "GIT_OPTIONAL_LOCKS": "0"},
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and bool(done.stdout)
