"""The pages people browse, rendered from a checked catalog: no MkDocs here, only data and Jinja2.

Every page exists in every language of the catalog: each language has its home (``/<lang>/``),
its bundles and roles, its health page (``/health/<lang>/``) and its page for servers and tools
(``/connect/<lang>/``); the site's root pages (``/``, ``/health/``) are the same pages in the
root language (:meth:`SiteFacts.home_language`). A page's sidebar lists only its own language
(:func:`nav`); the header's switcher leads to the same page in another.

Every catalog value reaches the HTML through an autoescaping Jinja2 environment as data, never as
template or Markdown source, so markup or template syntax inside a role shows as the text it is.
Links are relative to the page, so the site works at a domain root and under any sub-path.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from build_tools.diagnostics import Diagnostic
from build_tools.exports.marketplace import plugin_name
from build_tools.history.versions import History
from build_tools.model.catalog import Bundle, Catalog
from build_tools.wire import raw_tree, site_paths
from site_plugins.pages import health, install, roles
from site_plugins.pages import history as history_pages
from site_plugins.pages.compare import all_version_pages
from site_plugins.pages.labels import FALLBACK, labels, language_name
from site_plugins.pages.model_hints import tier_options
from site_plugins.pages.rendering import (
    Linker,
    Renderer,
    SitePage,
    alternates_of,
    bundle_text,
    nav_title,
)


def catalog_pages(catalog: Catalog, renderer: Renderer, history: History) -> list[SitePage]:
    """Every language's home, bundle and role pages, the root home, the versions' pages, the
    health pages and the pages for servers and tools, in a fixed order. ``history`` must
    include ``catalog`` (``History.including``). A preview's renderer keeps the role pages
    nothing they show changed in."""
    languages = catalog.languages
    placed = {p.slug: p for p in history_pages.placed_roles(catalog, history)}
    root = renderer.site.home_language(catalog)
    pages = [_home(catalog, renderer, root, site_paths.home_page())]
    for language in languages:
        pages.append(_home(catalog, renderer, language, site_paths.language_page(language)))
        for bundle in catalog.bundles:
            if language not in bundle.files:
                continue
            pages.append(roles.bundle_page(renderer, bundle, language))
            documents = tuple(file.document for file in bundle.files.values())
            for _pointer, slug, version in bundle.roles:
                known = placed.get(slug)
                make = functools.partial(
                    roles.role_page,
                    renderer,
                    bundle,
                    language,
                    slug,
                    version,
                    placed=known,
                    reach=history.reach,
                )
                # A role's history is compared by value: outside git, or for a role edited since
                # the last commit, each rebuild makes it anew with the same versions.
                key = (
                    bundle.id,
                    tuple(bundle.files),
                    version,
                    roles.versions_key(known),
                    history.reach,
                )
                src = site_paths.role_page(language, bundle.id, slug)
                pages.append(renderer.kept(src, key, (bundle.entry, *documents), make))
    for page in all_version_pages(catalog, history, renderer):
        pages.append(
            SitePage(
                page.src_uri,
                page.title,
                page.language,
                functools.partial(renderer.render_keyed, page.template, page.key, page.context),
                False,
                page.source,
                alternates_of(page.alternates),
                searchable=False,
                description=page.title,
            )
        )
    pages += _health(catalog, renderer, history, root)
    pages += [_connect(catalog, renderer, language) for language in languages]
    return pages


def _health(catalog: Catalog, renderer: Renderer, history: History, root: str) -> list[SitePage]:
    alternates = alternates_of({lang: site_paths.health_page(lang) for lang in catalog.languages})
    contexts = health.health_contexts(catalog, history, lambda src: renderer.linker(src).page, root)
    pages = []
    for place, context in contexts.items():
        language = place or root
        words = labels(language)
        src = site_paths.health_page(place)
        link = renderer.linker(src)
        pages.append(
            SitePage(
                src,
                words["health"],
                language,
                renderer.later("health.html", **context, home_href=_home_href(link, language)),
                place is not None,
                catalog.index.path,
                alternates,
                searchable=False,
                description=words["health_intro"],
            )
        )
    return pages


def _home_href(link: Linker, language: str) -> str:
    return link.page(site_paths.language_page(language))


def _home(catalog: Catalog, renderer: Renderer, language: str, src: str) -> SitePage:
    """A language's home: the site's name, what it is, search, and every role of the language
    as a card, grouped by bundle and narrowed by the filter."""
    words = labels(language)

    def context() -> dict[str, Any]:
        link = renderer.linker(src)
        bundles: list[dict[str, Any]] = [
            {
                "id": bundle.id,
                "name": bundle.name(language),
                "description": bundle_text(bundle, "description", language),
                "roles": [
                    roles.card(bundle, language, slug, version, link, renderer.model_tiers)
                    for _p, slug, version in bundle.roles
                ],
                "href": link.page(site_paths.bundle_page(language, bundle.id)),
            }
            for bundle in catalog.bundles
            if language in bundle.files
        ]
        return {
            "l": words,
            "lang": language,
            "site_name": renderer.site.name_in(language) or words["catalog"],
            "bundles": bundles,
            "tiers": tier_options((r["model"] for b in bundles for r in b["roles"]), words),
            "links": _links(link, language),
        }

    html = renderer.made_later("home.html", context)
    alternates = {lang: site_paths.language_page(lang) for lang in catalog.languages}
    return SitePage(
        src,
        words["home"],
        language,
        html,
        src != site_paths.home_page(),
        catalog.index.path,
        alternates_of(alternates),
        description=words["site_tagline"],
    )


def _links(link: Linker, language: str) -> dict[str, str]:
    """Where a language's home points people who follow changes or connect a tool."""
    return {
        "health_href": link.page(site_paths.health_page(language)),
        "feed_href": link.file(site_paths.feed(language)),
        "connect_href": link.page(site_paths.connect_page(language)),
    }


