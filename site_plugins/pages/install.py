"""The commands a role page gives to put the role into a person's tools: the Claude Code and
Copilot CLI marketplaces the site is, the MCP server (``rolecat mcp``), and ``rolecat export`` in
a checkout of the catalog.

Every value that goes into a command is quoted for a POSIX shell, so a folder name with shell
syntax in it is one argument when pasted, never a command of its own.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from build_tools.exports.marketplace import plugin_name


@dataclass(frozen=True)
class Places:
    """Where the site is, as the commands name it."""

    marketplace: str
    """The marketplace's name, as ``claude plugin install <plugin>@<marketplace>`` takes it."""
    site_dir: str
    """The built site, relative to mkdocs.yml: where a checkout has it after ``make site``."""


SITE = "{site}"
"""Where a command names the site's address and the build does not know it (no ``site_url``):
the page shows the address it is served at there (``templates/pages/_command.html``)."""


def claude_commands(places: Places, bundle_id: str, language: str) -> str:
    """Add the site's marketplace to Claude Code and install the bundle's plugin in one language.
    A folder: Claude Code reads ./site, where the Copilot CLI wants an absolute path."""
    plugin = shlex.quote(f"{plugin_name(bundle_id, language)}@{places.marketplace}")
    return "\n".join(
        [
            f"claude plugin marketplace add ./{shlex.quote(places.site_dir)}",
            f"claude plugin install {plugin}",
        ]
    )


def copilot_commands(places: Places, bundle_id: str, language: str) -> str:
    plugin = shlex.quote(f"{plugin_name(bundle_id, language)}@{places.marketplace}")
    return "\n".join(
        [
            f'copilot plugin marketplace add "$PWD"/{shlex.quote(places.site_dir)}',
            f"copilot plugin install {plugin}",
        ]
    )


def mcp_command(site_url: str | None, language: str) -> str:
    """``rolecat mcp`` added to Claude Code, reading this site as a server does: at
    ``site_url``, else at :data:`SITE`."""
    url = shlex.quote(site_url) if site_url else SITE
    return f"claude mcp add rolecat -- rolecat mcp --url {url} --language {shlex.quote(language)}"


def export_command(bundle_id: str, language: str) -> str:
    return (
        f"rolecat export --to claude-code --language {shlex.quote(language)} "
        f"--bundle {shlex.quote(bundle_id)} ."
    )
