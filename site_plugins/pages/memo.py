"""What a preview keeps of its pages from one rebuild to the next: the templates compiled, the
HTML rendered, the role pages made. A build of ``mkdocs build`` keeps nothing (no memo)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import jinja2
import jinja2.bccache

if TYPE_CHECKING:
    from site_plugins.pages.rendering import SitePage


class CompiledTemplates(jinja2.BytecodeCache):
    """Templates compiled once per preview session instead of at every rebuild (MkDocs makes a
    new template environment each time). Jinja2 checks each template's source checksum, so an
    edited template is compiled again."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


class _Once:
    """A page's content, rendered the first time it is asked for and kept."""

    def __init__(self, render: Callable[[], str]) -> None:
        self._render: Callable[[], str] | None = render
        self._html = ""

    def __call__(self) -> str:
        if self._render is not None:
            self._html, self._render = self._render(), None
        return self._html


class KeptPages:
    """A preview's role pages from one rebuild to the next: a role page is made again only when
    what it is made of changed (its bundle's index entry or files, its history, its version).

    Most of a rebuild's own work at 500 roles was making a thousand role pages an edit did not
    touch; the check leaves an unchanged file's parsed document the same object
    (``build_tools.reuse``), so the pages made from it are known to be the same."""

    def __init__(self) -> None:
        self._previous: dict[str, tuple[Hashable, tuple[object, ...], SitePage]] = {}
        self._used: dict[str, tuple[Hashable, tuple[object, ...], SitePage]] = {}

    def start(self) -> None:
        self._previous, self._used = self._used or self._previous, {}

    def get(
        self, src_uri: str, key: Hashable, sources: tuple[object, ...], make: Callable[[], SitePage]
    ) -> SitePage:
        """The page made last time from equal ``key`` and the very same ``sources``, or a new
        one from ``make``."""
        before = self._previous.get(src_uri)
        if (
            before is not None
            and before[0] == key
            and len(before[1]) == len(sources)
            and all(a is b for a, b in zip(before[1], sources, strict=True))
        ):
            page = before[2]
        else:
            made = make()
            page = replace(made, content=_Once(made.content))
        self._used[src_uri] = (key, sources, page)
        return page


@dataclass
class PageMemo:
    """A preview's pages from its last rebuild, which the next one reuses where nothing they
    are made of changed."""

    rendered: dict[Hashable, str] = field(default_factory=dict)
    """Rendered HTML by template, template files and context."""
    compiled: CompiledTemplates = field(default_factory=CompiledTemplates)
    kept: KeptPages = field(default_factory=KeptPages)
