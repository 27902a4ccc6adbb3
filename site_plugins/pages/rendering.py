"""How a generated page is rendered: its Jinja2 environment, its relative links and the page it
becomes (a preview's rebuilds reuse what :mod:`site_plugins.pages.memo` keeps)."""

from __future__ import annotations

import functools
import json
import posixpath
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import orjson
from markupsafe import Markup, escape

from build_tools.model.catalog import Bundle
from build_tools.sources.formats import Format
from build_tools.wire import raw_tree
from site_plugins.pages.facts import SiteFacts
from site_plugins.pages.labels import language_name
from site_plugins.pages.memo import PageMemo


@dataclass(frozen=True)
class Alternate:
    """The same page in another language, for the header's language switcher."""

    lang: str
    name: str
    link: str
    """Site-relative target page path, e.g. ``ru/engineering/code-reviewer/``."""


@dataclass(frozen=True)
class SitePage:
    """One generated page: where it goes, its plain-text title and how to render its content."""

    src_uri: str
    title: str
    lang: str
    content: Callable[[], str]
    """Renders the page's content on demand: a large catalog's pages are never all in memory."""
    in_nav: bool
    source: str | None = None
    """The catalog file the page shows, relative to the catalog (for edit links)."""
    alternates: tuple[Alternate, ...] = field(default=())
    searchable: bool = True
    """Old versions' changes stay out of the search index: a search finds the roles as they are."""
    description: str = ""
    """What the page is about, in a sentence: its meta description and social preview."""

    @property
    def html(self) -> str:
        return self.content()


def page_dir(src_uri: str) -> str:
    """Every generated page is an ``index.md``: its URL directory is its source directory."""
    return posixpath.dirname(src_uri)


def nav_title(text: str) -> str:
    """Material prints nav and page titles unescaped, so catalog text is escaped once here."""
    return str(escape(text))


def breakable(slug: str) -> Markup:
    """A slug or id that a narrow screen may wrap after each hyphen, never inside a word."""
    return Markup("-<wbr>").join(escape(part) for part in slug.split("-"))


def code_spans(text: str) -> Markup:
    """One of our labels with each `...` shown as code, the rest escaped as text."""
    parts = str(text).split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick stays as it is
        parts[-2:] = ["`".join(parts[-2:])]
    # Escaped as Markup's own format would, without its formatter (eight labels a role page).
    return Markup(
        "".join(
            f"<code>{escape(part)}</code>" if number % 2 else escape(part)
            for number, part in enumerate(parts)
        )
    )


_KEY_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def _plain(value: object) -> object:
    """A value orjson does not know: a read-only mapping (the labels) as one, else its text."""
    return dict(value) if isinstance(value, Mapping) else str(value)


def _key(context: dict[str, Any]) -> bytes:
    """Everything a page is rendered from, as bytes: what its rendered HTML is remembered by."""
    try:
        # The context holds every text of the page and this runs for every page at every
        # preview rebuild: orjson takes a fraction of the standard library's time.
        return orjson.dumps(context, default=_plain, option=_KEY_OPTIONS)
    except TypeError:  # an integer beyond 64 bits, say
        text = json.dumps(context, sort_keys=True, default=_plain)
        return text.encode("utf-8", "surrogatepass")


