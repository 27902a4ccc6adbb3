"""The pages people browse, rendered from a checked catalog: no MkDocs here, only data and Jinja2.

Every catalog value reaches the HTML through an autoescaping Jinja2 environment as data, never as
template or Markdown source, so markup or template syntax inside a role shows as the text it is.
Links are relative to the page, so the site works at a domain root and under any sub-path.
"""

from __future__ import annotations

import functools
from typing import Any

from build_tools.diagnostics import Diagnostic
from build_tools.history.versions import History
from build_tools.model.catalog import Catalog
from build_tools.wire import raw_tree, site_paths
from site_plugins.pages import health, roles
from site_plugins.pages import history as history_pages
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


def catalog_pages(
    catalog: Catalog,
    renderer: Renderer,
    site_url: str | None,
    history: History,
) -> list[SitePage]:
    """Overview, per-language, per-bundle and per-role pages, then the versions' and the health
    pages, in a fixed order. ``history`` must include ``catalog`` (``History.including``).
    A preview's renderer keeps the role pages nothing they show changed in."""
    languages = catalog.languages
    placed = {p.slug: p for p in history_pages.placed_roles(catalog, history)}
    pages = [_home(catalog, renderer, site_url, languages)]
    for language in languages:
        pages.append(_language(catalog, renderer, language, languages))
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
                    site_url=site_url,
                    placed=known,
                    reach=history.reach,
                )
                # A role's history is compared by value: outside git, or for a role edited since
                # the last commit, each rebuild makes it anew with the same versions.
                key = (
                    bundle.id,
                    tuple(bundle.files),
                    version,
                    site_url,
                    roles.versions_key(known),
                    history.reach,
                )
                src = site_paths.role_page(language, bundle.id, slug)
                pages.append(renderer.kept(src, key, (bundle.entry, *documents), make))
    for page in history_pages.version_pages(catalog, history, lambda s: renderer.linker(s).page):
        pages.append(
            SitePage(
                page.src_uri,
                page.title,
                page.language,
                functools.partial(renderer.render_keyed, "version.html", page.key, page.context),
                False,
                page.source,
                alternates_of(page.alternates),
                searchable=False,
            )
        )
    return [*pages, *_health(catalog, renderer, history, languages)]


def _health(
    catalog: Catalog, renderer: Renderer, history: History, languages: list[str]
) -> list[SitePage]:
    alternates = {lang: site_paths.health_page(lang) for lang in languages}
    overview, contexts = health.health_contexts(
        catalog, history, lambda src: renderer.linker(src).page
    )
    src = site_paths.health_page()
    pages = [
        SitePage(
            src,
            labels(FALLBACK)["health"],
            FALLBACK,
            renderer.later("health-index.html", **overview),
            True,
            catalog.index.path,
            alternates_of(alternates),
            searchable=False,
            wide=True,
        )
    ]
    for language, context in contexts.items():
        pages.append(
            SitePage(
                alternates[language],
                f"{labels(language)['health']} · {language_name(language)}",
                language,
                renderer.later("health.html", **context),
                False,
                catalog.index.path,
                alternates_of(alternates),
                searchable=False,
                wide=True,
            )
        )
    return pages


def _changes(link: Linker, language: str | None) -> dict[str, str]:
    """Where the overview and the language pages point people who follow changes."""
    return {
        "health_href": link.page(site_paths.health_page(language)),
        "feed_href": link.file(site_paths.feed(language)),
    }


def _home(
    catalog: Catalog, renderer: Renderer, site_url: str | None, languages: list[str]
) -> SitePage:
    src = site_paths.home_page()
    link = renderer.linker(src)
    words = labels(FALLBACK)
    bundles: list[dict[str, Any]] = []
    for bundle in catalog.bundles:
        published = bundle.published_languages
        shown = FALLBACK if FALLBACK in published else published[0]
        bundles.append(
            {
                "id": bundle.id,
                "name": bundle.name(shown),
                "description": bundle_text(bundle, "description", shown),
                "href": link.page(site_paths.bundle_page(shown, bundle.id)),
                "languages": [
                    {
                        "code": lang,
                        "name": language_name(lang),
                        "href": link.page(site_paths.bundle_page(lang, bundle.id)),
                        "raw": link.file(raw_tree.bundle_path(bundle.id, lang, renderer.formats)),
                        "raw_path": raw_tree.bundle_path(bundle.id, lang, renderer.formats),
                    }
                    for lang in bundle.languages
                ],
                "roles": [
                    roles.card(bundle, shown, slug, version, link, renderer.model_tiers)
                    for _p, slug, version in bundle.roles
                ],
            }
        )
    html = renderer.later(
        "home.html",
        l=words,
        lang=FALLBACK,
        tiers=tier_options((r["model"] for b in bundles for r in b["roles"]), words),
        base_url=site_url.rstrip("/") if site_url else None,
        languages=[
            {
                "code": lang,
                "name": language_name(lang),
                "href": link.page(site_paths.language_page(lang)),
            }
            for lang in languages
        ],
        bundles=bundles,
        changes=_changes(link, None),
        index_href=link.file(raw_tree.index_path(renderer.formats)),
        index_path=raw_tree.index_path(renderer.formats),
        schemas=[
            {"path": path, "href": link.file(path)}
            for path in (
                f"{raw_tree.SCHEMA_DIR}/index.schema.json",
                f"{raw_tree.SCHEMA_DIR}/bundle.schema.json",
            )
        ],
    )
    alternates = {lang: site_paths.language_page(lang) for lang in languages}
    return SitePage(
        src,
        words["catalog"],
        FALLBACK,
        html,
        True,
        catalog.index.path,
        alternates_of(alternates),
        wide=True,
    )


def _language(
    catalog: Catalog, renderer: Renderer, language: str, languages: list[str]
) -> SitePage:
    src = site_paths.language_page(language)
    link = renderer.linker(src)
    words = labels(language)
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
    html = renderer.later(
        "language.html",
        l=words,
        lang=language,
        language_name=language_name(language),
        bundles=bundles,
        tiers=tier_options((r["model"] for b in bundles for r in b["roles"]), words),
        home_href=link.page(site_paths.home_page()),
        changes=_changes(link, language),
    )
    title = f"{words['bundles']} · {language_name(language)}"
    alternates = {lang: site_paths.language_page(lang) for lang in languages}
    return SitePage(
        src, title, language, html, True, catalog.index.path, alternates_of(alternates), wide=True
    )


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


def nav(catalog: Catalog) -> list[Any]:
    """The sidebar: the overview, then each language with its bundles; never every role."""
    entries: list[Any] = [{nav_title(labels(FALLBACK)["overview"]): site_paths.home_page()}]
    for language in catalog.languages:
        children: list[Any] = [site_paths.language_page(language)]
        for bundle in catalog.bundles:
            if language in bundle.files:
                children.append(
                    {nav_title(bundle.name(language)): site_paths.bundle_page(language, bundle.id)}
                )
        entries.append({nav_title(language_name(language)): children})
    entries.append({nav_title(labels(FALLBACK)["health"]): site_paths.health_page()})
    return entries
