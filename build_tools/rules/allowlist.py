"""``secrets-allowlist.json``: known false positives of the secret scan, per role, by hash.

An entry names the SHA-256 of the text a detector matched (never the text) with the reason it is
no credential, under the role it is in: ``{"<slug>": {"<sha256>": "<why>"}}``. It allows that
text in that role only. The lock's rules apply: an entry for a role that does not exist, or that
matches nothing in its role any more, is an error, and ``rolecat check --fix`` prunes it. The file
sits beside the lock and, like the lock, is never published.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from build_tools.diagnostics import Diagnostic
from build_tools.model import schema
from build_tools.model.catalog import Catalog, relative
from build_tools.rules.secret_report import diagnose
from build_tools.rules.secret_scan import Hit
from build_tools.sources.files import TooLarge, describe, read_bounded
from build_tools.sources.json_reader import Document, SourceError, parse_json

MAX_ALLOWLIST_BYTES = 8_000_000
"""The allowlist is never published, so the server's cap is not its bound; this is."""

ALLOWLIST_FILE = "secrets-allowlist.json"

STALE = "secret-allowlist-stale"
"""The rule of an entry that allows nothing: ``--fix`` prunes exactly these."""


@dataclass
class Allowlist:
    path: str
    document: Document | None = None
    entries: dict[str, dict[str, str]] = field(default_factory=dict)
    """slug -> SHA-256 -> reason."""


def read_allowlist(root: Path) -> tuple[Allowlist, list[Diagnostic]]:
    """The catalog's allowlist; an empty one when the file does not exist."""
    path = root / ALLOWLIST_FILE
    display = relative(root, path)
    try:
        raw = read_bounded(path, MAX_ALLOWLIST_BYTES)
    except FileNotFoundError:
        return Allowlist(display), []
    except TooLarge as error:
        message = f"file {error.message}; an allowlist is read up to {MAX_ALLOWLIST_BYTES:,} bytes"
        return Allowlist(display), [Diagnostic(display, 0, 0, message, "unreadable")]
    except OSError as error:
        return Allowlist(display), [Diagnostic(display, 0, 0, describe(error), "unreadable")]
    try:
        document = parse_json(display, raw, server_cap=False)  # never published
    except SourceError as error:
        return Allowlist(display), error.diagnostics
    problems = schema.validate("allowlist", document)
    if problems:
        return Allowlist(display, document), problems
    return Allowlist(display, document, document.data), []


@dataclass
class Verdict:
    """The scan's findings held against the allowlist."""

    diagnostics: list[Diagnostic]
    stale: list[tuple[str, str]]
    """(slug, SHA-256) of the entries that allow nothing."""


def judge(hits: list[Hit], allowlist: Allowlist, catalog: Catalog, complete: bool) -> Verdict:
    """Each finding not allowed is an error; with a ``complete`` scan (every file of the catalog
    read), so is each entry that allows nothing."""
    used: set[tuple[str, str]] = set()
    diagnostics = []
    for hit in hits:
        if hit.slug is not None and hit.finding.digest in allowlist.entries.get(hit.slug, {}):
            used.add((hit.slug, hit.finding.digest))
        else:
            diagnostics.append(diagnose(hit, allowlist.path))
    stale: list[tuple[str, str]] = []
    if complete and allowlist.document is not None:
        roles = {slug for bundle in catalog.bundles for _pointer, slug, _version in bundle.roles}
        for slug, digests in allowlist.entries.items():
            for digest in digests:
                if (slug, digest) in used:
                    continue
                stale.append((slug, digest))
                why = (
                    f'role "{slug}" is not in the catalog'
                    if slug not in roles
                    else f'it matches nothing in role "{slug}" any more'
                )
                diagnostics.append(
                    allowlist.document.diagnostic(
                        (slug, digest),
                        f"entry {digest[:12]}… allows nothing: {why}; remove it, or run "
                        "`rolecat check --fix`",
                        STALE,
                        at_key=True,
                    )
                )
    return Verdict(diagnostics, stale)


def prune(allowlist: Allowlist, stale: list[tuple[str, str]]) -> tuple[bytes, list[str]]:
    """The allowlist without its stale entries, and what was pruned, one line each."""
    entries = {slug: dict(digests) for slug, digests in allowlist.entries.items()}
    for slug, digest in stale:
        entries[slug].pop(digest, None)
    kept = {slug: entries[slug] for slug in sorted(entries) if entries[slug]}
    lines = [f'pruned {allowlist.path}: {digest[:12]}… of role "{slug}"' for slug, digest in stale]
    return render(kept), lines


def render(entries: dict[str, dict[str, str]]) -> bytes:
    """Sorted, two-space indented, with a final newline, like the lock."""
    ordered = {slug: dict(sorted(entries[slug].items())) for slug in sorted(entries)}
    return (json.dumps(ordered, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
