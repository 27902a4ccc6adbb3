"""rolecat's catalog core: load, check, lock and publish agent-roles catalogs (no MkDocs here)."""

from __future__ import annotations

from build_tools.diagnostics import Diagnostic

__all__ = ["Diagnostic"]
