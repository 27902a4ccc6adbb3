"""The raw tree a server fetches from a published site: a pure function of a checked catalog.

The server reads ``<base>/index.json`` and ``<base>/bundles/<id>/<lang>.json``; both are published
byte for byte as they stand in the catalog, so what was checked (and hashed into the lock) is
exactly what is served. The JSON Schemas go under ``schema/`` for people and tools; the lock
never does.
"""

from __future__ import annotations

from build_tools.catalog import Catalog
from build_tools.schema import schema_text

SCHEMA_DIR = "schema"
"""Where the published JSON Schemas live on the site."""


class UnreadableSource(Exception):
    """A file the check read could not be read again (it vanished or changed kind meanwhile)."""


def raw_files(catalog: Catalog) -> dict[str, bytes]:
    """Site-relative path -> bytes of every raw file, in sorted path order.

    ``catalog`` must come from a check without errors: every declared bundle file then exists.
    """
    # Each file at its source path: a JSON catalog yields exactly the paths the server fetches.
    files: dict[str, bytes] = {catalog.index.path: _read(catalog, catalog.index.path)}
    for bundle in catalog.bundles:
        for language in bundle.languages:
            path = catalog.file_path(bundle.id, language)
            files[path] = _read(catalog, path)
    files[f"{SCHEMA_DIR}/index.schema.json"] = schema_text("index")
    files[f"{SCHEMA_DIR}/bundle.schema.json"] = schema_text("bundle")
    return dict(sorted(files.items()))


def _read(catalog: Catalog, path: str) -> bytes:
    try:
        data = catalog.source.read(path)
    except OSError as error:
        raise UnreadableSource(f"{path}: cannot read: {error.strerror}") from error
    if data is None:
        raise UnreadableSource(f"{path}: missing")
    return data
