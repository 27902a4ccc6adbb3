"""The commands a role page gives to put the role into a person's tools: the Claude Code and
Copilot CLI marketplaces the site is, and ``rolecat export`` in a checkout of the catalog.

Every value that goes into a command is quoted for a POSIX shell, so a folder name with shell
syntax in it is one argument when pasted, never a command of its own.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from build_tools.exports.marketplace import plugin_name


@dataclass(frozen=True)
class Places:
    """Where the site is, as the commands name it."""

    marketplace: str
    """The marketplace's name, as ``claude plugin install <plugin>@<marketplace>`` takes it."""
    site_dir: str
    """The built site, relative to mkdocs.yml: where a checkout has it after ``make site``."""


def install_commands(
    places: Places, bundle_id: str, language: str, words: dict[str, str]
) -> list[dict[str, Any]]:
    """Each way to install, with its label and its exact command lines."""
    plugin = shlex.quote(f"{plugin_name(bundle_id, language)}@{places.marketplace}")
    site_dir = shlex.quote(places.site_dir)
    found = [
        (
            "claude",
            words["install_claude"],
            # A folder: Claude Code reads ./site, where the Copilot CLI wants an absolute path.
            [f"claude plugin marketplace add ./{site_dir}", f"claude plugin install {plugin}"],
        ),
        (
            "copilot",
            words["install_copilot"],
            [
                f'copilot plugin marketplace add "$PWD"/{site_dir}',
                f"copilot plugin install {plugin}",
            ],
        ),
        (
            "export",
            words["install_export"],
            [
                f"rolecat export --to claude-code --language {shlex.quote(language)} "
                f"--bundle {shlex.quote(bundle_id)} ."
            ],
        ),
    ]
    return [
        {"id": f"rolecat-install-{key}", "label": label, "command": "\n".join(lines)}
        for key, label, lines in found
    ]
