"""The rules page's tables, written from the rule registry (``build_tools/rules/registry.py``).

``manual/docs/rules.md`` holds the prose and a ``<!-- rules: KEY -->`` line where each section's
table goes; the registry holds every rule id, its severity and what it protects, so the page lists
exactly the rules the code reports.
"""

from __future__ import annotations

from typing import Any

from build_tools.rules.registry import fill_tables

RULES_PAGE = "rules.md"


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    if page.file.src_uri == RULES_PAGE:
        return fill_tables(markdown)
    return markdown
