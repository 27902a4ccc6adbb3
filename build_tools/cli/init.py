"""``rolecat init``: set up a repository to check and publish the catalog it holds.

It writes what a team would otherwise copy from this repository by hand (mkdocs.yml, the Pages
workflow, the pre-commit config, an about page), each file naming the catalog's directory, and
never overwrites a file. A directory that does not exist yet, or is empty, gets a starter catalog
of one role, so a new team starts from a catalog that passes.
"""

from __future__ import annotations

import os
import posixpath
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from build_tools import __version__
from build_tools.atomic import Transaction, WriteError
from build_tools.check import CheckResult, check_catalog, update_lock
from build_tools.diagnostics import one_line
from build_tools.lock import LOCK_FILE
from build_tools.model.catalog import SOURCE_FORMATS
from build_tools.scope import OutOfScope, Scope, no_symlink_below
from build_tools.sources.files import read_bounded
from build_tools.sources.formats import double_quoted, parse
from build_tools.sources.json_reader import MAX_FILE_BYTES, SourceError

INDEX_NAMES = tuple(f"index{extension}" for extension in SOURCE_FORMATS)
SKIPPED = {"node_modules", "site", "venv", "__pycache__"}
"""Directories a search for the catalog never enters (hidden ones neither): what they hold is
installed or built, never a team's sources."""

WRITTEN = {
    "mkdocs.yml": "mkdocs.yml",
    ".github/workflows/pages.yml": "pages.yml",
    ".pre-commit-config.yaml": "pre-commit-config.yaml",
    "docs/about.md": "about.md",
}
"""Each file ``init`` writes, by the name of its text in ``init_files/``."""

STARTER = ("index.json", "bundles/general/en.json")
TIER_WARNING = "server-model-is-literal"


class InitError(Exception):
    """The repository cannot be set up as asked; nothing was written."""


@dataclass
class Setup:
    """What ``init`` did, for its report."""

    catalog: str
    written: list[str]
    starter: bool
    model_tiers: bool
    problems: int


def find_catalogs(root: Path) -> list[Path]:
    """Every directory under ``root`` whose index declares bundles, nearest first."""
    found: list[Path] = []
    for directory, subdirectories, names in os.walk(root):
        subdirectories[:] = sorted(
            d for d in subdirectories if not d.startswith(".") and d not in SKIPPED
        )
        here = Path(directory)
        if any(_declares_bundles(here / name) for name in INDEX_NAMES if name in names):
            found.append(here)
            subdirectories[:] = []  # a catalog's own bundles hold no other catalog
    return sorted(found, key=lambda p: (len(p.parts), p))


def _declares_bundles(index: Path) -> bool:
    try:
        data = parse(index.name, read_bounded(index, MAX_FILE_BYTES))
    except (OSError, SourceError, RecursionError):
        return False
    return isinstance(data, dict) and "bundles" in data


def choose_catalog(root: Path, given: Path | None) -> Path:
    """The catalog named by ``--catalog``, or the one the repository holds; reached from
    ``root`` through real directories only, so that nothing is written through a symlink."""
    if given is not None:
        catalog = Path(os.path.abspath(given if given.is_absolute() else root / given))
        if root != catalog and root not in catalog.parents:
            raise InitError(f"the catalog {catalog} is outside the repository {root}")
        try:
            no_symlink_below(root, catalog)
        except OutOfScope as refused:
            raise InitError(f"{refused.path} {refused.reason}") from None
        if catalog.exists() and not catalog.is_dir():
            raise InitError(f"{given} is not a directory")
        return catalog
    found = find_catalogs(root)
    if len(found) == 1:
        return found[0]
    if not found:
        raise InitError(
            f"no catalog found under {root} (a directory holding an index.json or index.yaml "
            "with bundles); name one with --catalog DIR: a new or empty one gets a starter "
            "catalog"
        )
    names = ", ".join(str(p.relative_to(root)) for p in found)
    raise InitError(f"{len(found)} catalogs found ({names}); name one with --catalog DIR")


def init(root: Path, given: Path | None) -> Setup:
    """Write the repository's files for the catalog, all or none, or raise :class:`InitError`."""
    root = Path(os.path.realpath(root))
    catalog = choose_catalog(root, given)
    shown = Path(os.path.relpath(catalog, root)).as_posix()
    _writable_name(shown)
    present = [name for name in WRITTEN if os.path.lexists(root / name)]
    if present:
        raise InitError(
            f"{', '.join(present)} already exist{'s' if len(present) == 1 else ''}; init "
            "overwrites nothing: move them aside or set the rest up by hand"
        )
    starter = not catalog.exists() or not any(catalog.iterdir())
    writes = {}
    if starter:
        files, result = _starter()
        writes = {posixpath.normpath(f"{shown}/{name}"): content for name, content in files.items()}
    else:
        result = check_catalog(catalog)
    tiers = any(w.rule == TIER_WARNING for w in result.warnings)
    if tiers and not starter:
        result = check_catalog(catalog, model_tiers=True)
    writes.update((name, text.encode("utf-8")) for name, text in _files(root, shown, tiers))
    change = Transaction(Scope(root, "init", tuple(re.escape(name) for name in writes)))
    for name, content in writes.items():
        change.write(root / name, content)
    try:
        change.apply()
    except WriteError as error:
        raise InitError(f"{error.path}: {error.reason}; nothing was written") from None
    return Setup(shown, list(WRITTEN), starter, tiers, len(result.diagnostics))


