"""What a build adds to MkDocs' files, and how: a generated page's metadata and content, and the
files MkDocs writes from a catalog's own strings, encoded only as each is written (see
:class:`EncodedFile`)."""

from __future__ import annotations

import functools
import logging
import os
import posixpath
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from build_tools.exports import Export
from build_tools.wire import raw_tree
from build_tools.wire.raw_tree import Published
from site_plugins.catalog import chrome, theme
from site_plugins.catalog.preview import GeneratedFile, Incremental, digest
from site_plugins.pages.labels import labels
from site_plugins.pages.rendering import Renderer, SitePage, code_spans, nav_title
from site_plugins.pages.roles import MarkedText

if TYPE_CHECKING:
    from site_plugins.catalog.build import SiteBuild

Contents = dict[str, bytes | str | MarkedText | Export | raw_tree.Published]
"""Site path -> what MkDocs writes there (a page's is its source: empty, rendered later)."""

Encoded = MarkedText | Export | Published
"""What an :class:`EncodedFile` is made from: anything that makes its bytes with ``encoded()``."""


class EncodedFile(GeneratedFile):
    """A file whose bytes are made as MkDocs copies it, from what it holds until then: a role's
    instructions as plain text, the role in a tool's format, or a build's raw file of the wire
    format its source is not in.

    MkDocs writes every other file before the first page and keeps their contents meanwhile; the
    instructions of a catalog of 5,000 roles are a hundred megabytes more as bytes, held at the
    build's peak. Here they stay the catalog's strings until each file is written. Two of the
    tools' formats end in ``.md``, which MkDocs would take for pages to render: these are files
    to download, written as they are."""

    _made: Encoded | None = None
    _written: dict[Export, str] | None = None
    """Where this build wrote each export first, if files of the same export are linked."""

    @classmethod
    def of(
        cls,
        config: MkDocsConfig,
        src_uri: str,
        made: Encoded,
        written: dict[Export, str] | None = None,
    ) -> EncodedFile:
        """``written``: the build's record of the exports it wrote, shared by its files."""
        file = cls.generated(config, src_uri, content=b"")
        assert isinstance(file, EncodedFile)
        file._made = made
        if isinstance(made, Export):
            file._written = written
        return file

    def copy_file(self, dirty: bool = False) -> None:
        if dirty and not self.is_modified():
            return
        try:
            content = self.content_bytes
        except ValueError as error:  # bytes other than the check judged: one line, no site
            raise PluginError(f"roles-catalog: {error}") from None
        # MkDocs' abs_dest_path, not kept: caching it grows each of a large catalog's 40,000
        # files by a few hundred bytes, at the build's peak of memory.
        path = os.path.normpath(os.path.join(self.dest_dir, self.dest_uri))
        if self._linked(path):
            return
        try:  # most files go where others went before them: no makedirs for each
            output = open(path, "wb")  # noqa: SIM115 (closed below)
        except FileNotFoundError:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            output = open(path, "wb")  # noqa: SIM115
        with output:
            output.write(content)
        if self._written is not None and isinstance(self._made, Export):
            self._written.setdefault(self._made, path)

    def _linked(self, path: str) -> bool:
        """Whether the file is a hard link to the same export written before, in another place
        (a role's agent file beside its page and in its plugin's folder): a new file costs the
        disk an inode, a tenth of a millisecond or more each (several times that just after a
        site of as many files was removed), and such copies are 2,000 of M's 8,000 files. A
        build's own files only, in its staging directory, each written once: no write goes
        through a link later (a preview, which rewrites files, links none)."""
        if self._written is None or not isinstance(self._made, Export):
            return False
        first = self._written.get(self._made)
        for _attempt in range(2):
            if first is None:
                return False
            try:
                os.link(first, path)
                return True
            except FileNotFoundError:  # the first of the folder's files
                os.makedirs(os.path.dirname(path), exist_ok=True)
            except OSError:  # no hard links on this file system: a file of its own
                first = None
        return False

    def is_documentation_page(self) -> bool:
        return False

    @property
    def content_bytes(self) -> bytes:
        return self._made.encoded() if self._made is not None else super().content_bytes

    @content_bytes.setter
    def content_bytes(self, value: bytes) -> None:
        self._made = None
        self._content = value
        self.abs_src_path = None


