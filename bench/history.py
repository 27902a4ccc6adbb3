"""A synthetic git history for the M catalog: a few hundred commits, each a role's edit and bump.

``python -m bench.history DIR --commits 300`` writes one; the runner makes it itself. The
repository is written by one ``git fast-import`` (hundreds of ``git commit`` processes would take
longer than what they measure). Its first commit is the generated M catalog; each later commit
edits one role's instructions in both languages (half the edits), in English only (a translation
left behind) or in Russian only (one catching up), bumps the role's version and records the lock,
as a catalog author does with ``rolecat check --fix``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from bench.generate import generate
from build_tools.lock import Entry, render, role_hash

CATALOG = "catalog"
START = 1_767_225_600  # 2026-01-01T00:00:00Z; one commit an hour after it
AUTHOR = "Bench <bench@example.test>"


def _dump(value: Any) -> bytes:
    return (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


class _Stream:
    """Writes a ``git fast-import`` stream: a commit at a time, files inline."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdin is not None
        self._out = process.stdin
        self._commits = 0

    def commit(self, message: str, files: dict[str, bytes]) -> None:
        self._commits += 1
        when = START + 3600 * self._commits
        text = message.encode("utf-8")
        header = [
            "commit refs/heads/main",
            f"mark :{self._commits}",
            f"author {AUTHOR} {when} +0000",
            f"committer {AUTHOR} {when} +0000",
            f"data {len(text)}",
        ]
        self._out.write("\n".join(header).encode() + b"\n" + text + b"\n")
        if self._commits > 1:
            self._out.write(f"from :{self._commits - 1}\n".encode())
        for path, content in sorted(files.items()):
            self._out.write(f"M 100644 inline {CATALOG}/{path}\ndata {len(content)}\n".encode())
            self._out.write(content + b"\n")
        self._out.write(b"\n")


def generate_history(root: Path, roles: int, commits: int, seed: int = 1, **catalog: Any) -> Path:
    """A repository in ``root`` with the catalog in ``root/catalog``; returns the catalog."""
    with tempfile.TemporaryDirectory() as scratch:
        start = generate(Path(scratch) / CATALOG, roles, seed=seed, **catalog)
        files = {
            p.relative_to(start).as_posix(): p.read_bytes() for p in sorted(start.rglob("*.json"))
        }
    index = json.loads(files["index.json"])
    bundles = {path: json.loads(raw) for path, raw in files.items() if path.startswith("bundles/")}
    owner = {
        role["slug"]: (bundle["id"], role)
        for bundle in index["bundles"]
        for role in bundle["roles"]
    }
    lock = {
        slug: Entry(slug, value["version"], value["hash"])
        for slug, value in json.loads(files["content-hashes.json"]).items()
    }
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    rng = random.Random(seed)
    process = subprocess.Popen(["git", "fast-import", "--quiet"], cwd=root, stdin=subprocess.PIPE)
    stream = _Stream(process)
    stream.commit("The M catalog", files)
    slugs = sorted(owner)
    for number in range(1, commits):
        slug = rng.choice(slugs)
        bundle_id, entry = owner[slug]
        languages = rng.choices([("en", "ru"), ("en",), ("ru",)], weights=[5, 4, 1])[0]
        changed: dict[str, bytes] = {}
        texts = {}
        for language in ("en", "ru"):
            path = f"bundles/{bundle_id}/{language}.json"
            role = next(r for r in bundles[path]["roles"] if r["slug"] == slug)
            if language in languages:
                sentences = role["instructions"].split(". ")
                sentences[rng.randrange(len(sentences))] = f"Edit {number} changed this"
                role["instructions"] = ". ".join(sentences)
                changed[path] = _dump(bundles[path])
            texts[language] = role
        entry["version"] += 1
        lock[slug] = Entry(slug, entry["version"], role_hash(texts))
        changed["index.json"] = _dump(index)
        changed["content-hashes.json"] = render(lock)
        stream.commit(f"{slug}: edit {number} ({', '.join(languages)})", changed)
    assert process.stdin is not None
    process.stdin.close()
    if process.wait() != 0:
        raise SystemExit("bench: git fast-import failed")
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=root, check=True)
    return root / CATALOG


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("directory", type=Path, help="where the repository goes (must not exist)")
    parser.add_argument("--roles", type=int, default=500)
    parser.add_argument("--commits", type=int, default=300)
    args = parser.parse_args()
    print(generate_history(args.directory, args.roles, args.commits))


if __name__ == "__main__":
    main()
