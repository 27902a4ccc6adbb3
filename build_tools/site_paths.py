"""Where a catalog's pages go on the site, and the ids that would land on a path already taken.

Pages live at ``/<lang>/``, ``/<lang>/<bundle>/`` and ``/<lang>/<bundle>/<slug>/`` (a role's
versions below it, ``/<lang>/<bundle>/<slug>/v<n>/``), next to the raw tree (``/index.json``,
``/bundles/``, ``/schema/``, ``/sha256sums``), the health pages (``/health/``), the feeds
(``/feed.xml``, ``/<lang>/feed.xml``) and what the theme writes (``/assets/``, ``/search/``). A
language or bundle id equal to one of those top-level names would mix a page directory into a raw
or theme directory, so it is refused before anything is built.
"""

from __future__ import annotations

from collections.abc import Iterable

from build_tools.catalog import BUNDLES_DIR, Catalog
from build_tools.diagnostics import Diagnostic
from build_tools.wire import CHECKSUMS, SCHEMA_DIR

HEALTH_DIR = "health"
FEED = "feed.xml"

RESERVED: dict[str, str] = {
    "assets": "the theme's scripts, styles and fonts",
    BUNDLES_DIR: "the raw bundle files the server fetches",
    SCHEMA_DIR: "the published JSON Schemas",
    "search": "the search index",
    HEALTH_DIR: "the catalog health pages",
    CHECKSUMS: "the checksums of the raw files",
}
"""Top-level names the site itself uses, with what lives there (for the message)."""

LANGUAGE_ONLY = (HEALTH_DIR, CHECKSUMS)
"""Reserved names a bundle may still take: its pages live below a language, never at the top."""


def home_page() -> str:
    return "index.md"


def language_page(language: str) -> str:
    return f"{language}/index.md"


def bundle_page(language: str, bundle_id: str) -> str:
    return f"{language}/{bundle_id}/index.md"


def role_page(language: str, bundle_id: str, slug: str) -> str:
    # A directory per role, so a slug "index" cannot land on its bundle's own page.
    return f"{language}/{bundle_id}/{slug}/index.md"


def version_page(language: str, bundle_id: str, slug: str, name: str) -> str:
    """A version's changes, below its role's page (``name`` like ``v3``)."""
    return f"{language}/{bundle_id}/{slug}/{name}/index.md"


def health_page(language: str | None = None) -> str:
    return f"{HEALTH_DIR}/index.md" if language is None else f"{HEALTH_DIR}/{language}/index.md"


def feed(language: str | None = None) -> str:
    """The whole catalog's Atom feed, or one language's; a dot keeps it clear of every id."""
    return FEED if language is None else f"{language}/{FEED}"


def collisions(catalog: Catalog, taken: Iterable[str] = ()) -> list[Diagnostic]:
    """Every language or bundle id that names a reserved top-level path, placed in index.json.

    ``taken`` adds top-level names of hand-written pages or files (e.g. ``about`` for ``about.md``).
    """
    reserved = dict(RESERVED)
    for name in taken:
        reserved.setdefault(name, "a hand-written page or file of the site")
    names = ", ".join(sorted(reserved))
    found: list[Diagnostic] = []
    for bundle in catalog.bundles:
        if bundle.id in reserved and bundle.id not in LANGUAGE_ONLY:
            found.append(
                catalog.index.diagnostic(
                    (*bundle.pointer, "id"),
                    f'bundle id "{bundle.id}" is reserved on the site (/{bundle.id}/ holds '
                    f"{reserved[bundle.id]}); rename the bundle (reserved: {names})",
                    "site-reserved-id",
                )
            )
        declared = bundle.entry.get("languages")
        for position, language in enumerate(declared if isinstance(declared, list) else []):
            if isinstance(language, str) and language in reserved:
                found.append(
                    catalog.index.diagnostic(
                        (*bundle.pointer, "languages", position),
                        f'bundle "{bundle.id}": language "{language}" is reserved on the site '
                        f"(/{language}/ holds {reserved[language]}); use another language code "
                        f"(reserved: {names})",
                        "site-reserved-id",
                    )
                )
    return sorted(found)