def add(
    files: Files, contents: Contents, build: SiteBuild, incremental: Incremental | None
) -> None:
    """Add the generated files to MkDocs' and tell a ``--dirty`` preview what changed."""
    config = build.config
    # Where the catalog is, seen from the docs directory: edit links are made from it.
    catalog = posixpath.relpath(
        build.catalog_dir.as_posix(), Path(config.docs_dir).resolve().as_posix()
    )
    shown: dict[str, object] = {}
    # Where a build writes each export first: its other files of it are links to it.
    written: dict[Export, str] | None = None if build.preview else {}
    for path, content in contents.items():
        file: File
        if isinstance(content, (MarkedText, Export, raw_tree.Published)):
            # compared by value in ``shown``
            file = EncodedFile.of(config, path, content, written)
        else:
            file = GeneratedFile.generated(config, path, content=content)
        page = build.pages.get(path)
        if incremental is not None:  # only a dirty preview needs to know what changed
            # What the file shows, compared with the last build's: a page's HTML comes from
            # the renderer's memo, the very same string while its page is unchanged.
            shown[path] = (
                (
                    page.html,
                    page.title,
                    page.lang,
                    page.alternates,
                    page.in_nav,
                    build.pending.get(path),
                )
                if page is not None
                else content
            )
        if path.startswith("."):
            # The marketplaces' hidden folders, which MkDocs leaves out of docs_dir by default.
            file.inclusion = InclusionLevel.INCLUDED
        if page is not None:
            if not page.in_nav:
                # Role pages stay out of the sidebar: Material writes the whole nav into every
                # page, so a nav of every role grows the site with the square of it.
                file.inclusion = InclusionLevel.NOT_IN_NAV
            if page.source is not None:
                file.edit_uri = posixpath.normpath(posixpath.join(catalog, page.source))
        files.append(file)
    if incremental is not None:
        incremental.mark(files, shown, _site_wide(build), Path(config.site_dir))


def _site_wide(build: SiteBuild) -> str:
    """What every page shows: the navigation, and the templates it is rendered with."""
    templates = [*build.renderer.templates_dirs, *theme.override_dirs(build.config)]
    stamps = sorted(
        (str(p), p.stat().st_mtime_ns)
        for d in templates
        if d.is_dir()
        for p in d.rglob("*")
        if p.is_file()
    )
    return digest(build.config.nav, build.config.site_url, stamps)


def page_meta(page: Page, made: SitePage, action: str | None) -> None:
    """A generated page's title, language, description, banner and alternates, for the
    theme."""
    page.meta["title"] = nav_title(made.title)
    page.meta[chrome.META_KEY] = made.lang
    banner = code_spans(labels(made.lang)[action]) if action else None
    page.meta["rolecat_banner"] = banner  # Markup: the template's escaping leaves its <code>
    page.meta["rolecat_alternates"] = [
        {"name": a.name, "link": a.link, "lang": a.lang} for a in made.alternates
    ]
    if made.description:  # the meta description and the social preview, printed unescaped
        page.meta["description"] = nav_title(made.description)
    if not made.searchable:
        page.meta["search"] = {"exclude": True}
    # A generated page has no table of contents: its content takes that column's width.
    page.meta["hide"] = ["toc"]


def render_no_markdown(page: Page) -> None:
    """MkDocs renders each page's Markdown through a Markdown processor of its own, made for it
    (0.4 ms each, before the build can split): a generated page's Markdown is empty, and its
    render is what MkDocs' would make of it, without one. Another plugin that gives the page
    Markdown after ours has it rendered by MkDocs."""
    page.render = functools.partial(_rendered_empty, page)  # type: ignore[method-assign]


def _rendered_empty(page: Page, config: MkDocsConfig, files: Files) -> None:
    del page.render  # the class's own from here on
    if page.markdown:
        page.render(config, files)
        return
    # As Page.render leaves a page of no Markdown (mkdocs/structure/pages.py).
    page.content = ""
    page.toc = get_toc([])
    page._title_from_render = None
    page.present_anchor_ids = set()
    if logging.getLogger("mkdocs.structure.pages").getEffectiveLevel() > logging.DEBUG:
        page.links_to_anchors = {}


def show_content(page: Page, made: SitePage, renderer: Renderer) -> None:
    """The content is rendered by our autoescaping templates, never by Markdown, as the page is
    written: a large catalog's pages are never all held."""
    try:
        page.content = made.html
    except jinja2.TemplateError as error:
        where = getattr(error, "filename", None) or renderer.templates_dirs[0]
        raise PluginError(
            f"cannot render {page.file.src_uri} from {where}: {type(error).__name__}: {error}"
        ) from None


def release(files: Iterable[File], pages: Mapping[str, SitePage]) -> None:
    """The raw files' bytes, written by now, need not stay in memory."""
    for file in files:
        if isinstance(file, GeneratedFile) and file.src_uri not in pages:
            file.content_bytes = b""
