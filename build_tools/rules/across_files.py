"""The rules across files: what no single file's schema can see.

Each rule takes the loaded catalog and yields diagnostics; none prints or raises.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from build_tools.diagnostics import Diagnostic, Pointer, describe_pointer
from build_tools.model.catalog import Bundle, Catalog
from build_tools.model.schema import where
from build_tools.rules.visible import invisible_text
from build_tools.sources.json_reader import Document

Rule = Callable[[Catalog], Iterator[Diagnostic]]

SAME_IN_EVERY_LANGUAGE = ("emoji", "autoStart", "modelConfig")
"""Role fields that are not translated (``slug`` is how roles are matched, so it is the same).
Objects compare as JSON values: the order of their keys does not matter."""


def _at(document: Document, pointer: tuple[str | int, ...]) -> str:
    where = document.position(pointer)
    return f"{document.path}:{where.line}:{where.col}"


def duplicate_bundles(catalog: Catalog) -> Iterator[Diagnostic]:
    """Two bundles with one id would publish into the same ``bundles/<id>/`` directory."""
    first: dict[str, int] = {}
    entries = catalog.index.data.get("bundles")
    for position, entry in enumerate(entries if isinstance(entries, list) else []):
        bundle_id = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(bundle_id, str):
            continue
        if bundle_id in first:
            earlier = _at(catalog.index, ("bundles", first[bundle_id], "id"))
            yield catalog.index.diagnostic(
                ("bundles", position, "id"),
                f'bundle "{bundle_id}" is declared twice (first at {earlier}); bundle ids must '
                "be unique",
                "duplicate-bundle",
            )
        else:
            first[bundle_id] = position


def duplicate_languages(catalog: Catalog) -> Iterator[Diagnostic]:
    for bundle in catalog.bundles:
        declared = bundle.entry.get("languages")
        seen: set[str] = set()
        for position, language in enumerate(declared if isinstance(declared, list) else []):
            if not isinstance(language, str):
                continue  # reported by the schema
            if language in seen:
                yield catalog.index.diagnostic(
                    (*bundle.pointer, "languages", position),
                    f'bundle "{bundle.id}": language "{language}" is listed twice',
                    "duplicate-language",
                )
            seen.add(language)


def localized_names(catalog: Catalog) -> Iterator[Diagnostic]:
    """The site and the server show a bundle's name in each of its languages."""
    for bundle in catalog.bundles:
        for field in ("name", "description"):
            texts = bundle.entry.get(field)
            if not isinstance(texts, dict):
                continue
            for language in bundle.languages:
                if language not in texts:
                    yield catalog.index.diagnostic(
                        (*bundle.pointer, field),
                        f'bundle "{bundle.id}": "{field}" has no "{language}" entry, but '
                        f'"{language}" is one of its languages',
                        "missing-translation",
                    )


def duplicate_slugs(catalog: Catalog) -> Iterator[Diagnostic]:
    """Slugs are unique within a bundle's ``roles[]`` and across the whole catalog."""
    owner: dict[str, tuple[Bundle, tuple[str | int, ...]]] = {}
    for bundle in catalog.bundles:
        for pointer, slug, _version in bundle.roles:
            slug_pointer = (*pointer, "slug")
            if slug not in owner:
                owner[slug] = (bundle, slug_pointer)
                continue
            first_bundle, first_pointer = owner[slug]
            earlier = _at(catalog.index, first_pointer)
            if first_bundle is bundle:
                message = (
                    f'bundle "{bundle.id}": role "{slug}" is listed twice in "roles" '
                    f"(first at {earlier})"
                )
            else:
                message = (
                    f'bundle "{bundle.id}": role "{slug}" is already in bundle "{first_bundle.id}" '
                    f"({earlier}); slugs must be unique across the whole catalog"
                )
            yield catalog.index.diagnostic(slug_pointer, message, "duplicate-slug")


def file_language(catalog: Catalog) -> Iterator[Diagnostic]:
    for bundle in catalog.bundles:
        for language, file in bundle.files.items():
            found = file.document.data.get("language")
            if isinstance(found, str) and found != language:
                yield file.document.diagnostic(
                    ("language",),
                    f'"language" is "{found}" but the file is for "{language}"; they must be equal',
                    "language-mismatch",
                )


def roles_match_index(catalog: Catalog) -> Iterator[Diagnostic]:
    """Each language file holds exactly the roles the index lists for its bundle, each once."""
    for bundle in catalog.bundles:
        listed = [slug for _pointer, slug, _version in bundle.roles]
        for file in bundle.files.values():
            document = file.document
            seen: set[str] = set()
            for position, role in enumerate(document.data.get("roles") or []):
                slug = role.get("slug") if isinstance(role, dict) else None
                if not isinstance(slug, str):
                    continue
                if slug in seen:
                    yield document.diagnostic(
                        ("roles", position, "slug"),
                        f'role "{slug}" appears twice in this file',
                        "duplicate-slug",
                    )
                elif slug not in listed:
                    yield document.diagnostic(
                        ("roles", position, "slug"),
                        f'role "{slug}" is not listed in bundle "{bundle.id}" "roles" of '
                        f"{catalog.index.path}; add it there with a version, or remove it here",
                        "extra-role",
                    )
                seen.add(slug)
            for pointer, slug, _version in bundle.roles:
                if slug not in seen:
                    yield document.diagnostic(
                        ("roles",),
                        f'role "{slug}" is missing: bundle "{bundle.id}" lists it in '
                        f"{catalog.index.path} ({_at(catalog.index, (*pointer, 'slug'))}) but this "
                        "file has no role "
                        "with that slug",
                        "missing-role",
                    )