class Renderer:
    """Renders the content of every page from the page templates."""

    def __init__(
        self,
        templates_dirs: Sequence[Path],
        *,
        use_directory_urls: bool = True,
        formats: Sequence[Format] = raw_tree.FORMATS,
        model_tiers: bool = False,
        memo: PageMemo | None = None,
    ) -> None:
        # ``memo``: a preview's pages and compiled templates from its last rebuild.
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(templates_dirs),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=False,
            bytecode_cache=memo.compiled if memo is not None else None,
        )
        # Instructions go to the copy button as JSON: non-ASCII as it is, not as \uXXXX escapes
        # that make a Russian page's copy three times its text (htmlsafe escaping still applies).
        self.env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False}
        self.env.filters["breakable"] = breakable
        self.env.filters["code_spans"] = code_spans
        self.use_directory_urls = use_directory_urls
        self.model_tiers = model_tiers
        """``chatModel`` as a tier word a deployment resolves, or as the model id asked for."""
        self.site = SiteFacts()
        """What every page knows of the site: its URL, its names, where the marketplaces are."""
        self.templates_dirs = tuple(templates_dirs)
        """Searched in order: a repository's own templates override the shipped ones."""
        # Rendered pages by template, template files and context: a preview rebuild renders
        # only the pages an edit changed. Each renderer keeps what it used, nothing older.
        self._memo = memo
        self._previous = dict(memo.rendered) if memo is not None else None
        if memo is not None:
            memo.rendered.clear()
            memo.kept.start()
        self.stamp = "".join(
            f"{p}:{p.stat().st_mtime_ns};"
            for d in templates_dirs
            for p in sorted(Path(d).rglob("*.html"))
        )
        self.formats = formats
        """The published wire formats: raw-file links point at the first."""

    def kept(
        self,
        src_uri: str,
        key: Hashable,
        sources: tuple[object, ...],
        make: Callable[[], SitePage],
    ) -> SitePage:
        """A page made by ``make``, or in a preview the one made last time from an equal ``key``
        and the very same ``sources`` objects, rendered with the same templates and options."""
        if self._memo is None:
            return make()
        options = (self.stamp, self.use_directory_urls, tuple(self.formats), self.site)
        return self._memo.kept.get(src_uri, (key, options), sources, make)

    def later(self, template: str, **context: Any) -> Callable[[], str]:
        """The page's content, rendered when asked for (from the context captured now)."""
        return functools.partial(self.render, template, **context)

    def made_later(self, template: str, context: Callable[[], dict[str, Any]]) -> Callable[[], str]:
        """The page's content, rendered when asked for from the context ``context`` makes then:
        as the page is written, in whichever process writes it, not before the build splits. A
        preview keeps its pages from one rebuild to the next and asks each for its content at
        every one (to see what changed): there the context is made once, now."""
        if self._memo is not None:
            return self.later(template, **context())
        return lambda: self.render(template, **context())

    def render(self, template: str, **context: Any) -> str:
        if self._previous is None:
            return self.env.get_template(template).render(**context)
        key = (self.stamp, template, _key(context))
        return self._remembered(key, template, lambda: context)

    def render_keyed(
        self, template: str, key: Hashable, context: Callable[[], dict[str, Any]]
    ) -> str:
        """Like :meth:`render`, remembered by ``key``, which names everything the page is made
        of: cheaper than its context where that is large (a version page's diff)."""
        if self._previous is None:
            return self.env.get_template(template).render(**context())
        return self._remembered((self.stamp, template, key), template, context)

    def _remembered(
        self, key: Hashable, template: str, context: Callable[[], dict[str, Any]]
    ) -> str:
        assert self._memo is not None and self._previous is not None
        html = self._previous.get(key)
        if html is None:
            html = self.env.get_template(template).render(**context())
        self._memo.rendered[key] = html
        return html

    def linker(self, src_uri: str) -> Linker:
        return Linker(page_dir(src_uri), self.use_directory_urls)


@dataclass(frozen=True)
class Linker:
    """Relative links from one page to pages and files of the site."""

    here: str
    use_directory_urls: bool

    def file(self, path: str) -> str:
        return _relative(path, self.here)

    def root(self) -> str:
        """The site's root, as a folder: ``../../`` from ``/connect/en/``."""
        depth = len([p for p in self.here.split("/") if p])
        return "../" * depth or "./"

    def page(self, src_uri: str) -> str:
        target = _relative(page_dir(src_uri), self.here)
        if not self.use_directory_urls:
            return posixpath.join(target, "index.html")
        return "./" if target == "." else f"{target}/"


def _relative(target: str, here: str) -> str:
    """``posixpath.relpath`` of two site paths (relative, normalized), without the working
    directory it looks up at every call: a site with history makes tens of thousands of links."""
    to, start = [p for p in target.split("/") if p], [p for p in here.split("/") if p]
    common = 0
    while common < min(len(to), len(start)) and to[common] == start[common]:
        common += 1
    return "/".join([".."] * (len(start) - common) + to[common:]) or "."


def alternates_of(links: dict[str, str]) -> tuple[Alternate, ...]:
    return tuple(
        Alternate(lang, language_name(lang), page_dir(src) + "/") for lang, src in links.items()
    )


def bundle_text(bundle: Bundle, key: str, language: str) -> str:
    texts = bundle.entry.get(key)
    if isinstance(texts, dict) and isinstance(texts.get(language), str):
        return str(texts[language])
    return ""
