"""``rolecat convert``: rewrite a catalog's sources from JSON to YAML or back, losing nothing.

Values are carried over as parsed, ``instructionsFile`` references included, so the lock holds.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from pathlib import Path

from build_tools.atomic import Transaction, WriteError, recover
from build_tools.diagnostics import Diagnostic
from build_tools.model.catalog import DirectorySource, load_catalog, relative
from build_tools.rules.across_files import run_rules
from build_tools.scope import catalog_scope
from build_tools.sources.formats import EXTENSIONS, Format, dump, format_of, parse


@dataclass
class Conversion:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)


def convert_catalog(root: Path, to: Format) -> Conversion:
    """Convert each source not in ``to``; refuse, changing nothing, while the catalog is broken."""
    try:
        recover(catalog_scope(root))
    except WriteError as error:
        return Conversion([Diagnostic(relative(root, error.path), 0, 0, error.reason, "busy")])
    catalog, diagnostics = load_catalog(DirectorySource(root))
    if catalog is not None:
        diagnostics += run_rules(catalog)
    if catalog is None or diagnostics:
        return Conversion(sorted(set(diagnostics)))
    pending = []
    for document in catalog.documents():
        if format_of(document.path) == to:
            continue
        target = posixpath.splitext(document.path)[0] + EXTENSIONS[to]
        value = parse(document.path, document.raw)
        content = dump(value, to)
        if parse(target, content) != value:  # never expected; never lose a value if it happens
            return Conversion(
                [
                    Diagnostic(
                        document.path, 0, 0, f"cannot be written as {to} without loss", "convert"
                    )
                ]
            )
        pending.append((document.path, target, content))
    change = Transaction(catalog_scope(root))
    for source, target, content in pending:
        change.write(root / target, content)
        change.remove(root / source)
    try:
        change.apply()
    except WriteError as error:
        where = relative(root, error.path)
        return Conversion([Diagnostic(where, 0, 0, error.reason, "write-failed")])
    return Conversion(renamed=[(source, target) for source, target, _ in pending])
