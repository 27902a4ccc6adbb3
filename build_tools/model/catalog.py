"""Find and read a catalog's files: the index, then every bundle file the index declares.

Each file is parsed and checked against its schema as it is read; a file that cannot be read or
has the wrong shape is reported and left out, so the rules across files see only well-shaped data
and report each problem once.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

from build_tools.diagnostics import Diagnostic, Pointer
from build_tools.model import schema
from build_tools.model.instruction_files import inline_instruction_files
from build_tools.sources.files import TooLarge, describe, read_bounded
from build_tools.sources.javascript import ID_PATTERN as ID_PATTERN
from build_tools.sources.json_reader import MAX_FILE_BYTES, Document, SourceError, parse_json

INDEX = "index.json"
"""The index's name on the wire (its source may be ``index.yaml`` or ``index.yml``)."""
BUNDLES_DIR = "bundles"


def _parse_yaml(path: str, raw: bytes) -> Document:
    from build_tools.sources.yaml_reader import (
        parse_yaml,  # ruamel.yaml loads only for YAML catalogs
    )

    return parse_yaml(path, raw)


SOURCE_FORMATS: dict[str, Callable[[str, bytes], Document]] = {
    ".json": parse_json,
    ".yaml": _parse_yaml,
    ".yml": _parse_yaml,
}
"""A source file's extension and its reader; each file exists in exactly one of them."""


class CatalogSource(Protocol):
    """Where a catalog's files come from: a directory here, or a published site (``verify``)."""

    def read(self, relpath: str) -> bytes | None:
        """The file's bytes, ``None`` when it does not exist; ``OSError`` when it cannot be read."""

    def listing(self) -> list[str] | None:
        """Every file under ``bundles/``, catalog-relative; ``None`` where it cannot be known."""

    def read_inside(self, relpath: str) -> bytes | None:
        """An instruction file's bytes; ``None`` where instruction files are not supported.

        Raises ``PermissionError`` when the path resolves outside the catalog (a symlink).
        """


@dataclass(frozen=True)
class DirectorySource:
    """A catalog in a directory on disk."""

    root: Path

    def read(self, relpath: str) -> bytes | None:
        try:
            return read_bounded(self.root / relpath, MAX_FILE_BYTES)
        except (FileNotFoundError, NotADirectoryError):
            return None

    def read_inside(self, relpath: str) -> bytes | None:
        path = self.root / relpath
        if not Path(os.path.realpath(path)).is_relative_to(os.path.realpath(self.root)):
            raise PermissionError(relpath)
        return read_bounded(path, MAX_FILE_BYTES)

    def listing(self) -> list[str] | None:
        bundles = self.root / BUNDLES_DIR
        if not bundles.is_dir():
            return []
        return sorted(
            p.relative_to(self.root).as_posix() for p in bundles.rglob("*") if p.is_file()
        )


@dataclass(frozen=True)
class Role:
    """One role in one language file: its fields as written, and where it stands there.

    The fields are the checked values as they are (an absent one is absent); the properties
    read each as its type, ``None`` where it is absent or of another type (which a check
    reports)."""

    slug: str
    language: str
    position: int
    """Its index in the file's ``roles[]``."""
    fields: dict[str, Any]

    @property
    def pointer(self) -> Pointer:
        return ("roles", self.position)

    def text(self, name: str) -> str | None:
        value = self.fields.get(name)
        return value if isinstance(value, str) else None

    @property
    def name(self) -> str | None:
        return self.text("name")

    @property
    def instructions(self) -> str | None:
        return self.text("instructions")


@dataclass
class BundleFile:
    """One ``bundles/<id>/<lang>.json``: every role of a bundle in one language."""

    bundle_id: str
    language: str
    document: Document
    _by_slug: dict[str, Role] | None = field(default=None, repr=False)

    @property
    def path(self) -> str:
        return self.document.path

    @property
    def roles(self) -> list[dict[str, Any]]:
        roles = self.document.data.get("roles")
        return [r for r in roles if isinstance(r, dict)] if isinstance(roles, list) else []

    def role(self, slug: str) -> Role | None:
        """The first role with this slug."""
        if self._by_slug is None:
            self._by_slug = {}
            for index, role in enumerate(self.document.data.get("roles") or []):
                if isinstance(role, dict) and isinstance(role.get("slug"), str):
                    found = Role(role["slug"], self.language, index, role)
                    self._by_slug.setdefault(role["slug"], found)
        return self._by_slug.get(slug)


