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

from build_tools.check import check_catalog, lock_place, update_lock
from build_tools.cli.report import (
    FORMAT_ENV,
    OUTPUT_FORMATS,
    OutputFormat,
    Reporter,
    repository_paths,
)
from build_tools.diagnostics import Diagnostic, one_line
from build_tools.lock import Change
from build_tools.model.catalog import relative

if TYPE_CHECKING:
    from build_tools.wire.remote import Remote
from build_tools.cli.arguments import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError
from build_tools.cli.arguments import count as _count
from build_tools.cli.parser import build_parser, site_of

MAX_TIMEOUT_SECONDS = 86_400
"""A day: longer is no timeout, and the clock arithmetic behind one overflows past it."""
EXIT_INTERNAL = 70  # EX_SOFTWARE
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


_NEXT = "next: write every placeholder (`rolecat check` lists each one), then `rolecat check --fix`"


def _describe(change: Change) -> str:
    old, new = change.old, change.new
    if change.state == "added":
        return f"recorded {change.slug} at version {new.version if new else '?'}"
    if change.state == "removed":
        return f"pruned {change.slug} (no longer in the catalog)"
    before, after = (old.version if old else "?"), (new.version if new else "?")
    return f"updated {change.slug}: version {before} -> {after}"


def _check(args: argparse.Namespace, report: Reporter, err: TextIO) -> int:
    root: Path = args.catalog
    if args.against is not None:
        return _check_against(args, report, err)
    place = lock_place(root, args.lock)
    if place is not None:
        report.note(place)
    if args.fix:
        update = update_lock(root, args.lock, site_of(args))
        for line in update.pruned:
            report.note(line)
        for diagnostic in update.diagnostics:
            report.problem(diagnostic)
        report.finish(not update.diagnostics)
        if update.diagnostics:
            print("rolecat: lock not written", file=err)
            return EXIT_PROBLEMS
        for change in update.changes:
            report.note(_describe(change))
        report.note("lock updated" if update.written else "lock is up to date")
        return EXIT_OK
    result = check_catalog(
        root, args.lock, site_of(args), model_tiers=args.model_tiers, parallel=True
    )
    for line in result.recovered:
        report.note(line)
    for diagnostic in [*result.warnings, *result.diagnostics]:
        report.problem(diagnostic)
    report.finish(result.ok)
    if result.ok:
        report.note("OK")
        return EXIT_OK
    print(f"rolecat: {_count(len(result.diagnostics), 'problem')}", file=err)
    return EXIT_PROBLEMS


def _usage_checks(args: argparse.Namespace, err: TextIO) -> str | None:
    """The base URL as the server would use it, or ``None`` after reporting a usage error."""
    from build_tools.wire.fetch import BaseUrlError, normalize_base

    if not 0 < args.timeout <= MAX_TIMEOUT_SECONDS:  # nan, inf and 1e309 included
        print(
            f"rolecat: error: --timeout must be a number of seconds above 0 and at most "
            f"{MAX_TIMEOUT_SECONDS:,} (got {args.timeout:g})",
            file=err,
        )
        return None
    try:
        return normalize_base(args.base_url if args.command == "verify" else args.against)
    except BaseUrlError as error:
        print(f"rolecat: error: {error}", file=err)
        return None


def _verify(args: argparse.Namespace, report: Reporter, err: TextIO) -> int:
    from build_tools.wire.remote import compare_generations, read_remote

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
            report.problem(problem.diagnostic())
    differences = compare_generations(remotes)
    for problem in differences:
        report.problem(problem.diagnostic())
    for remote in remotes:
        report.note(_verdict(base, remote))
    current = local is None or _freshness(remotes, local, report)
    problems = sum(len(remote.problems) for remote in remotes) + len(differences)
    report.finish(not problems and current)
    if problems:
        print(f"rolecat: {_count(problems, 'problem')} reading {base} as the server does", file=err)
    return EXIT_OK if not problems and current else EXIT_PROBLEMS


