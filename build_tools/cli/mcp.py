"""``rolecat mcp``: its arguments, and the command that serves a checked catalog's roles to an MCP
client as prompts, over stdin and stdout."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from build_tools.cli.arguments import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    Parser,
    command,
    count,
    epilog,
)

DEFAULT_CATALOG = Path("catalog")
SDK_MISSING = (
    "rolecat: error: `rolecat mcp` needs the MCP SDK, which is not installed: "
    "pip install 'rolecat[mcp]'"
)


def add_mcp(commands: argparse._SubParsersAction[Parser]) -> None:
    mcp = command(
        commands,
        "mcp",
        epilog(
            "  rolecat mcp --catalog catalog\n"
            "  rolecat mcp --url https://catalog.example.org/roles-catalog/main --language ru\n"
            '  claude mcp add rolecat -- rolecat mcp --catalog "$PWD/catalog"',
            "the client ended the session",
            "refused: the catalog fails `rolecat check`, the site cannot be read as the server "
            "does, no such language, or the MCP SDK is not installed (nothing was served)",
        ),
        help="serve the catalog's roles to an MCP client over stdio, one prompt per role",
        description="Serve one language of a catalog to an MCP client (Claude Code, VS Code, "
        "...) over stdin and stdout: one prompt per role, named by its slug and titled by its "
        "name, whose one message is the role's instructions, unchanged. With --catalog the "
        "catalog must pass `rolecat check`, else nothing is served; it is checked again "
        "whenever its files change, and a catalog that passes is served at once (the client is "
        "told), while one that fails leaves the last one that passed in service and its "
        "problems on stderr. With --url the published site is read once, as the server reads "
        "it. stdout carries the protocol alone. Needs the MCP SDK: pip install 'rolecat[mcp]'.",
    )
    where = mcp.add_mutually_exclusive_group()
    where.add_argument(
        "--catalog",
        type=Path,
        metavar="DIR",
        help=f"the catalog directory (default: {DEFAULT_CATALOG})",
    )
    where.add_argument(
        "--url",
        metavar="BASE_URL",
        help="serve the catalog published at BASE_URL (what AI_AGENT_ROLES_CATALOG_URL holds) "
        "instead, read as the server reads it",
    )
    mcp.add_argument(
        "--language",
        metavar="LANG",
        help="the language to serve (default: en where the catalog has it, else its first)",
    )
    mcp.add_argument(
        "--model-tiers",
        action="store_true",
        help="with --catalog: the deployment resolves tier words in chatModel, as for `rolecat "
        "check --model-tiers`; without it each one warns on stderr (warnings refuse nothing)",
    )


def mcp(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Check or read the catalog, refuse it in lines on ``err``, or serve it until the client
    ends the session. ``out`` is unused: the protocol owns the process's stdout."""
    import importlib.util

    from build_tools.mcp.catalogs import (
        LocalPrompts,
        PromptSource,
        SitePrompts,
        check_local,
        fingerprint,
        read_site,
    )

    if importlib.util.find_spec("mcp") is None:
        print(SDK_MISSING, file=err)
        return EXIT_PROBLEMS
    root: Path = args.catalog or DEFAULT_CATALOG
    if args.url is not None:
        from build_tools.wire.fetch import BaseUrlError, normalize_base

        try:
            where = normalize_base(args.url)
        except BaseUrlError as error:
            print(f"rolecat: error: {error}", file=err)
            return EXIT_USAGE
        attempt = read_site(where, args.language)
    elif not root.is_dir():
        print(f"rolecat: error: catalog directory not found: {root}", file=err)
        return EXIT_USAGE
    else:
        where, seen = str(root), fingerprint(root)  # before the check: an edit during it counts
        attempt = check_local(root, args.language, model_tiers=args.model_tiers)
    for line in attempt.warnings:
        print(line, file=err)
    if attempt.served is None:
        for line in attempt.problems:
            print(line, file=err)
        print(f"rolecat: {attempt.summary}; nothing is served", file=err)
        return EXIT_PROBLEMS
    source: PromptSource
    if args.url is not None:
        source = SitePrompts(attempt.served)
    else:
        source = LocalPrompts(root, attempt.served, seen, err, model_tiers=args.model_tiers)
    served = attempt.served
    print(
        f"rolecat mcp: serving {count(len(served.prompts), 'prompt')} in {served.language} "
        f"from {where}{' (watching its files)' if source.watching else ''}",
        file=err,
    )
    from build_tools.mcp.server import serve

    serve(source, where)
    return EXIT_OK
