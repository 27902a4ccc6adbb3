"""Links that hand a role to a tool: a chat that opens with its instructions filled in, and VS
Code's installer of a Copilot custom agent. Links only: the page that shows them loads nothing
from these hosts (``manual/docs/exports.md`` cites where each form is documented)."""

from __future__ import annotations

from typing import Literal
from urllib.parse import quote

Chat = Literal["chatgpt", "claude"]

CHATS: dict[Chat, str] = {
    "chatgpt": "https://chatgpt.com/?q=",
    "claude": "https://claude.ai/new?q=",
}
"""Each chat's new-conversation URL, to which the percent-encoded prompt is appended."""

MAX_URL = 8_000
"""The longest link offered, in characters of the whole encoded URL. RFC 9110 (section 4.1)
asks every sender and recipient to support URIs of at least 8,000 octets; past that, a server or
a proxy in front of it may refuse the request line, and the reader would land on an error
instead of a chat. Each non-ASCII character takes 6 to 12 characters encoded, so a text in
Cyrillic fits in about a fifth of what an English one does."""

VSCODE_REDIRECT = "https://vscode.dev/redirect?url="
"""VS Code's web page that hands a ``vscode:`` link to the installed editor: an ``https`` link,
which works where a page or a reader's browser does not follow custom schemes."""


def chat_url(chat: Chat, prompt: str) -> str | None:
    """The link that opens ``chat`` with ``prompt`` in its input, or ``None`` past
    :data:`MAX_URL`."""
    base = CHATS[chat]
    if len(base) + len(prompt) > MAX_URL:  # every character is at least one encoded
        return None
    url = base + quote(prompt, safe="")
    return url if len(url) <= MAX_URL else None


def vscode_install(agent_url: str) -> str:
    """VS Code's installer of the custom agent file at ``agent_url`` (an absolute URL), in the
    form awesome-copilot's install badges use: ``vscode:chat-agent/install?url=<file>``, wrapped
    in :data:`VSCODE_REDIRECT`."""
    inner = "vscode:chat-agent/install?url=" + quote(agent_url, safe="")
    return VSCODE_REDIRECT + quote(inner, safe="")
