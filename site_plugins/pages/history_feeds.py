"""The Atom feeds of the catalog's changes: ``/feed.xml`` and ``/<lang>/feed.xml``, written
from the history with the words of each language."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from build_tools.history import feeds
from build_tools.history.versions import (
    History,
    RoleHistory,
    Version,
)
from build_tools.lock import show_number as show
from build_tools.model.catalog import Catalog
from build_tools.wire import site_paths
from site_plugins.pages.history import (
    FEED_ENTRIES,
    Placed,
    field_of,
    placed_roles,
    reach_note,
    version_src,
    what_changed,
)
from site_plugins.pages.labels import FALLBACK, labels, language_name


@dataclass(frozen=True)
class FeedSite:
    """Where the feeds' links point: absolute under ``site_url``, else relative to the feed."""

    site_url: str | None
    now: datetime
    """When the build happened: it dates a feed with no entries (a catalog without history)."""
    use_directory_urls: bool = True

    def url(self, target: str, feed: str) -> str:
        """A link from ``feed`` to the page ``target`` (a ``src_uri``) or the file ``feed``."""
        if target.endswith(".md") and self.use_directory_urls:
            target = target.removesuffix("index.md")
        elif target.endswith(".md"):
            target = target.removesuffix(".md") + ".html"
        if self.site_url:
            return self.site_url.rstrip("/") + "/" + target
        here = posixpath.dirname(feed) or "."
        relative = posixpath.relpath(target or ".", here)
        return relative + "/" if target.endswith("/") or not target else relative


class FeedWriter:
    """Writes ``/feed.xml`` for the whole catalog and ``/<lang>/feed.xml`` for each language.

    It keeps each feed with its bytes from one build to the next (a preview's rebuilds): a feed
    equal to the last one is not encoded again (an edit before its commit changes none)."""

    def __init__(self) -> None:
        self._written: dict[str, tuple[feeds.Feed, bytes]] = {}

    def files(
        self, catalog: Catalog, history: History, languages: list[str], site: FeedSite
    ) -> dict[str, bytes]:
        files: dict[str, bytes] = {}
        used: dict[str, tuple[feeds.Feed, bytes]] = {}
        for language in [None, *languages]:
            path = site_paths.feed(language)
            feed = _feed(catalog, history, language, site)
            before = self._written.get(path)
            data = before[1] if before is not None and before[0] == feed else feeds.atom(feed)
            files[path] = data
            used[path] = (feed, data)
        self._written = used
        return files


def _feed(catalog: Catalog, history: History, language: str | None, site: FeedSite) -> feeds.Feed:
    words = labels(language or FALLBACK)
    path = site_paths.feed(language)

    def url(target: str) -> str:
        return site.url(target, path)

    newest: list[tuple[datetime, str, Placed, Version, str]] = []
    for placed in placed_roles(catalog, history):
        if language is not None and language not in placed.languages:
            continue
        shown = language or (FALLBACK if FALLBACK in placed.languages else placed.languages[0])
        for version in placed.history.versions:
            if version.commit is not None and not version.at_start:
                newest.append((version.commit.date, placed.slug, placed, version, shown))
    newest.sort(key=lambda found: found[:2], reverse=True)
    entries = []
    for _date, slug, placed, version, shown in newest[:FEED_ENTRIES]:
        assert version.commit is not None
        name = placed.names.get(version)
        target = (
            version_src(placed, shown, name)
            if name
            else site_paths.role_page(shown, placed.bundle.id, slug)
        )
        title = words["version_title"] % {
            "name": field_of(version, shown, "name") or slug,
            "version": show(version.number),
        }
        emoji = field_of(version, shown, "emoji")
        entries.append(
            feeds.Entry(
                id=feeds.stable_id(slug, show(version.number), version.commit.id, language or ""),
                title=f"{emoji} {title}" if emoji else title,
                updated=version.commit.date,
                link=url(target),
                author=version.commit.author,
                summary=_summary(placed.history, version, language, words),
                categories=((placed.bundle.id, placed.bundle.name(shown)),),
            )
        )
    title = words["feed_title"] % {"catalog": words["catalog"]}
    if language is not None:
        title += f" ({language_name(language)})"
    return feeds.Feed(
        id=feeds.stable_id("feed", language or "", site.site_url or ""),
        title=title,
        updated=entries[0].updated if entries else site.now,
        self_link=url(path),
        link=url(site_paths.language_page(language) if language else site_paths.home_page()),
        language=language,
        subtitle=reach_note(history.reach, words),
        entries=entries,
    )


def _summary(
    history: RoleHistory, version: Version, language: str | None, words: Mapping[str, str]
) -> str:
    """What changed, in one line: per language for the catalog's feed, else in that language."""
    previous = history.previous(version)
    lines = [version.commit.subject] if version.commit and version.commit.subject else []
    if previous is None:
        return " · ".join([words["first_version"], *lines])
    stale = history.stale(version)
    for code in [language] if language else version.languages:
        text = what_changed(previous, version, code, words)
        if code in stale:
            text += f" ({words['stale']})"
        lines.append(text if language else f"{language_name(code)}: {text}")
    return " · ".join(lines)
