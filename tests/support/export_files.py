"""An exported role as each tool reads its file: front matter and body, the fields each tool
requires and knows."""

from __future__ import annotations

from typing import Any

import yaml
from ruamel.yaml import YAML

from build_tools.exports import Export, Tool

REQUIRED: dict[Tool, set[str]] = {
    "claude-code": {"name", "description"},
    "copilot": {"description"},
    "cursor": {"description", "alwaysApply"},
}
"""The fields each tool requires (Claude Code: name and description; Copilot: description;
Cursor's rules: a description for the agent to decide by, and alwaysApply)."""

KNOWN: dict[Tool, set[str]] = {
    "claude-code": {"name", "description", "tools", "model"},
    "copilot": {"name", "description", "tools", "model", "target"},
    "cursor": {"description", "globs", "alwaysApply"},
}
"""The fields each tool's documentation defines that an export may write."""


def split(data: bytes) -> tuple[bytes, bytes]:
    """A file as the tools read it: its first line ``---``, front matter up to the next line that
    is ``---``, then the body."""
    assert data.startswith(b"---\n"), data[:20]
    end = data.index(b"\n---\n", 3)
    return data[4 : end + 1], data[end + 5 :]


def front_matter(data: bytes) -> dict[str, Any]:
    """The front matter read by a YAML 1.2 parser and a YAML 1.1 one, which must agree."""
    head, _body = split(data)
    yaml12 = YAML(typ="safe", pure=True)
    yaml12.version = (1, 2)
    read12 = yaml12.load(head.decode("utf-8"))
    read11 = yaml.safe_load(head.decode("utf-8"))
    assert read12 == read11
    assert isinstance(read12, dict)
    return read12


def read_as_tool(export: Export) -> tuple[dict[str, Any], bytes]:
    """The fields and the body of one export, checked as its tool checks them."""
    data = export.encoded()
    fields = front_matter(data)
    assert REQUIRED[export.tool] <= fields.keys() <= KNOWN[export.tool], fields
    for key, value in fields.items():
        expected = bool if key == "alwaysApply" else str
        assert isinstance(value, expected), (key, value)
    assert fields["description"].strip()
    if export.tool == "claude-code":
        assert fields["name"] == export.name.removesuffix(".md")
    if export.tool == "cursor":
        assert fields["alwaysApply"] is False
    return fields, split(data)[1]
