"""Whether a translation is behind its original, said where the role travels: in the description
of an exported agent, a marketplace plugin's agent and an MCP prompt.

A tool shows only the description, so the history's stale flag (what a role page's warning
says) becomes a sentence there, in the translation's own language.
"""

from __future__ import annotations

from pathlib import Path

from build_tools.history.coverage import behind
from build_tools.history.versions import History
from build_tools.lock import show_number
from build_tools.model.catalog import Catalog

Notes = dict[tuple[str, str, str], str]
"""The sentence for each translation that is behind, by (language, bundle id, slug)."""

SENTENCES = {
    "en": "translated from version %(basis)s; the original is at %(current)s",
    "ru": "переведено с версии %(basis)s; оригинал уже в версии %(current)s",  # noqa: RUF001
}
"""By language; a language without its own sentence gets the English one."""


def notes(catalog: Catalog, history: History) -> Notes:
    """Every translation of the catalog that the history flags as behind its original.

    ``history`` includes ``catalog`` (:meth:`History.including`), as the site's pages read it.
    """
    found: Notes = {}
    for bundle in catalog.bundles:
        languages = bundle.published_languages
        for _pointer, slug, _version in bundle.roles:
            known = history.roles.get(slug)
            if known is None or known.versions[-1].bundle != bundle.id:
                continue
            for language in languages:
                late = behind(known, language, languages)
                if late is not None:
                    sentence = SENTENCES.get(language, SENTENCES["en"])
                    found[(language, bundle.id, slug)] = sentence % {
                        "basis": show_number(late.basis.number),
                        "current": show_number(late.current.number),
                    }
    return found


def read_notes(catalog_dir: Path, catalog: Catalog, lock: Path | None = None) -> Notes:
    """The notes from the catalog's committed history: none where there is no history (no git,
    no commit), since then nothing is known to be behind."""
    from build_tools.check import default_lock  # the checker, only where history is read
    from build_tools.history.replay import read_history

    committed = read_history(catalog_dir, lock or default_lock(catalog_dir))
    return notes(catalog, committed.including(catalog))


def described(description: str, note: str | None) -> str:
    """The description a tool shows: the role's own, then the note in parentheses."""
    return description if note is None else f"{description} ({note})"
