"""``mkdocs build`` publishes atomically: MkDocs builds into a staging directory beside the site
directory, which replaces it as the build's very last step, and only if nothing failed.

A strict build fails on any warning after the last plugin event, so the warnings are counted
from the start of the build. A site directory that would replace or hold what the build reads
(the catalog, its lock, the config, the templates) is refused before anything is touched.
"""

from __future__ import annotations

import logging
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.utils import CountHandler

from build_tools.wire import staging


class AtomicPublishing:
    """One ``mkdocs build``'s staging directory, and the warnings that decide whether it is
    swapped in."""

    def __init__(self, *, seeded: bool) -> None:
        self.seeded = seeded
        """A ``--dirty`` build rewrites only what changed: its staging starts as a copy."""
        self.site_dir: Path | None = None
        self.staging: Path | None = None
        self.warnings = _counter()
        logging.getLogger("mkdocs").addHandler(self.warnings)

    @staticmethod
    def guard(config: MkDocsConfig, owned: dict[str, Path]) -> None:
        """Refuse a site directory that would replace or hold what the build reads."""
        refused = staging.refusal(Path(config.site_dir), owned)
        if refused is not None:
            raise PluginError(f"{refused}; nothing was built")

    def stage(self, config: MkDocsConfig) -> None:
        """Point MkDocs at a staging directory; the site directory is replaced at the end."""
        self.site_dir = Path(config.site_dir)
        try:
            self.staging = staging.stage(self.site_dir, seeded=self.seeded)
        except OSError as error:
            raise PluginError(
                f"cannot build beside {self.site_dir}: {error.strerror or error}"
            ) from None
        config.site_dir = str(self.staging)

    def publish(self, config: MkDocsConfig) -> None:
        """Swap the staged build in, unless a warning will fail this strict build right after."""
        if self.staging is None or self.site_dir is None:
            return
        if config.strict and self.warnings.get_counts():
            return  # MkDocs aborts the build now; on_build_error removes the staging directory
        try:
            staging.swap_in(self.staging, self.site_dir)
        except OSError as error:
            raise PluginError(
                f"the site was built but could not replace {self.site_dir}: {error.strerror}"
            ) from None
        self.staging = None
        config.site_dir = str(self.site_dir)  # for what runs next, such as gh-deploy
        self._stop_counting()

    def discard(self) -> None:
        """A failed or interrupted build: its staging directory goes, the site stays."""
        if self.staging is not None:
            staging.discard(self.staging)
            self.staging = None
        self._stop_counting()

    def _stop_counting(self) -> None:
        logging.getLogger("mkdocs").removeHandler(self.warnings)
        self.warnings = _counter()


def _counter() -> CountHandler:
    handler = CountHandler()
    handler.setLevel(logging.WARNING)
    return handler
