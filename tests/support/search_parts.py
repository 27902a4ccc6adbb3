"""A built site's search index cut into parts: how small a part makes each language's index
take three or more."""

from __future__ import annotations

from pathlib import Path

from site_plugins.search.pagefind import pages_by_language


def split_part_bytes(site: Path) -> int:
    """Few enough bytes per part of the index that every language's takes three parts or more."""
    totals = [
        sum((site / page).stat().st_size for page in pages)
        for pages in pages_by_language(site).values()
    ]
    return min(totals) // 3