def _starter() -> tuple[dict[str, bytes], CheckResult]:
    """One bundle, one role and its lock: a catalog that passes, for a new team to reshape. Made
    and checked in a directory of its own, so that init writes it with the rest or not at all."""
    import tempfile

    texts = files("build_tools.cli").joinpath("init_files", "starter")
    with tempfile.TemporaryDirectory(prefix="rolecat-starter-") as made:
        place = Path(made)
        for name in STARTER:
            (place / name).parent.mkdir(parents=True, exist_ok=True)
            (place / name).write_bytes(texts.joinpath(name).read_bytes())
        update = update_lock(place)
        if update.diagnostics:  # our own starter: it passes, or rolecat itself is broken
            raise InitError(f"the starter catalog fails its check: {update.diagnostics[0]}")
        result = check_catalog(place)
        names = [*STARTER, LOCK_FILE]
        return {name: (place / name).read_bytes() for name in names}, result


_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_. /-]*[A-Za-z0-9_./-]|[A-Za-z_]")
_NOT_STRINGS = {"y", "yes", "n", "no", "true", "false", "on", "off", "null"}


def _writable_name(name: str) -> None:
    """Refuse a catalog path that no generated file can hold safely: a line break or another
    control or bidirectional character, or GitHub's ``${{`` (evaluated before any quoting)."""
    if one_line(name) != name or "${{" in name:
        raise InitError(
            f"the catalog's path {one_line(name)!s} holds a character init cannot write into "
            "a workflow safely (a control or bidirectional character, or ${{); rename it"
        )


def _yaml(text: str) -> str:
    """``text`` as a YAML scalar every reader takes as that string: plain where it is a plain
    name, else double-quoted."""
    if _PLAIN.fullmatch(text) and text.lower() not in _NOT_STRINGS:
        return text
    return double_quoted(text)


def _code(text: str) -> str:
    """``text`` as a Markdown code span, whatever backticks it holds."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    return f"{fence} {text} {fence}" if "`" in text else f"{fence}{text}{fence}"


def _files(root: Path, catalog: str, tiers: bool) -> Iterator[tuple[str, str]]:
    texts = files("build_tools.cli").joinpath("init_files")
    tier_option = (
        "      # The catalog's chatModel values are tier words (pro, sonnet, best): the\n"
        "      # deployment resolves them to its own models. Where the server passes chatModel\n"
        "      # to its provider as the model id, name real models and remove this line.\n"
        "      model_tiers: true\n"
    )
    flags = " --model-tiers" if tiers else ""
    check = f"rolecat check --catalog {shlex.quote(catalog)}{flags}"
    values = {
        "@CATALOG_DIR@": one_line(catalog),
        "@CATALOG_YAML@": _yaml(catalog),
        "@CATALOG_SHELL@": shlex.quote(catalog),
        "@CATALOG_CODE@": _code(f"{catalog}/"),
        "@CHECK_COMMAND@": _yaml(check),
        "@SITE_NAME@": _yaml(f"{root.name} agent roles"),
        "@VERSION@": __version__,
        "@MODEL_TIERS@\n": tier_option if tiers else "",
    }
    for name, source in WRITTEN.items():
        text = texts.joinpath(source).read_text(encoding="utf-8")
        for marker, value in values.items():
            text = text.replace(marker, value)
        yield name, text


def next_steps(setup: Setup) -> list[str]:
    """What the person does next, in the order they do it."""
    catalog, flags = shlex.quote(setup.catalog), " --model-tiers" if setup.model_tiers else ""
    steps = [
        f"rolecat check --catalog {catalog}{flags}"
        + (f"  # {setup.problems} problem(s) to fix first" if setup.problems else ""),
        "mkdocs serve  # preview at http://127.0.0.1:8000/ while you edit roles",
        f"rolecat new role SLUG --bundle BUNDLE --catalog {catalog}  # then write its texts",
        f"rolecat check --catalog {catalog} --fix  # record the new versions in the lock",
        "pre-commit install  # the check before every commit",
        "add site/ to .gitignore; commit; on GitHub: Settings > Pages > Source: GitHub Actions",
        "point the server's AI_AGENT_ROLES_CATALOG_URL at the published site's base URL",
    ]
    return [f"  {n}. {step}" for n, step in enumerate(steps, 1)]
