"""The pages people browse, rendered from a checked catalog: no MkDocs here, only data and Jinja2.

Every catalog value reaches the HTML through an autoescaping Jinja2 environment as data, never as
template or Markdown source, so markup or template syntax inside a role shows as the text it is.
Links are relative to the page, so the site works at a domain root and under any sub-path.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from build_tools.diagnostics import Diagnostic
from build_tools.history.versions import History, Reach
from build_tools.lock import show_number
from build_tools.model.catalog import Bundle, Catalog
from build_tools.rules.server_contract import Stored
from build_tools.wire import raw_tree, site_paths
from site_plugins import exports, history_pages
from site_plugins.labels import FALLBACK, labels, language_name
from site_plugins.model_hints import hint, tier_options
from site_plugins.rendering import (
    KeptPages,
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
    kept: KeptPages | None = None,
) -> list[SitePage]:
    """Overview, per-language, per-bundle and per-role pages, then the versions' and the health
    pages, in a fixed order. ``history`` must include ``catalog`` (``History.including``).
    ``kept``: the role pages of the last preview rebuild, reused where nothing they show changed."""
    languages = catalog.languages
    if kept is not None:
        kept.start()
    placed = {p.slug: p for p in history_pages.placed_roles(catalog, history)}
    pages = [_home(catalog, renderer, site_url, languages)]
    for language in languages:
        pages.append(_language(catalog, renderer, language, languages))
        for bundle in catalog.bundles:
            if language not in bundle.files:
                continue
            pages.append(_bundle(catalog, renderer, bundle, language))
            documents = tuple(file.document for file in bundle.files.values())
            for _pointer, slug, version in bundle.roles:
                known = placed.get(slug)
                make = functools.partial(
                    _role,
                    catalog,
                    renderer,
                    bundle,
                    language,
                    slug,
                    version,
                    site_url,
                    known,
                    history.reach,
                )
                if kept is None:
                    pages.append(make())
                    continue
                # A role's history is compared by value: outside git, or for a role edited since
                # the last commit, each rebuild makes it anew with the same versions.
                key = (
                    bundle.id,
                    tuple(bundle.files),
                    version,
                    site_url,
                    renderer.stamp,
                    renderer.use_directory_urls,
                    tuple(renderer.formats),
                    _versions(known),
                    history.reach,
                )
                sources = (bundle.entry, *documents)
                pages.append(
                    kept.get(site_paths.role_page(language, bundle.id, slug), key, sources, make)
                )
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
    overview, contexts = history_pages.health_contexts(
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
                    _card(bundle, shown, slug, version, link, renderer.model_tiers)
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
                _card(bundle, language, slug, version, link, renderer.model_tiers)
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


def _bundle(catalog: Catalog, renderer: Renderer, bundle: Bundle, language: str) -> SitePage:
    src = site_paths.bundle_page(language, bundle.id)
    link = renderer.linker(src)
    words = labels(language)
    roles = [
        _role_summary(bundle, language, slug, version, link, renderer.model_tiers)
        for _p, slug, version in bundle.roles
    ]
    html = renderer.later(
        "bundle.html",
        l=words,
        lang=language,
        bundle={
            "id": bundle.id,
            "name": bundle.name(language),
            "description": bundle_text(bundle, "description", language),
        },
        roles=roles,
        tiers=tier_options((role["model"] for role in roles), words),
        raw_href=link.file(raw_tree.bundle_path(bundle.id, language, renderer.formats)),
        raw_path=raw_tree.bundle_path(bundle.id, language, renderer.formats),
        language_name=language_name(language),
        language_href=link.page(site_paths.language_page(language)),
        others=[
            {
                "code": lang,
                "name": language_name(lang),
                "href": link.page(site_paths.bundle_page(lang, bundle.id)),
            }
            for lang in bundle.languages
            if lang != language and lang in bundle.files
        ],
    )
    alternates = {
        lang: site_paths.bundle_page(lang, bundle.id) for lang in bundle.published_languages
    }
    return SitePage(
        src,
        bundle.name(language),
        language,
        html,
        True,
        bundle.files[language].path,
        alternates_of(alternates),
        wide=True,
    )


def _versions(placed: history_pages.Placed | None) -> tuple[object, ...]:
    """A role's versions by value (a :class:`Version` compares by identity)."""
    if placed is None:
        return ()
    return tuple(
        (v.number, v.bundle, v.content, v.commit, v.at_start, v.removed)
        for v in placed.history.versions
    )