@dataclass
class Bundle:
    """A bundle as the index declares it, with the files that could be read."""

    id: str
    pointer: Pointer
    entry: dict[str, Any]
    files: dict[str, BundleFile] = field(default_factory=dict)

    @cached_property  # asked for by every page of the bundle; its index entry never changes
    def languages(self) -> list[str]:
        """Declared languages that are valid ids, in declared order, without repeats."""
        declared = self.entry.get("languages")
        if not isinstance(declared, list):
            return []
        return list(
            dict.fromkeys(x for x in declared if isinstance(x, str) and ID_PATTERN.match(x))
        )

    @property
    def published_languages(self) -> list[str]:
        """The declared languages whose file could be read: the ones the site publishes."""
        return [language for language in self.languages if language in self.files]

    @cached_property
    def roles(self) -> list[tuple[Pointer, str, Any]]:
        """(pointer, slug, version) of every well-formed ``roles[]`` entry of the index.

        Worked out once: every rule, the lock and the secret scan's allowlist walk it."""
        found = []
        entries = self.entry.get("roles")
        for position, role in enumerate(entries if isinstance(entries, list) else []):
            slug = role.get("slug") if isinstance(role, dict) else None
            if isinstance(slug, str) and ID_PATTERN.match(slug):
                found.append(
                    ((*self.pointer, "roles", position), role["slug"], role.get("version"))
                )
        return found

    def name(self, language: str) -> str:
        names = self.entry.get("name")
        if isinstance(names, dict) and isinstance(names.get(language), str):
            return str(names[language])
        return self.id


@dataclass
class Catalog:
    """A catalog as read from disk; ``bundles`` holds the first declaration of each bundle id."""

    source: CatalogSource
    index: Document
    bundles: list[Bundle]

    @property
    def languages(self) -> list[str]:
        """Every language of the catalog, in the order the index first declares it."""
        return list(dict.fromkeys(lang for bundle in self.bundles for lang in bundle.languages))

    def documents(self) -> list[Document]:
        """The index, then every bundle file that was read, in the index's order."""
        return [self.index, *(f.document for b in self.bundles for f in b.files.values())]


def wire_path(bundle_id: str, language: str, extension: str = ".json") -> str:
    """Where the server fetches a bundle file, relative to the base URL."""
    return f"{BUNDLES_DIR}/{bundle_id}/{language}{extension}"


def last_modified(root: Path) -> int:
    """When the catalog's files last changed, in whole seconds since 1970 (0 where none can be
    read): what dates a build that ``SOURCE_DATE_EPOCH`` does not."""
    newest = 0.0
    for directory, _dirs, names in os.walk(root):
        for name in names:
            with contextlib.suppress(OSError):
                newest = max(newest, os.lstat(os.path.join(directory, name)).st_mtime)
    return int(newest)


def relative(root: Path, path: Path) -> str:
    """How diagnostics name a file: relative to the catalog, with forward slashes."""
    try:  # the file itself as named, even a symlink; realpath never raises on a loop
        real = Path(os.path.realpath(path.parent)) / path.name
        return real.relative_to(os.path.realpath(root)).as_posix()
    except ValueError:
        return path.as_posix()


def read_document(
    source: CatalogSource,
    stem: str,
    kind: schema.Kind,
    validate: Callable[[schema.Kind, Document], list[Diagnostic]] | None = None,
) -> tuple[Document | None, list[Diagnostic]]:
    """Find ``stem`` in one of the formats, parse it, inline its instruction files, check its shape.

    A missing file gives ``(None, [])``. ``validate`` checks the shape instead of
    :func:`schema.validate` (the history checks only what changed since the last commit).
    """
    found: list[tuple[str, bytes]] = []
    for extension in SOURCE_FORMATS:
        relpath = stem + extension
        try:
            raw = source.read(relpath)
        except TooLarge as error:
            refused = f"the server refuses files over {MAX_FILE_BYTES:,} bytes"
            return None, [
                Diagnostic(relpath, 0, 0, f"file {error.message}; {refused}", "file-too-large")
            ]
        except OSError as error:
            return None, [Diagnostic(relpath, 0, 0, describe(error), "unreadable")]
        if raw is not None:
            found.append((relpath, raw))
    if not found:
        return None, []
    relpath, raw = found[0]
    if len(found) > 1:
        others = " and ".join(path for path, _ in found)
        return None, [
            Diagnostic(
                found[1][0],
                0,
                0,
                f"{others} both exist: keep the catalog in one format per file (rolecat convert)",
                "format-conflict",
            )
        ]
    try:
        document = SOURCE_FORMATS[relpath[relpath.rindex(".") :]](relpath, raw)
    except SourceError as error:
        return None, error.diagnostics
    problems = inline_instruction_files(source, document) if kind == "bundle" else []
    return document, problems + (validate or schema.validate)(kind, document)


