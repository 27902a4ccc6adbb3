"""The pages of bundles and roles, and each role's instructions as a plain-text file."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from build_tools.history.versions import Reach
from build_tools.lock import show_number
from build_tools.model.catalog import Bundle, Catalog
from build_tools.rules.server_contract import Stored
from build_tools.wire import raw_tree, site_paths
from site_plugins.pages import history as history_pages
from site_plugins.pages import role_links
from site_plugins.pages.install import install_commands
from site_plugins.pages.labels import labels, language_name
from site_plugins.pages.model_hints import hint, tier_options
from site_plugins.pages.rendering import Linker, Renderer, SitePage, alternates_of, bundle_text


def bundle_page(renderer: Renderer, bundle: Bundle, language: str) -> SitePage:
    src = site_paths.bundle_page(language, bundle.id)
    link = renderer.linker(src)
    words = labels(language)
    roles = [
        role_summary(bundle, language, slug, version, link, renderer.model_tiers)
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


def versions_key(placed: history_pages.Placed | None) -> tuple[object, ...]:
    """A role's versions by value (a :class:`Version` compares by identity)."""
    if placed is None:
        return ()
    return tuple(
        (v.number, v.bundle, v.content, v.commit, v.at_start, v.removed)
        for v in placed.history.versions
    )


def role_page(
    renderer: Renderer,
    bundle: Bundle,
    language: str,
    slug: str,
    version: Any,
    *,
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
        **role_links.role_links(found, bundle.id, link, site_url, words),
        install=(
            install_commands(renderer.install, bundle.id, language, words)
            if renderer.install is not None and found is not None
            else []
        ),
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


def role_summary(
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


def card(
    bundle: Bundle, language: str, slug: str, version: Any, link: Linker, tiers: bool
) -> dict[str, Any]:
    """A role in the gallery (the start and language pages): what a list shows of it, the text
    the filter box looks in, and the role in each of its languages."""
    role = role_summary(bundle, language, slug, version, link, tiers)
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