def _role(
    catalog: Catalog,
    renderer: Renderer,
    bundle: Bundle,
    language: str,
    slug: str,
    version: Any,
    site_url: str | None,
    placed: history_pages.Placed | None,
    reach: Reach,
) -> SitePage:
    src = site_paths.role_page(language, bundle.id, slug)
    link = renderer.linker(src)
    history = history_pages.role_context(placed, language, link.page, reach)
    words = labels(language)
    file = bundle.files[language]
    found = file.role(slug)
    role: dict[str, Any] = found.fields if found else {"slug": slug}
    server = Stored.of(role)
    html = renderer.later(
        "role.html",
        l=words,
        lang=language,
        role={
            # What the server stores on import (catalogRoleContentFields): trimmed, a blank
            # text as none, and an absent autoStart as true.
            "slug": slug,
            "emoji": server.emoji or "",
            "name": server.name or slug,
            "description": server.description or "",
            "instructions": role.get("instructions") or "",
            "auto_start": server.auto_start,
            "auto_start_default": server.auto_start_defaulted,
            "launch_message": server.launch_message,
            "model": hint(role, tiers=renderer.model_tiers),
            "version": show_number(version),
        },
        bundle={"id": bundle.id, "name": bundle.name(language)},
        bundle_href=link.page(site_paths.bundle_page(language, bundle.id)),
        language_name=language_name(language),
        language_href=link.page(site_paths.language_page(language)),
        raw_files=[
            {
                "label": words[f"raw_{fmt}"],
                "href": link.file(path),
                "url": _absolute(site_url, path),
            }
            for fmt in renderer.formats
            for path in [raw_tree.bundle_path(bundle.id, language, (fmt,))]
        ],
        text_href=link.file(site_paths.role_text(language, bundle.id, slug)),
        text_url=_absolute(site_url, site_paths.role_text(language, bundle.id, slug)),
        **exports.role_links(found, bundle.id, link, site_url, words),
        others=[
            {
                "code": lang,
                "name": language_name(lang),
                "role_name": _role_name(bundle, lang, slug),
                "href": link.page(site_paths.role_page(lang, bundle.id, slug)),
            }
            for lang in bundle.languages
            if lang != language and lang in bundle.files
        ],
        history=history,
    )
    alternates = {
        lang: site_paths.role_page(lang, bundle.id, slug) for lang in bundle.published_languages
    }
    title = str(role.get("name") or slug)
    return SitePage(src, title, language, html, False, file.path, alternates_of(alternates))


def _role_name(bundle: Bundle, language: str, slug: str) -> str:
    found = bundle.files[language].role(slug)
    return (found.name if found else None) or slug


def _role_summary(
    bundle: Bundle, language: str, slug: str, version: Any, link: Linker, tiers: bool
) -> dict[str, Any]:
    """What a list of roles shows of one role, with a link to its page and its model hint."""
    found = bundle.files[language].role(slug)
    role = found.fields if found else {}
    server = Stored.of(role)
    return {
        "slug": slug,
        "emoji": server.emoji or "",
        "name": server.name or slug,
        "description": server.description or "",
        "version": show_number(version),
        "href": link.page(site_paths.role_page(language, bundle.id, slug)),
        "model": hint(role, tiers=tiers),
    }


def _card(
    bundle: Bundle, language: str, slug: str, version: Any, link: Linker, tiers: bool
) -> dict[str, Any]:
    """A role in the gallery (the start and language pages): what a list shows of it, the text
    the filter box looks in, and the role in each of its languages."""
    role = _role_summary(bundle, language, slug, version, link, tiers)
    return {
        **role,
        "text": " ".join((role["name"], slug, role["description"], bundle.name(language))),
        "languages": [
            {
                "code": lang,
                "name": language_name(lang),
                "href": link.page(site_paths.role_page(lang, bundle.id, slug)),
                "here": lang == language,
            }
            for lang in bundle.published_languages
        ],
    }


def _absolute(site_url: str | None, path: str) -> str:
    """A file's URL where the site is published, when known; else its path in the site (the
    role page's script shows the full URL it was served from)."""
    return f"{site_url.rstrip('/')}/{path}" if site_url else path


@dataclass(frozen=True)
class MarkedText:
    """A plain-text file: ``text`` after a UTF-8 byte-order mark. It holds the catalog's own
    string, not a copy: the bytes are made as the file is written, one file at a time, so a large
    catalog's instructions are never in memory twice."""

    text: str

    def encoded(self) -> bytes:
        return self.text.encode("utf-8-sig")


def instruction_files(catalog: Catalog) -> dict[str, MarkedText]:
    """Each role's instructions in each language as a plain-text file beside its page: the text
    the copy button copies, after a UTF-8 byte-order mark. Static hosts serve ``.txt`` as
    ``text/plain`` mostly without a charset, and browsers then read UTF-8 as Windows-1252; the
    mark is the one signal every browser and editor honours, and none shows it."""
    files = {}
    for bundle in catalog.bundles:
        for language, file in bundle.files.items():
            for _pointer, slug, _version in bundle.roles:
                found = file.role(slug)
                text = (found.instructions if found else None) or ""
                files[site_paths.role_text(language, bundle.id, slug)] = MarkedText(text)
    return files


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
