"""``rolecat``: check a catalog and keep its lock (``python -m build_tools`` is the same)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from build_tools.check import check_catalog, update_lock
from build_tools.diagnostics import Diagnostic
from build_tools.lock import Change

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors by exception, so ``main`` returns instead of exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(f"{self.prog}: error: {message}")


class _UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rolecat", description="Check and publish agent-roles catalogs.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    check = commands.add_parser(
        "check",
        help="check every rule of a catalog and its content-hash lock",
        description="Check a catalog: prints OK and exits 0, or one line per problem and exits 1.",
    )
    check.add_argument(
        "--catalog",
        type=Path,
        default=Path("catalog"),
        metavar="DIR",
        help="the catalog directory (default: catalog)",
    )
    check.add_argument(
        "--lock", type=Path, metavar="FILE", help="the lock file (default: DIR/content-hashes.json)"
    )
    check.add_argument(
        "--update-hashes",
        "--fix",
        action="store_true",
        dest="update_hashes",
        help="rewrite the lock from the catalog; refused while a changed role is not bumped",
    )
    return parser


def _report(diagnostics: Sequence[Diagnostic], out: TextIO) -> None:
    for diagnostic in diagnostics:
        print(diagnostic, file=out)


def _describe(change: Change) -> str:
    old, new = change.old, change.new
    if change.state == "added":
        return f"recorded {change.slug} at version {new.version if new else '?'}"
    if change.state == "removed":
        return f"pruned {change.slug} (no longer in the catalog)"
    before, after = (old.version if old else "?"), (new.version if new else "?")
    return f"updated {change.slug}: version {before} -> {after}"


def _check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    root: Path = args.catalog
    if not root.is_dir():
        print(f"rolecat: error: catalog directory not found: {root}", file=err)
        return EXIT_USAGE
    if args.update_hashes:
        update = update_lock(root, args.lock)
        if update.diagnostics:
            _report(update.diagnostics, out)
            print("rolecat: lock not written", file=err)
            return EXIT_PROBLEMS
        for change in update.changes:
            print(_describe(change), file=out)
        print("lock updated" if update.written else "lock is up to date", file=out)
        return EXIT_OK
    result = check_catalog(root, args.lock)
    if result.ok:
        print("OK", file=out)
        return EXIT_OK
    _report(result.diagnostics, out)
    count = len(result.diagnostics)
    print(f"rolecat: {count} problem{'s' if count != 1 else ''}", file=err)
    return EXIT_PROBLEMS


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except _UsageError as error:
        print(parser.format_usage().rstrip(), file=err)
        print(error, file=err)
        return EXIT_USAGE
    except SystemExit as exit_:  # --help and --version exit through argparse
        return int(exit_.code or 0)
    return _check(args, out, err)


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
