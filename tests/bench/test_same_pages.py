"""The site comparison is honest: plain MkDocs builds the very pages and files the plugin builds.

Our catalog is built three times, as ``make bench`` builds each size: through the plugin, and as
plain MkDocs + Material (``bench/plain.py``) with its built-in search and with Pagefind. Every
file outside the search indexes must be on all three sites; every file but the HTML pages must be
byte for byte the plugin's; each page's article must be the plugin's, and with Pagefind on both
sides the whole page. (MkDocs drops blank lines of a page's body where the plugin keeps them, so
the pages are compared line by line, blank lines left out.)
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from bench import page_floor, plain
from bench.__main__ import _build
from bench.catalogs import REPO
from build_tools.check import check_catalog

SEARCH_DIRS = ("pagefind/", "search/", ".claude-plugin/", ".github/")
"""Left out of the comparison: each side's search index, and the marketplaces (hidden folders
the baseline does not publish; tests/marketplace/ tests them)."""
ARTICLE = re.compile(r'<article class="md-content__inner md-typeset">(.*?)</article>', re.S)
OUR_SEARCH_BOX = re.compile(r"\sdata-rolecat-search[\s>=]")
"""Our header's search box (``partials/search.html``), not the buttons that open a search box
(``data-rolecat-search-open``), which the pages show on both sites."""


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    work = tmp_path_factory.mktemp("same-pages")
    catalog = work / "catalog"
    shutil.copytree(REPO / "catalog", catalog)
    built = {"plugin": work / "site-plugin"}
    result = _build(REPO / "mkdocs.yml", built["plugin"], REPO, catalog, catalog)
    assert result.ok, result.tail()
    for search in plain.SEARCHES:
        config, _roles = plain.prepare(catalog, work / f"plain-{search}", REPO, search=search)
        built[search] = work / f"site-{search}"
        result = _build(config, built[search], config.parent, None, catalog)
        assert result.ok, result.tail()
    return built


def _files(site: Path) -> dict[str, Path]:
    return {
        p.relative_to(site).as_posix(): p
        for p in site.rglob("*")
        if p.is_file() and not p.relative_to(site).as_posix().startswith(SEARCH_DIRS)
    }


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("search", plain.SEARCHES)
def test_plain_mkdocs_publishes_every_file_the_plugin_does(
    sites: dict[str, Path], search: str
) -> None:
    ours, theirs = _files(sites["plugin"]), _files(sites[search])
    assert sorted(ours) == sorted(theirs)
    assert any(p.endswith(".txt") for p in ours)  # the instructions' files are among them
    different = [
        path
        for path, file in ours.items()
        if not path.endswith(".html") and file.read_bytes() != theirs[path].read_bytes()
    ]
    assert different == []


def test_with_pagefind_on_both_sides_the_pages_are_the_plugins(sites: dict[str, Path]) -> None:
    ours, theirs = _files(sites["plugin"]), _files(sites["pagefind"])
    pages = [path for path in ours if path.endswith(".html")]
    assert len(pages) > 20
    different = [
        path
        for path in pages
        if _lines(ours[path].read_text(encoding="utf-8"))
        != _lines(theirs[path].read_text(encoding="utf-8"))
    ]
    assert different == []


def test_with_materials_search_each_article_is_the_plugins(sites: dict[str, Path]) -> None:
    ours, theirs = _files(sites["plugin"]), _files(sites["material"])
    for path in (p for p in ours if p.endswith(".html")):
        mine = ARTICLE.findall(ours[path].read_text(encoding="utf-8"))
        other = ARTICLE.findall(theirs[path].read_text(encoding="utf-8"))
        assert [_lines(a) for a in mine] == [_lines(a) for a in other], path


def test_the_baseline_searches_with_materials_own_search(sites: dict[str, Path]) -> None:
    assert (sites["material"] / "search" / "search_index.json").is_file()
    assert not (sites["material"] / "pagefind").exists()
    page = (sites["material"] / "index.html").read_text(encoding="utf-8")
    assert 'data-md-component="search"' in page and not OUR_SEARCH_BOX.search(page)
    ours = (sites["plugin"] / "index.html").read_text(encoding="utf-8")
    assert OUR_SEARCH_BOX.search(ours) and 'data-md-component="search"' not in ours
    assert (sites["pagefind"] / "pagefind").is_dir() and (sites["plugin"] / "pagefind").is_dir()


def test_the_page_floor_renders_every_role_page_as_the_plugin_does(
    sites: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """bench/page_floor.py renders each role page with the plugin's own renderer (what the pages
    know of the site included): its article is the plugin's page content, inside the wrapper the
    theme puts around it."""
    catalog_dir = sites["plugin"].parent / "catalog"
    argv = ["page_floor", str(catalog_dir), str(sites["plugin"]), str(tmp_path)]
    assert page_floor.main(argv) == 0
    printed = json.loads(capsys.readouterr().out)
    catalog = check_catalog(catalog_dir, model_tiers=True).catalog
    assert catalog is not None
    roles = plain.role_pages(catalog)
    assert printed["pages"] == len(roles) > 0
    assert printed["bytes"] == sum((tmp_path / path).stat().st_size for path in roles)
    for path in roles:
        (floor,) = ARTICLE.findall((tmp_path / path).read_text(encoding="utf-8"))
        (ours,) = ARTICLE.findall((sites["plugin"] / path).read_text(encoding="utf-8"))
        assert "\n".join(_lines(floor)) in "\n".join(_lines(ours)), path
