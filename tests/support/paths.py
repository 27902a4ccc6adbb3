"""Where things are: this repository and its own catalog."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUR_CATALOG = REPO / "catalog"
