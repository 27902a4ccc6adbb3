"""The options of the ``roles-catalog`` plugin, as written under ``plugins:`` in mkdocs.yml."""

from __future__ import annotations

from mkdocs.config import config_options as c
from mkdocs.config.base import Config

from build_tools.wire.raw_tree import FORMATS


class RolesCatalogConfig(Config):
    enabled = c.Type(bool, default=True)
    """Turn the plugin off without removing it from mkdocs.yml."""

    catalog_dir = c.Type(str, default="catalog")
    """The catalog to check and publish, relative to mkdocs.yml (ours reads ROLES_CATALOG_DIR)."""

    lock = c.Optional(c.Type(str))
    """The content-hash lock, relative to mkdocs.yml (default: in the catalog directory)."""

    formats = c.ListOfItems(c.Choice(FORMATS), default=list(FORMATS))
    """The wire formats to publish, each at index.<ext> and bundles/<id>/<lang>.<ext>: JSON for
    today's server, YAML for its later generation (both by default)."""

    page_templates = c.Optional(c.Type(str))
    """A directory of page templates, relative to mkdocs.yml, each overriding the shipped one of
    its name (default: ``templates/pages`` where it exists; the package's templates otherwise)."""

    history = c.Type(bool, default=True)
    """Read the catalog's git history: every role's versions and what changed, stale translations,
    the Atom feeds. Off, the site shows only the current versions."""

    model_tiers = c.Type(bool, default=False)
    """Read ``modelConfig.chatModel`` as a tier word (``pro``, ``sonnet``, ``best``) that the
    deployment resolves. Off (gitmost's behaviour: ``role-model-config.ts`` passes it to the
    provider as the model id), it is shown as the model id asked for, and a tier word warns."""

    site_names = c.DictOfItems(c.Type(str), default={})
    """The site's name in other languages than ``site_name``'s, by language code
    (``{ru: Каталог ролей агентов}``): each page's header and title name the site in the page's
    language."""

    marketplace_name = c.Optional(c.Type(str))
    """The name of the Claude Code and Copilot CLI marketplace the site is, in kebab-case, as
    ``claude plugin install <plugin>@<name>`` takes it (default: ``site_name`` in kebab-case)."""

    marketplace_owner = c.Optional(c.Type(str))
    """Who the marketplace names as its owner and its plugins' author (default: ``site_author``,
    else ``site_name``)."""
