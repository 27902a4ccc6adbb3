"""``rolecat``: check a catalog, keep its lock, verify a published site (also ``python -m
build_tools``)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, cast

from build_tools.check import check_catalog, update_lock
from build_tools.diagnostics import Diagnostic, one_line
from build_tools.formats import Format
from build_tools.lock import Change
from build_tools.site_paths import Site, handwritten_names
from build_tools.sources import TIMEOUT_SECONDS
from build_tools.wire import FORMATS

if TYPE_CHECKING:
    from build_tools.remote import Remote

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
EXIT_INTERNAL = 70  # EX_SOFTWARE
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


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
    _add_catalog(check)
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
    check.add_argument(
        "--against",
        metavar="BASE_URL",
        help="also compare with the live catalog at BASE_URL: a changed role must have a higher "
        "version than live, and no version may go down",
    )
    _add_site(check)
    _add_timeout(check)
    _add_verify(commands)
    convert = commands.add_parser(
        "convert",
        help="rewrite the catalog's sources as YAML or as JSON",
        description="Rewrite index and bundle files in the other format, losing nothing: "
        "`rolecat check` passes afterwards with the same lock. Refused while the catalog has "
        "errors.",
    )
    convert.add_argument("--to", choices=["yaml", "json"], required=True, help="the target format")
    _add_catalog(convert)
    return parser


def _add_catalog(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--catalog",
        type=Path,
        default=Path("catalog"),
        metavar="DIR",
        help="the catalog directory (default: catalog)",
    )


def _formats(text: str) -> tuple[Format, ...]:
    """``json``, ``yaml`` or both, comma-separated, in the order given (the first is the one
    people are pointed at)."""
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    unknown = sorted(set(names) - set(FORMATS))
    if not names or unknown or len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(
            f"{', '.join(unknown) or repr(text)}: choose json, yaml or json,yaml, each once"
        )
    return tuple(cast(Format, name) for name in names)


def _add_site(parser: argparse.ArgumentParser) -> None:
    """What `make site` publishes, so that `check` refuses all that the build would refuse."""
    parser.add_argument(
        "--formats",
        type=_formats,
        default=FORMATS,
        metavar="LIST",
        help="the wire formats the site publishes, each file judged as the server reads it "
        "(default: json,yaml, as the plugin's formats option)",
    )
    parser.add_argument(
        "--docs",
        type=Path,
        default=Path("docs"),
        metavar="DIR",
        help="the site's hand-written pages, whose names ids may not take (default: docs)",
    )
    parser.add_argument(
        "--site",
        type=Path,
        default=Path("site"),
        metavar="DIR",
        help="where the site is built, for the length of its paths (default: site)",
    )


def _site(args: argparse.Namespace) -> Site:
    return Site(args.formats, handwritten_names(args.docs), args.site)


def _add_timeout(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout",
        type=float,
        default=TIMEOUT_SECONDS,
        metavar="SECONDS",
        help=f"give up on a request after this long in total (default: {TIMEOUT_SECONDS:g}, "
        "as the server)",
    )


def _add_verify(commands: argparse._SubParsersAction[_Parser]) -> None:
    verify = commands.add_parser(
        "verify",
        help="read a published catalog the way each server generation does",
        description="Fetch every file each server generation reads from BASE_URL (the earlier "
        "one index.json and bundles/<id>/<lang>.json, parsed with JSON.parse; the current one "
        "the same paths in .yaml, parsed as strict YAML 1.2) with the server's rules (no "
        "redirects, 2xx only, 1,000,000 bytes, one timeout per request, its type guards), then "
        "run every rule of `check`. Prints what each generation read and exits 0, or each "
        "failure with its URL and exits 1.",
    )
    verify.add_argument(
        "base_url", metavar="BASE_URL", help="what AI_AGENT_ROLES_CATALOG_URL holds"
    )
    verify.add_argument(
        "--catalog",
        type=Path,
        metavar="DIR",
        help="also report whether every published file is byte-identical to what a build of DIR "
        "publishes (exit 1 when the deploy is not current)",
    )
    _add_formats(verify, "the generations to read")
    _add_timeout(verify)


def _add_formats(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--formats",
        type=_formats,
        default=FORMATS,
        metavar="LIST",
        help=f"{what}, comma-separated: json (the earlier server generation), yaml (the current "
        "one) or json,yaml (default: both, as the site publishes)",
    )


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
    if args.against is not None:
        return _check_against(args, out, err)
    if args.update_hashes:
        update = update_lock(root, args.lock, _site(args))
        for line in update.pruned:
            print(line, file=out)
        if update.diagnostics:
            _report(update.diagnostics, out)
            print("rolecat: lock not written", file=err)
            return EXIT_PROBLEMS
        for change in update.changes:
            print(_describe(change), file=out)
        print("lock updated" if update.written else "lock is up to date", file=out)
        return EXIT_OK
    result = check_catalog(root, args.lock, _site(args))
    if result.ok:
        print("OK", file=out)
        return EXIT_OK
    _report(result.diagnostics, out)
    count = len(result.diagnostics)
    print(f"rolecat: {count} problem{'s' if count != 1 else ''}", file=err)
    return EXIT_PROBLEMS


def _usage_checks(args: argparse.Namespace, err: TextIO) -> str | None:
    """The base URL as the server would use it, or ``None`` after reporting a usage error."""
    from build_tools.remote import (
        BaseUrlError,
        normalize_base,
    )

    if not args.timeout > 0:
        print("rolecat: error: --timeout must be a positive number of seconds", file=err)
        return None
    try:
        return normalize_base(args.base_url if args.command == "verify" else args.against)
    except BaseUrlError as error:
        print(f"rolecat: error: {error}", file=err)
        return None


def _verify(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from build_tools.remote import read_remote

    base = _usage_checks(args, err)
    if base is None:
        return EXIT_USAGE
    local: Path | None = args.catalog
    if local is not None and not local.is_dir():
        print(f"rolecat: error: catalog directory not found: {local}", file=err)
        return EXIT_USAGE
    remotes = [read_remote(base, args.timeout, format) for format in args.formats]
    for remote in remotes:
        for problem in remote.problems:
            print(problem, file=out)
    for remote in remotes:
        print(_verdict(base, remote), file=out)
    current = local is None or _freshness(remotes, local, out)
    problems = sum(len(remote.problems) for remote in remotes)
    if problems:
        print(
            f"rolecat: {problems} problem{'s' if problems != 1 else ''} reading {base} as the "
            "server does",
            file=err,
        )
    return EXIT_OK if not problems and current else EXIT_PROBLEMS


def _verdict(base: str, remote: Remote) -> str:
    """One line per generation: what it read, or how many problems it found."""
    from build_tools.remote import summarize

    read = summarize(remote)
    if remote.ok:
        return f"OK {base}: {remote.generation}: {read}"
    count = len(remote.problems)
    return (
        f"FAILED {base}: {remote.generation}: {count} problem{'s' if count != 1 else ''}; "
        f"{read.files:,} {read.extension} file{'s' if read.files != 1 else ''} read, "
        f"{read.bytes:,} bytes"
    )


def _freshness(remotes: Sequence[Remote], local: Path, out: TextIO) -> bool:
    """Print, file by file, whether the deploy is what a build of ``local`` publishes."""
    from build_tools.remote import NotBuildable, compare_files

    try:
        files = compare_files(remotes, local)
    except NotBuildable as error:
        print(
            f"cannot tell whether the deploy is current: {local} has {error} that a build "
            f"refuses (see `rolecat check --catalog {local}`)",
            file=out,
        )
        return False
    for file in files:
        print(f"{file.url}: {_FRESHNESS[file.state].format(local)}", file=out)
    stale = sum(file.stale for file in files)
    unread = sum(file.state == "unread" for file in files)
    if stale:
        print(
            f"deploy is NOT current: {stale} file{'s' if stale != 1 else ''} not "
            f"byte-identical to what a build of {local} publishes; publish the site again",
            file=out,
        )
    elif unread:
        print(
            f"cannot tell whether the deploy is current: {unread} file"
            f"{'s' if unread != 1 else ''} could not be read",
            file=out,
        )
    else:
        print(
            "deploy is current: every published file is byte-identical to what a build of "
            f"{local} publishes",
            file=out,
        )
    return not stale and not unread


_FRESHNESS = {
    "current": "current (byte-identical to what a build of {} publishes)",
    "differs": "DIFFERS from what a build of {} publishes: the deploy is stale",
    "not published": "NOT PUBLISHED, but a build of {} publishes it: the deploy is stale",
    "not local": "published, but a build of {} does not publish it: the deploy is stale",
    "unread": "not read (see above), so not compared with what a build of {} publishes",
}


def _check_against(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``check`` plus the live comparison; the lock cannot be rewritten in the same run."""
    from build_tools.remote import compare_roles, read_live

    if args.update_hashes:
        print("rolecat: error: --against cannot be combined with --update-hashes", file=err)
        return EXIT_USAGE
    base = _usage_checks(args, err)
    if base is None:
        return EXIT_USAGE
    result = check_catalog(args.catalog, args.lock, _site(args))
    remote = read_live(base, args.timeout)
    diagnostics = list(result.diagnostics)
    if result.catalog is not None:
        diagnostics += compare_roles(result.catalog, remote)
    _report(sorted(set(diagnostics)), out)
    for problem in remote.problems:
        print(f"live catalog: {problem}", file=out)
    if not diagnostics and not remote.problems:
        print("OK", file=out)
        print(f"no role is behind the live catalog at {base}{_which(remote)}", file=out)
        return EXIT_OK
    if remote.problems:
        print(
            f"rolecat: cannot fully compare with {base}: it cannot be read as the server does",
            file=err,
        )
    count = len(set(diagnostics)) + len(remote.problems)
    print(f"rolecat: {count} problem{'s' if count != 1 else ''}", file=err)
    return EXIT_PROBLEMS


