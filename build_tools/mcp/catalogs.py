"""Where the prompts come from: a catalog directory, checked as ``rolecat check`` checks it and
checked again whenever its files change; or a published site, read once as the server reads it.

Both are untrusted (DESIGN.md, "Trust boundaries"), and nothing either holds makes the server
write. A check finishes or undoes a change that a killed rolecat command left (its journal), which
writes; so while such a journal is in the catalog, nothing is checked and the journal is named
for a person to deal with (``rolecat check`` finishes it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TextIO

from build_tools.atomic import JOURNAL_PREFIX
from build_tools.check import check_catalog
from build_tools.diagnostics import one_line
from build_tools.mcp.prompts import NoSuchLanguage, Served, role_prompts
from build_tools.sources.json_reader import TIMEOUT_SECONDS


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


Fingerprint = frozenset[tuple[str, int, int, int, int]]
"""Each file under a catalog: its path, size, inode, and modification and change times."""


class PromptSource(Protocol):
    """What the server offers now, and whether it may change while the session lasts."""

    @property
    def served(self) -> Served: ...

    @property
    def watching(self) -> bool: ...

    def refresh(self) -> bool:
        """Look again; ``True`` when what is served changed."""


@dataclass(frozen=True)
class Attempt:
    """One reading of a catalog: what to serve, else why not (``problems``, a line each, then a
    one-line ``summary``)."""

    served: Served | None
    problems: list[str] = field(default_factory=list)
    summary: str = ""
    warnings: list[str] = field(default_factory=list)


def fingerprint(root: Path) -> Fingerprint:
    """What any change to a file under the catalog changes, at the cost of a ``stat`` per file,
    not a check. Left out: a repository's ``.git`` (a catalog may be a repository's root) and
    journals, which :func:`interrupted` looks for."""
    found = set()
    for directory, subdirectories, names in os.walk(root):
        if directory == str(root):
            subdirectories[:] = [d for d in subdirectories if not _skipped(d)]
        for name in names:
            path = os.path.join(directory, name)
            try:
                status = os.stat(path)
            except OSError:  # a dangling symlink, a loop: the check reports it
                found.add((path, -1, -1, -1, -1))
                continue
            found.add((path, status.st_size, status.st_ino, status.st_mtime_ns, status.st_ctime_ns))
    return frozenset(found)


def _skipped(name: str) -> bool:
    return name == ".git" or name.startswith(JOURNAL_PREFIX)


def interrupted(root: Path) -> list[str]:
    """The journals that killed commands left in the catalog (a check would act on them)."""
    try:
        with os.scandir(root) as entries:
            return sorted(
                entry.name
                for entry in entries
                if entry.name.startswith(JOURNAL_PREFIX) and entry.is_dir(follow_symlinks=False)
            )
    except OSError:
        return []  # no such directory: the check says so


def check_local(root: Path, language: str | None, *, model_tiers: bool = False) -> Attempt:
    """The catalog in ``root`` as prompts in ``language``, if it passes ``rolecat check``."""
    from build_tools.exports.freshness import read_notes

    left = interrupted(root)
    if left:
        problems = [
            f"{root / name}: a change that a killed rolecat command left half made; "
            f"`rolecat check --catalog {root}` finishes or undoes it (rolecat mcp writes nothing)"
            for name in left
        ]
        return Attempt(None, [one_line(line) for line in problems], "the catalog is mid-change")
    result = check_catalog(root, model_tiers=model_tiers)
    warnings = [str(warning) for warning in result.warnings]
    if not result.ok or result.catalog is None:
        problems = [str(diagnostic) for diagnostic in result.diagnostics]
        summary = f"{_count(len(problems), 'problem')} (see `rolecat check --catalog {root}`)"
        return Attempt(None, problems, one_line(summary), warnings)
    try:
        notes = read_notes(root, result.catalog)
        served = role_prompts(result.catalog, language, notes)
    except NoSuchLanguage as error:
        return Attempt(None, [], one_line(str(error)), warnings)
    return Attempt(served, warnings=warnings)


class LocalPrompts:
    """A catalog directory as prompts, checked again when its files change. A catalog that
    fails keeps the last one that passed in service, and its problems go to ``log``.

    Not for concurrent use: the server calls :meth:`refresh` one call at a time."""

    watching = True

    def __init__(
        self, root: Path, first: Served, seen: Fingerprint, log: TextIO, *, model_tiers: bool
    ) -> None:
        """``first`` is what a check of the files as ``seen`` found; its language stays the
        session's, so a client's prompt names keep meaning the same roles."""
        self.root, self.served, self.log = root, first, log
        self.model_tiers = model_tiers
        self._seen = seen

    def refresh(self) -> bool:
        now = fingerprint(self.root)
        if now == self._seen:
            return False
        self._seen = now  # taken before the check: a change during it is seen next time
        attempt = check_local(self.root, self.served.language, model_tiers=self.model_tiers)
        if attempt.served is None:
            for line in attempt.problems:
                print(line, file=self.log)
            print(
                f"rolecat mcp: {self.root} changed, but {attempt.summary}: still serving it as "
                "it last passed",
                file=self.log,
            )
            return False
        if attempt.served == self.served:
            return False
        self.served = attempt.served
        print(
            f"rolecat mcp: {self.root} changed: serving "
            f"{_count(len(self.served.prompts), 'prompt')} in {self.served.language}",
            file=self.log,
        )
        return True


@dataclass
class SitePrompts:
    """A published site as prompts: read once, at start."""

    served: Served
    watching: bool = False

    def refresh(self) -> bool:
        return False


def read_site(base: str, language: str | None, timeout: float = TIMEOUT_SECONDS) -> Attempt:
    """The site at ``base`` (normalized) as prompts, if the server can read all of it: its JSON
    generation, or its YAML one where it publishes only that (as ``check --against`` reads)."""
    from build_tools.wire.remote import read_live

    remote = read_live(base, timeout)
    if remote.problems or remote.catalog is None:
        first = str(remote.problems[0]) if remote.problems else "no catalog"
        more = len(remote.problems) - 1
        also = f"; {_count(more, 'more problem')}: `rolecat verify {base}` lists them"
        also = also if more else ""
        return Attempt(None, [], one_line(f"cannot read {base} as the server does: {first}{also}"))
    try:
        return Attempt(role_prompts(remote.catalog, language))
    except NoSuchLanguage as error:
        return Attempt(None, [], one_line(f"{base}: {error}"))
