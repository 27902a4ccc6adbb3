"""The templates a site is rendered with: the ones rolecat ships, and a repository's own.

The page templates and the Material overrides ship in the package (the wheel maps this
repository's top-level ``templates/`` to ``site_plugins/templates``), so a catalog repository
needs nothing but a few lines of mkdocs.yml. A repository overrides single templates the way
Material does: a file of the same name in its own directory wins, every other one comes from
the package.
"""

from __future__ import annotations

import os
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.utils.yaml import yaml_load


def shipped() -> Path:
    """The package's templates: in an installed wheel, or in the source tree of an editable one."""
    package = Path(__file__).parent.parent  # site_plugins/
    installed = package / "templates"
    return installed if installed.is_dir() else package.parent / "templates"


REPOSITORY_PAGES = "templates/pages"
"""Where a repository's own page templates are looked for when ``page_templates`` is not set."""

FEATURES = ("navigation.indexes", "navigation.prune")
"""Material features the generated pages rely on: a bundle's page is its section's index, and
each page carries only the open part of the sidebar, so pages stay small in a large catalog."""


def page_template_dirs(base: Path, option: str | None) -> tuple[Path, ...]:
    """The page templates' directories, the repository's first (``base`` holds mkdocs.yml)."""
    own = base / (option or REPOSITORY_PAGES)
    if option is not None and not own.is_dir():
        raise PluginError(f"roles-catalog: page_templates: {own} is not a directory")
    return _distinct([own] if own.is_dir() else [], shipped() / "pages")


def use_shipped_theme(config: MkDocsConfig) -> None:
    """Put the shipped Material overrides under the repository's ``custom_dir``, if it has one,
    turn on the features the pages need, and system fonts unless the config chose others."""
    theme = config.theme
    if theme.name != "material":
        raise PluginError(
            f"roles-catalog: the site's pages are made for Material for MkDocs; set "
            f"`theme: material` in {config.config_file_path or 'mkdocs.yml'} "
            f"(it is {theme.name!r})"
        )
    overrides = str(shipped() / "overrides")
    if not any(_same(d, overrides) for d in theme.dirs):
        theme.dirs.insert(1 if theme.custom_dir else 0, overrides)
    features = theme["features"] = list(theme.get("features") or [])
    features += [f for f in FEATURES if f not in features]
    if "font" not in _theme_options(config.config_file_path):
        # Material's default loads Google Fonts: a catalog site names no third-party host
        # unless its config asks for one.
        theme["font"] = False


def _theme_options(config_file: str | None) -> dict[str, object]:
    """The theme options as written in mkdocs.yml (and the files it INHERITs), defaults left out."""
    if not config_file:
        return {}
    with open(config_file, "rb") as text:
        written = yaml_load(text)
    theme = written.get("theme") if isinstance(written, dict) else None
    return theme if isinstance(theme, dict) else {}


def override_dirs(config: MkDocsConfig) -> list[Path]:
    """The theme overrides every page is rendered with: the repository's, then the shipped ones
    (what a preview watches, and what a dirty rebuild compares)."""
    own = [Path(config.theme.custom_dir)] if config.theme.custom_dir else []
    return [*own, shipped() / "overrides"]


def _same(a: str | Path, b: str | Path) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _distinct(own: list[Path], fallback: Path) -> tuple[Path, ...]:
    return tuple(own) if own and _same(own[0], fallback) else (*own, fallback)
