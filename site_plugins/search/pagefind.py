"""Pagefind's index of the written site, one bundle per page language, each made in parts of
about equal size (see :mod:`site_plugins.search`); no MkDocs here."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from build_tools.wire.site_paths import SEARCH_DIR

_LANG = re.compile(rb"<html\b[^>]*?\blang=\"([a-zA-Z0-9-]+)\"")
_HTML = re.compile(rb"<html\b[^>]*>")
_TITLE = re.compile(rb"<title>[^<]*</title>")
_READ_OUTSIDE_BODY = (b"<img", b"<h1", b"<IMG", b"<H1")
"""What Pagefind might read before a page's ``data-pagefind-body``: a page that has one of these
there is indexed whole."""


PLACED = "placed"
"""In the scratch directory: the pages cut for Pagefind as they were written, by language."""
PARTS_FILE = "rolecat-parts.json"
"""In each language's bundle: its index's other parts, relative to it (``{"parts": ["1/"]}``)."""

MiB = 1024 * 1024
PART_MIB = 64
"""HTML indexed per Pagefind run, at most (unless one page is larger): Pagefind then peaks at
about 250 MiB."""
CUT_MOST = 8 * MiB
"""The largest page read to cut it down for Pagefind (a role page of 5,000 roles: 240 KB)."""
RUNS_AT_ONCE = 2
"""Pagefind runs side by side: each uses about one core, the build has waited for all pages."""


def pagefind_command(pages: Path, output: Path) -> list[str]:
    """Pagefind as installed with rolecat (the ``pagefind[bin]`` package)."""
    return [
        sys.executable,
        "-m",
        "pagefind",
        "--site",
        str(pages),
        "--output-path",
        str(output),
        "--silent",
    ]


def pages_by_language(
    site_dir: Path,
    going: Callable[[], bool] = lambda: True,
    known: Callable[[Path], str | None] = lambda _relpath: None,
) -> dict[str, list[Path]]:
    """Every HTML page of the site, relative to it, by the language its ``<html lang>`` names
    (``known``: a page's language where it was read as the page was written); nothing once
    ``going`` says to stop."""
    found: dict[str, list[Path]] = {}
    for page in sorted(site_dir.rglob("*.html")):
        if not going():
            return {}
        relpath = page.relative_to(site_dir)
        if not indexed(relpath.parts[0]):
            continue
        language = known(relpath)
        if language is None:
            with page.open("rb") as stream:
                language = language_of(stream.read(4096))
        if language is not None:
            found.setdefault(language, []).append(relpath)
    return found


def indexed(top: str) -> bool:
    """Whether pages under the site's folder ``top`` are searched: not the index's own, nor the
    hidden ones (the marketplaces')."""
    return top != SEARCH_DIR and not top.startswith(".")


def language_of(head: bytes) -> str | None:
    """The language a page's first 4,096 bytes name in ``<html lang>``."""
    language = _LANG.search(head[:4096])
    return language.group(1).decode().lower() if language is not None else None


class Placed:
    """The pages a build cuts for Pagefind as they are written (:func:`searchable`), by either
    of its processes, into a scratch directory in the site: :func:`index_site` then reads no
    page again. Each is a file named by its path's digest, in a folder per language, until the
    index puts it in its place: Pagefind numbers pages in the order it finds them, and the
    folders it reads are made in the order of their paths, as ever, whichever process wrote
    what when."""

    def __init__(self, site_dir: Path) -> None:
        site_dir.mkdir(parents=True, exist_ok=True)  # MkDocs makes it with the first file
        self.scratch = _scratch(site_dir)

    def place(self, dest_uri: str, page: bytes) -> None:
        """The page MkDocs writes at ``dest_uri``, as Pagefind will read it."""
        if not dest_uri.endswith(".html") or not indexed(dest_uri.split("/", 1)[0]):
            return
        language = language_of(page)
        if language is None or len(page) > CUT_MOST:
            return  # read from the site when it is indexed, as every other page
        folder = self.scratch / PLACED / language
        cut = searchable(page)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / _placed_name(dest_uri)).write_bytes(page if cut is None else cut)
        except OSError:  # placed again from the site's page
            with contextlib.suppress(OSError):
                (folder / _placed_name(dest_uri)).unlink()

    def found(self) -> dict[str, str]:
        """Each page placed, by either process: its file's name, and its language."""
        placed = self.scratch / PLACED
        return {
            page.name: folder.name
            for folder in (sorted(placed.iterdir()) if placed.is_dir() else [])
            for page in folder.iterdir()
        }

    def file(self, relpath: Path, language: str) -> Path:
        return self.scratch / PLACED / language / _placed_name(relpath.as_posix())


def _scratch(site_dir: Path) -> Path:
    return Path(tempfile.mkdtemp(prefix=".rolecat-search-", dir=site_dir))


def _placed_name(dest_uri: str) -> str:
    return hashlib.sha1(dest_uri.encode("utf-8", "surrogateescape")).hexdigest() + ".html"


def split(pages: list[Path], sizes: list[int], most: int) -> list[list[Path]]:
    """``pages`` in order, cut into parts of about equal size (by ``sizes``), as many as it takes
    for each to hold about ``most`` bytes at most."""
    total = sum(sizes)
    count = max(1, -(-total // max(most, 1)))
    parts: list[list[Path]] = [[] for _ in range(count)]
    before = 0
    for page, size in zip(pages, sizes, strict=True):
        # Each page goes to the part its middle byte falls in: parts of total / count bytes.
        parts[min(count - 1, (before + size // 2) * count // max(total, 1))].append(page)
        before += size
    return [part for part in parts if part]


def index_site(
    site_dir: Path,
    started: Callable[[subprocess.Popen[str]], bool] | None = None,
    going: Callable[[], bool] = lambda: True,
    part_bytes: int = PART_MIB * MiB,
    placed: Placed | None = None,
) -> str | None:
    """Write one Pagefind bundle per page language into ``site_dir``, in parts of at most about
    ``part_bytes`` of HTML each; on failure, one line saying why. ``started`` sees each Pagefind
    process, and stops the work by returning False; ``going`` is asked between files (a
    preview's rebuild stops the work at once: this runs in the server's process, and reading and
    linking the pages would slow the rebuild down); ``placed``, the pages cut as they were
    written, whose scratch directory is removed here."""
    output = site_dir / SEARCH_DIR
    shutil.rmtree(output, ignore_errors=True)
    # Pagefind reads a directory: each part's pages are written into one of their own, inside the
    # site directory, so that whatever removes the site (a preview that stops) removes it too.
    scratch = placed.scratch if placed else _scratch(site_dir)
    try:
        return _index_site(site_dir, scratch, started, going, part_bytes, placed)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _index_site(
    site_dir: Path,
    scratch: Path,
    started: Callable[[subprocess.Popen[str]], bool] | None,
    going: Callable[[], bool],
    part_bytes: int,
    placed: Placed | None,
) -> str | None:
    names = placed.found() if placed else {}
    ready: set[Path] = set()

    def known(relpath: Path) -> str | None:
        language = names.get(_placed_name(relpath.as_posix()))
        if language is not None:
            ready.add(relpath)
        return language

    languages = pages_by_language(site_dir, going, known)
    if not going():
        return "stopped"
    if not languages:
        return "no page names its language in <html lang>: nothing to index"
    output = site_dir / SEARCH_DIR
    runs: list[tuple[str, int, int, list[Path]]] = []
    for language, pages in sorted(languages.items()):
        sizes = [(site_dir / relpath).stat().st_size for relpath in pages]
        parts = split(pages, sizes, part_bytes)
        runs += [(language, number, len(parts), part) for number, part in enumerate(parts)]

    def index(run: tuple[str, int, int, list[Path]]) -> str | None:
        language, number, count, part = run
        tree = scratch / f"{language}-{number}"
        for relpath in part:  # in the order of their paths: Pagefind numbers them as it finds them
            if not going():
                return "stopped"
            if placed is not None and relpath in ready:
                (tree / relpath).parent.mkdir(parents=True, exist_ok=True)
                os.replace(placed.file(relpath, language), tree / relpath)
            else:
                _place(site_dir / relpath, tree / relpath)
        bundle = output / language
        problem = _pagefind(tree, bundle / str(number) if number else bundle, started)
        shutil.rmtree(tree)
        if problem is None:
            return None
        where = f" (part {number + 1} of {count})" if count > 1 else ""
        return f"{language}{where}: {problem}"

    # Two at once where each language is one run; a language in parts runs them one at a
    # time, each part's Pagefind holding its memory (a large catalog's memory is the limit).
    at_once = RUNS_AT_ONCE if all(count == 1 for _, _, count, _ in runs) else 1
    with ThreadPoolExecutor(at_once, thread_name_prefix="pagefind") as pool:
        problems = [problem for problem in pool.map(index, runs) if problem is not None]
    if problems:
        return problems[0]
    for language, _, count, _ in runs:
        others = [f"{number}/" for number in range(1, count)]
        (output / language / PARTS_FILE).write_text(json.dumps({"parts": others}), encoding="utf-8")
    return None


def searchable(page: bytes) -> bytes | None:
    """The page as Pagefind indexes it, without the header and sidebars before its
    ``data-pagefind-body`` (over half of a role page's bytes, which Pagefind would parse and
    skip), or ``None`` where that could change the index: no body, or something before the body
    that Pagefind reads whatever the body (any ``data-pagefind-*`` attribute, the page's first
    image or heading). The ``<html>`` tag and the ``<title>`` stay."""
    body = page.find(b"data-pagefind-body")
    if body < 0:
        return None
    start = page.rfind(b"<", 0, body)
    if start < 0:
        return None
    before = page[:start]
    html = _HTML.search(before)
    if html is None or b"data-pagefind" in before:
        return None
    if any(tag in before for tag in _READ_OUTSIDE_BODY):
        return None
    title = _TITLE.search(before)
    head = b"<head>" + (title.group(0) if title else b"") + b"</head><body>"
    return html.group(0) + head + page[start:]


def _place(source: Path, target: Path) -> None:
    """The page for Pagefind: its searchable part, or a link to it whole (a page larger than
    :data:`CUT_MOST`, from the repository's docs say, is never read into memory here)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.stat().st_size > CUT_MOST:
        _link(source, target)
        return
    page = searchable(source.read_bytes())
    if page is None:
        _link(source, target)
    else:
        target.write_bytes(page)


def _link(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:  # another file system, or no hard links: a copy does as well
        shutil.copyfile(source, target)


def _pagefind(
    pages: Path, output: Path, started: Callable[[subprocess.Popen[str]], bool] | None
) -> str | None:
    try:
        process = subprocess.Popen(
            pagefind_command(pages, output),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
    except OSError as error:
        return f"cannot run Pagefind: {error.strerror}"
    if started is not None and not started(process):
        process.kill()
    said, _ = process.communicate()
    if process.returncode == 0:
        return None
    lines = [line.strip() for line in said.splitlines() if line.strip()]
    return lines[-1] if lines else f"Pagefind exited with status {process.returncode}"
