"""``rolecat init``: set up a repository to check and publish the catalog it holds.

It writes what a team would otherwise copy from this repository by hand (mkdocs.yml, the Pages
workflow, the pre-commit config, an about page), each file naming the catalog's directory, and
never overwrites a file. A directory that does not exist yet, or is empty, gets a starter catalog
of one role, so a new team starts from a catalog that passes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from build_tools import __version__
from build_tools.atomic import Transaction, WriteError
from build_tools.check import check_catalog, update_lock
from build_tools.model.catalog import SOURCE_FORMATS
from build_tools.sources.formats import parse
from build_tools.sources.json_reader import SourceError

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
        data = parse(index.name, index.read_bytes())
    except (OSError, SourceError):
        return False
    return isinstance(data, dict) and "bundles" in data


def choose_catalog(root: Path, given: Path | None) -> Path:
    """The catalog named by ``--catalog``, or the one the repository holds."""
    if given is not None:
        catalog = given if given.is_absolute() else root / given
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
    """Write the repository's files for the catalog, or raise :class:`InitError`."""
    catalog = choose_catalog(root, given)
    shown = Path(os.path.relpath(catalog, root)).as_posix()
    if shown.startswith("../"):
        raise InitError(f"the catalog {catalog} is outside the repository {root}")
    present = [name for name in WRITTEN if (root / name).exists() or (root / name).is_symlink()]
    if present:
        raise InitError(
            f"{', '.join(present)} already exist{'s' if len(present) == 1 else ''}; init "
            "overwrites nothing: move them aside or set the rest up by hand"
        )
    starter = not catalog.exists() or not any(catalog.iterdir())
    if starter:
        _write_starter(catalog)
    result = check_catalog(catalog)
    tiers = any(w.rule == TIER_WARNING for w in result.warnings)
    if tiers:
        result = check_catalog(catalog, model_tiers=True)
    change = Transaction(root)
    for name, text in _files(root, shown, tiers):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        change.write(root / name, text.encode("utf-8"))
    _apply(change)
    return Setup(shown, list(WRITTEN), starter, tiers, len(result.diagnostics))


def _write_starter(catalog: Path) -> None:
    """One bundle, one role and its lock: a catalog that passes, for a new team to reshape."""
    texts = files("build_tools.cli").joinpath("init_files", "starter")
    catalog.mkdir(parents=True, exist_ok=True)
    change = Transaction(catalog)
    for name in STARTER:
        (catalog / name).parent.mkdir(parents=True, exist_ok=True)
        change.write(catalog / name, texts.joinpath(name).read_bytes())
    _apply(change)
    update = update_lock(catalog)
    if update.diagnostics:  # our own starter: it passes, or rolecat itself is broken
        raise InitError(f"the starter catalog fails its check: {update.diagnostics[0]}")


def _apply(change: Transaction) -> None:
    try:
        change.apply()
    except WriteError as error:
        raise InitError(f"{error.path}: {error.reason}; nothing was written") from None


def _files(root: Path, catalog: str, tiers: bool) -> Iterator[tuple[str, str]]:
    texts = files("build_tools.cli").joinpath("init_files")
    tier_option = (
        "      # The catalog's chatModel values are tier words (pro, sonnet, best): the\n"
        "      # deployment resolves them to its own models. Where the server passes chatModel\n"
        "      # to its provider as the model id, name real models and remove this line.\n"
        "      model_tiers: true\n"
    )
    values = {
        "@CATALOG_DIR@": catalog,
        "@SITE_NAME@": f"{root.resolve().name} agent roles",
        "@VERSION@": __version__,
        "@CHECK_FLAGS@": " --model-tiers" if tiers else "",
        "@MODEL_TIERS@\n": tier_option if tiers else "",
    }
    for name, source in WRITTEN.items():
        text = texts.joinpath(source).read_text(encoding="utf-8")
        for marker, value in values.items():
            text = text.replace(marker, value)
        yield name, text


def next_steps(setup: Setup) -> list[str]:
    """What the person does next, in the order they do it."""
    catalog, flags = setup.catalog, " --model-tiers" if setup.model_tiers else ""
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
