"""The content-hash lock, byte-compatible with the upstream checker's ``content-hashes.json``.

A role's hash covers its content in every language of its bundle, so a change to any translation
requires a version bump before the lock can record it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from build_tools.diagnostics import Diagnostic, Pointer
from build_tools.model import schema
from build_tools.model.catalog import Bundle, Catalog, relative
from build_tools.sources.files import TooLarge, describe, read_bounded
from build_tools.sources.json_reader import Document, SourceError, parse_json

HASHED_FIELDS = ("emoji", "autoStart", "name", "description", "instructions", "launchMessage")
"""In this order; ``slug`` is identity and ``version`` lives in the index, so neither is hashed."""

LOCK_FILE = "content-hashes.json"

MAX_LOCK_BYTES = 8_000_000
"""The largest lock read. It is never published, but an index within the server's 1,000,000 bytes
lists at most about 40,000 roles, whose lock lines take some 5,000,000 bytes."""

REFRESH = "rolecat check --fix"


MODEL_CONFIG = "modelConfig"
"""Hashed after :data:`HASHED_FIELDS` where a role has one: the upstream checker leaves it out."""


def role_hash(by_language: dict[str, dict[str, Any]]) -> str:
    """SHA-256 of ``JSON.stringify([[lang, {fields}], ...])`` over the languages in sorted order.

    A role whose ``modelConfig`` is absent or null hashes exactly as the upstream checker hashes
    it. Any other ``modelConfig`` joins the fields, last, with its keys sorted at every level, so a
    model change needs a version bump and reordering keys changes nothing.
    """
    canonical = []
    for language in sorted(by_language):
        role = by_language[language]
        fields = {name: _own_copy(role.get(name)) for name in HASHED_FIELDS}
        model = role.get(MODEL_CONFIG)
        if model is not None:
            fields[MODEL_CONFIG] = sorted_deeply(model)
        canonical.append([language, fields])
    # orjson writes what JSON.stringify writes (compact, non-ASCII raw, the same escapes), at twice
    # the speed of the standard library; a property test holds the two to the same bytes.
    return hashlib.sha256(orjson.dumps(canonical)).hexdigest()


def _own_copy(value: Any) -> Any:
    """A non-ASCII string as a copy that lives only while it is hashed. orjson caches the UTF-8
    form of each such string inside the string: on the catalog's own strings, the cache would add
    the size of every non-Latin text once more for as long as the catalog lives (75 MiB for 5,000
    Russian roles). The copy takes a microsecond."""
    if isinstance(value, str) and not value.isascii():
        return value[:1] + value[1:]
    return value


def sorted_deeply(value: Any) -> Any:
    """The same JSON value with the keys of every object in code-point order."""
    if isinstance(value, dict):
        return {key: sorted_deeply(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [sorted_deeply(item) for item in value]
    return value


@dataclass(frozen=True)
class Entry:
    """One role's line in the lock, and where its version stands in the index."""

    slug: str
    version: int | float
    hash: str
    pointer: Pointer = ()


def bundle_hashes(bundle: Bundle) -> dict[str, str]:
    """The hash of every role of one bundle, over the language files it has."""
    hashes: dict[str, str] = {}
    for _pointer, slug, _version in bundle.roles:
        texts = {}
        for language, file in bundle.files.items():
            found = file.role(slug)
            if found is not None:
                texts[language] = found.fields
        if texts and slug not in hashes:
            hashes[slug] = role_hash(texts)
    return hashes


def current_entries(
    catalog: Catalog, known: dict[str, dict[str, str]] | None = None
) -> dict[str, Entry]:
    """The lock the catalog has now, for every index role found in each of its language files.

    ``known`` holds :func:`bundle_hashes` by bundle id where they were computed already.
    """
    entries: dict[str, Entry] = {}
    for bundle in catalog.bundles:
        hashes = (known or {}).get(bundle.id)
        if hashes is None:
            hashes = bundle_hashes(bundle)
        for pointer, slug, version in bundle.roles:
            if slug in entries or slug not in hashes:
                continue
            if isinstance(version, (int, float)) and not isinstance(version, bool):
                entries[slug] = Entry(slug, version, hashes[slug], (*pointer, "version"))
    return entries


