"""Where a catalog's pages go on the site, and the ids that would land on a path already taken.

Pages live at ``/<lang>/``, ``/<lang>/<bundle>/`` and ``/<lang>/<bundle>/<slug>/`` (a role's
versions below it, ``/<lang>/<bundle>/<slug>/v<n>/``, and its files beside it: its plain text
``<slug>.txt`` and its exports ``<slug>.claude.md``, ``.agent.md``, ``.mdc``), next to the raw
tree (``/index.json``, ``/bundles/``, ``/schema/``, ``/sha256sums``), the health pages
(``/health/``), the pages for servers and tools (``/connect/<lang>/``), the feeds
(``/feed.xml``, ``/<lang>/feed.xml``), the theme's ``/assets/`` and the search index
(``/pagefind/``). A language or bundle id equal to one of those top-level names would
mix a page directory into a raw or theme directory, so it is refused before anything is built; so
is an id too long for the file system to hold the path it names.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from build_tools.diagnostics import Diagnostic, Pointer, show_id
from build_tools.lock import Change
from build_tools.model.catalog import BUNDLES_DIR, Catalog
from build_tools.sources.formats import EXTENSIONS, Format
from build_tools.wire.raw_tree import CHECKSUMS, FORMATS, SCHEMA_DIR

Tool = Literal["claude-code", "copilot", "cursor"]
"""The tools whose files the site serves beside each role (:mod:`build_tools.exports` writes
them): named here, where the command line and the site's paths need only their names."""
TOOLS: tuple[Tool, ...] = ("claude-code", "copilot", "cursor")


@dataclass(frozen=True)
class Site:
    """What a check knows of the site the catalog is published to."""

    formats: Sequence[Format] = FORMATS
    """The wire formats published."""
    taken: Collection[str] = ()
    """Top-level names of the hand-written pages and files (``about`` for ``about.md``)."""
    directory: Path | None = None
    """Where the site is written, for the length of the paths; unknown when ``None``."""


SEARCH_DIR = "pagefind"
"""Where the site's search index is written."""
HEALTH_DIR = "health"
CONNECT_DIR = "connect"
FEED = "feed.xml"

RESERVED: dict[str, str] = {
    "assets": "the theme's scripts, styles and fonts",
    BUNDLES_DIR: "the raw bundle files the server fetches",
    SCHEMA_DIR: "the published JSON Schemas",
    SEARCH_DIR: "the search index",
    HEALTH_DIR: "the catalog health pages",
    CONNECT_DIR: "the pages for servers and tools",
    CHECKSUMS: "the checksums of the raw files",
}
"""Top-level names the site itself uses, with what lives there (for the message)."""

LANGUAGE_ONLY = (HEALTH_DIR, CONNECT_DIR, CHECKSUMS)
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


def role_text(language: str, bundle_id: str, slug: str) -> str:
    """A role's instructions as plain text, beside its page directory (slugs have no dots, so
    no page directory can end in ``.txt``)."""
    return f"{language}/{bundle_id}/{slug}{TEXT_SUFFIX}"


TEXT_SUFFIX = ".txt"

EXPORT_SUFFIXES: dict[Tool, str] = {
    "claude-code": ".claude.md",
    "copilot": ".agent.md",
    "cursor": ".mdc",
}
"""What follows the slug in the name of each export beside the role's page. Claude Code's own name,
``<slug>.md``, would be ``index.md`` for a slug "index": its bundle page's source."""

ROLE_FILE_SUFFIX = max((TEXT_SUFFIX, *EXPORT_SUFFIXES.values()), key=len)
"""The longest name a slug gives a file beside its page: ``<slug>.claude.md``."""


def role_export(language: str, bundle_id: str, slug: str, tool: Tool) -> str:
    """A role's file in one tool's format, beside its plain text (a name with a dot, so no page
    directory can take it)."""
    return f"{language}/{bundle_id}/{slug}{EXPORT_SUFFIXES[tool]}"


def version_page(language: str, bundle_id: str, slug: str, name: str) -> str:
    """A version's changes, below its role's page (``name`` like ``v3``)."""
    return f"{language}/{bundle_id}/{slug}/{name}/index.md"


