"""What one command may write, and the test every path it writes (or a journal names) must pass.

The repository is untrusted: a pull request can add a symlink where a directory was, or a journal
that names ``~/.bashrc``. So a command never writes "a path": it writes one of the files its
:class:`Scope` allows, reached from the scope's root through real directories only. A symlink
anywhere on the way, a path outside the root or a file the command never writes is refused with
:class:`OutOfScope`, before anything is written or moved.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

_ID = "[a-z0-9-]+"
_SOURCE = r"\.(?:json|yaml|yml)"


class OutOfScope(Exception):
    """A path the running command may not write; ``reason`` says why, as a clause."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = Path(path), reason


@dataclass(frozen=True)
class Scope:
    """The files one command may write: paths under ``root`` that match one of ``patterns``
    (full matches of the root-relative POSIX path), and the exact ``files`` named on its command
    line (a lock kept elsewhere). ``writer`` names the command in its journals, so that each
    command finishes only its own kind of change."""

    root: Path
    writer: str
    patterns: tuple[str, ...]
    files: frozenset[Path] = field(default_factory=frozenset)
    given: Path = field(init=False, compare=False, repr=False)
    """The root as the command was given it, before its symlinks were resolved."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "given", Path(os.path.abspath(self.root)))
        object.__setattr__(self, "root", Path(os.path.realpath(self.root)))
        files = frozenset(_named(path) for path in self.files)
        object.__setattr__(self, "files", files)

    def allows(self, path: Path) -> bool:
        """Whether ``path`` (absolute, as written) is a file this command writes."""
        if path in self.files:
            return True
        relative = _relative(self.root, path)
        return relative is not None and any(re.fullmatch(p, relative) for p in self.patterns)

    def confine(self, path: Path) -> Path:
        """``path`` made absolute, if the command may write it and every component below the
        root is a real directory (or missing) and the file itself no symlink; else
        :class:`OutOfScope`."""
        absolute = Path(os.path.abspath(path))
        if self.given != self.root and self.given in absolute.parents:  # a symlinked root
            absolute = self.root / absolute.relative_to(self.given)
        if not self.allows(absolute):
            raise OutOfScope(absolute, f"is not a file this command writes under {self.root}")
        start = absolute.parent if absolute in self.files else self.root
        no_symlink_below(start, absolute)
        return absolute


def _named(path: Path) -> Path:
    """A file named on the command line: its directory resolved, its own name kept."""
    absolute = Path(os.path.abspath(path))
    return Path(os.path.realpath(absolute.parent)) / absolute.name


def _relative(root: Path, path: Path) -> str | None:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


def no_symlink_below(top: Path, path: Path) -> None:
    """Refuse a symlink, or a non-directory where a directory must be, on the way from ``top``
    (itself trusted) down to ``path``; missing components are fine (they will be made)."""
    if path != top and top not in path.parents:
        raise OutOfScope(path, f"is outside {top}")
    current = top
    parts = path.relative_to(top).parts
    for number, part in enumerate(parts):
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            return
        if stat.S_ISLNK(mode):
            raise OutOfScope(
                current, "is a symbolic link; rolecat writes through no symlink (remove it first)"
            )
        last = number == len(parts) - 1
        if not last and not stat.S_ISDIR(mode):
            raise OutOfScope(current, "is a file where a directory must go; move it away first")


def catalog_scope(root: Path, lock: Path | None = None) -> Scope:
    """A catalog's sources (index and bundle files, in any format), its lock in either of its
    places, its allowlist, and the lock the command was given."""
    from build_tools.lock import LOCK_FILE
    from build_tools.rules.allowlist import ALLOWLIST_FILE

    patterns = (
        f"index{_SOURCE}",
        f"bundles/{_ID}/{_ID}{_SOURCE}",
        re.escape(LOCK_FILE),
        f"scripts/{re.escape(LOCK_FILE)}",
        re.escape(ALLOWLIST_FILE),
    )
    return Scope(root, "catalog", patterns, frozenset([lock] if lock is not None else []))


def export_scope(root: Path) -> Scope:
    """What ``rolecat export`` writes into a project: the tools' agent files and its manifest."""
    from build_tools.exports.writer import MANIFEST

    patterns = (
        re.escape(MANIFEST),
        rf"\.claude/agents/{_ID}\.md",
        rf"\.github/agents/{_ID}\.agent\.md",
        rf"\.cursor/rules/{_ID}\.mdc",
    )
    return Scope(root, "export", patterns)
