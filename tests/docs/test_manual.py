"""The manual builds strictly, and what links into it (the README included) points somewhere."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.manual_pages import MANUAL, PAGES, README, anchors, links
from tests.support.paths import REPO

MAX_README_LINES = 200


def build(manual: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of the manual at ``manual``, into ``site``."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-f",
            str(manual / "mkdocs.yml"),
            "-d",
            str(site),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )


def test_the_manual_builds_strictly(tmp_path: Path) -> None:
    built = build(MANUAL, tmp_path / "site")
    assert built.returncode == 0, built.stderr
    assert "WARNING" not in built.stderr, built.stderr
    for source in PAGES.glob("*.md"):
        html = "index.html" if source.stem == "index" else f"{source.stem}/index.html"
        assert (tmp_path / "site" / html).is_file(), f"{source.name} is not in the built manual"


def test_a_broken_link_or_anchor_fails_the_build(tmp_path: Path) -> None:
    """The manual's mkdocs.yml makes MkDocs' link validation strict: without it, MkDocs only
    logs a missing anchor as information and builds."""
    copy = tmp_path / "manual"
    shutil.copytree(MANUAL, copy, ignore=shutil.ignore_patterns("site"))
    for broken in ("[gone](no-such-page.md)", "[no anchor](rules.md#no-such-anchor)"):
        index = copy / "docs" / "index.md"
        original = index.read_text(encoding="utf-8")
        index.write_text(original + f"\n{broken}\n", encoding="utf-8")
        built = build(copy, tmp_path / "site")
        index.write_text(original, encoding="utf-8")
        assert built.returncode != 0, f"{broken} did not fail the build"
        target = broken.split("(")[1].rstrip(")")
        assert target.split("#")[-1] in built.stderr, built.stderr


def test_every_page_is_in_the_nav() -> None:
    """A page left out of ``nav`` would be built but found by no reader."""
    config = (MANUAL / "mkdocs.yml").read_text(encoding="utf-8")
    missing = [p.name for p in sorted(PAGES.glob("*.md")) if f": {p.name}" not in config]
    assert missing == []


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines"


def broken(target: str) -> bool:
    """A README link to no file, or to an anchor the manual page does not have. The README's
    own anchors are GitHub's to make, so it links none (an anchor of no page is broken)."""
    path, _, anchor = target.partition("#")
    if not path or not (REPO / path).exists():
        return True
    return bool(anchor) and path.startswith("manual/docs/") and anchor not in anchors(REPO / path)


def test_every_relative_link_of_the_readme_points_at_a_file() -> None:
    targets = [t for t in links(README.read_text(encoding="utf-8")) if "://" not in t]
    assert any(t.startswith("manual/docs/") for t in targets), "the README links the manual"
    assert [t for t in targets if broken(t)] == [], "README.md links to what does not exist"


def test_the_link_checker_reads_links_as_markdown_does() -> None:
    """Links in code are no links; a page's anchors are its headings' ids."""
    text = "[a](manual/docs/rules.md#reading-the-files) `[b](nowhere.md)`\n```\n[c](x.md)\n```\n"
    assert links(text) == ["manual/docs/rules.md#reading-the-files"]
    assert "reading-the-files" in anchors(PAGES / "rules.md")
    assert "no-such-anchor" not in anchors(PAGES / "rules.md")
    assert broken("manual/docs/rules.md#no-such-anchor") and broken("no-such-file.md")
    assert broken("#quick-start") and not broken("manual/docs/rules.md#reading-the-files")
