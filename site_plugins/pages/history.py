"""What the history adds to the site: a role's versions and a page per version with what changed
(the health pages are :mod:`site_plugins.pages.health`, the feeds
:mod:`site_plugins.pages.history_feeds`). Data comes from ``build_tools.history.replay``.

Pages are per language like every other page: ``/<lang>/<bundle>/<slug>/v<n>/`` shows what changed
in that language and lists the other languages; ``/health/`` sums up each language and
``/health/<lang>/`` lists its possibly stale translations and missing descriptions.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from build_tools.history.coverage import Behind, behind
from build_tools.history.versions import (
    Commit,
    History,
    Reach,
    RoleHistory,
    Version,
    changed_fields,
)
from build_tools.history.worddiff import Piece, word_diff
from build_tools.lock import show_number as show
from build_tools.model.catalog import Bundle, Catalog
from build_tools.wire import site_paths
from site_plugins.pages.labels import labels, language_name

FEED_ENTRIES = 100
"""Each feed holds the newest changes, as feeds do; the pages hold them all."""

CONTEXT_LINES = 3
"""Unchanged lines shown around each change of the instructions; longer runs fold away."""

Link = Callable[[str], str]
"""A relative link from one page to another page's ``src_uri``."""

FIELD_LABELS = {
    "emoji": "emoji",
    "name": "name",
    "description": "description",
    "instructions": "instructions",
    "autoStart": "auto_start",
    "launchMessage": "launch_message",
    "modelConfig": "model",
}
"""Each role field and the label that names it."""


@dataclass(frozen=True)
class Placed:
    """A role of the catalog being built, with its history."""

    bundle: Bundle
    slug: str
    history: RoleHistory

    @property
    def languages(self) -> list[str]:
        return [lang for lang in self.bundle.languages if lang in self.bundle.files]

    @property
    def current(self) -> Version:
        return self.history.versions[-1]

    @functools.cached_property
    def names(self) -> dict[Version, str]:
        """The directory of each version with a page: ``v3``, and ``v3-2`` for a number used
        again after the role was removed."""
        names: dict[Version, str] = {}
        taken: set[str] = set()
        for version in self.history.versions:
            base = "v" + re.sub(r"[^0-9a-z.-]", "-", show(version.number).lower())
            name, count = base, 1
            while name in taken:
                count += 1
                name = f"{base}-{count}"
            taken.add(name)
            if has_page(self.history, version):
                names[version] = name
        return names


def has_page(history: RoleHistory, version: Version) -> bool:
    """A version has a page of changes when there is something it changed from."""
    return history.previous(version) is not None and not version.at_start


def placed_roles(catalog: Catalog, history: History) -> Iterator[Placed]:
    """Every role of the catalog, in page order, with its history (``history`` includes it)."""
    for bundle in catalog.bundles:
        for _pointer, slug, _version in bundle.roles:
            known = history.roles.get(slug)
            if known is not None and known.versions[-1].bundle == bundle.id:
                yield Placed(bundle, slug, known)


