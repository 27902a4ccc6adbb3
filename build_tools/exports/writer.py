"""``rolecat export``: a checked catalog's roles written where a tool looks for them, all or none,
and never over a file someone changed by hand.

What it writes is recorded in :data:`MANIFEST` at the project's root: each file's path and the
SHA-256 of the bytes written. A file that exists is replaced only while its bytes are still the
recorded ones; one that is not recorded, or that differs from its record, was written or edited by
someone else, and the whole export is refused unless it is forced.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from build_tools.atomic import Transaction
from build_tools.exports import EXPORTERS, Export, Tool
from build_tools.exports.freshness import Notes
from build_tools.model.catalog import Catalog
from build_tools.scope import OutOfScope, export_scope, no_symlink_below
from build_tools.sources.files import describe, read_bounded

MANIFEST = ".rolecat-export.json"
"""Beside the tools' directories: what ``rolecat export`` wrote there."""

MAX_EXPORT_BYTES = 16 << 20
"""More than any file export writes (a role's instructions are under the server's 1 MB)."""

State = Literal["created", "updated", "unchanged", "overwritten", "refused"]


class ExportError(Exception):
    """What cannot be exported as asked; nothing was written."""


@dataclass(frozen=True)
class Selection:
    """The roles of one language, in one tool's format."""

    language: str
    exports: list[Export]
    skipped: list[str] = field(default_factory=list)
    """Bundles that have no file in the language, one line each."""


def select(
    catalog: Catalog,
    tool: Tool,
    language: str | None = None,
    bundle_id: str | None = None,
    notes: Notes | None = None,
) -> Selection:
    """Every role of the catalog (or of one bundle) in ``language``, the catalog's first by
    default: a tool keeps one file per agent name, so one language at a time. ``notes`` say
    which translations are behind (:mod:`build_tools.exports.freshness`)."""
    languages = catalog.languages
    chosen = language or (languages[0] if languages else None)
    if chosen is None or chosen not in languages:
        raise ExportError(
            f'the catalog has no language "{chosen}" (it has {", ".join(languages) or "none"})'
        )
    bundles = catalog.bundles
    if bundle_id is not None:
        bundles = [b for b in catalog.bundles if b.id == bundle_id]
        if not bundles:
            known = ", ".join(b.id for b in catalog.bundles) or "none"
            raise ExportError(f'the catalog has no bundle "{bundle_id}" (it has {known})')
        if chosen not in bundles[0].files:
            spoken = ", ".join(bundles[0].published_languages)
            raise ExportError(f'bundle "{bundle_id}" has no language "{chosen}" (it has {spoken})')
    found: list[Export] = []
    skipped: list[str] = []
    for bundle in bundles:
        file = bundle.files.get(chosen)
        if file is None:
            skipped.append(f'bundle "{bundle.id}": not in {chosen}, skipped')
            continue
        for _pointer, slug, _version in bundle.roles:
            role = file.role(slug)
            if role is not None:
                note = notes.get((chosen, bundle.id, slug)) if notes else None
                found.append(EXPORTERS[tool](role, note))
    return Selection(chosen, found, skipped)


@dataclass(frozen=True)
class Planned:
    """What happens to one file: its path in the project, and why it is refused."""

    path: str
    state: State
    reason: str = ""


@dataclass
class Plan:
    """Everything an export would write, decided before anything is."""

    root: Path
    files: list[Planned]
    writes: dict[str, bytes]
    """Project path -> the bytes to write there (the manifest included)."""
    notes: list[str] = field(default_factory=list)

    @property
    def refused(self) -> list[Planned]:
        return [p for p in self.files if p.state == "refused"]


def digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def plan(root: Path, exports: list[Export], *, force: bool = False) -> Plan:
    """What writing ``exports`` into the project at ``root`` does to each file."""
    recorded, notes = read_manifest(root)
    manifest = dict(recorded)
    files: list[Planned] = []
    writes: dict[str, bytes] = {}
    for export in exports:
        content = export.encoded()
        state, reason = _judge(root, export.path, content, recorded.get(export.path), force)
        files.append(Planned(export.path, state, reason))
        if state != "refused":
            manifest[export.path] = digest(content)
        if state in ("created", "updated", "overwritten"):
            writes[export.path] = content
    if manifest != recorded:
        state, reason = _judge_manifest(root / MANIFEST)
        if state == "refused":
            files.append(Planned(MANIFEST, state, reason))
        writes[MANIFEST] = manifest_bytes(manifest)
    return Plan(root, files, writes, notes)


def _judge(
    root: Path, name: str, content: bytes, recorded: str | None, force: bool
) -> tuple[State, str]:
    path = root / name
    try:  # forced or not, nothing is written through a symlink
        no_symlink_below(root, path.parent)
    except OutOfScope as refused:
        return "refused", f"{refused.path.relative_to(root).as_posix()} {refused.reason}"
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return "created", ""
    except OSError as error:
        return "refused", error.strerror or str(error)
    if stat.S_ISLNK(mode):
        return "refused", "is a symbolic link; rolecat export writes only regular files"
    if not stat.S_ISREG(mode):
        return "refused", "is not a regular file"
    try:
        current = read_bounded(path, MAX_EXPORT_BYTES)
    except OSError as error:
        return "refused", describe(error)
    if current == content:
        return "unchanged", ""
    if recorded is not None and digest(current) == recorded:
        return "updated", ""
    if force:
        return "overwritten", ""
    if recorded is None:
        return "refused", f"exists, and rolecat export did not write it (no record in {MANIFEST})"
    return "refused", "changed by hand since rolecat export wrote it"


def _judge_manifest(path: Path) -> tuple[State, str]:
    if path.is_symlink():
        return "refused", "is a symbolic link; rolecat export writes only regular files"
    if path.exists() and not path.is_file():
        return "refused", "is not a regular file"
    return "updated", ""


def read_manifest(root: Path) -> tuple[dict[str, str], list[str]]:
    """The recorded files, and a note when the manifest could not be read (then nothing counts
    as written by rolecat export, so nothing is replaced unforced)."""
    path = root / MANIFEST
    if not os.path.lexists(path):
        return {}, []
    try:
        data = json.loads(read_bounded(path, MAX_EXPORT_BYTES))
        files = data["files"]
        if isinstance(files, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in files.items()
        ):
            return dict(files), []
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        pass
    return {}, [f"{MANIFEST}: unreadable, so no file counts as written by rolecat export"]


def manifest_bytes(files: dict[str, str]) -> bytes:
    document = {
        "comment": "What rolecat export wrote here, so that it never overwrites a hand edit: "
        "each file's path and the SHA-256 of the bytes it wrote.",
        "files": dict(sorted(files.items())),
    }
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def write(plan: Plan) -> None:
    """Every write of the plan, or none (raises :class:`~build_tools.atomic.WriteError`)."""
    change = Transaction(export_scope(plan.root))
    for path, content in plan.writes.items():
        change.write(plan.root / path, content)
    change.apply()