def _verdict(base: str, remote: Remote) -> str:
    """One line per generation: what it read, or how many problems it found."""
    from build_tools.wire.remote import summarize

    read = summarize(remote)
    if remote.ok:
        return f"OK {base}: {remote.generation}: {read}"
    return (
        f"FAILED {base}: {remote.generation}: {_count(len(remote.problems), 'problem')}; "
        f"{_count(read.files, read.extension + ' file')} read, {read.bytes:,} bytes"
    )


def _freshness(remotes: Sequence[Remote], local: Path, report: Reporter) -> bool:
    """Report, file by file, whether the deploy is what a build of ``local`` publishes."""
    from build_tools.wire.remote import NotBuildable, compare_files

    try:
        files = compare_files(remotes, local)
    except NotBuildable as error:
        report.problem(
            Diagnostic(
                str(local),
                0,
                0,
                f"cannot tell whether the deploy is current: it has {error} that a build refuses "
                f"(see `rolecat check --catalog {local}`)",
                "deploy-unknown",
            )
        )
        return False
    for file in files:
        line = f"{file.url}: {_FRESHNESS[file.state].format(local)}"
        if file.stale:
            report.problem(Diagnostic(file.url, 0, 0, line.split(": ", 1)[1], "deploy-stale"))
        else:
            report.note(line)
    stale = sum(file.stale for file in files)
    unread = sum(file.state == "unread" for file in files)
    if stale:
        report.note(
            f"deploy is NOT current: {_count(stale, 'file')} not byte-identical to what a build "
            f"of {local} publishes; publish the site again"
        )
    elif unread:
        report.note(
            f"cannot tell whether the deploy is current: {_count(unread, 'file')} could not be read"
        )
    else:
        report.note(
            "deploy is current: every published file is byte-identical to what a build of "
            f"{local} publishes"
        )
    return not stale and not unread


_FRESHNESS = {
    "current": "current (byte-identical to what a build of {} publishes)",
    "differs": "DIFFERS from what a build of {} publishes: the deploy is stale",
    "not published": "NOT PUBLISHED, but a build of {} publishes it: the deploy is stale",
    "not local": "published, but a build of {} does not publish it: the deploy is stale",
    "unread": "not read (see above), so not compared with what a build of {} publishes",
}


def _check_against(args: argparse.Namespace, report: Reporter, err: TextIO) -> int:
    """``check`` plus the live comparison; the lock cannot be rewritten in the same run."""
    from build_tools.wire.remote import compare_roles, read_live

    if args.fix:
        print("rolecat: error: --against cannot be combined with --fix", file=err)
        return EXIT_USAGE
    base = _usage_checks(args, err)
    if base is None:
        return EXIT_USAGE
    result = check_catalog(args.catalog, args.lock, site_of(args), model_tiers=args.model_tiers)
    remote = read_live(base, args.timeout)
    for warning in result.warnings:
        report.problem(warning)
    diagnostics = list(result.diagnostics)
    if result.catalog is not None:
        diagnostics += compare_roles(result.catalog, remote)
    diagnostics = sorted(set(diagnostics))
    for diagnostic in diagnostics:
        report.problem(diagnostic)
    for problem in remote.problems:
        report.problem(problem.diagnostic(), "live catalog: ")
    ok = not diagnostics and not remote.problems
    report.finish(ok)
    if ok:
        report.note("OK")
        report.note(f"no role is behind the live catalog at {base}{_which(remote)}")
        return EXIT_OK
    if remote.problems:
        print(
            f"rolecat: cannot fully compare with {base}: it cannot be read as the server does",
            file=err,
        )
    print(f"rolecat: {_count(len(diagnostics) + len(remote.problems), 'problem')}", file=err)
    return EXIT_PROBLEMS


def _which(live: Remote) -> str:
    if live.format == "json":
        return ""
    return f" (read from its {live.generation}: it publishes no index.json)"


