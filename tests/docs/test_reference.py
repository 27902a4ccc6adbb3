"""The reference pages follow the code: every plugin option and every command, with its options,
is documented, read from the plugins' config classes and the CLI's own parser."""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from build_tools.cli.parser import build_parser
from site_plugins.catalog.config import RolesCatalogConfig
from site_plugins.search.plugin import SearchConfig
from tests.support.manual_pages import README, page, sections

PLUGINS = {"roles-catalog": RolesCatalogConfig, "rolecat-search": SearchConfig}


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def commands(
    parser: argparse.ArgumentParser | None = None, path: str = "rolecat"
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """``("rolecat check", its parser)``, ``("rolecat new role", …)``: every command a user
    runs, a command with subcommands standing for each of them."""
    for name, sub in _subcommands(parser or build_parser()).items():
        if _subcommands(sub):
            yield from commands(sub, f"{path} {name}")
        else:
            yield f"{path} {name}", sub


def arguments(parser: argparse.ArgumentParser) -> list[str]:
    """Every option (not ``--help``) by its first name, and every positional's name as help
    shows it. Other names of an option are aliases (``--update-hashes`` for ``--fix``): the
    manual names them once, where they matter."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        found.append(
            action.option_strings[0]
            if action.option_strings
            else str(action.metavar or action.dest)
        )
    return found


COMMANDS = dict(commands())


def test_the_parser_is_read_whole() -> None:
    assert {"rolecat check", "rolecat verify", "rolecat new role", "rolecat add-language"} <= set(
        COMMANDS
    )
    assert "--against" in arguments(COMMANDS["rolecat check"])
    assert "BASE_URL" in arguments(COMMANDS["rolecat verify"])


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_its_section_on_the_cli_page(command: str) -> None:
    section = sections(page("cli.md"), 2).get(command)
    assert section is not None, f"manual/docs/cli.md has no section '## `{command}`'"
    missing = [a for a in arguments(COMMANDS[command]) if f"`{a}" not in section]
    assert missing == [], f"the section of {command} does not name these"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_is_in_the_readme_synopsis(command: str) -> None:
    assert f"{command} " in README.read_text(encoding="utf-8")


@pytest.mark.parametrize("plugin", sorted(PLUGINS))
def test_every_plugin_option_is_on_the_plugin_options_page(plugin: str) -> None:
    section = sections(page("plugins.md"), 2).get(plugin)
    assert section is not None, f"manual/docs/plugins.md has no section '## {plugin}'"
    options = [name for name, _option in PLUGINS[plugin]._schema]
    assert options, f"no options read from {PLUGINS[plugin].__name__}"
    missing = [name for name in options if f"| `{name}` |" not in section]
    assert missing == [], f"document each in the {plugin} table"


def test_each_command_alone_parses_and_helps_as_among_all_the_others() -> None:
    """``main`` builds only the parser of the command it was given: that command's help and
    options must be the ones ``rolecat --help`` lists."""
    everything = dict(commands())
    for name in _subcommands(build_parser()):
        alone = dict(commands(build_parser(name)))
        assert alone and set(alone) <= set(everything)
        for path, parser in alone.items():
            assert parser.format_help() == everything[path].format_help(), path
    assert set(_subcommands(build_parser("no-such-command"))) == set(_subcommands(build_parser()))


def test_a_usage_error_in_a_command_shows_every_command(tmp_path: Path) -> None:
    from build_tools.cli.main import EXIT_USAGE, main

    out, err = io.StringIO(), io.StringIO()
    assert main(["check", "--catalog", str(tmp_path), "--bogus"], out, err) == EXIT_USAGE
    usage, error = err.getvalue().splitlines()[-2:]
    assert all(name in usage for name in _subcommands(build_parser()))
    assert error == "rolecat: error: unrecognized arguments: --bogus"
