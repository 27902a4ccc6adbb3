"""The floor for ``rolecat check``: bare Python reading the same files and hashing every role.

No checking at all, only what any check must do at least: read the index and every bundle file
with the standard library's ``json.loads`` and compute each role's canonical content hash the way
the project does (orjson for the canonical JSON, ``hashlib`` for SHA-256). It imports nothing from
``build_tools``, so the floor carries none of the checker's costs and hashes exactly as fast as the
checker can; it compares its hashes with the lock to prove it did the same work.

``python bench/floor.py CATALOG_DIR`` prints ``<roles> roles, <files> files, <bytes> bytes`` and
exits 0, or exits 1 when a hash differs from ``content-hashes.json`` (beside the sources, or in
``scripts/`` where the upstream checker keeps it, as ``rolecat check`` finds it).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import orjson

FIELDS = ("emoji", "autoStart", "name", "description", "instructions", "launchMessage")
"""The hashed fields in the lock's order (the upstream checker's ``JSON.stringify`` order)."""


def read(path: Path) -> tuple[Any, int]:
    """A JSON file's value and its size in bytes."""
    raw = path.read_bytes()
    return json.loads(raw), len(raw)


def sorted_deeply(value: Any) -> Any:
    """A role's modelConfig joins its hash with the keys of every object sorted."""
    if isinstance(value, dict):
        return {key: sorted_deeply(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [sorted_deeply(item) for item in value]
    return value


def role_hashes(root: Path) -> tuple[dict[str, str], int, int]:
    """Every role's hash over its languages (sorted), with the file count and bytes read."""
    index, size = read(root / "index.json")
    files = 1
    hashes: dict[str, str] = {}
    for bundle in index["bundles"]:
        roles: dict[str, dict[str, dict[str, Any]]] = {r["slug"]: {} for r in bundle["roles"]}
        for language in bundle["languages"]:
            data, length = read(root / "bundles" / bundle["id"] / f"{language}.json")
            files, size = files + 1, size + length
            for role in data["roles"]:
                if role["slug"] in roles:
                    roles[role["slug"]][language] = role
        for slug, by_language in roles.items():
            canonical = []
            for language in sorted(by_language):
                fields = {name: by_language[language].get(name) for name in FIELDS}
                if by_language[language].get("modelConfig") is not None:
                    fields["modelConfig"] = sorted_deeply(by_language[language]["modelConfig"])
                canonical.append([language, fields])
            hashes[slug] = hashlib.sha256(orjson.dumps(canonical)).hexdigest()
    return hashes, files, size


def main(argv: list[str]) -> int:
    root = Path(argv[1])
    hashes, files, size = role_hashes(root)
    lock_file = root / "content-hashes.json"
    if not lock_file.exists():  # where the upstream checker keeps it, as rolecat check finds it
        lock_file = root / "scripts" / "content-hashes.json"
    lock, _ = read(lock_file)
    wrong = sorted(
        s for s in hashes.keys() | lock.keys() if hashes.get(s) != lock.get(s, {}).get("hash")
    )
    if wrong:
        print(f"floor: {len(wrong)} hashes differ from the lock, e.g. {wrong[:3]}", file=sys.stderr)
        return 1
    print(f"{len(hashes)} roles, {files} files, {size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
