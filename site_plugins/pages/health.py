"""The health pages: ``/health/`` sums up each language (the coverage matrix) and
``/health/<lang>/`` lists its possibly stale translations and missing descriptions."""

from __future__ import annotations

from collections.abc import Callable
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
from site_plugins.pages.labels import FALLBACK, labels, language_name


def health_contexts(
    catalog: Catalog, history: History, linker: Callable[[str], Link]
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The contexts of ``/health/`` (the coverage matrix, in English like the overview) and of
    each ``/health/<lang>/`` (one language's lagging translations and missing descriptions);
    ``linker(src_uri)`` links from that page to others."""
    rows = list(coverage(catalog, history))
    by_language = {
        lang: health(catalog, rows, history, lang, linker(site_paths.health_page(lang)))
        for lang in catalog.languages
    }
    overview = health_overview(
        catalog, rows, by_language, history, linker(site_paths.health_page())
    )
    return overview, by_language


def health_overview(
    catalog: Catalog,
    rows: list[Row],
    by_language: dict[str, dict[str, Any]],
    history: History,
    link: Link,
) -> dict[str, Any]:
    """``/health/``: a line per language (from each one's :func:`health`), then every role in
    every language, current, behind or missing."""
    words = labels(FALLBACK)
    summary = []
    for language, found in by_language.items():
        summary.append(
            {
                "code": language,
                "name": language_name(language),
                "href": link(site_paths.health_page(language)),
                "roles": found["roles"],
                "stale": len(found["stale"]),
                "missing": len(found["missing"]) + len(found["missing_bundles"]),
            }
        )
    return {
        "l": words,
        "lang": FALLBACK,
        "languages": summary,
        "matrix": matrix(catalog, rows, FALLBACK, words, link),
        "reach": reach_note(history.reach, words),
    }


def matrix(
    catalog: Catalog, rows: list[Row], shown: str, words: dict[str, str], link: Link
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
        "languages": [{"code": lang, "name": language_name(lang)} for lang in catalog.languages],
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
    words: dict[str, str],
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
        % {"basis": show(late.basis.number), "language": language_name(late.source or "")},
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
                    "changed": language_list(late.changed),
                    "since_href": since_href(placed, late, link),
                    "from": words["version_of"]
                    % {
                        "basis": show(late.basis.number),
                        "language": language_name(late.source or ""),
                    },
                }
            )
    return {
        "l": words,
        "lang": language,
        "language_name": language_name(language),
        "roles": roles,
        "stale": stale,
        "missing": missing,
        "missing_bundles": missing_bundles,
        "reach": reach_note(history.reach, words),
        "overview_href": link(site_paths.health_page()),
    }
