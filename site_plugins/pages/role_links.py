"""What a role page's action bar offers: the role in each tool people work in, by that tool's
own install command or file, and the chats that open with it (the formats and their files are
:mod:`build_tools.exports`; the commands :mod:`site_plugins.pages.install`).

A link that needs the site's own address (VS Code fetches the agent file; a chat is asked to
read a long text) is made here where ``site_url`` is known; otherwise the page carries the
site-relative path and its script completes the link from the address it is served at.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from build_tools.exports import exports
from build_tools.exports.links import CHATS, chat_url, vscode_install
from build_tools.model.catalog import Role
from build_tools.wire import site_paths
from site_plugins.pages import install
from site_plugins.pages.facts import SiteFacts
from site_plugins.pages.rendering import Linker


def role_actions(
    role: Role, bundle_id: str, link: Linker, site: SiteFacts, words: Mapping[str, str]
) -> list[dict[str, Any]]:
    """Each action of the bar, in order: Claude Code, VS Code, the Copilot CLI, Cursor, MCP,
    Download, Open in. An action has a ``panel`` of commands and files, or is one ``href``."""
    language, slug = role.language, role.slug
    files = {}
    for export in exports(role, site_paths.TOOLS):
        path = site_paths.role_export(language, bundle_id, slug, export.tool)
        files[export.tool] = {
            "href": link.file(path),
            "download": export.name,
            "target": export.path,
            "path": path,
            "tool": export.tool,
        }
    text_path = site_paths.role_text(language, bundle_id, slug)
    text = {
        "href": link.file(text_path),
        "download": f"{slug}.txt",
        "path": text_path,
        "tool": "text",
    }
    places = site.places
    actions: list[dict[str, Any]] = []

    def panel(key: str, intro: str, commands: list[str], file: dict[str, Any] | None) -> None:
        actions.append(
            {
                "key": key,
                "label": words[f"action_{key}"],
                "intro": intro,
                "commands": [
                    {"id": f"rolecat-command-{key}-{n}", "parts": command.split(install.SITE)}
                    for n, command in enumerate(commands)
                ],
                "files": [file] if file else [],
            }
        )

    claude, copilot, cursor = files["claude-code"], files["copilot"], files["cursor"]
    if places is not None:
        panel(
            "claude",
            words["claude_intro"],
            [install.claude_commands(places, bundle_id, language)],
            {**claude, "label": words["claude_file"] % {"target": claude["target"]}},
        )
    else:
        panel("claude", words["claude_file"] % {"target": claude["target"]}, [], claude)
    agent_url = site.absolute(copilot["path"])
    actions.append(
        {
            "key": "vscode",
            "label": words["action_vscode"],
            "intro": words["vscode_intro"],
            "href": vscode_install(agent_url) if agent_url else None,
            "relative": copilot["href"],
        }
    )
    copilot_file = {**copilot, "label": words["copilot_file"] % {"target": copilot["target"]}}
    if places is not None:
        panel(
            "copilot",
            words["copilot_intro"],
            [install.copilot_commands(places, bundle_id, language)],
            copilot_file,
        )
    else:
        panel("copilot", copilot_file["label"], [], copilot)
    panel("cursor", words["cursor_intro"] % {"target": cursor["target"]}, [], cursor)
    if places is not None:
        panel(
            "mcp",
            words["mcp_intro"] % {"slug": slug},
            [install.mcp_command(site.url, language)],
            None,
        )
    actions.append(
        {
            "key": "download",
            "label": words["action_download"],
            "intro": words["download_intro"],
            "commands": [],
            "files": [
                {**text, "label": words["download_text"]},
                {**claude, "label": words["export_claude-code"]},
                {**copilot, "label": words["export_copilot"]},
                {**cursor, "label": words["export_cursor"]},
            ],
        }
    )
    actions.append(_open_in(role, text, site, words))
    return [{**EMPTY, **action} for action in actions]


EMPTY: dict[str, Any] = {
    "commands": [],
    "files": [],
    "chats": [],
    "note": None,
    "href": None,
    "relative": None,
}
"""What an action without a part has of it, so the template asks every action the same."""


def _open_in(
    role: Role, text: dict[str, Any], site: SiteFacts, words: Mapping[str, str]
) -> dict[str, Any]:
    """The chats that open with this role: its instructions in the link where they fit, else a
    short prompt that points at the role's published plain text (any language fits then)."""
    chats = []
    short = False
    text_url = site.absolute(text["path"])
    for chat, base in CHATS.items():
        url = chat_url(chat, role.instructions or "")
        entry: dict[str, Any] = {
            "chat": chat,
            "label": words[f"open_in_{chat}"],
            "href": url,
            "base": None,
        }
        if url is None:
            short = True
            prompt = words["open_in_prompt"]
            entry["href"] = chat_url(chat, prompt % {"url": text_url}) if text_url else None
            # Completed by the page's script from the address it is served at.
            entry["base"], entry["prompt"], entry["text"] = base, prompt, text["href"]
        chats.append(entry)
    return {
        "key": "open_in",
        "label": words["action_open_in"],
        "intro": words["open_in_intro"],
        "chats": chats,
        "note": words["open_in_short"] if short else None,
    }
