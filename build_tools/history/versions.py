"""A role's versions as published, and the history of the whole catalog they make up.

What the pages, the diffs and the feeds show of the past: plain values, read from git by
:mod:`build_tools.history.replay`. A text that held a credential is left out of them here.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from typing import Any

from build_tools.model.catalog import (
    Bundle,
    Catalog,
)
from build_tools.rules.across_files import (
    SAME_IN_EVERY_LANGUAGE,
)
from build_tools.rules.secret_scan import scan_text
from build_tools.sources.json_reader import strings

FIELDS = (
    "emoji",
    "name",
    "description",
    "instructions",
    "autoStart",
    "launchMessage",
    "modelConfig",
)
"""What a version of a role shows, per language."""

TRANSLATED = tuple(f for f in FIELDS if f not in (*SAME_IN_EVERY_LANGUAGE, "modelConfig"))
"""The fields a translator writes: a change to them in one language and not another is news."""

Content = dict[str, dict[str, Any]]
"""A role's fields by language."""


@dataclass(frozen=True)
class Commit:
    id: str
    date: datetime
    author: str
    subject: str
    unreadable: str = ""
    """Why the commit or the catalog at it cannot be read, if so: it is skipped, with this."""

    def without_credentials(self) -> Commit:
        """Its author and subject are published: one that holds a credential is left out."""
        author = WITHHELD if scan_text(self.author) else self.author
        subject = WITHHELD if scan_text(self.subject) else self.subject
        return replace(self, author=author, subject=subject)

    @property
    def short(self) -> str:
        return self.id[:7]


WITHHELD = ""
"""What stands for a text left out of the history because it held a credential."""


@dataclass(frozen=True)
class Reach:
    """How far back the history goes, and why not further."""

    start: datetime | None = None
    """The date of the oldest commit read."""
    truncated: bool = False
    """The checkout is shallow and the catalog is older than it: earlier versions are unknown."""
    unavailable: str | None = None
    """Why there is no history at all: ``no-git``, ``not-a-repository``, ``no-commits``,
    ``not-committed``, ``off`` (not asked for) or ``git-error``."""
    detail: str = ""
    """What git said, for ``git-error``."""


@dataclass(eq=False)
class Version:
    """One version number of a role, as published (compared and hashed by identity)."""

    number: int | float
    bundle: str
    content: Content
    commit: Commit | None
    """Where it was first published; ``None``: not committed yet (the working tree)."""
    at_start: bool = False
    """Already in the catalog where a truncated history starts: its date and past are unknown."""
    removed: Commit | None = None
    """The role left the catalog at this commit, after this version."""
    withheld: tuple[str, ...] = ()
    """``"en instructions"`` for each text left out because it held a credential: an old
    version is published on its page, in diffs and feeds, and a credential never is."""

    @property
    def languages(self) -> list[str]:
        return list(self.content)


@dataclass(frozen=True)
class Stale:
    """A translation that did not change when other languages did, at a version bump."""

    since: Version
    changed: tuple[str, ...]
    """The languages that changed at ``since``."""


@dataclass
class RoleHistory:
    slug: str
    versions: list[Version]
    """Oldest first; the same number appears again only after the role was removed."""

    def previous(self, version: Version) -> Version | None:
        position = self._position(version)
        return self.versions[position - 1] if position > 0 else None

    def stale(self, version: Version) -> dict[str, Stale]:
        """Translations possibly out of date in ``version``, by language."""
        return self._stale[self._position(version)]

    def changed_languages(self, version: Version) -> list[str]:
        """Languages whose translated text differs from the previous version (or is new)."""
        previous = self.previous(version)
        if previous is None or version.at_start:
            return []
        return [
            lang
            for lang in version.languages
            if _translated(previous.content.get(lang)) != _translated(version.content[lang])
        ]

    def _position(self, version: Version) -> int:
        return next(i for i, v in enumerate(self.versions) if v is version)

    @cached_property
    def _stale(self) -> list[dict[str, Stale]]:
        """A bump that changes an up-to-date language and leaves another alone makes the other
        stale until it changes; a stale translation catching up, or a new language, makes no
        other stale."""
        found: list[dict[str, Stale]] = []
        stale: dict[str, Stale] = {}
        for position, version in enumerate(self.versions):
            previous = self.versions[position - 1] if position else None
            if previous is None or version.at_start:
                stale = {}
            else:
                changed = self.changed_languages(version)
                new = [lang for lang in changed if lang not in previous.content]
                caught_up = [lang for lang in changed if lang in stale]
                leading = [lang for lang in changed if lang not in new and lang not in caught_up]
                stale = {
                    lang: why
                    for lang, why in stale.items()
                    if lang in version.content and lang not in changed
                }
                if leading:
                    since = Stale(version, tuple(changed))
                    for lang in version.languages:
                        if lang not in changed and lang not in stale:
                            stale[lang] = since
            found.append(stale)
        return found


