"""What every page knows of the site it is part of: where it is published, its name in each
language, the language a page without one of its own speaks, and where the marketplaces are."""

from __future__ import annotations

from dataclasses import dataclass

from build_tools.model.catalog import Catalog
from site_plugins.pages.install import Places
from site_plugins.pages.labels import FALLBACK


@dataclass(frozen=True)
class SiteFacts:
    """Hashable, so a preview's kept pages are made again when any of it changes."""

    url: str | None = None
    """The published base URL (``site_url``), without its final slash; ``None`` when unknown,
    and then each page's script shows the address it is served from."""
    name: str = ""
    """The site's name, as ``site_name`` says it."""
    names: tuple[tuple[str, str], ...] = ()
    """The site's name in other languages (the plugin's ``site_names``)."""
    language: str = FALLBACK
    """The language of the pages at the site's root (``/``, ``/health/``): the theme's."""
    places: Places | None = None
    """Where the marketplaces and the catalog are, for the install commands; ``None`` shows
    none."""

    def name_in(self, language: str) -> str:
        return dict(self.names).get(language) or self.name

    def absolute(self, path: str) -> str | None:
        """A site path's published URL, where the site's URL is known."""
        return f"{self.url}/{path}" if self.url else None

    def home_language(self, catalog: Catalog) -> str:
        """The root pages' language: the theme's if the catalog has it, else its first."""
        languages = catalog.languages
        return self.language if self.language in languages else languages[0]