def render(entries: dict[str, Entry]) -> bytes:
    """The lock file's bytes as ``JSON.stringify(lock, null, 2)`` plus a newline writes them."""
    lock = {
        slug: {"version": _js_number(entries[slug].version), "hash": entries[slug].hash}
        for slug in sorted(entries)
    }
    return (json.dumps(lock, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _js_number(value: int | float) -> int | float:
    """JavaScript prints ``2.0`` as ``2``; so must we."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


@dataclass
class Lock:
    """The lock file as read: its entries and its document (for positions)."""

    path: str
    document: Document | None
    entries: dict[str, Entry]


def read_lock_bytes(path: Path) -> bytes:
    return read_bounded(path, MAX_LOCK_BYTES)


def read_lock(root: Path, path: Path) -> tuple[Lock, list[Diagnostic]]:
    display = relative(root, path)
    try:
        raw = read_lock_bytes(path)
    except (FileNotFoundError, NotADirectoryError):
        return Lock(display, None, {}), [
            Diagnostic(display, 0, 0, f"missing: create the lock with `{REFRESH}`", "lock-missing")
        ]
    except TooLarge as error:
        message = f"file {error.message}; a lock is read up to {MAX_LOCK_BYTES:,} bytes"
        return Lock(display, None, {}), [Diagnostic(display, 0, 0, message, "unreadable")]
    except OSError as error:
        return Lock(display, None, {}), [Diagnostic(display, 0, 0, describe(error), "unreadable")]
    try:
        # Never published: bounded by MAX_LOCK_BYTES as read, not by the server's cap.
        document = parse_json(display, raw, server_cap=False)
    except SourceError as error:
        return Lock(display, None, {}), error.diagnostics
    problems = schema.validate("lock", document)
    if problems:
        return Lock(display, document, {}), problems
    entries = {
        slug: Entry(slug, value["version"], value["hash"]) for slug, value in document.data.items()
    }
    return Lock(display, document, entries), []


@dataclass(frozen=True)
class Change:
    """How one role differs from the lock."""

    slug: str
    state: str  # "added", "removed", "changed", "bumped", "version"
    old: Entry | None
    new: Entry | None


def changes(lock: Lock, current: dict[str, Entry]) -> list[Change]:
    found = []
    for slug in sorted(set(lock.entries) | set(current)):
        old, new = lock.entries.get(slug), current.get(slug)
        if old is None:
            found.append(Change(slug, "added", None, new))
        elif new is None:
            found.append(Change(slug, "removed", old, None))
        elif new.hash != old.hash:
            found.append(
                Change(slug, "bumped" if new.version > old.version else "changed", old, new)
            )
        elif new.version != old.version:
            found.append(Change(slug, "version", old, new))
    return found


def diagnose(catalog: Catalog, lock: Lock, change: Change) -> Diagnostic:
    """The seed's states, each with what to do about it."""
    slug, old, new = change.slug, change.old, change.new
    if change.state == "removed":
        assert old is not None and lock.document is not None
        return lock.document.diagnostic(
            (slug,),
            f'role "{slug}" is in the lock but no longer in the catalog; refresh the lock with '
            f"`{REFRESH}`",
            "lock-stale",
            at_key=True,
        )
    assert new is not None
    if change.state == "added":
        message = f'role "{slug}" is not in {lock.path}; record it with `{REFRESH}`'
        rule = "lock-missing-role"
    elif change.state == "changed":
        assert old is not None
        message = (
            f'role "{slug}" changed since {lock.path} recorded it at version '
            f"{show_number(old.version)}, but its version is still "
            f"{show_number(new.version)}: bump it in {catalog.index.path} above "
            f"{show_number(old.version)}, then run `{REFRESH}`"
        )
        rule = "lock-not-bumped"
    elif change.state == "bumped":
        assert old is not None
        message = (
            f'role "{slug}" changed and its version was bumped from {show_number(old.version)} to '
            f"{show_number(new.version)}; record it with `{REFRESH}`"
        )
        rule = "lock-not-recorded"
    else:
        assert old is not None
        message = (
            f'role "{slug}" has version {show_number(new.version)} but {lock.path} recorded '
            f"{show_number(old.version)} for the same content; refresh the lock with `{REFRESH}`"
        )
        rule = "lock-version"
    return catalog.index.diagnostic(new.pointer, message, rule)


def show_number(value: int | float) -> str:
    """A version as JavaScript prints it (``1`` for ``1.0``): in messages and on the site."""
    return json.dumps(_js_number(value))