def _translated(fields: dict[str, Any] | None) -> tuple[Any, ...] | None:
    return None if fields is None else tuple(fields.get(name) for name in TRANSLATED)


def changed_fields(old: dict[str, Any] | None, new: dict[str, Any] | None) -> list[str]:
    """The fields of one language that differ between two versions, in display order."""
    old, new = old or {}, new or {}
    return [name for name in FIELDS if old.get(name, _ABSENT) != new.get(name, _ABSENT)]


_ABSENT = object()


@dataclass
class History:
    """Every role's versions, and how far back they were read."""

    reach: Reach
    roles: dict[str, RoleHistory] = field(default_factory=dict)
    skipped: list[Commit] = field(default_factory=list)
    """Commits whose catalog fails its check: never published, so not versions."""
    key: tuple[str, ...] = ()
    """What the history was read from, to reuse it while that stays the same."""

    def including(self, catalog: Catalog) -> History:
        """This history with the catalog being built as its newest state.

        A role whose version differs from its last committed one gets a version without a
        commit; one whose content differs at the same version (an edit previewed before its bump)
        shows that content. The committed history itself is left as it was, to be reused.
        """
        roles = dict(self.roles)
        for slug, bundle, number, texts in roles_of(catalog):
            content = content_of(texts)
            known = roles.get(slug)
            versions = known.versions if known else []
            last = versions[-1] if versions else None
            if last is not None and last.removed is None and last.number == number:
                if last.content != content or last.bundle != bundle:
                    newest = replace(last, content=content, bundle=bundle)
                    roles[slug] = RoleHistory(slug, [*versions[:-1], newest])
                continue
            roles[slug] = RoleHistory(slug, [*versions, Version(number, bundle, content, None)])
        return History(self.reach, roles, self.skipped, self.key)


def roles_of(catalog: Catalog) -> Iterator[tuple[str, str, Any, dict[str, dict[str, Any]]]]:
    """(slug, bundle id, version, role object by language) of every role, once each."""
    seen: set[str] = set()
    for bundle in catalog.bundles:
        for slug, number, texts in bundle_roles(bundle):
            if slug not in seen:
                seen.add(slug)
                yield slug, bundle.id, number, texts


def bundle_roles(bundle: Bundle) -> Iterator[tuple[str, Any, dict[str, dict[str, Any]]]]:
    """(slug, version, role object by language) of every role of one bundle."""
    for _pointer, slug, number in bundle.roles:
        texts = {}
        for language in bundle.languages:
            file = bundle.files.get(language)
            found = file.role(slug) if file else None
            if found is not None:
                texts[language] = found.fields
        yield slug, number, texts


def content_of(texts: dict[str, dict[str, Any]]) -> Content:
    return {
        lang: {name: role[name] for name in FIELDS if name in role} for lang, role in texts.items()
    }


def withhold(content: Content, allowed: Collection[str]) -> tuple[Content, tuple[str, ...]]:
    """``content`` with every field that holds a credential (one the allowlist of its commit
    did not allow) left out, and which fields those were."""
    left_out: list[str] = []
    kept: Content = {}
    for language, fields in content.items():
        kept[language] = dict(fields)
        for name, value in fields.items():
            texts = [text for _pointer, text, _is_key in strings(value)]
            if any(f.digest not in allowed for text in texts for f in scan_text(text)):
                kept[language][name] = WITHHELD if isinstance(value, str) else None
                left_out.append(f"{language} {name}")
    return kept, tuple(left_out)
