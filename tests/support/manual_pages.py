"""The manual's pages and the README as the docs tests read them: sections, anchors, links."""

from __future__ import annotations

import re
from pathlib import Path

import markdown

from tests.support.paths import REPO

README = REPO / "README.md"
MANUAL = REPO / "manual"
PAGES = MANUAL / "docs"

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_LINK = re.compile(r"(?<!!)\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def page(name: str) -> str:
    return (PAGES / name).read_text(encoding="utf-8")


def prose_lines(text: str) -> list[tuple[bool, str]]:
    """Each line, and whether it is inside a fenced code block."""
    lines, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            lines.append((True, line))
        else:
            lines.append((fenced, line))
    return lines


def sections(text: str, level: int) -> dict[str, str]:
    """The text under each heading of ``level`` (``##`` is 2), up to the next one of that level
    or higher, by the heading's words with code spans unquoted (``rolecat check``)."""
    found: dict[str, str] = {}
    current: str | None = None
    for fenced, line in prose_lines(text):
        heading = None if fenced else _HEADING.match(line)
        if heading and len(heading.group(1)) <= level:
            current = heading.group(2).replace("`", "") if len(heading.group(1)) == level else None
            if current is not None:
                found[current] = ""
            continue
        if current is not None:
            found[current] += line + "\n"
    return found


def anchors(path: Path) -> set[str]:
    """The ids MkDocs gives the headings of a page (Python-Markdown's toc, as the manual's
    mkdocs.yml configures it), plus any explicit ``id="..."``."""
    html = markdown.markdown(
        path.read_text(encoding="utf-8"), extensions=["toc", "tables", "admonition"]
    )
    return set(re.findall(r'\bid="([^"]+)"', html))


def links(text: str) -> list[str]:
    """Every Markdown link target outside code blocks and code spans."""
    found = []
    for fenced, line in prose_lines(text):
        if not fenced:
            found += _LINK.findall(re.sub(r"`[^`]*`", "", line))
    return found


def code_blocks(text: str) -> list[tuple[str, str]]:
    """Every fenced code block: its info string (``sh``) and its text."""
    blocks, info, body, fenced = [], "", [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            if fenced:
                blocks.append((info, "\n".join(body) + "\n"))
            else:
                info, body = line.strip().lstrip("`~").strip(), []
            fenced = not fenced
        elif fenced:
            body.append(line)
    return blocks
