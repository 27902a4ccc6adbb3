"""What the history adds to the site: a role's versions and a page per version with what changed
(the health pages are :mod:`site_plugins.pages.health`, the feeds
:mod:`site_plugins.pages.history_feeds`). Data comes from ``build_tools.history.replay``.

Pages are per language like every other page: ``/<lang>/<bundle>/<slug>/v<n>/`` shows what changed
in that language and lists the other languages; ``/health/`` sums up each language and
``/health/<lang>/`` lists its possibly stale translations and missing descriptions. The role page
and each version page lead to the role's compare page, ``/<lang>/<bundle>/<slug>/compare/``, where
any two versions are compared (:mod:`site_plugins.pages.compare`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Hashable, Iterator, Mapping
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
from build_tools.lock import show_number as show
from build_tools.model.catalog import Bundle, Catalog
from build_tools.wire import site_paths
from site_plugins.pages.changes import before_after, cached_word_diff, fold
from site_plugins.pages.labels import labels, named_in

FEED_ENTRIES = 100
"""Each feed holds the newest changes, as feeds do; the pages hold them all."""

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

COMPARE_DIR = "compare"
"""A role's compare page, beside its version pages (theirs are named ``v<n>``)."""


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
    def dirs(self) -> dict[Version, str]:
        """The name of every version: ``v3``, and ``v3-2`` for a number used again after the
        role was removed."""
        dirs: dict[Version, str] = {}
        taken: set[str] = set()
        for version in self.history.versions:
            base = "v" + re.sub(r"[^0-9a-z.-]", "-", show(version.number).lower())
            name, count = base, 1
            while name in taken:
                count += 1
                name = f"{base}-{count}"
            taken.add(name)
            dirs[version] = name
        return dirs

    @functools.cached_property
    def names(self) -> dict[Version, str]:
        """The directory of each version with a page."""
        return {v: name for v, name in self.dirs.items() if has_page(self.history, v)}

    def key(self, version: Version) -> str:
        """A version as the compare page's address names it: ``?from=2&to=3-2``."""
        return self.dirs[version].removeprefix("v")


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


def reach_note(reach: Reach, words: Mapping[str, str]) -> str:
    """How far back the history goes, in one sentence."""
    if reach.unavailable is not None:
        reason = words.get(f"why_{reach.unavailable}", reach.detail or reach.unavailable)
        return words["history_none"] % {"reason": reason}
    assert reach.start is not None
    key = "history_shallow" if reach.truncated else "history_full"
    return words[key] % {"date": day(reach.start)}


def language_list(codes: list[str] | tuple[str, ...], words: Mapping[str, str]) -> str:
    """Languages named in the page's words, for a sentence."""
    return ", ".join(named_in(words, code) for code in codes)


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
    context: dict[str, Any] = {
        "reach": reach_note(reach, words),
        "versions": [],
        "stale": None,
        "compare": None,
    }
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
                "changed": language_list(history.changed_languages(version), words),
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
    context["compare"] = compare_form(placed, language, link)
    return context


# --- comparing any two versions (the page is site_plugins.pages.compare) ---------------------


def comparable(placed: Placed, language: str) -> list[Version]:
    """The versions a role had in one language: what its compare page offers."""
    return [version for version in placed.history.versions if language in version.content]


def compare_src(placed: Placed, language: str) -> str:
    return version_src(placed, language, COMPARE_DIR)


def option_label(version: Version, words: Mapping[str, str]) -> str:
    """A version in a list to pick from: its number and date (a number used again after the
    role was removed differs by its date)."""
    date = day(version.commit.date) if version.commit else words["uncommitted"]
    return f"{show(version.number)} · {date}"


def compare_form(placed: Placed, language: str, link: Link) -> dict[str, Any] | None:
    """The role page's form that leads to the compare page, the two newest versions picked;
    ``None`` while the role has had one version in this language."""
    versions = comparable(placed, language)
    if len(versions) < 2:
        return None
    words = labels(language)
    return {
        "href": link(compare_src(placed, language)),
        "options": [{"key": placed.key(v), "label": option_label(v, words)} for v in versions],
        "from": placed.key(versions[-2]),
        "to": placed.key(versions[-1]),
    }


def compare_href(placed: Placed, language: str, link: Link, pair: tuple[Version, Version]) -> str:
    """The compare page with ``pair`` picked, where the language has both (else its default)."""
    href = link(compare_src(placed, language))
    if all(language in version.content for version in pair):
        href += f"?from={placed.key(pair[0])}&to={placed.key(pair[1])}"
    return href


def translated_from(late: Behind, words: Mapping[str, str]) -> str:
    """Which version of which language a translation left behind was made from."""
    return words["stale_from"] % {
        "basis": show(late.basis.number),
        "language": named_in(words, late.source or ""),
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
    template: str = "version.html"


def version_pages(
    catalog: Catalog, history: History, linker: Callable[[str], Link], *, tiers: bool = False
) -> Iterator[VersionPage]:
    """Every version page; ``linker(src_uri)`` links from that page to others; ``tiers``: a
    model is named as a tier word (the renderer's ``model_tiers``)."""
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
                    tuple(placed.dirs.items()),
                    tiers,
                )
                yield VersionPage(
                    src,
                    title,
                    language,
                    alternates,
                    placed.bundle.files[language].path,
                    functools.partial(
                        _version_context,
                        placed,
                        version,
                        language,
                        title,
                        linker(src),
                        tiers=tiers,
                    ),
                    key,
                )


def field_of(version: Version | None, language: str, name: str) -> Any:
    if version is None:
        return None
    return version.content.get(language, {}).get(name)


def _version_context(
    placed: Placed, version: Version, language: str, title: str, link: Link, *, tiers: bool
) -> dict[str, Any]:
    words = labels(language)
    history, names = placed.history, placed.names
    previous = history.previous(version)
    assert previous is not None
    old, new = previous.content.get(language), version.content.get(language)
    changed = changed_fields(old, new) if old and new else []
    fields = [
        {
            "label": words[FIELD_LABELS[name]],
            **before_after(previous, version, language, name, words, tiers),
        }
        for name in changed
        if name != "instructions"
    ]
    instructions = None
    if old and new and "instructions" in changed:
        texts = (str(old.get("instructions") or ""), str(new.get("instructions") or ""))
        pieces = [{"op": p.op, "text": p.text} for p in cached_word_diff(*texts)]
        instructions = fold(pieces, words)
    stale = history.stale(version)
    others = [
        {
            "code": other,
            "name": named_in(words, other),
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
        % {"languages": language_list(why.changed, words), "version": show(why.since.number)}
        if why
        else None,
        "others": others,
        "compare_href": compare_href(placed, language, link, (previous, version))
        if len(comparable(placed, language)) > 1
        else None,
        "role_href": link(site_paths.role_page(language, placed.bundle.id, placed.slug)),
        "role_name": field_of(placed.current, language, "name") or placed.slug,
        "bundle": {"id": placed.bundle.id, "name": placed.bundle.name(language)},
        "bundle_href": link(site_paths.bundle_page(language, placed.bundle.id)),
        "language_href": link(site_paths.language_page(language)),
    }


def what_changed(
    previous: Version, version: Version, language: str, words: Mapping[str, str]
) -> str:
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