def _connect(catalog: Catalog, renderer: Renderer, language: str) -> SitePage:
    """``/connect/<lang>/``: the catalog URL a server takes, every raw file, the marketplaces'
    and the MCP server's commands: what the role pages leave to one place."""
    src = site_paths.connect_page(language)
    link = renderer.linker(src)
    words = labels(language)
    site, formats = renderer.site, renderer.formats

    def raw(path: str) -> dict[str, str]:
        return {"path": path, "href": link.file(path)}

    bundles = [b for b in catalog.bundles if language in b.files]
    html = renderer.later(
        "connect.html",
        l=words,
        lang=language,
        base_url=site.url,
        root_href=link.root(),
        index=[raw(raw_tree.index_path((fmt,))) for fmt in formats],
        bundles=[
            {
                "name": bundle.name(language),
                "files": [
                    raw(raw_tree.bundle_path(bundle.id, lang, (fmt,)))
                    for lang in bundle.published_languages
                    for fmt in formats
                ],
                "plugin": plugin_name(bundle.id, language),
            }
            for bundle in bundles
        ],
        schemas=[raw(f"{raw_tree.SCHEMA_DIR}/{name}.schema.json") for name in ("index", "bundle")],
        checksums=raw(raw_tree.CHECKSUMS),
        commands=_marketplace_commands(renderer, bundles, language),
        mcp=install.mcp_command(site.url, language).split(install.SITE),
        home_href=_home_href(link, language),
        feed_href=link.file(site_paths.feed(language)),
    )
    alternates = {lang: site_paths.connect_page(lang) for lang in catalog.languages}
    return SitePage(
        src,
        words["connect"],
        language,
        html,
        True,
        catalog.index.path,
        alternates_of(alternates),
        searchable=False,
        description=words["connect_intro"],
    )


def _marketplace_commands(
    renderer: Renderer, bundles: Sequence[Bundle], language: str
) -> list[dict[str, Any]]:
    """Add the marketplace to each tool once, then install every bundle's plugin of the page's
    language."""
    places = renderer.site.places
    if places is None or not bundles:
        return []
    found = []
    for tool, make in (("claude", install.claude_commands), ("copilot", install.copilot_commands)):
        lines = [make(places, bundles[0].id, language)]
        lines += [make(places, b.id, language).splitlines()[-1] for b in bundles[1:]]
        found.append(
            {
                "id": f"rolecat-command-{tool}",
                "label": f"action_{tool}",
                "parts": ["\n".join(lines)],
            }
        )
    return found


def problems_page(
    src_uri: str, diagnostics: list[Diagnostic], renderer: Renderer, catalog_dir: str
) -> SitePage:
    """What ``mkdocs serve`` shows while the catalog fails its check, in place of every page."""
    words = labels(FALLBACK)
    html = renderer.later(
        "problems.html",
        l=words,
        lang=FALLBACK,
        catalog_dir=catalog_dir,
        lines=[str(d) for d in diagnostics],
    )
    return SitePage(src_uri, words["problems"], FALLBACK, html, src_uri == "index.md")


def nav(catalog: Catalog, handwritten: dict[str, list[Any]]) -> list[Any]:
    """The sidebar, a section per language: its home, its bundles (each with its roles), its
    health page and its page for servers and tools, then the hand-written pages in that
    language (``handwritten``). A page shows only its own language's section
    (``site_plugins.catalog.chrome.LanguageNav``)."""
    entries: list[Any] = []
    for language in catalog.languages:
        words = labels(language)
        children: list[Any] = [{nav_title(words["home"]): site_paths.language_page(language)}]
        for bundle in catalog.bundles:
            file = bundle.files.get(language)
            if file is None:
                continue
            section: list[Any] = [site_paths.bundle_page(language, bundle.id)]
            for _pointer, slug, _version in bundle.roles:
                found = file.role(slug)
                title = (found.name if found else None) or slug
                section.append({nav_title(title): site_paths.role_page(language, bundle.id, slug)})
            children.append({nav_title(bundle.name(language)): section})
        children.append({nav_title(words["health"]): site_paths.health_page(language)})
        children.append({nav_title(words["connect"]): site_paths.connect_page(language)})
        children += handwritten.get(language, [])
        entries.append({nav_title(language_name(language)): children})
    return entries
