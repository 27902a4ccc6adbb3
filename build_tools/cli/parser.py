"""``rolecat``'s arguments: every command's options, examples and exit codes, as ``--help``
prints them."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import cast

from build_tools import __version__
from build_tools.cli.arguments import (
    HelpFormatter,
    Parser,
    add_catalog,
    command,
    epilog,
)
from build_tools.cli.export import add_export
from build_tools.cli.mcp import add_mcp
from build_tools.cli.report import (
    FORMAT_ENV,
    OUTPUT_FORMATS,
)
from build_tools.sources.formats import Format
from build_tools.sources.json_reader import TIMEOUT_SECONDS
from build_tools.wire.raw_tree import FORMATS
from build_tools.wire.site_paths import Site, handwritten_names


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Every command's parser; only ``command``'s where it names one (``main`` passes the first
    argument): building all of them is some 4 ms of a small check, argparse looking up its
    translations on disk for each option."""
    parser = Parser(
        prog="rolecat",
        description="Check and publish agent-roles catalogs.",
        epilog="Run `rolecat COMMAND --help` for a command's options, examples and exit codes.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name, add in _COMMANDS.items():
        if command not in _COMMANDS or command == name:
            add(commands)
    return parser


def _add_check(commands: argparse._SubParsersAction[Parser]) -> None:
    check = command(
        commands,
        "check",
        epilog(
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
    add_catalog(check)
    check.add_argument(
        "--lock",
        type=Path,
        metavar="FILE",
        help="the lock file (default: DIR/content-hashes.json, or DIR/scripts/content-hashes.json "
        "where only the upstream checker's exists)",
    )
    check.add_argument(
        "--fix",
        "--update-hashes",  # the upstream checker's name
        action="store_true",
        dest="fix",
        help="rewrite the lock from the catalog (--update-hashes: the upstream checker's name "
        "for it); refused while a changed role is not bumped",
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


def _add_convert(commands: argparse._SubParsersAction[Parser]) -> None:
    convert = command(
        commands,
        "convert",
        epilog(
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
    add_catalog(convert)
    _add_format(convert)


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


_SCAFFOLDED = "done: the catalog's files were edited"
_REFUSED = "refused (unknown bundle, a slug or language taken, a file to edit unreadable)"


def _add_new(commands: argparse._SubParsersAction[Parser]) -> None:
    new = command(
        commands,
        "new",
        epilog(
            "  rolecat new bundle writing --languages en,ru\n"
            "  rolecat new role technical-writer --bundle writing",
            _SCAFFOLDED,
            _REFUSED,
        ),
        help="add a role or a bundle to the catalog, in every file it belongs in",
        description="Scaffold a role or a bundle: every file it belongs in is edited in its own "
        "format (YAML comments and JSON indentation kept), with placeholders for what a person "
        "must write; `rolecat check` reports each placeholder until it is replaced.",
    )
    kinds = new.add_subparsers(dest="kind", required=True, parser_class=Parser)
    role = command(
        kinds,
        "role",
        epilog(
            "  rolecat new role code-reviewer --bundle engineering\n"
            "  # write the placeholders, then:\n  rolecat check --fix && rolecat check",
            _SCAFFOLDED,
            _REFUSED,
        ),
        help="add a role: its index entry at version 1 and a skeleton in every language file",
        description="Add a role to a bundle: {slug, version: 1} in the bundle's roles in the "
        "index, and a skeleton of the role in each of the bundle's language files.",
    )
    role.add_argument("slug", metavar="SLUG", help="the new role's slug (unique in the catalog)")
    role.add_argument("--bundle", required=True, metavar="ID", help="the bundle to add it to")
    add_catalog(role)
    bundle = command(
        kinds,
        "bundle",
        epilog(
            "  rolecat new bundle writing --languages en,ru\n"
            "  rolecat new role technical-writer --bundle writing",
            _SCAFFOLDED,
            _REFUSED,
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
    add_catalog(bundle)


def _add_language(commands: argparse._SubParsersAction[Parser]) -> None:
    language = command(
        commands,
        "add-language",
        epilog(
            "  rolecat add-language de --bundle engineering\n"
            "  # translate every stub, then:\n  rolecat check --fix && rolecat check",
            _SCAFFOLDED,
            _REFUSED,
        ),
        help="add a language to a bundle: a translation stub of every role, versions bumped",
        description="Add a language to a bundle: the language, and a name and description stub, "
        "in the index; a new language file that copies every role of the bundle's first "
        "language as a marked translation stub; and every role's version bumped, since a new "
        "language changes each role's content.",
    )
    language.add_argument("language", metavar="LANG", help="the language code, e.g. de")
    language.add_argument("--bundle", required=True, metavar="ID", help="the bundle")
    add_catalog(language)


def _add_init(commands: argparse._SubParsersAction[Parser]) -> None:
    init = command(
        commands,
        "init",
        epilog(
            "  rolecat init                     # the one catalog this repository holds\n"
            "  rolecat init --catalog catalog   # a new team: a starter catalog in catalog/",
            "the files were written (the next steps follow)",
            "refused: a file it would write exists, or no single catalog was found "
            "(nothing was written)",
        ),
        help="set up this repository to check and publish its catalog: mkdocs.yml, the Pages "
        "workflow, the pre-commit config, docs/about.md",
        description="Run at a repository's root. Finds the catalog (--catalog, or the one "
        "directory holding an index.json or index.yaml), writes mkdocs.yml, "
        ".github/workflows/pages.yml, .pre-commit-config.yaml and docs/about.md for it, and "
        "prints the next steps. It overwrites no file: if any of them exists, nothing is "
        "written. A catalog directory that does not exist yet, or is empty, gets a starter "
        "catalog of one role and its lock.",
    )
    init.add_argument(
        "--catalog",
        type=Path,
        metavar="DIR",
        help="the catalog directory (default: the one this repository holds)",
    )


def _languages(value: str) -> list[str]:
    languages = [part.strip() for part in value.split(",") if part.strip()]
    if not languages:
        raise argparse.ArgumentTypeError("give at least one language, e.g. en,ru")
    if len(set(languages)) != len(languages):
        raise argparse.ArgumentTypeError(f"a language is listed twice: {value}")
    return languages


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


def site_of(args: argparse.Namespace) -> Site:
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


def _add_verify(commands: argparse._SubParsersAction[Parser]) -> None:
    verify = command(
        commands,
        "verify",
        epilog(
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


_COMMANDS = {
    "check": _add_check,
    "verify": _add_verify,
    "convert": _add_convert,
    "new": _add_new,
    "add-language": _add_language,
    "init": _add_init,
    "export": add_export,
    "mcp": add_mcp,
}
"""Each command's parser, in the order ``--help`` lists them."""
