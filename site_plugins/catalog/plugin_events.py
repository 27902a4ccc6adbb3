"""Which plugins handle an event: rolecat's page and build work changes only what rolecat's own
plugins see, so it is done only where no other plugin handles the events it touches."""

from __future__ import annotations

from collections.abc import Iterable

from mkdocs.config.defaults import MkDocsConfig

OURS = "site_plugins."
"""The package of rolecat's plugins."""


def only_ours(config: MkDocsConfig, events: Iterable[str]) -> bool:
    """Whether every handler of ``events`` (``"post_page"``...) is a method of one of rolecat's
    plugins (a hook module's function, or another package's plugin, is not)."""
    handlers = config.plugins.events
    return all(
        type(getattr(method, "__self__", None)).__module__.startswith(OURS)
        for event in events
        for method in handlers.get(event, [])
    )
