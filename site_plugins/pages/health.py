"""The health pages: ``/health/<lang>/`` sums up each language, shows the coverage matrix and
lists that language's possibly stale translations and missing descriptions, in that language;
``/health/`` is the same page in the site's root language."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from build_tools.history.coverage import Cell, Row, coverage
from build_tools.history.versions import History
from build_tools.lock import show_number as show
from build_tools.model.catalog import Bundle, Catalog
from build_tools.wire import site_paths
from site_plugins.pages.history import (
    Link,
    Placed,
    day,
    language_list,
    reach_note,
    since_href,
    translated_from,
)
from site_plugins.pages.labels import labels, named_in


def health_contexts(
    catalog: Catalog, history: History, linker: Callable[[str], Link], root: str
) -> dict[str | None, dict[str, Any]]:
    """The context of each ``/health/<lang>/``, and of ``/health/`` (key ``None``) in the
    ``root`` language: every language in a line, the coverage matrix, then the page language's
    lagging translations and missing descriptions; ``linker(src_uri)`` links from that page."""
    rows = list(coverage(catalog, history))
    places: list[str | None] = [*catalog.languages, None]
    found: dict[str | None, dict[str, Any]] = {}
    for place in places:
        language = place or root
        link = linker(site_paths.health_page(place))
        counts = {other: health(catalog, rows, history, other, link) for other in catalog.languages}
        found[place] = {
            **counts[language],
            "matrix": matrix(catalog, rows, language, labels(language), link),
        }
        found[place]["languages"] = _summary(counts, link, labels(language))
    return found


def _summary(
    by_language: dict[str, dict[str, Any]], link: Link, words: Mapping[str, str]
) -> list[dict[str, Any]]:
    """A line per language: its roles, stale translations and missing descriptions."""
    return [
        {
            "code": language,
            "name": named_in(words, language),
            "href": link(site_paths.health_page(language)),
            "roles": found["roles"],
            "stale": len(found["stale"]),
            "missing": len(found["missing"]) + len(found["missing_bundles"]),
        }
        for language, found in by_language.items()
    ]


def matrix(
    catalog: Catalog, rows: list[Row], shown: str, words: Mapping[str, str], link: Link
) -> dict[str, Any]:
    """Roles (rows, grouped by bundle, named in ``shown`` where the bundle has it) by the
    catalog's languages (columns); each cell says current, behind since which version (linking
    to that version's page where there is one), or missing."""
    bundles: list[dict[str, Any]] = []
    for row in rows:
        bundle = row.bundle
        published = bundle.published_languages
        named = shown if shown in published else (published[0] if published else None)
        if not bundles or bundles[-1]["id"] != bundle.id:
            bundles.append(
                {
                    "id": bundle.id,
                    "name": bundle.name(named or shown),
                    "href": link(site_paths.bundle_page(named, bundle.id)) if named else None,
                    "roles": [],
                }
            )
        placed = Placed(bundle, row.slug, row.history) if row.history else None
        bundles[-1]["roles"].append(
            {
                "slug": row.slug,
                "name": _name_in(bundle, named, row.slug),
                "href": link(site_paths.role_page(named, bundle.id, row.slug)) if named else None,
                "cells": [_cell(placed, bundle, row.slug, cell, words, link) for cell in row.cells],
            }
        )
    return {
        "languages": [{"code": lang, "name": named_in(words, lang)} for lang in catalog.languages],
        "bundles": bundles,
    }


def _name_in(bundle: Bundle, language: str | None, slug: str) -> str:
    file = bundle.files.get(language) if language else None
    found = file.role(slug) if file else None
    return (found.name if found else None) or slug


def _cell(
    placed: Placed | None,
    bundle: Bundle,
    slug: str,
    cell: Cell,
    words: Mapping[str, str],
    link: Link,
) -> dict[str, Any]:
    """One language of one role: its state in words, where to read more, why it lags."""
    shown: dict[str, Any] = {"code": cell.language, "state": cell.state, "title": None}
    late = cell.behind
    if cell.state == "missing":
        return {**shown, "text": words["cell_missing"], "href": None, "note": None}
    here = link(site_paths.role_page(cell.language, bundle.id, slug))
    if late is None:
        return {**shown, "text": words["cell_current"], "href": here, "note": None}
    return {
        **shown,
        "text": words["cell_behind"] % {"version": show(late.since.number)},
        "title": translated_from(late, words),
        "note": words["cell_from"]
        % {"basis": show(late.basis.number), "language": named_in(words, late.source or "")},
        "href": (since_href(placed, late, link) if placed else None) or here,
    }


def health(
    catalog: Catalog, rows: list[Row], history: History, language: str, link: Link
) -> dict[str, Any]:
    """One language's roles, translations left behind (from which version of which language)
    and missing descriptions."""
    words = labels(language)
    stale, missing, missing_bundles, roles = [], [], [], 0
    for bundle in catalog.bundles:
        file = bundle.files.get(language)
        if file is None:
            continue
        texts = bundle.entry.get("description")
        if not (isinstance(texts, dict) and texts.get(language)):
            missing_bundles.append(
                {
                    "name": bundle.name(language),
                    "id": bundle.id,
                    "href": link(site_paths.bundle_page(language, bundle.id)),
                }
            )
    position = catalog.languages.index(language)
    for row in rows:
        file = row.bundle.files.get(language)
        if file is None:
            continue
        roles += 1
        found = file.role(row.slug)
        role = found.fields if found else {}
        entry = {
            "name": role.get("name") or row.slug,
            "slug": row.slug,
            "bundle": row.bundle.name(language),
            "href": link(site_paths.role_page(language, row.bundle.id, row.slug)),
        }
        if not role.get("description"):
            missing.append(entry)
        late = row.cells[position].behind
        if late is not None and row.history is not None:
            placed = Placed(row.bundle, row.slug, row.history)
            stale.append(
                {
                    **entry,
                    "since": show(late.since.number),
                    "date": day(late.since.commit.date) if late.since.commit else None,
                    "changed": language_list(late.changed, words),
                    "since_href": since_href(placed, late, link),
                    "from": words["version_of"]
                    % {
                        "basis": show(late.basis.number),
                        "language": named_in(words, late.source or ""),
                    },
                }
            )
    return {
        "l": words,
        "lang": language,
        "language_name": named_in(words, language),
        "roles": roles,
        "stale": stale,
        "missing": missing,
        "missing_bundles": missing_bundles,
        "reach": reach_note(history.reach, words),
    }
