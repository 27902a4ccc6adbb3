"""Where the browser tests save the screenshots people review: ``$ROLECAT_SCREENSHOTS``, else
``build/screenshots/`` in the repository (git ignores ``build/``)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import Page

from tests.support.paths import REPO


def screenshot_dir() -> Path:
    named = os.environ.get("ROLECAT_SCREENSHOTS")
    found = Path(named) if named else REPO / "build" / "screenshots"
    found.mkdir(parents=True, exist_ok=True)
    return found


def save(page: Page, name: str, *, full_page: bool = False) -> Path:
    """The page as it is on screen, as ``<name>.png`` (``name`` made safe for a file)."""
    path = screenshot_dir() / (re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") + ".png")
    page.screenshot(path=str(path), full_page=full_page)
    return path
