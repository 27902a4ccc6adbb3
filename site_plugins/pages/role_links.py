"""The links a role page offers of the role in the formats of the tools people work in (the
formats and their files are :mod:`build_tools.exports`)."""

from __future__ import annotations

from typing import Any

from build_tools.exports import TOOLS, exports
from build_tools.exports.links import CHATS, chat_url, vscode_install
from build_tools.model.catalog import Role
from build_tools.wire import site_paths
from site_plugins.pages.rendering import Linker


def role_links(
    role: Role | None, bundle_id: str, link: Linker, site_url: str | None, words: dict[str, str]
) -> dict[str, Any]:
    """What a role page offers of its exports: each file to download, under the name the tool
    expects; VS Code's installer of the Copilot agent where the site's URL is known (VS Code
    fetches the file from there); and the chats that open with the instructions filled in, those
    whose link holds them."""
    if role is None:
        return {"exports": [], "open_in": [], "open_in_too_long": False}
    found = []
    for export in exports(role, TOOLS):
        path = site_paths.role_export(role.language, bundle_id, role.slug, export.tool)
        install = None
        if export.tool == "copilot" and site_url:
            install = vscode_install(f"{site_url.rstrip('/')}/{path}")
        found.append(
            {
                "tool": export.tool,
                "label": words[f"export_{export.tool}"],
                "href": link.file(path),
                "download": export.name,
                "target": export.path,
                "install": install,
            }
        )
    chats = [(chat, chat_url(chat, role.instructions or "")) for chat in CHATS]
    return {
        "exports": found,
        "open_in": [
            {"chat": chat, "label": words[f"open_in_{chat}"], "href": url}
            for chat, url in chats
            if url is not None
        ],
        "open_in_too_long": any(url is None for _chat, url in chats),
    }