DocumentReader = Callable[
    [CatalogSource, str, schema.Kind], tuple[Document | None, list[Diagnostic]]
]
"""How :func:`load_catalog` reads one file: :func:`read_document`, or a memo in front of it."""


def load_catalog(
    source: CatalogSource | Path,
    on_bundle: Callable[[Bundle], None] | None = None,
    read: DocumentReader = read_document,
) -> tuple[Catalog | None, list[Diagnostic]]:
    """Read the index and every declared bundle file; ``None`` when there is no usable index.

    ``on_bundle`` sees each bundle as soon as its files are read, while their text is still in
    the processor's caches (hashing it then is markedly faster than after reading everything).
    ``read`` lets the history reuse what it parsed at an earlier commit.
    """
    if isinstance(source, Path):
        source = DirectorySource(source)
    index, diagnostics = read(source, "index", "index")
    if index is None:
        if not diagnostics:
            diagnostics = [
                Diagnostic(
                    INDEX,
                    0,
                    0,
                    "missing: a catalog needs an index.json (or index.yaml) at its root",
                    "missing-file",
                )
            ]
        return None, diagnostics
    catalog = Catalog(source, index, [])
    index_problems = bool(diagnostics)
    for bundle in declared_bundles(index):
        bundle_id = bundle.id
        catalog.bundles.append(bundle)
        for language in bundle.languages:
            stem = f"{BUNDLES_DIR}/{bundle_id}/{language}"
            document, found = read(source, stem, "bundle")
            diagnostics += found
            if document is not None and not found:
                bundle.files[language] = BundleFile(bundle_id, language, document)
            elif document is None and not found:
                declared = _language_pointer(bundle, language)
                where = index.position(declared)
                diagnostics.append(
                    Diagnostic(
                        wire_path(bundle_id, language),
                        0,
                        0,
                        f'missing: bundle "{bundle_id}" declares language "{language}" '
                        f"({index.path}:{where.line}:{where.col})",
                        "missing-file",
                    )
                )
        if on_bundle is not None:
            on_bundle(bundle)
    if not index_problems:  # with a broken index, every file would look undeclared
        diagnostics += _undeclared_files(catalog)
    return catalog, diagnostics


def declared_bundles(index: Document) -> list[Bundle]:
    """The first declaration of each valid bundle id, in the index's order, with no files yet.

    Its own function so that workers can be given the bundles before they are read."""
    bundles: list[Bundle] = []
    entries = index.data.get("bundles")
    seen: set[str] = set()
    for position, entry in enumerate(entries if isinstance(entries, list) else []):
        bundle_id = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(bundle_id, str) or not ID_PATTERN.match(bundle_id) or bundle_id in seen:
            continue  # reported by the schema or by the duplicate-id rule
        seen.add(bundle_id)
        bundles.append(Bundle(bundle_id, ("bundles", position), entry))
    return bundles


def _language_pointer(bundle: Bundle, language: str) -> Pointer:
    declared = bundle.entry.get("languages")
    return (*bundle.pointer, "languages", declared.index(language))  # type: ignore[union-attr]


def _undeclared_files(catalog: Catalog) -> list[Diagnostic]:
    """Files under ``bundles/`` that the index does not declare: typos that would never publish."""
    found: list[Diagnostic] = []
    declared = {b.id: b for b in catalog.bundles}
    for relpath in catalog.source.listing() or []:
        parts = relpath.split("/")
        stem, extension = posixpath.splitext(relpath)
        if len(parts) != 3 or extension not in SOURCE_FORMATS:
            continue
        bundle_id, language = parts[1], posixpath.basename(stem)
        bundle = declared.get(bundle_id)
        if bundle is None:
            message = (
                f'bundle "{bundle_id}" is not declared in {catalog.index.path}; add it to '
                '"bundles" or remove the file'
            )
        elif language not in bundle.languages:
            message = (
                f'language "{language}" is not declared for bundle "{bundle_id}" in '
                f'{catalog.index.path}; add it to its "languages" or remove the file'
            )
        else:
            continue
        found.append(Diagnostic(relpath, 0, 0, message, "undeclared-file"))
    return found
