"""The sidebar of each page, with what it shares with its neighbours rendered once.

Material renders a page's navigation item by item (``partials/nav-item.html``), for every page: a
catalog of 500 roles spends nearly half of each role page's time there, drawing the same bundles
and the same roles again and again. An item renders alike on two pages when neither page is on
its path (the item is not active) and its links, relative to each page, are the same: so for
pages in the same directory whose own address holds none of the item's links. Such an item is
rendered once, for the first page that sees it, and reused by the next; everything else (the
active section, the page itself, its table of contents) is rendered for each page, as Material
does. The output is the same, byte for byte.

The templates call this through one changed line each: :class:`CachingLoader` serves whatever
``partials/nav.html`` and ``partials/nav-item.html`` the theme has (Material's, or the site's own
override) with the call of ``render`` replaced by ``rolecat_nav(render, page, ...)``; a template
without that exact call is served unchanged, and renders as before.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import jinja2
from markupsafe import Markup

CALLS = {
    "partials/nav.html": (
        "{{ item.render(nav_item, path, 1) }}",
        "{{ rolecat_nav(item.render, page, nav_item, path, 1) }}",
    ),
    "partials/nav-item.html": (
        '{{ render(item, path ~ "_" ~ loop.index, level + 1, nav_item) }}',
        '{{ rolecat_nav(render, page, item, path ~ "_" ~ loop.index, level + 1, nav_item) }}',
    ),
}
"""Each template's call of Material's ``render`` macro, and the call that replaces it."""

GLOBAL = "rolecat_nav"


class CachingLoader(jinja2.BaseLoader):
    """The theme's loader, with :data:`CALLS` replaced in the templates that have them."""

    def __init__(self, loader: jinja2.BaseLoader) -> None:
        self.loader = loader

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        source, filename, uptodate = self.loader.get_source(environment, template)
        call = CALLS.get(template)
        if call is not None and source.count(call[0]) == 1:
            source = source.replace(*call)
        return source, filename, uptodate

    def list_templates(self) -> list[str]:
        return self.loader.list_templates()


def use_cache(env: jinja2.Environment) -> None:
    """Render the sidebars of ``env``'s pages through one :class:`NavCache`."""
    if env.loader is not None and not isinstance(env.loader, CachingLoader):
        env.loader = CachingLoader(env.loader)
    env.globals[GLOBAL] = NavCache()


class NavCache:
    """``rolecat_nav(render, page, item, path, level[, parent])``: Material's
    ``render(item, path, level[, parent])``, reused where the output is the same."""

    def __init__(self) -> None:
        self._directory: tuple[str, ...] | None = None
        self._rendered: dict[tuple[Any, ...], Markup] = {}
        """For the pages in :attr:`_directory`: each shared item, as rendered."""
        self._names: dict[int, frozenset[str]] = {}
        """Per item, the names in :attr:`_directory` that hold one of the item's links."""
        self._kept: list[object] = []
        """The items keyed by ``id``, held so that no other object takes their ``id``."""
        self._links: dict[int, tuple[object, tuple[tuple[str, ...], ...]]] = {}
        """Per item (held with them, as :attr:`_kept`), the parts of its links, whatever the
        directory."""
        self._url: str | None = None
        self._place: tuple[str, ...] = ()
        """The parts of :attr:`_url`'s directory: the page being rendered asks for each item."""

    def __call__(self, render: Callable[..., Markup], page: Any, item: Any, *args: Any) -> Markup:
        key = self._key(page, item, args)
        if key is None:
            return render(item, *args)
        found = self._rendered.get(key)
        if found is None:
            found = self._rendered[key] = render(item, *args)
        return found

    def _key(self, page: Any, item: Any, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """The item's key among the pages of the same directory, or ``None`` where this page
        must render it: it is on the page's path, the page is the site's root, or the page's
        address holds one of the item's links (which are then relative to it)."""
        if page is None or getattr(item, "active", True) or hasattr(item, "pages"):
            return None
        url = getattr(page, "url", None)
        if not isinstance(url, str):
            return None
        if url != self._url:
            self._url, self._place = url, _parts(_directory_of(url))
        parts = self._place
        if not parts:
            return None
        directory, name = parts[:-1], parts[-1]
        if directory != self._directory:  # pages come directory by directory: keep one
            self._directory = directory
            self._rendered.clear()
            self._names.clear()
            self._kept.clear()
        if name in self._names_under(item, directory):
            return None
        parent = args[2] if len(args) > 2 else None
        return (id(item), args[0], args[1], id(parent), getattr(parent, "active", None))

    def _names_under(self, item: Any, directory: tuple[str, ...]) -> frozenset[str]:
        names = self._names.get(id(item))
        if names is None:
            depth = len(directory)
            known = self._links.get(id(item))
            if known is None:
                known = self._links[id(item)] = (item, tuple(_links(item)))
            names = self._names[id(item)] = frozenset(
                link[depth] for link in known[1] if len(link) > depth and link[:depth] == directory
            )
            self._kept.append(item)
        return names


def _links(item: Any) -> Iterator[tuple[str, ...]]:
    """The parts of every address under ``item`` that the ``url`` filter makes relative."""
    url = getattr(item, "url", None)
    if isinstance(url, str) and _relative(url):
        yield _parts(url)
    for child in getattr(item, "children", None) or ():
        yield from _links(child)


def _relative(url: str) -> bool:
    """As MkDocs' ``normalize_url``: what it leaves alone does not depend on the page."""
    parsed = urlsplit(url)
    return not (parsed.scheme or parsed.netloc or url.startswith(("/", "#")))


def _directory_of(url: str) -> str:
    """The directory relative links start from, as MkDocs' ``get_relative_url`` takes it."""
    dirname, _, basename = url.rpartition("/")
    return dirname if "." in basename else url


def _parts(path: str) -> tuple[str, ...]:
    """As MkDocs' ``get_relative_url`` splits a path."""
    if not path.startswith("/"):
        path = "/" + path
    path = posixpath.normpath(path)[1:]
    return tuple(path.split("/")) if path else ()
