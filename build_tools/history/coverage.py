"""How far each translation has kept up: each role, in each language of the catalog, is current,
behind (other languages changed at a version and it did not) or missing (its bundle does not
have the language).

What the health pages' matrix and a role page's warning say, from the history alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from build_tools.history.versions import History, RoleHistory, Version
from build_tools.model.catalog import Bundle, Catalog

State = Literal["current", "behind", "missing"]


@dataclass(frozen=True)
class Behind:
    """A translation made from ``basis``, left alone when ``source`` changed at ``since``;
    the role is now at ``current``."""

    since: Version
    basis: Version
    """The last version at which every language said the same: what the translation is of."""
    source: str | None
    """The first language of the bundle that changed at ``since``."""
    changed: tuple[str, ...]
    """Every language that changed at ``since``."""
    current: Version


def behind(history: RoleHistory, language: str, languages: Sequence[str]) -> Behind | None:
    """Why ``language`` lags behind in the role's current version, if it does; ``languages``:
    the bundle's, in its order (the source is the first of them that changed)."""
    current = history.versions[-1]
    why = history.stale(current).get(language)
    if why is None:
        return None
    basis = history.previous(why.since)
    assert basis is not None, "a version is stale only against an earlier one"
    source = next((lang for lang in languages if lang in why.changed), None)
    return Behind(why.since, basis, source, why.changed, current)


@dataclass(frozen=True)
class Cell:
    language: str
    state: State
    behind: Behind | None = None


@dataclass(frozen=True)
class Row:
    """One role of the catalog in every language of the catalog."""

    bundle: Bundle
    slug: str
    history: RoleHistory | None
    """``None`` where the history does not place the role in this bundle."""
    cells: tuple[Cell, ...]


def coverage(catalog: Catalog, history: History) -> Iterator[Row]:
    """Every role, in page order (bundle by bundle), with a cell per catalog language, in the
    catalog's order. ``history`` includes ``catalog`` (``History.including``)."""
    languages = catalog.languages
    for bundle in catalog.bundles:
        published = bundle.published_languages
        for _pointer, slug, _version in bundle.roles:
            known = history.roles.get(slug)
            if known is not None and known.versions[-1].bundle != bundle.id:
                known = None
            cells = []
            for language in languages:
                if language not in published:
                    cells.append(Cell(language, "missing"))
                    continue
                late = behind(known, language, published) if known is not None else None
                cells.append(Cell(language, "behind" if late else "current", late))
            yield Row(bundle, slug, known, tuple(cells))
