"""Where a catalog's pages go on the site, and the ids that would land on a path already taken.

Pages live at ``/<lang>/``, ``/<lang>/<bundle>/`` and ``/<lang>/<bundle>/<slug>/``, next to the raw
tree (``/index.json``, ``/bundles/``, ``/schema/``), the theme's ``/assets/`` and the search index
(``/pagefind/``). A language or bundle id equal to one of those top-level names would mix a page
directory into a raw or theme directory, so it is refused before anything is built.
"""

from __future__ import annotations

from collections.abc import Iterable

from build_tools.catalog import BUNDLES_DIR, Catalog
from build_tools.diagnostics import Diagnostic
from build_tools.wire import SCHEMA_DIR

SEARCH_DIR = "pagefind"
"""Where the site's search index is written."""

RESERVED: dict[str, str] = {
    "assets": "the theme's scripts, styles and fonts",
    BUNDLES_DIR: "the raw bundle files the server fetches",
    SCHEMA_DIR: "the published JSON Schemas",
    SEARCH_DIR: "the search index",
}
"""Top-level names the site itself uses, with what lives there (for the message)."""


def home_page() -> str:
    return "index.md"


def language_page(language: str) -> str:
    return f"{language}/index.md"


def bundle_page(language: str, bundle_id: str) -> str:
    return f"{language}/{bundle_id}/index.md"


def role_page(language: str, bundle_id: str, slug: str) -> str:
    # A directory per role, so a slug "index" cannot land on its bundle's own page.
    return f"{language}/{bundle_id}/{slug}/index.md"


def role_text(language: str, bundle_id: str, slug: str) -> str:
    """A role's instructions as plain text, beside its page directory (slugs have no dots, so
    no page directory can end in ``.txt``)."""
    return f"{language}/{bundle_id}/{slug}.txt"


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
        if bundle.id in reserved:
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
