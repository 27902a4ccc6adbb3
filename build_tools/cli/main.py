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
from build_tools.sources.formats import Format
from build_tools.sources.json_reader import TIMEOUT_SECONDS
from build_tools.wire.raw_tree import FORMATS
from build_tools.wire.site_paths import Site, handwritten_names

if TYPE_CHECKING:
    from build_tools.wire.remote import Remote

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
MAX_TIMEOUT_SECONDS = 86_400
"""A day: longer is no timeout, and the clock arithmetic behind one overflows past it."""
EXIT_INTERNAL = 70  # EX_SOFTWARE
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it

_EXIT_CODES = """exit codes:
  0  {ok}
  1  {problems}
  2  usage error (bad arguments, no such catalog directory)"""


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors by exception, so ``main`` returns instead of exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(f"{self.prog}: error: {message}")


class _UsageError(Exception):
    pass


class _HelpFormatter(argparse.HelpFormatter):
    """Wraps a one-paragraph description; prints an epilog's examples and exit codes as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def _epilog(examples: str, ok: str, problems: str) -> str:
    return f"examples:\n{examples}\n\n" + _EXIT_CODES.format(ok=ok, problems=problems)


def _command(
    commands: argparse._SubParsersAction[_Parser],
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
        formatter_class=_HelpFormatter,
    )


def _version() -> str:
    from importlib import metadata  # a tenth of a second: imported when --version asks only

    try:
        return metadata.version("rolecat")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


class _VersionAction(argparse.Action):
    """argparse's ``version`` action, reading the installed version only when it is asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kwargs: object) -> None:
        print(f"{parser.prog} {_version()}")
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="rolecat",
        description="Check and publish agent-roles catalogs.",
        epilog="Run `rolecat COMMAND --help` for a command's options, examples and exit codes.",
        formatter_class=_HelpFormatter,
    )
    parser.add_argument(
        "--version", action=_VersionAction, help="show program's version number and exit"
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    check = _command(
        commands,
        "check",
        _epilog(
            "  rolecat check\n"
            "  rolecat check --catalog roles --fix\n"
            "  rolecat check --against https://catalog.example.org/roles-catalog/main "
            "--format github",
            "the catalog passes every rule (with --fix: the lock is written or up to date)",
            "problems found (with --fix: the lock was not written)",
        ),
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
    check.add_argument(
        "--model-tiers",
        action="store_true",
        help="the deployment resolves tier words in chatModel (pro, sonnet, best), as the "
        "plugin's model_tiers option says; without it each one warns, since gitmost asks its "
        "provider for a model of that literal name",
    )
    _add_site(check)
    _add_timeout(check)
    _add_format(check)
    _add_verify(commands)
    convert = _command(
        commands,
        "convert",
        _epilog(
            "  rolecat convert --to yaml\n  rolecat convert --to json --catalog roles",
            "converted, or already in that format",
            "refused: the catalog has problems (nothing was converted)",
        ),
        help="rewrite the catalog's sources as YAML or as JSON",
        description="Rewrite index and bundle files in the other format, losing nothing: "
        "`rolecat check` passes afterwards with the same lock. Refused while the catalog has "
        "errors.",
    )
    convert.add_argument("--to", choices=["yaml", "json"], required=True, help="the target format")
    _add_catalog(convert)
    _add_format(convert)
    _add_scaffolds(commands)
    return parser


def _add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=OUTPUT_FORMATS,
        dest="output_format",
        help="how to print problems: text, one line each (the default); json, one JSON "
        "document (schema: build_tools/schemas/report.schema.json); github, GitHub Actions "
        "workflow commands that annotate the files. With json and github, lines meant for people "
        f"go to stderr. Default: ${FORMAT_ENV}, else text. (The output's format, not a catalog's "
        "wire formats.)",
    )


_NEXT = "next: write every placeholder (`rolecat check` lists each one), then `rolecat check --fix`"


def _add_scaffolds(commands: argparse._SubParsersAction[_Parser]) -> None:
    scaffolded = "done: the catalog's files were edited"
    refused = "refused (unknown bundle, a slug or language taken, a file to edit unreadable)"
    new = _command(
        commands,
        "new",
        _epilog(
            "  rolecat new bundle writing --languages en,ru\n"
            "  rolecat new role technical-writer --bundle writing",
            scaffolded,
            refused,
        ),
        help="add a role or a bundle to the catalog, in every file it belongs in",
        description="Scaffold a role or a bundle: every file it belongs in is edited in its own "
        "format (YAML comments and JSON indentation kept), with placeholders for what a person "
        "must write; `rolecat check` reports each placeholder until it is replaced.",
    )
    kinds = new.add_subparsers(dest="kind", required=True, parser_class=_Parser)
    role = _command(
        kinds,
        "role",
        _epilog(
            "  rolecat new role code-reviewer --bundle engineering\n"
            "  # write the placeholders, then:\n  rolecat check --fix && rolecat check",
            scaffolded,
            refused,
        ),
        help="add a role: its index entry at version 1 and a skeleton in every language file",
        description="Add a role to a bundle: {slug, version: 1} in the bundle's roles in the "
        "index, and a skeleton of the role in each of the bundle's language files.",
    )
    role.add_argument("slug", metavar="SLUG", help="the new role's slug (unique in the catalog)")
    role.add_argument("--bundle", required=True, metavar="ID", help="the bundle to add it to")
    _add_catalog(role)
    bundle = _command(
        kinds,
        "bundle",
        _epilog(
            "  rolecat new bundle writing --languages en,ru\n"
            "  rolecat new role technical-writer --bundle writing",
            scaffolded,
            refused,
        ),
        help="add a bundle: its index entry and an empty file per language",
        description="Add a bundle to the index, with a name and description placeholder per "
        "language, and an empty bundle file for each language (in the format the catalog's "
        "bundle files use).",
    )
    bundle.add_argument("bundle_id", metavar="ID", help="the new bundle's id")
    bundle.add_argument(
        "--languages",
        required=True,
        metavar="LANG,LANG",
        type=_languages,
        help="its languages, comma-separated (e.g. en,ru)",
    )
    _add_catalog(bundle)
    language = _command(
        commands,
        "add-language",
        _epilog(
            "  rolecat add-language de --bundle engineering\n"
            "  # translate every stub, then:\n  rolecat check --fix && rolecat check",
            scaffolded,
            refused,
        ),
        help="add a language to a bundle: a translation stub of every role, versions bumped",
        description="Add a language to a bundle: the language, and a name and description stub, "
        "in the index; a new language file that copies every role of the bundle's first "
        "language as a marked translation stub; and every role's version bumped, since a new "
        "language changes each role's content.",
    )
    language.add_argument("language", metavar="LANG", help="the language code, e.g. de")
    language.add_argument("--bundle", required=True, metavar="ID", help="the bundle")
    _add_catalog(language)


def _languages(value: str) -> list[str]:
    languages = [part.strip() for part in value.split(",") if part.strip()]
    if not languages:
        raise argparse.ArgumentTypeError("give at least one language, e.g. en,ru")
    if len(set(languages)) != len(languages):
        raise argparse.ArgumentTypeError(f"a language is listed twice: {value}")
    return languages


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


def _add_formats(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--formats",
        type=_formats,
        default=FORMATS,
        metavar="LIST",
        help=f"{what}, comma-separated: json (the earlier server generation), yaml (the current "
        "one) or json,yaml (default: both, as the site publishes). The catalog's wire formats, "
        "not the output's (--format)",
    )


def _add_site(parser: argparse.ArgumentParser) -> None:
    """What `make site` publishes, so that `check` refuses all that the build would refuse."""
    _add_formats(
        parser, "the wire formats the site publishes, each file judged as the server reads it"
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
    verify = _command(
        commands,
        "verify",
        _epilog(
            "  rolecat verify https://catalog.example.org/roles-catalog/main\n"
            "  rolecat verify https://owner.github.io/repo/develop --catalog catalog "
            "--format json",
            "the server can read the catalog (with --catalog: and the deploy is current)",
            "a file cannot be read as the server does (with --catalog: or the deploy is stale)",
        ),
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
    _add_format(verify)


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
    if args.update_hashes:
        update = update_lock(root, args.lock, _site(args))
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
    result = check_catalog(root, args.lock, _site(args), model_tiers=args.model_tiers)
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


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _usage_checks(args: argparse.Namespace, err: TextIO) -> str | None:
    """The base URL as the server would use it, or ``None`` after reporting a usage error."""
    from build_tools.wire.remote import (
        BaseUrlError,
        normalize_base,
    )

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

    if args.update_hashes:
        print("rolecat: error: --against cannot be combined with --update-hashes", file=err)
        return EXIT_USAGE
    base = _usage_checks(args, err)
    if base is None:
        return EXIT_USAGE
    result = check_catalog(args.catalog, args.lock, _site(args), model_tiers=args.model_tiers)
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
    parser = _parser()
    try:
        with contextlib.redirect_stdout(out):  # --help and --version print to ``out``
            args = parser.parse_args(argv)
    except _UsageError as error:
        print(parser.format_usage().rstrip(), file=err)
        print(error, file=err)
        return EXIT_USAGE
    except SystemExit as exit_:  # --help and --version exit through argparse
        return int(exit_.code or 0)
    catalog: Path | None = getattr(args, "catalog", None)
    if catalog is not None and not catalog.is_dir() and args.command != "verify":
        print(f"rolecat: error: catalog directory not found: {catalog}", file=err)
        return EXIT_USAGE
    if args.command in ("new", "add-language"):
        return _scaffold(args, out, err)
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
