"""The catalogs the bench measures: S, a copy of ``catalog/``; M and L, synthetic, generated once
into the work directory (``bench/generate.py``), and their YAML forms, each reused while what made
it stays the same."""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import time
from collections.abc import Callable, Mapping
from importlib import metadata
from pathlib import Path

from bench.generate import generate
from bench.measure import run

REPO = Path(__file__).resolve().parent.parent
SIZES: dict[str, int | None] = {"S": None, "M": 500, "L": 5000}
"""Roles per size; S is the upstream fixtures (the checkers) and our own catalog (the site)."""
LANGUAGES = ("en", "ru")
INSTRUCTIONS = 8000
MiB = 1024 * 1024


def say(message: str) -> None:
    """Progress goes to stderr, so stdout is only the report."""
    print(message, file=sys.stderr, flush=True)


def catalog_for(size: str, work: Path) -> Path:
    """S: a fresh copy of ``catalog/``. M, L: the cached synthetic catalog, generated if needed."""
    roles = SIZES[size]
    if roles is None:
        copy = work / "run" / "S-catalog"
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(REPO / "catalog", copy)
        return copy
    params = {"roles": roles, "languages": LANGUAGES, "instructions": INSTRUCTIONS, "seed": 1}
    return cached(
        work,
        size,
        params,
        ["generate.py"],
        f"generating {roles:,} roles x {len(LANGUAGES)} languages",
        lambda target: generate(
            target, roles, languages=LANGUAGES, instructions=INSTRUCTIONS, seed=1
        ),
    )


def yaml_catalog_for(size: str, work: Path) -> Path:
    """The synthetic catalog of ``size`` written as YAML by ``rolecat convert --to yaml``, cached
    beside it (keyed by the JSON catalog it comes from and rolecat's version)."""
    source = catalog_for(size, work)
    params = {"from": source.name, "rolecat": metadata.version("rolecat")}

    def convert(target: Path) -> None:
        shutil.copytree(source, target)
        argv = [sys.executable, "-m", "build_tools", "convert", "--to", "yaml"]
        done = run([*argv, "--catalog", str(target)], cwd=REPO)
        if not done.ok:
            raise SystemExit(f"bench: rolecat convert --to yaml failed:\n{done.tail()}")

    return cached(
        work,
        f"yaml-{size}",
        params,
        ["generate.py"],
        f"converting {source.name} to YAML",
        convert,
    )


def cached(
    work: Path,
    name: str,
    params: Mapping[str, object],
    sources: list[str],
    what: str,
    make: Callable[[Path], object],
) -> Path:
    """``work/catalogs/<name>-<key>``, made by ``make`` unless the same ``params`` and generator
    sources (in bench/) made it before."""
    code = b"".join((REPO / "bench" / source).read_bytes() for source in sources)
    key = hashlib.sha256(json.dumps(params).encode() + code).hexdigest()[:12]
    target = work / "catalogs" / f"{name}-{key}"
    stamp = target.with_suffix(".done")
    if stamp.exists() and target.is_dir():
        say(f"{name}: cached {shown(target)}")
        return target
    for old in (work / "catalogs").glob(f"{name}-*"):
        shutil.rmtree(old) if old.is_dir() else old.unlink()
    say(f"{name}: {what} ...")
    started = time.perf_counter()
    make(target)
    stamp.write_text(json.dumps(params) + "\n", encoding="utf-8")
    say(f"{name}: done in {time.perf_counter() - started:.1f} s")
    return target


def shown(path: Path) -> str:
    try:
        return path.relative_to(REPO).as_posix()
    except ValueError:
        return str(path)


def shape(catalog: Path) -> tuple[int, int, int]:
    """Roles, languages and bytes of index and bundle files, read plainly from the index."""
    index_file = catalog / "index.json"
    if not index_file.exists():
        import yaml

        index = yaml.safe_load((catalog / "index.yaml").read_text(encoding="utf-8"))
    else:
        index = json.loads(index_file.read_text(encoding="utf-8"))
    roles = sum(len(b["roles"]) for b in index["bundles"])
    languages = len({lang for b in index["bundles"] for lang in b["languages"]})
    size = sum(p.stat().st_size for p in catalog.rglob("*.json") if p.parent.name != "scripts")
    size += sum(p.stat().st_size for p in catalog.rglob("*.yaml"))
    return roles, languages, size
