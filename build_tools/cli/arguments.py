"""What every command's parser shares: usage errors raised, not exited on; help printed as
written; examples and exit codes at the end."""

from __future__ import annotations

import argparse
from pathlib import Path

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2

_EXIT_CODES = """exit codes:
  0  {ok}
  1  {problems}
  2  usage error (bad arguments, no such catalog directory)"""


class Parser(argparse.ArgumentParser):
    """argparse that reports usage errors by exception, so ``main`` returns instead of exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: error: {message}")


class UsageError(Exception):
    pass


class HelpFormatter(argparse.HelpFormatter):
    """Wraps a one-paragraph description; prints an epilog's examples and exit codes as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def epilog(examples: str, ok: str, problems: str) -> str:
    return f"examples:\n{examples}\n\n" + _EXIT_CODES.format(ok=ok, problems=problems)


def command(
    commands: argparse._SubParsersAction[Parser],
    name: str,
    epilog: str,
    help: str,
    description: str,
) -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` ends with examples and exit codes, as written."""
    return commands.add_parser(
        name,
        help=help,
        description=description,
        epilog=epilog,
        formatter_class=HelpFormatter,
    )


def add_catalog(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--catalog",
        type=Path,
        default=Path("catalog"),
        metavar="DIR",
        help="the catalog directory (default: catalog)",
    )


def count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