def _which(live: Remote) -> str:
    if live.format == "json":
        return ""
    return f" (read from its {live.generation}: it publishes no index.json)"


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
    if args.command == "verify":
        return _verify(args, out, err)
    if args.command == "convert":
        return _convert(args, out, err)
    return _check(args, out, err)


def _convert(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from build_tools.convert import convert_catalog

    root: Path = args.catalog
    if not root.is_dir():
        print(f"rolecat: error: catalog directory not found: {root}", file=err)
        return EXIT_USAGE
    conversion = convert_catalog(root, args.to)
    if conversion.diagnostics:
        _report(conversion.diagnostics, out)
        print("rolecat: nothing converted: fix these first", file=err)
        return EXIT_PROBLEMS
    for source, target in conversion.renamed:
        print(f"{source} -> {target}", file=out)
    if not conversion.renamed:
        print(f"already {args.to}: nothing to convert", file=out)
    return EXIT_OK


def run() -> None:
    """Console-script entry point.

    Exits without tearing down the interpreter: freeing a large catalog object by object takes
    longer than the check itself (mypy exits the same way for the same reason). A reader that
    stops early (``rolecat verify … | head -1``) ends it quietly, and an error of rolecat's own is
    one line, never a traceback.
    """
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        code = EXIT_PROBLEMS
    except KeyboardInterrupt:
        code = EXIT_INTERRUPTED
    except Exception as error:  # a bug: say so in one line, as for every other problem
        print(
            one_line(f"rolecat: internal error: {type(error).__name__}: {error}"), file=sys.stderr
        )
        code = EXIT_INTERNAL
    with contextlib.suppress(OSError):
        sys.stderr.flush()
    os._exit(code)
