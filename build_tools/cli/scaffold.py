"""``rolecat new role``, ``rolecat new bundle`` and ``rolecat add-language``: add to a catalog
without leaving any of its files out of step.

Every edit is made in the file's own text, in its own format: a hand-formatted file keeps every
line it had (YAML comments, JSON indentation, key order, quoting), and gains only the lines of what
is added; the one value ever changed in place is a version number. Each edited file is parsed again
and must hold exactly the intended values, or nothing is written. What only a person can write is
left as a placeholder (:data:`~build_tools.rules.PLACEHOLDER`), which ``rolecat check`` reports
until it is replaced.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

from build_tools.atomic import Transaction, WriteError, recover
from build_tools.cli.scaffold_edits import ScaffoldError as ScaffoldError  # what main catches
from build_tools.cli.scaffold_edits import Source, open_source
from build_tools.diagnostics import Diagnostic
from build_tools.model.catalog import (
    BUNDLES_DIR,
    ID_PATTERN,
    SOURCE_FORMATS,
    Bundle,
    Catalog,
    DirectorySource,
    load_catalog,
    relative,
)
from build_tools.rules.across_files import PLACEHOLDER
from build_tools.scope import catalog_scope
from build_tools.sources.formats import EXTENSIONS, Format, dump, format_of
from build_tools.wire.site_paths import RESERVED, id_name_problem

TRANSLATED = ("name", "description", "instructions", "launchMessage")
"""The role fields written anew in each language (the others are copied as they are)."""


def todo(what: str) -> str:
    """A placeholder: ``what`` tells the person what to write instead."""
    return f"{PLACEHOLDER} {what}"


def role_skeleton(slug: str, language: str) -> dict[str, Any]:
    return {
        "slug": slug,
        "emoji": todo("choose one emoji for the role, the same in every language"),
        "name": todo(f"write the role's name in {language}"),
        "description": todo(f"write one or two sentences on what the role does, in {language}"),
        "instructions": todo(f"write the role's instructions (its system prompt) in {language}"),
        "autoStart": False,
        "launchMessage": None,
    }


def translation_stub(role: dict[str, Any], language: str) -> dict[str, Any]:
    """The role with every translated text marked: the source text stays, for the translator."""
    return {
        key: todo(f"translate into {language}: {value}")
        if key in TRANSLATED and isinstance(value, str)
        else copy.deepcopy(value)
        for key, value in role.items()
    }


# --- the scaffolds


def new_role(root: Path, slug: str, bundle_id: str) -> list[str]:
    """The role in the bundle's index entry at version 1, and a skeleton in each language file.

    Returns what was done, one line per file; raises :class:`ScaffoldError`, writing nothing.
    """
    _refuse_name(slug, "slug", reserved=False)
    catalog, problems = _open(root)
    bundle = _bundle(catalog, bundle_id)
    _refuse_broken(catalog, bundle, problems)
    for other in catalog.bundles:
        if slug in {s for _, s, _ in other.roles}:
            raise ScaffoldError(
                f'role "{slug}" is already in bundle "{other.id}"; slugs are unique across the '
                "whole catalog"
            )
    index = open_source(root, catalog.index.path)
    index.append((*bundle.pointer, "roles"), {"slug": slug, "version": 1})
    edits = [index]
    for language in bundle.languages:
        file = open_source(root, bundle.files[language].path)
        file.append(("roles",), role_skeleton(slug, language))
        edits.append(file)
    done = [f'{index.path}: role "{slug}" added to bundle "{bundle_id}" at version 1']
    done += [f'{file.path}: a skeleton of role "{slug}" added' for file in edits[1:]]
    _write(root, edits, {})
    return done


def new_bundle(root: Path, bundle_id: str, languages: list[str]) -> list[str]:
    """A bundle entry in the index, and an empty file for each of its languages."""
    _refuse_name(bundle_id, "bundle id")
    for language in languages:
        _refuse_name(language, "language")
    catalog, problems = _open(root)
    if any(b.id == bundle_id for b in catalog.bundles):
        raise ScaffoldError(f'bundle "{bundle_id}" already exists in {catalog.index.path}')
    _refuse_problems([d for d in problems if d.file == catalog.index.path])
    _refuse_existing(root, bundle_id, languages)
    entry = {
        "id": bundle_id,
        "name": {lang: todo(f"write the bundle's name in {lang}") for lang in languages},
        "description": {
            lang: todo(f"write one sentence on what the bundle is for, in {lang}")
            for lang in languages
        },
        "languages": languages,
        "roles": [],
    }
    index = open_source(root, catalog.index.path)
    index.append(("bundles",), entry)
    format = _new_file_format(catalog)
    created = {
        _bundle_file(bundle_id, lang, format): dump(
            {"schemaVersion": 1, "language": lang, "roles": []}, format
        )
        for lang in languages
    }
    _write(root, [index], created)
    done = [f'{index.path}: bundle "{bundle_id}" added ({", ".join(languages)})']
    return done + [f"{path}: created" for path in created]


def add_language(root: Path, language: str, bundle_id: str) -> list[str]:
    """The language in the bundle's entry, a file of translation stubs, every version bumped.

    The stubs copy the bundle's first language; a new language changes every role's content,
    so each role's version goes up by one.
    """
    _refuse_name(language, "language")
    catalog, problems = _open(root)
    bundle = _bundle(catalog, bundle_id)
    if language in bundle.languages:
        raise ScaffoldError(f'bundle "{bundle_id}" already has language "{language}"')
    _refuse_existing(root, bundle_id, [language])
    _refuse_broken(catalog, bundle, problems)
    source_language = bundle.languages[0]
    reference = bundle.files[source_language]
    index = open_source(root, catalog.index.path)
    index.append((*bundle.pointer, "languages"), language)
    for key in ("name", "description"):
        texts = bundle.entry.get(key)
        if isinstance(texts, dict):
            original = texts.get(source_language)
            text = (
                todo(f"translate into {language}: {original}")
                if isinstance(original, str)
                else todo(f"write the bundle's {key} in {language}")
            )
            index.add_member((*bundle.pointer, key), language, text)
    bumped = []
    for pointer, slug, version in bundle.roles:
        if isinstance(version, (int, float)) and not isinstance(version, bool):
            index.replace((*pointer, "version"), version + 1)
            bumped.append(f"{slug} {_number(version)} -> {_number(version + 1)}")
    roles = []
    for _pointer, slug, _version in bundle.roles:
        found = reference.role(slug)
        if found is not None:
            roles.append(translation_stub(found.fields, language))
    path = _bundle_file(bundle_id, language, format_of(reference.path))
    content = {"schemaVersion": 1, "language": language, "roles": roles}
    _write(root, [index], {path: dump(content, format_of(path))})
    return [
        f'{index.path}: language "{language}" added to bundle "{bundle_id}"'
        + (f"; versions bumped: {', '.join(bumped)}" if bumped else ""),
        f"{path}: created, a translation stub of every role (from {reference.path})",
    ]


def _open(root: Path) -> tuple[Catalog, list[Diagnostic]]:
    try:
        recover(catalog_scope(root))  # what a killed command left half done, finished first
    except WriteError as error:
        raise ScaffoldError(f"{relative(root, error.path)}: {error.reason}") from None
    catalog, problems = load_catalog(DirectorySource(root))
    if catalog is None:
        raise ScaffoldError("the catalog's index cannot be read: fix it first", problems)
    return catalog, problems


def _bundle(catalog: Catalog, bundle_id: str) -> Bundle:
    for bundle in catalog.bundles:
        if bundle.id == bundle_id:
            return bundle
    known = ", ".join(b.id for b in catalog.bundles) or "none"
    raise ScaffoldError(
        f'no bundle "{bundle_id}" in {catalog.index.path} (bundles: {known}); '
        f"create it with `rolecat new bundle {bundle_id} --languages …`"
    )


def _refuse_name(name: str, what: str, *, reserved: bool = True) -> None:
    """Ids the server builds URLs from; bundle ids and languages are also site paths."""
    if not ID_PATTERN.match(name) or name.endswith("\n"):
        raise ScaffoldError(
            f"{what} {name!r} must match ^[a-z0-9-]+$ (lowercase letters, digits and hyphens)"
        )
    too_long = id_name_problem(what, name)
    if too_long is not None:
        raise ScaffoldError(too_long)
    if reserved and name in RESERVED:
        raise ScaffoldError(
            f'{what} "{name}" is reserved on the site (/{name}/ holds {RESERVED[name]})'
        )


def _refuse_broken(catalog: Catalog, bundle: Bundle, problems: list[Diagnostic]) -> None:
    """The files a scaffold edits must be read and well-formed first (placeholders may stay)."""
    ours = f"{BUNDLES_DIR}/{bundle.id}/"
    _refuse_problems(
        [d for d in problems if d.file == catalog.index.path or d.file.startswith(ours)]
    )


def _refuse_problems(problems: list[Diagnostic]) -> None:
    if problems:
        raise ScaffoldError("fix these first: the files to edit must be read as they are", problems)


def _refuse_existing(root: Path, bundle_id: str, languages: list[str]) -> None:
    for language in languages:
        for extension in SOURCE_FORMATS:
            path = f"{BUNDLES_DIR}/{bundle_id}/{language}{extension}"
            if (root / path).exists():
                raise ScaffoldError(f"{path} exists already; move it away or remove it first")


def _bundle_file(bundle_id: str, language: str, format: Format) -> str:
    return f"{BUNDLES_DIR}/{bundle_id}/{language}{EXTENSIONS[format]}"


def _new_file_format(catalog: Catalog) -> Format:
    """New bundle files follow the catalog: the format most of its bundle files have."""
    counts = Counter(
        format_of(file.path) for bundle in catalog.bundles for file in bundle.files.values()
    ).most_common()
    if counts and (len(counts) == 1 or counts[0][1] > counts[1][1]):
        return counts[0][0]
    return format_of(catalog.index.path)


def _number(value: int | float) -> str:
    return json.dumps(int(value) if isinstance(value, float) and value.is_integer() else value)


def _write(root: Path, edited: list[Source], created: dict[str, bytes]) -> None:
    """Every file's new bytes first (any of them may refuse), then all of them or none."""
    change = Transaction(catalog_scope(root))
    for source in edited:
        change.write(root / source.path, source.result())
    for path, content in created.items():
        change.write(root / path, content)
    try:
        change.apply()
    except WriteError as error:
        raise ScaffoldError(f"{relative(root, error.path)}: {error.reason}") from None
