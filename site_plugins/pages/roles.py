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
from site_plugins.pages.labels import labels, language_name
from site_plugins.pages.model_hints import described, hint, tier_options
from site_plugins.pages.rendering import Linker, Renderer, SitePage, alternates_of, bundle_text


def bundle_page(renderer: Renderer, bundle: Bundle, language: str) -> SitePage:
    src = site_paths.bundle_page(language, bundle.id)
    words = labels(language)
    description = bundle_text(bundle, "description", language)

    def context() -> dict[str, Any]:
        link = renderer.linker(src)
        cards = [
            card(bundle, language, slug, version, link, renderer.model_tiers)
            for _p, slug, version in bundle.roles
        ]
        return {
            "l": words,
            "lang": language,
            "bundle": {"id": bundle.id, "name": bundle.name(language), "description": description},
            "roles": cards,
            "tiers": tier_options((role["model"] for role in cards), words),
            "home_href": link.page(site_paths.language_page(language)),
            "others": [
                {
                    "code": lang,
                    "name": language_name(lang, language),
                    "href": link.page(site_paths.bundle_page(lang, bundle.id)),
                }
                for lang in bundle.languages
                if lang != language and lang in bundle.files
            ],
        }

    html = renderer.made_later("bundle.html", context)
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
        description=description,
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
    placed: history_pages.Placed | None,
    reach: Reach,
) -> SitePage:
    """A role as an app screen: its name, description, facts and actions first, then its
    instructions, its other languages, its history, and what servers and tools read of it."""
    src = site_paths.role_page(language, bundle.id, slug)
    file = bundle.files[language]
    found = file.role(slug)
    role: dict[str, Any] = found.fields if found else {"slug": slug}
    server = Stored.of(role)

    def context() -> dict[str, Any]:
        link = renderer.linker(src)
        site = renderer.site
        history = history_pages.role_context(placed, language, link.page, reach)
        words = labels(language)
        model = hint(role, tiers=renderer.model_tiers)
        committed = [v["commit"] for v in history["versions"] if v["commit"]]
        text_path = site_paths.role_text(language, bundle.id, slug)
        return {
            "l": words,
            "lang": language,
            "role": {
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
                "model": model,
                "model_words": described(model, words),
                "version": show_number(version),
                "updated": committed[0] if committed else None,
            },
            "bundle": {"id": bundle.id, "name": bundle.name(language)},
            "bundle_href": link.page(site_paths.bundle_page(language, bundle.id)),
            "home_href": link.page(site_paths.language_page(language)),
            "connect_href": link.page(site_paths.connect_page(language)),
            "root_href": link.root(),
            "raw_files": [
                {
                    "label": words[f"raw_{fmt}"],
                    "href": link.file(path),
                    "url": site.absolute(path) or path,
                }
                for fmt in renderer.formats
                for path in [raw_tree.bundle_path(bundle.id, language, (fmt,))]
            ],
            "text_href": link.file(text_path),
            "text_url": site.absolute(text_path) or text_path,
            "actions": role_links.role_actions(found, bundle.id, link, site, words)
            if found
            else [],
            "others": [
                {
                    "code": lang,
                    "name": language_name(lang, language),
                    "role_name": _role_name(bundle, lang, slug),
                    "href": link.page(site_paths.role_page(lang, bundle.id, slug)),
                }
                for lang in bundle.languages
                if lang != language and lang in bundle.files
            ],
            "history": history,
        }

    html = renderer.made_later("role.html", context)
    alternates = {
        lang: site_paths.role_page(lang, bundle.id, slug) for lang in bundle.published_languages
    }
    title = str(role.get("name") or slug)
    return SitePage(
        src,
        title,
        language,
        html,
        True,
        file.path,
        alternates_of(alternates),
        description=server.description or "",
    )


def _role_name(bundle: Bundle, language: str, slug: str) -> str:
    found = bundle.files[language].role(slug)
    return (found.name if found else None) or slug


def card(
    bundle: Bundle, language: str, slug: str, version: Any, link: Linker, tiers: bool
) -> dict[str, Any]:
    """A role in a gallery (the home and bundle pages): what a list shows of it, with a link to
    its page, its model in words, the text the filter box looks in, and its languages."""
    found = bundle.files[language].role(slug)
    role = found.fields if found else {}
    server = Stored.of(role)
    name, description = server.name or slug, server.description or ""
    model = hint(role, tiers=tiers)
    return {
        "slug": slug,
        "emoji": server.emoji or "",
        "name": name,
        "description": description,
        "version": show_number(version),
        "href": link.page(site_paths.role_page(language, bundle.id, slug)),
        "model": model,
        "model_words": described(model, labels(language)),
        "text": " ".join((name, slug, description, bundle.name(language))),
        "languages": [
            {
                "code": lang,
                "name": language_name(lang, language),
                "href": link.page(site_paths.role_page(lang, bundle.id, slug)),
                "here": lang == language,
            }
            for lang in bundle.published_languages
        ],
    }


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
