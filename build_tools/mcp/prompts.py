"""A checked catalog's roles in one language as prompts: what the server offers, without the SDK.

Slugs are unique across a catalog (the ``duplicate-slug`` rule), and only a catalog that passes
its check is ever offered, so the slug alone is a prompt's name: stable across versions, and
what a client lets people type (``/mcp__rolecat__code-reviewer`` in Claude Code).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from build_tools.exports.freshness import Notes, described
from build_tools.model.catalog import Catalog

DEFAULT_LANGUAGE = "en"


class NoSuchLanguage(Exception):
    """The catalog does not have the language asked for; the message names the ones it has."""


@dataclass(frozen=True)
class RolePrompt:
    """One role as a prompt: ``text`` is its instructions as the server would import them (an
    instruction file inlined), byte for byte."""

    name: str
    title: str
    description: str | None
    text: str


@dataclass(frozen=True)
class Served:
    """Every prompt offered, in one language, in the index's order of bundles and roles."""

    language: str
    prompts: tuple[RolePrompt, ...]
    by_name: dict[str, RolePrompt] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_name", {prompt.name: prompt for prompt in self.prompts})


def choose_language(catalog: Catalog, wanted: str | None) -> str:
    """``wanted``, else English where the catalog has it, else the index's first language."""
    languages = catalog.languages
    if wanted is None and not languages:
        raise NoSuchLanguage("the catalog has no language: it has no bundle")
    if wanted is None:
        wanted = DEFAULT_LANGUAGE if DEFAULT_LANGUAGE in languages else languages[0]
    if wanted not in languages:
        raise NoSuchLanguage(
            f'the catalog has no language "{wanted}" (it has {", ".join(languages) or "none"})'
        )
    return wanted


def role_prompts(catalog: Catalog, language: str | None, notes: Notes | None = None) -> Served:
    """Each role of ``catalog`` in ``language`` (see :func:`choose_language`) as a prompt; a
    translation the history knows to be behind its original says so in its description."""
    chosen = choose_language(catalog, language)
    found = []
    for bundle in catalog.bundles:
        file = bundle.files.get(chosen)
        if file is None:
            continue  # a bundle not translated into this language offers nothing in it
        for _pointer, slug, _version in bundle.roles:
            role = file.role(slug)
            if role is None or role.instructions is None:
                continue  # a checked catalog has neither hole
            description = role.text("description")
            note = (notes or {}).get((chosen, bundle.id, slug))
            if description is not None:
                description = described(description, note)
            title = role.name or slug
            found.append(RolePrompt(slug, title, description or note, role.instructions))
    return Served(chosen, tuple(found))