def day(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d")


def reach_note(reach: Reach, words: dict[str, str]) -> str:
    """How far back the history goes, in one sentence."""
    if reach.unavailable is not None:
        reason = words.get(f"why_{reach.unavailable}", reach.detail or reach.unavailable)
        return words["history_none"] % {"reason": reason}
    assert reach.start is not None
    key = "history_shallow" if reach.truncated else "history_full"
    return words[key] % {"date": day(reach.start)}


def language_list(codes: list[str] | tuple[str, ...]) -> str:
    return ", ".join(language_name(code) for code in codes)


def _commit(commit: Commit | None) -> dict[str, str] | None:
    if commit is None:
        return None
    return {
        "id": commit.id,
        "short": commit.short,
        "date": day(commit.date),
        "datetime": commit.date.isoformat(),
        "author": commit.author,
        "subject": commit.subject,
    }


# --- role pages ------------------------------------------------------------------------------


def role_context(placed: Placed | None, language: str, link: Link, reach: Reach) -> dict[str, Any]:
    """What a role page shows of its history: its versions newest first, and a stale warning."""
    words = labels(language)
    context: dict[str, Any] = {"reach": reach_note(reach, words), "versions": [], "stale": None}
    if placed is None:
        return context
    history, names = placed.history, placed.names
    known = reach.unavailable is None
    for version in reversed(history.versions):
        name = names.get(version)
        stale = history.stale(version)
        context["versions"].append(
            {
                "number": show(version.number),
                "commit": _commit(version.commit),
                # Without history the one version is the current one, and nothing more is known.
                "uncommitted": version.commit is None and known,
                "href": link(version_src(placed, language, name)) if name else None,
                "first": history.previous(version) is None and not version.at_start and known,
                "at_start": version.at_start,
                "changed": language_list(history.changed_languages(version)),
                "stale": language in stale,
                "removed": day(version.removed.date) if version.removed else None,
            }
        )
    late = behind(history, language, placed.languages)
    if late is not None:
        context["stale"] = {
            "note": translated_from(late, words),
            "href": since_href(placed, late, link),
        }
    return context


def translated_from(late: Behind, words: dict[str, str]) -> str:
    """Which version of which language a translation left behind was made from."""
    return words["stale_from"] % {
        "basis": show(late.basis.number),
        "language": language_name(late.source or ""),
        "current": show(late.current.number),
    }


def since_href(placed: Placed, late: Behind, link: Link) -> str | None:
    """The page of the version that left a translation behind, in the language that changed."""
    name = placed.names.get(late.since)
    return link(version_src(placed, late.source, name)) if late.source and name else None


def version_src(placed: Placed, language: str, name: str) -> str:
    return site_paths.version_page(language, placed.bundle.id, placed.slug, name)


# --- version pages ---------------------------------------------------------------------------


@dataclass(frozen=True)
class VersionPage:
    """One version of one role in one language: where it goes and how to render it."""

    src_uri: str
    title: str
    language: str
    alternates: dict[str, str]
    source: str
    context: Callable[[], dict[str, Any]]
    """The template's context, worked out (diffs included) only when the page is rendered."""
    key: tuple[Hashable, ...]
    """Everything the page is made of (versions by identity: a preview rebuild reuses those of
    the committed history), so a rebuild knows it unchanged without working out its context."""


def version_pages(
    catalog: Catalog, history: History, linker: Callable[[str], Link]
) -> Iterator[VersionPage]:
    """Every version page; ``linker(src_uri)`` links from that page to others."""
    for placed in placed_roles(catalog, history):
        names = placed.names
        for version, name in names.items():
            alternates = {lang: version_src(placed, lang, name) for lang in placed.languages}
            for language in placed.languages:
                words = labels(language)
                role_name = field_of(version, language, "name") or placed.slug
                title = words["version_title"] % {
                    "name": role_name,
                    "version": show(version.number),
                }
                src = alternates[language]
                key = (
                    version,
                    placed.history.previous(version),
                    _next(placed.history, version),
                    placed.current,
                    language,
                    placed.bundle.id,
                    placed.bundle.name(language),
                    tuple(placed.languages),
                    tuple(names.items()),
                )
                yield VersionPage(
                    src,
                    title,
                    language,
                    alternates,
                    placed.bundle.files[language].path,
                    functools.partial(
                        _version_context, placed, names, version, language, title, linker(src)
                    ),
                    key,
                )


def field_of(version: Version | None, language: str, name: str) -> Any:
    if version is None:
        return None
    return version.content.get(language, {}).get(name)


def _version_context(
    placed: Placed,
    names: dict[Version, str],
    version: Version,
    language: str,
    title: str,
    link: Link,
) -> dict[str, Any]:
    words = labels(language)
    history = placed.history
    previous = history.previous(version)
    assert previous is not None
    old, new = previous.content.get(language), version.content.get(language)
    changed = changed_fields(old, new) if old and new else []
    fields = [
        {"label": words[FIELD_LABELS[name]], "pieces": _pieces(old, new, name, words)}
        for name in changed
        if name != "instructions"
    ]
    instructions = None
    if "instructions" in changed:
        instructions = _fold(_pieces(old, new, "instructions", words), words)
    stale = history.stale(version)
    others = [
        {
            "code": other,
            "name": language_name(other),
            "href": link(version_src(placed, other, names[version]))
            if other in placed.languages
            else None,
            "changed": what_changed(previous, version, other, words),
            "stale": other in stale,
        }
        for other in version.languages
        if other != language
    ]
    why = stale.get(language)
    return {
        "l": words,
        "lang": language,
        "title": title,
        "commit": _commit(version.commit),
        "compared_with": words["compared_with"]
        % {
            "version": show(previous.number),
            "date": day(previous.commit.date) if previous.commit else words["uncommitted"],
        },
        "previous": _neighbour(placed, names, previous, language, link),
        "next": _neighbour(placed, names, _next(history, version), language, link),
        "state": None if changed else what_changed(previous, version, language, words),
        "fields": fields,
        "instructions": instructions,
        "withheld": words["withheld_note"]
        % {"fields": ", ".join(version.withheld or previous.withheld)}
        if version.withheld or previous.withheld
        else None,
        "stale": words["stale_note"]
        % {"languages": language_list(why.changed), "version": show(why.since.number)}
        if why
        else None,
        "others": others,
        "role_href": link(site_paths.role_page(language, placed.bundle.id, placed.slug)),
        "role_name": field_of(placed.current, language, "name") or placed.slug,
        "bundle": {"id": placed.bundle.id, "name": placed.bundle.name(language)},
        "bundle_href": link(site_paths.bundle_page(language, placed.bundle.id)),
        "language_name": language_name(language),
        "language_href": link(site_paths.language_page(language)),
    }


def what_changed(previous: Version, version: Version, language: str, words: dict[str, str]) -> str:
    """What a version changed in one language, in a few words."""
    old, new = previous.content.get(language), version.content.get(language)
    if new is None:
        return words["not_in_language"]
    if old is None:
        return words["new_language"]
    changed = changed_fields(old, new)
    if not changed:
        return words["no_change"]
    return words["changed_in"] % {"fields": ", ".join(words[FIELD_LABELS[f]] for f in changed)}


def _next(history: RoleHistory, version: Version) -> Version | None:
    later = history.versions[history.versions.index(version) + 1 :]
    return later[0] if later else None


def _neighbour(
    placed: Placed, names: dict[Version, str], version: Version | None, language: str, link: Link
) -> dict[str, str] | None:
    """The previous or next version, for the links between version pages."""
    if version is None or version not in names:
        return None
    return {
        "number": show(version.number),
        "href": link(version_src(placed, language, names[version])),
    }


def _pieces(
    old: dict[str, Any] | None, new: dict[str, Any] | None, name: str, words: dict[str, str]
) -> list[dict[str, str]]:
    before, after = (old or {}).get(name, _ABSENT), (new or {}).get(name, _ABSENT)
    if isinstance(before, str) and isinstance(after, str):
        return [{"op": p.op, "text": p.text} for p in _word_diff(before, after)]
    pieces = []
    if before is not _ABSENT:
        pieces.append({"op": "delete", "text": _shown(before, words)})
    if after is not _ABSENT:
        pieces.append({"op": "insert", "text": _shown(after, words)})
    return pieces


_ABSENT = object()


@functools.lru_cache(maxsize=2048)
def _word_diff(before: str, after: str) -> list[Piece]:
    """Diffs are the costly part of a version page: ``mkdocs serve`` renders every page again to
    see what an edit changed, and the texts of committed versions stay the same objects."""
    return word_diff(before, after)


def _shown(value: Any, words: dict[str, str]) -> str:
    if value is None:
        return words["none"]
    if isinstance(value, bool):
        return words["yes"] if value else words["no"]
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _fold(pieces: list[dict[str, str]], words: dict[str, str]) -> list[dict[str, str]]:
    """Long unchanged runs between changes fold into a ``<details>``, with context kept."""
    parts: list[dict[str, str]] = []
    for position, piece in enumerate(pieces):
        if piece["op"] != "equal":
            parts.append(piece)
            continue
        lines = piece["text"].splitlines(keepends=True)
        head = CONTEXT_LINES if position > 0 else 0
        tail = CONTEXT_LINES if position < len(pieces) - 1 else 0
        if len(lines) <= head + tail + 2:
            parts.append(piece)
            continue
        middle = lines[head : len(lines) - tail]
        if head:
            parts.append({"op": "equal", "text": "".join(lines[:head])})
        parts.append(
            {
                "op": "fold",
                "text": "".join(middle),
                "summary": words["unchanged_lines"] % {"count": len(middle)},
            }
        )
        if tail:
            parts.append({"op": "equal", "text": "".join(lines[len(lines) - tail :])})
    return parts