def same_in_every_language(catalog: Catalog) -> Iterator[Diagnostic]:
    """``emoji``, ``autoStart`` and ``modelConfig`` are not translated: every language agrees."""
    for bundle in catalog.bundles:
        files = [bundle.files[lang] for lang in bundle.languages if lang in bundle.files]
        if len(files) < 2:
            continue
        reference = files[0]
        for _pointer, slug, _version in bundle.roles:
            expected = reference.role(slug)
            if expected is None:
                continue
            for other in files[1:]:
                found = other.role(slug)
                if found is None:
                    continue
                position, role = found.position, found.fields
                for field in SAME_IN_EVERY_LANGUAGE:
                    if _value(role, field) != _value(expected.fields, field):
                        pointer = (
                            ("roles", position, field) if field in role else ("roles", position)
                        )
                        yield other.document.diagnostic(
                            pointer,
                            f'role "{slug}": "{field}" is {_show(role, field)} here but '
                            f"{_show(expected.fields, field)} in {reference.path}; it must be the "
                            "same in every language",
                            "not-same-in-languages",
                        )


_ABSENT = object()


def _value(role: dict[str, Any], field: str) -> Any:
    """A field as the server reads it: an absent ``modelConfig`` is ``null``."""
    return role.get(field, None if field == "modelConfig" else _ABSENT)


def _show(role: dict[str, Any], field: str) -> str:
    """The value for the message; an object only by its keys, in case one holds a credential."""
    if field not in role:
        return "absent"
    value = role[field]
    if isinstance(value, dict):
        # Never empty: the schema refuses a modelConfig without keys.
        return "an object with " + ", ".join(f'"{key}"' for key in sorted(value))
    return json.dumps(value, ensure_ascii=False)


PLACEHOLDER = "TODO(rolecat):"
"""Marks the text ``rolecat new`` and ``rolecat add-language`` leave for a person to write.

What follows it says what to write; a value holding it is an error until it is replaced, so a
skeleton or an untranslated stub is never published.
"""
_PLACEHOLDER_BYTES = PLACEHOLDER.encode()


def placeholders(catalog: Catalog) -> Iterator[Diagnostic]:
    """Every text still holding a scaffold's placeholder, with what to write instead."""
    for document in catalog.documents():
        # One scan of the bytes; the values are walked only where the marker is (or where
        # instruction files were inlined, whose text is not in the bytes).
        if _PLACEHOLDER_BYTES not in document.raw and not document.inlined:
            continue
        for pointer, text in _texts(document.data, ()):
            if PLACEHOLDER not in text:
                continue
            todo = text[text.index(PLACEHOLDER) + len(PLACEHOLDER) :].strip().split("\n")[0]
            if len(todo) > 80:
                todo = todo[:79] + "…"
            last_index = max((i for i, s in enumerate(pointer) if isinstance(s, int)), default=-1)
            field = describe_pointer(pointer[last_index + 1 :])
            yield document.diagnostic(
                pointer,
                f'{where(document.data, pointer)}"{field}" is still a placeholder: {todo}',
                "placeholder",
            )


def _texts(value: Any, pointer: Pointer) -> Iterator[tuple[Pointer, str]]:
    if isinstance(value, str):
        yield pointer, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(item, (*pointer, key))
    elif isinstance(value, list):
        for position, item in enumerate(value):
            yield from _texts(item, (*pointer, position))


RULES: tuple[Rule, ...] = (
    invisible_text,
    duplicate_bundles,
    duplicate_languages,
    localized_names,
    duplicate_slugs,
    file_language,
    roles_match_index,
    same_in_every_language,
    placeholders,
)


BUNDLE_RULES: tuple[Rule, ...] = (
    invisible_text,
    placeholders,  # the index too: with a bundle's own entry, which a change to it re-checks
    duplicate_languages,
    localized_names,
    file_language,
    roles_match_index,
    same_in_every_language,
)
"""The rules that look at each bundle on its own: run on a catalog of one bundle, they give that
bundle's problems (the history re-checks only the bundles a commit changed)."""

CATALOG_RULES = tuple(rule for rule in RULES if rule not in BUNDLE_RULES)
"""The rules across bundles."""


def run_rules(catalog: Catalog, rules: tuple[Rule, ...] = RULES) -> list[Diagnostic]:
    return [diagnostic for rule in rules for diagnostic in rule(catalog)]