def _output_format(args: argparse.Namespace, err: TextIO) -> OutputFormat | None:
    """``--format``, else ``$ROLECAT_FORMAT``, else text; ``None`` after a usage error."""
    chosen = args.output_format or os.environ.get(FORMAT_ENV, "").strip() or "text"
    if chosen not in OUTPUT_FORMATS:
        print(
            f"rolecat: error: {FORMAT_ENV}={chosen!r} is not one of {', '.join(OUTPUT_FORMATS)}",
            file=err,
        )
        return None
    return cast(OutputFormat, chosen)


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(arguments[0] if arguments else None)
    try:
        with contextlib.redirect_stdout(out):  # --help and --version print to ``out``
            args = parser.parse_args(arguments)
    except UsageError as error:
        print(build_parser().format_usage().rstrip(), file=err)  # every command, as ever
        print(error, file=err)
        return EXIT_USAGE
    except SystemExit as exit_:  # --help and --version exit through argparse
        return int(exit_.code or 0)
    catalog: Path | None = getattr(args, "catalog", None)
    if catalog is not None and not catalog.is_dir() and args.command not in ("verify", "init"):
        print(f"rolecat: error: catalog directory not found: {catalog}", file=err)
        return EXIT_USAGE
    if args.command in ("new", "add-language"):
        return _scaffold(args, out, err)
    if args.command == "init":
        return _init(args, out, err)
    if args.command == "export":
        from build_tools.cli.export import export

        return export(args, out, err)
    if args.command == "mcp":
        from build_tools.cli.mcp import mcp

        return mcp(args, out, err)
    format = _output_format(args, err)
    if format is None:
        return EXIT_USAGE
    lock: Path | None = getattr(args, "lock", None)
    where = catalog or Path.cwd()
    locate = repository_paths(where, {relative(where, lock): lock} if lock else {})
    report = Reporter(format, out, err, locate)
    if args.command == "verify":
        return _verify(args, report, err)
    if args.command == "convert":
        return _convert(args, report, err)
    return _check(args, report, err)


def _convert(args: argparse.Namespace, report: Reporter, err: TextIO) -> int:
    from build_tools.cli.convert import convert_catalog

    conversion = convert_catalog(args.catalog, args.to)
    for diagnostic in conversion.diagnostics:
        report.problem(diagnostic)
    report.finish(not conversion.diagnostics)
    if conversion.diagnostics:
        written = any(d.rule == "write-failed" for d in conversion.diagnostics)
        print(f"rolecat: nothing converted{'' if written else ': fix these first'}", file=err)
        return EXIT_PROBLEMS
    for source, target in conversion.renamed:
        report.note(f"{source} -> {target}")
    if not conversion.renamed:
        report.note(f"already {args.to}: nothing to convert")
    return EXIT_OK


def _scaffold(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from build_tools.cli.scaffold import ScaffoldError, add_language, new_bundle, new_role

    try:
        if args.command == "add-language":
            done = add_language(args.catalog, args.language, args.bundle)
        elif args.kind == "role":
            done = new_role(args.catalog, args.slug, args.bundle)
        else:
            done = new_bundle(args.catalog, args.bundle_id, args.languages)
    except ScaffoldError as error:
        for diagnostic in error.diagnostics:
            print(diagnostic, file=out)
        print(one_line(f"rolecat: {error.message}; nothing was changed"), file=err)
        return EXIT_PROBLEMS
    except OSError as error:  # reading what it edits; its writes are all or none (atomic.py)
        reason = error.strerror or str(error)
        print(one_line(f"rolecat: {error.filename}: {reason}; nothing was changed"), file=err)
        return EXIT_PROBLEMS
    for line in done:
        print(line, file=out)
    if args.command == "new" and args.kind == "bundle":
        print(
            f"next: write the placeholders, then add roles with `rolecat new role SLUG --bundle "
            f"{args.bundle_id}`",
            file=out,
        )
    else:
        print(_NEXT, file=out)
    return EXIT_OK


def _init(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from build_tools.cli.init import InitError, init, next_steps

    try:
        setup = init(Path.cwd(), args.catalog)
    except InitError as error:
        print(one_line(f"rolecat: {error}"), file=err)
        return EXIT_PROBLEMS
    except OSError as error:
        reason = error.strerror or str(error)
        print(one_line(f"rolecat: {error.filename}: {reason}; nothing was written"), file=err)
        return EXIT_PROBLEMS
    if setup.starter:
        print(
            f"{setup.catalog}: a starter catalog, one bundle and one role, with its lock", file=out
        )
    for name in setup.written:
        print(f"{name}: created", file=out)
    print("next:", file=out)
    for line in next_steps(setup):
        print(line, file=out)
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
