"""A role as the file each tool people work in reads: a Claude Code subagent, a GitHub Copilot
custom agent, a Cursor rule (``manual/docs/exports.md`` cites each tool's documentation).

Each file is YAML front matter and then the role's instructions, byte for byte: the body is never
rewritten, so what an agent runs is what the catalog says. Every string of the front matter is a
double-quoted YAML scalar written as the published YAML writes its own
(:func:`build_tools.sources.formats.double_quoted`), so a YAML 1.2 parser (the tools' own) and a
YAML 1.1 one read back exactly the catalog's string, whatever it holds: ``: ``, ``#``, ``---``,
line breaks, ``no``, a leading ``*``, ``&`` or ``!``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from build_tools.exports.freshness import Notes, described
from build_tools.model.catalog import Catalog, Role
from build_tools.rules.server_contract import Stored
from build_tools.sources.formats import double_quoted
from build_tools.wire import site_paths
from build_tools.wire.site_paths import TOOLS as TOOLS  # named with the site's paths
from build_tools.wire.site_paths import Tool as Tool

DIRECTORIES: dict[Tool, str] = {
    "claude-code": ".claude/agents",
    "copilot": ".github/agents",
    "cursor": ".cursor/rules",
}
"""Where each tool looks for these files, relative to a project's root."""

SUFFIXES: dict[Tool, str] = {
    "claude-code": ".md",
    "copilot": ".agent.md",
    "cursor": ".mdc",
}
"""What follows the slug in each tool's file name."""

CLAUDE_ALIASES = ("opus", "sonnet", "haiku")
"""The model aliases Claude Code's ``model`` takes, which a catalog may write as tier words."""

CLAUDE_MODEL_ID = re.compile(r"claude-[a-z0-9]+(?:[.-][a-z0-9]+)*")
"""A full Claude model id (``claude-sonnet-4-5``, ``claude-3-5-haiku-20241022``), which Claude
Code's ``model`` takes as it is."""


@dataclass(frozen=True)
class Export:
    """One role in one tool's format. It holds the catalog's own instruction string, not a copy:
    the bytes are made when the file is written, one file at a time."""

    tool: Tool
    name: str
    """The file's name where the tool looks (``code-reviewer.agent.md``)."""
    front_matter: str
    """From the opening ``---`` line to the closing one, its line break included."""
    body: str
    """The role's instructions, exactly."""

    @property
    def path(self) -> str:
        """Where the file goes in a project: ``.github/agents/code-reviewer.agent.md``."""
        return f"{DIRECTORIES[self.tool]}/{self.name}"

    def encoded(self) -> bytes:
        """The file: UTF-8 without a byte-order mark, which would hide the opening ``---``."""
        return (self.front_matter + self.body).encode("utf-8")


def claude_model(model_config: Any) -> str | None:
    """Claude Code's ``model`` for a role's ``modelConfig``, where one clearly corresponds.

    ``opus``, ``sonnet`` and ``haiku`` are Claude Code's own aliases, and a ``claude-…`` id is a
    model it takes as written. Every other word (a tier such as ``pro`` or ``best``, another
    vendor's model, a deployment's own key) names no Claude model: the field is left out, and the
    subagent runs on the model of the conversation that calls it.
    """
    written = model_config.get("chatModel") if isinstance(model_config, dict) else None
    if not isinstance(written, str):
        return None
    if written in CLAUDE_ALIASES or CLAUDE_MODEL_ID.fullmatch(written):
        return written
    return None


def claude_code(role: Role, note: str | None = None) -> Export:
    """``.claude/agents/<slug>.md``: ``name`` is the slug (Claude Code's agent id), then
    ``description`` (when Claude should delegate to it) and ``model`` where one maps."""
    fields: list[tuple[str, str | bool]] = [
        ("name", role.slug),
        ("description", _description(role, note)),
    ]
    model = claude_model(role.fields.get("modelConfig"))
    if model is not None:
        fields.append(("model", model))
    return _export("claude-code", role, fields)


def copilot(role: Role, note: str | None = None) -> Export:
    """``.github/agents/<slug>.agent.md``: ``name`` is the role's display name, ``description``
    is required. No ``model``: Copilot names models as its picker shows them (``Claude Sonnet 4.5
    (copilot)``), and nothing a catalog writes corresponds clearly to one."""
    name = Stored.of(role.fields).name or role.slug
    return _export("copilot", role, [("name", name), ("description", _description(role, note))])


def cursor(role: Role, note: str | None = None) -> Export:
    """``.cursor/rules/<slug>.mdc``: a rule the agent applies when its ``description`` fits the
    task, or that a person attaches with ``@<slug>``; no ``globs``, since a role belongs to no
    files, and never ``alwaysApply``, which would put the role into every chat."""
    return _export(
        "cursor", role, [("description", _description(role, note)), ("alwaysApply", False)]
    )


EXPORTERS: dict[Tool, Callable[[Role, str | None], Export]] = {
    "claude-code": claude_code,
    "copilot": copilot,
    "cursor": cursor,
}


def exports(role: Role, tools: Sequence[Tool] = TOOLS, note: str | None = None) -> list[Export]:
    """The role in each tool's format; ``note`` says its translation is behind
    (:mod:`build_tools.exports.freshness`)."""
    return [EXPORTERS[tool](role, note) for tool in tools]


def _description(role: Role, note: str | None) -> str:
    """The role's description as the server stores it (its name where it has none, since both
    agent formats require one), and whether its translation is behind."""
    stored = Stored.of(role.fields)
    return described(stored.description or stored.name or role.slug, note)


def _export(tool: Tool, role: Role, fields: list[tuple[str, str | bool]]) -> Export:
    return Export(tool, role.slug + SUFFIXES[tool], front_matter(fields), role.instructions or "")


_BIDI = "[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
"""The bidirectional marks, embeddings, overrides and isolates: raw, they make an editor or a
diff show a name or description other than the one the tool reads."""


def front_matter(fields: list[tuple[str, str | bool]]) -> str:
    """``---``, one ``key: value`` line per field, ``---``; strings quoted (bidirectional
    controls escaped too, as the reporters escape them), booleans plain."""
    lines = ["---"]
    for key, value in fields:
        if isinstance(value, bool):
            shown = "true" if value else "false"
        else:
            shown = re.sub(_BIDI, lambda m: f"\\u{ord(m.group()):04X}", double_quoted(value))
        lines.append(f"{key}: {shown}")
    lines.append("---")
    return "\n".join(lines) + "\n"


def site_files(catalog: Catalog, notes: Notes | None = None) -> dict[str, Export]:
    """Every role's export for every tool in every language, at its path in the site."""
    files: dict[str, Export] = {}
    for bundle in catalog.bundles:
        for language, file in bundle.files.items():
            for _pointer, slug, _version in bundle.roles:
                role = file.role(slug)
                if role is None:
                    continue
                note = notes.get((language, bundle.id, slug)) if notes else None
                for export in exports(role, TOOLS, note):
                    files[site_paths.role_export(language, bundle.id, slug, export.tool)] = export
    return files
