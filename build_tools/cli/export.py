"""``rolecat export``: its arguments, and the command that writes (or, with ``--check``,
compares) a checked catalog's roles where a tool looks for them."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from build_tools.check import check_catalog
from build_tools.cli.arguments import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    Parser,
    add_catalog,
    command,
    count,
    epilog,
)
from build_tools.diagnostics import one_line
from build_tools.wire.site_paths import TOOLS


def add_export(commands: argparse._SubParsersAction[Parser]) -> None:
    export = command(
        commands,
        "export",
        epilog(
            "  rolecat export --to claude-code .          # .claude/agents/<slug>.md\n"
            "  rolecat export --to copilot --language ru --bundle writing ~/work/app\n"
            "  rolecat export --to cursor --force ../app  # replace hand-edited rules too",
            "the files were written, or were up to date",
            "refused: the catalog fails `rolecat check`, no such language or bundle, a file was "
            "changed by hand or cannot be written (nothing was written)",
        ),
        help="write the catalog's roles where a tool looks for them: Claude Code subagents, "
        "GitHub Copilot custom agents or Cursor rules",
        description="Write each role of the catalog, in one language, as the file the tool "
        "reads, under DIR: DIR/.claude/agents/<slug>.md (claude-code), "
        "DIR/.github/agents/<slug>.agent.md (copilot) or DIR/.cursor/rules/<slug>.mdc (cursor). "
        "A tool's directory holds one file per agent name, so a run writes one language: the "
        "catalog's first, or --language. What was written is recorded in "
        "DIR/.rolecat-export.json: a file there that rolecat export did not write, or that was "
        "changed since it did, is overwritten only with --force; without it the export is "
        "refused and nothing is written. So is a catalog that fails `rolecat check`.",
    )
    export.add_argument(
        "--to",
        choices=TOOLS,
        required=True,
        help="the tool whose files to write",
    )
    export.add_argument(
        "--language",
        metavar="LANG",
        help="the language to export (default: the catalog's first language)",
    )
    export.add_argument(
        "--bundle", metavar="ID", help="export only this bundle's roles (default: every bundle)"
    )
    add_catalog(export)
    export.add_argument(
        "--force",
        action="store_true",
        help="overwrite files that were changed by hand or not written by rolecat export",
    )
    export.add_argument(
        "directory",
        metavar="DIR",
        type=Path,
        help="the project to write into (it must exist); the tool's directory is made in it",
    )


def export(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from build_tools.atomic import WriteError, recover
    from build_tools.exports.freshness import read_notes
    from build_tools.exports.writer import MANIFEST, ExportError, plan, select, write
    from build_tools.scope import export_scope

    target: Path = args.directory
    if not target.is_dir():
        print(f"rolecat: error: not a directory: {target}", file=err)
        return EXIT_USAGE
    try:  # a killed export's own change, finished or undone before anything is judged
        for line in recover(export_scope(target)):
            print(line, file=out)
    except WriteError as error:
        print(one_line(f"rolecat: {error.message}"), file=err)
        return EXIT_PROBLEMS
    result = check_catalog(args.catalog)
    for line in result.recovered:
        print(line, file=out)
    if not result.ok or result.catalog is None:
        for diagnostic in result.diagnostics:
            print(diagnostic, file=out)
        print(
            f"rolecat: {count(len(result.diagnostics), 'problem')} (see `rolecat check`); "
            "nothing was exported",
            file=err,
        )
        return EXIT_PROBLEMS
    try:
        notes = read_notes(args.catalog, result.catalog)
        chosen = select(result.catalog, args.to, args.language, args.bundle, notes)
    except ExportError as error:
        print(one_line(f"rolecat: {error}; nothing was written"), file=err)
        return EXIT_PROBLEMS
    decided = plan(target, chosen.exports, force=args.force)
    for line in [*chosen.skipped, *decided.notes]:
        print(line, file=out)
    if decided.refused:
        for planned in decided.refused:
            print(one_line(f"{planned.path}: {planned.reason}"), file=out)
        print(
            f"rolecat: {count(len(decided.refused), 'file')} refused; nothing was written "
            "(--force overwrites files changed by hand)",
            file=err,
        )
        return EXIT_PROBLEMS
    try:
        write(decided)
    except WriteError as error:
        print(one_line(f"rolecat: {error.message}; nothing was written"), file=err)
        return EXIT_PROBLEMS
    for planned in decided.files:
        print(f"{planned.path}: {planned.state}", file=out)
    print(
        f"{count(len(chosen.exports), 'role')} in {chosen.language} exported for {args.to} "
        f"into {target} (recorded in {MANIFEST})",
        file=out,
    )
    return EXIT_OK
