"""A role's compare page in one language, ``/<lang>/<bundle>/<slug>/compare/``: any two of its
versions side by side, picked in the page and kept in its address (``?from=1&to=3``).

One page per role and language, whatever the number of versions: a page per pair would grow
with their square (500 roles of 10 versions, 45,000 pages). The page carries each version's
fields in its language as a JSON block, the values already in the words the version pages use
(:mod:`site_plugins.pages.changes`); its script, ``rolecat-compare.js``, diffs the two picked
with jsdiff as :mod:`build_tools.history.worddiff` diffs them for the version pages, lines first
and then words, and folds long unchanged runs the same way. The data rides in the page rather
than in a file beside it: it is rendered as the page is written, like every page, instead of
held with the other files until MkDocs writes them, and the page works from any host or from
disk with no second request. Without JavaScript the page lists the versions with links to
their pages.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from build_tools.history.versions import FIELDS, History, Version
from build_tools.history.worddiff import MAX_WORD_PAIRS
from build_tools.lock import show_number as show
from build_tools.model.catalog import Catalog
from build_tools.wire import site_paths
from site_plugins.pages.changes import CONTEXT_LINES, version_cells
from site_plugins.pages.history import (
    FIELD_LABELS,
    Link,
    Placed,
    VersionPage,
    comparable,
    compare_form,
    compare_src,
    day,
    field_of,
    option_label,
    placed_roles,
    version_pages,
    version_src,
)
from site_plugins.pages.labels import labels
from site_plugins.pages.rendering import Linker, Renderer

SHOWN = tuple(name for name in FIELDS if name != "instructions")
"""The fields the table compares; the instructions are compared below it, as a diff."""

SCRIPTS = ("assets/javascripts/vendor/diff.min.js", "assets/javascripts/rolecat-compare.js")
"""What only the compare page loads: jsdiff, then the script that uses it."""

WORDS = (
    "before",
    "after",
    "field",
    "instructions",
    "unchanged_lines",
    "compare_pair",
    "compare_same",
    "compare_identical",
    "withheld",
)
"""The words the script shows, in the page's language."""


def all_version_pages(
    catalog: Catalog, history: History, renderer: Renderer
) -> Iterator[VersionPage]:
    """Every version page, then every compare page."""
    tiers = renderer.model_tiers
    return itertools.chain(
        version_pages(catalog, history, lambda src: renderer.linker(src).page, tiers=tiers),
        compare_pages(catalog, history, renderer.linker, tiers=tiers),
    )


def compare_pages(
    catalog: Catalog, history: History, linker: Callable[[str], Linker], *, tiers: bool
) -> Iterator[VersionPage]:
    """A compare page for each role and language with two versions or more."""
    for placed in placed_roles(catalog, history):
        languages = [lang for lang in placed.languages if len(comparable(placed, lang)) > 1]
        alternates = {lang: compare_src(placed, lang) for lang in languages}
        for language in languages:
            role_name = field_of(placed.current, language, "name") or placed.slug
            title = labels(language)["compare_title"] % {"name": role_name}
            src = alternates[language]
            key = (
                "compare",
                language,
                placed.bundle.id,
                placed.bundle.name(language),
                tuple(languages),
                tuple(placed.dirs.items()),
                tiers,
            )
            yield VersionPage(
                src,
                title,
                language,
                alternates,
                placed.bundle.files[language].path,
                functools.partial(_context, placed, language, title, linker(src), tiers=tiers),
                key,
                template="compare.html",
            )


def _context(
    placed: Placed, language: str, title: str, linker: Linker, *, tiers: bool
) -> dict[str, Any]:
    words = labels(language)
    link = linker.page
    versions = comparable(placed, language)
    listed = [_listed(placed, version, language, link, words) for version in versions]
    form = compare_form(placed, language, link)
    assert form is not None  # a compare page has two versions or more
    data = {
        "from": form["from"],
        "to": form["to"],
        "fields": [[name, words[FIELD_LABELS[name]]] for name in SHOWN],
        "versions": [
            _data(placed, version, language, entry, words, tiers)
            for version, entry in zip(versions, listed, strict=True)
        ],
        "words": {key: words[key] for key in WORDS},
        "context_lines": CONTEXT_LINES,
        "max_word_pairs": MAX_WORD_PAIRS,
    }
    return {
        "l": words,
        "lang": language,
        "title": title,
        "form": form,
        "versions": list(reversed(listed)),
        "data": data,
        "scripts": [linker.file(path) for path in SCRIPTS],
        "role_href": link(site_paths.role_page(language, placed.bundle.id, placed.slug)),
        "role_name": field_of(placed.current, language, "name") or placed.slug,
        "bundle": {"id": placed.bundle.id, "name": placed.bundle.name(language)},
        "bundle_href": link(site_paths.bundle_page(language, placed.bundle.id)),
        "language_href": link(site_paths.language_page(language)),
    }


def _listed(
    placed: Placed, version: Version, language: str, link: Link, words: Mapping[str, str]
) -> dict[str, Any]:
    """A version in the page's list, which needs no script: its date, commit and page."""
    name = placed.names.get(version)
    commit = version.commit
    return {
        "key": placed.key(version),
        "number": show(version.number),
        "label": option_label(version, words),
        "date": day(commit.date) if commit else None,
        "subject": commit.subject if commit else None,
        "short": commit.short if commit else None,
        "href": link(version_src(placed, language, name)) if name else None,
        "removed": day(version.removed.date) if version.removed else None,
    }


def _data(
    placed: Placed,
    version: Version,
    language: str,
    entry: dict[str, Any],
    words: Mapping[str, str],
    tiers: bool,
) -> dict[str, Any]:
    """One version as the script reads it: its fields as cells, its instructions as text, and
    the note that some of its text is left out (no credential reaches the page: the history
    holds none)."""
    instructions = version.content[language].get("instructions")
    return {
        "key": entry["key"],
        "number": entry["number"],
        "date": entry["date"] or words["uncommitted"],
        "href": entry["href"],
        "fields": version_cells(version, language, words, SHOWN, tiers),
        "instructions": instructions if isinstance(instructions, str) else "",
        "withheld": words["withheld_note"] % {"fields": ", ".join(version.withheld)}
        if version.withheld
        else None,
    }