def health_page(language: str | None = None) -> str:
    return f"{HEALTH_DIR}/index.md" if language is None else f"{HEALTH_DIR}/{language}/index.md"


def connect_page(language: str) -> str:
    """What servers and tools read from the site, and the commands that install the roles."""
    return f"{CONNECT_DIR}/{language}/index.md"


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


def handwritten_names(docs_dir: Path, use_directory_urls: bool = True) -> list[str]:
    """Top-level names the docs directory publishes (``about.md`` -> ``about``; its translation
    ``about.ru.md`` is published at ``/about/ru/``, so it takes ``about`` too)."""
    if not docs_dir.is_dir():
        return []
    names: dict[str, None] = {}
    for entry in sorted(docs_dir.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_file() and entry.suffix == ".md" and use_directory_urls:
            stem, dot, _ = entry.stem.rpartition(".")
            name = stem if dot and stem not in PAGE_INDEXES else entry.stem
            if name not in PAGE_INDEXES:
                names[name] = None
        else:
            names[entry.name] = None
    return list(names)


PAGE_INDEXES = ("index", "README")
"""Hand-written pages published at their directory's own address, not at a name of their own."""


def problems(catalog: Catalog, site: Site) -> list[Diagnostic]:
    """Every id the site cannot publish: reserved names, and paths too long to write."""
    return sorted(
        collisions(catalog, site.taken) + unwritable(catalog, site.formats, site.directory)
    )


NAME_MAX = 255
"""Bytes in one file name: ext4, XFS, Btrfs, APFS and NTFS all stop here."""
PATH_MAX = 4096
"""Bytes in a whole path, its final NUL included (Linux); the system's own figure where it says."""


NAME_TOO_LONG = "site-name-too-long"


def long_name(
    who: str, length: int, what: str, advice: str, name_max: int = NAME_MAX
) -> str | None:
    """What is wrong with a name of ``length`` bytes, if a file system cannot hold it."""
    if length <= name_max:
        return None
    return (
        f"{who}: {what} would be named {length} bytes long, and a name holds at most "
        f"{name_max}; {advice}"
    )


def id_name_problem(kind: str, text: str) -> str | None:
    """:func:`unwritable`'s verdict on one new slug, bundle id or language, before it is added."""
    length = len(os.fsencode(text))
    if kind == "slug":
        return long_name(f"role {show_id(text)}", *_slug_name(length), "shorten the slug")
    if kind == "bundle id":
        return long_name(f"bundle {show_id(text)}", length, "its directories", "shorten it")
    longest = length + max(len(extension) for extension in EXTENSIONS.values())
    return long_name(f"language {show_id(text)}", longest, "its bundle file", "shorten it")


STAGING_INFIX = ".rolecat-"
"""Staging directories are ``.<site name>.rolecat-XXXXXXXX`` beside the site: safe to delete
(``build_tools.wire.staging`` makes them; named here, where a check needs only their length)."""

STAGING_EXTRA = len(".") + len(STAGING_INFIX) + 8
"""How much longer a staging directory's path is than the site's (``mkdtemp`` adds 8 characters):
paths are checked for length where they are first written."""


def unwritable(
    catalog: Catalog, formats: Sequence[Format] = FORMATS, directory: Path | None = None
) -> list[Diagnostic]:
    """Ids that make a name longer than a file system holds, or a path longer than it opens.

    ``directory`` is where the site is written; the build writes into a staging directory beside it
    first, whose longer name counts.
    """
    name_max, path_max = _limits(directory)
    base = len(os.fsencode(os.path.abspath(directory))) + STAGING_EXTRA if directory else None
    found: dict[tuple[Pointer, str], Diagnostic] = {}

    def refuse(pointer: Pointer, message: str, rule: str) -> None:
        found.setdefault((pointer, rule), catalog.index.diagnostic(pointer, message, rule))

    def name(pointer: Pointer, who: str, length: int, what: str, advice: str) -> None:
        message = long_name(who, length, what, advice, name_max)
        if message is not None:
            refuse(pointer, message, NAME_TOO_LONG)

    def paths(pointer: Pointer, who: str, written: Iterable[str]) -> None:
        for path in written:
            length = (base or 0) + 1 + len(path)
            if base is not None and length > path_max - 1:
                message = (
                    f"{who}: {path} would be written at a path of {length:,} bytes in {directory}, "
                    f"and a path holds at most {path_max - 1:,}; shorten the ids or build the site "
                    "in a directory with a shorter path"
                )
                refuse(pointer, message, "site-path-too-long")

    for bundle in catalog.bundles:
        who = f"bundle {show_id(bundle.id)}"
        name((*bundle.pointer, "id"), who, len(bundle.id), "its directories", "shorten it")
        declared = bundle.entry.get("languages")
        for position, language in enumerate(declared if isinstance(declared, list) else []):
            if language in bundle.languages:
                at = (*bundle.pointer, "languages", position)
                speaks = f"{who}: language {show_id(language)}"
                longest = max(len(language + EXTENSIONS[f]) for f in formats)
                name(at, speaks, longest, "its bundle file", "shorten it")
                paths(at, speaks, _paths(bundle.id, language, formats))
        for pointer, slug, _version in bundle.roles:
            at, who = (*pointer, "slug"), f"role {show_id(slug)}"
            name(at, who, *_slug_name(len(slug)), "shorten the slug")
            paths(at, who, (_page(role_page(lang, bundle.id, slug)) for lang in bundle.languages))
    return sorted(found.values())


def _slug_name(length: int) -> tuple[int, str]:
    """The longest name a slug of ``length`` bytes gives, and what it names: its files beside its
    page directory are longer than the directory itself."""
    return length + len(ROLE_FILE_SUFFIX), f"its longest file, <slug>{ROLE_FILE_SUFFIX},"


def _page(src_uri: str) -> str:
    """Where MkDocs writes a generated page (``…/index.md`` -> ``…/index.html``)."""
    return src_uri.removesuffix(".md") + ".html"


def _paths(bundle_id: str, language: str, formats: Sequence[Format]) -> Iterator[str]:
    """The site paths of one bundle in one language, except its roles' pages."""
    yield _page(language_page(language))
    yield _page(bundle_page(language, bundle_id))
    for format in formats:
        yield f"{BUNDLES_DIR}/{bundle_id}/{language}{EXTENSIONS[format]}"


def _limits(directory: Path | None) -> tuple[int, int]:
    """NAME_MAX and PATH_MAX where ``directory`` will be, from the system where it says."""
    probe = Path(os.path.abspath(directory)) if directory else None
    while probe is not None and not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if probe is None:
        return NAME_MAX, PATH_MAX
    try:
        return (
            min(NAME_MAX, os.pathconf(probe, "PC_NAME_MAX")),
            min(PATH_MAX, os.pathconf(probe, "PC_PATH_MAX")),
        )
    except (OSError, ValueError):
        return NAME_MAX, PATH_MAX


def overwritten(
    generated: Iterable[str], present: Collection[str], docs_dir: str
) -> list[Diagnostic]:
    """Hand-written files at paths the site generates: a build would overwrite them."""
    return [
        Diagnostic(
            path,
            0,
            0,
            f"{docs_dir}/{path} would overwrite what the plugin generates there; rename or "
            "remove it",
            "site-overwritten",
        )
        for path in generated
        if path in present
    ]


def pending_pages(catalog: Catalog, changes: list[Change]) -> dict[str, str]:
    """While previewing: the role and bundle pages of each role the lock has not recorded, with
    the label that says what makes it publishable (a changed role needs a version bump first)."""
    action = {c.slug: "pending_bump" if c.state == "changed" else "pending_record" for c in changes}
    pages: dict[str, str] = {}
    for bundle in catalog.bundles:
        for language in bundle.languages:
            for _pointer, slug, _version in bundle.roles:
                if slug in action:
                    pages[role_page(language, bundle.id, slug)] = action[slug]
                    page = bundle_page(language, bundle.id)
                    if pages.get(page) != "pending_bump":
                        pages[page] = action[slug]
    return pages
