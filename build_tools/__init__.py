"""rolecat's catalog core: load, check, lock and publish agent-roles catalogs (no MkDocs here)."""

from __future__ import annotations

from build_tools.diagnostics import Diagnostic

__version__ = "0.1.0"
"""The one place the version is written: the package metadata and ``--version`` read it."""

__all__ = ["Diagnostic", "__version__"]
