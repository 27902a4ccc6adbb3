"""The rolecat-search plugin: Pagefind's index, and a clean one-line failure when it cannot."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from site_plugins.search import pagefind
from site_plugins.search.pagefind import PARTS_FILE, Placed, index_site, searchable
from site_plugins.search.plugin import PagefindSearchPlugin, pages_stay_written
from tests.support.site_builds import Build


def test_a_failing_index_is_one_line(tmp_path: Path) -> None:
    assert index_site(tmp_path) == "no page names its language in <html lang>: nothing to index"
    (tmp_path / "index.html").write_text('<html lang="en"><body></body></html>')
    problem = index_site(tmp_path)  # a page, but Pagefind finds nothing in it to index
    assert problem is not None and problem.startswith("en: ") and "\n" not in problem


def test_a_failing_index_fails_the_build(tmp_path: Path) -> None:
    plugin = PagefindSearchPlugin()
    plugin.load_config({})
    plugin.on_startup(command="build", dirty=False)
    config = SimpleNamespace(site_dir=str(tmp_path))
    with pytest.raises(PluginError) as failed:
        plugin.on_post_build(config=config)  # type: ignore[arg-type]
    message = str(failed.value)
    assert message.startswith(f"search: Pagefind could not index {tmp_path}: ")
    assert "\n" not in message


def test_each_language_gets_a_bundle_of_its_own(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for lang in ("en", "ru", "pt-br"):
        page = site / lang / "index.html"
        page.parent.mkdir(parents=True)
        page.write_text(f'<html lang="{lang}"><body><p>quokka {lang}</p></body></html>')
    (site / "index.html").write_text('<html lang="en"><body><p>home</p></body></html>')
    assert index_site(site) is None
    for lang, pages in (("en", 2), ("ru", 1), ("pt-br", 1)):
        entry = json.loads((site / "pagefind" / lang / "pagefind-entry.json").read_bytes())
        assert {k: v["page_count"] for k, v in entry["languages"].items()} == {lang: pages}
    # Nothing is left behind.
    assert sorted(p.name for p in site.iterdir()) == ["en", "index.html", "pagefind", "pt-br", "ru"]


def test_a_large_language_is_indexed_in_parts_of_about_equal_size(tmp_path: Path) -> None:
    site = tmp_path / "site"
    words = ("quokka", "wombat", "numbat", "bilby", "dingo", "dunnart", "potoroo", "quoll")
    for number, word in enumerate(words):
        page = site / "en" / f"page-{number}" / "index.html"
        page.parent.mkdir(parents=True)
        page.write_text(f'<html lang="en"><body><p>{word} {"x" * 2000}</p></body></html>')
    (site / "ru").mkdir()
    (site / "ru" / "index.html").write_text('<html lang="ru"><body><p>квокка</p></body></html>')
    size = (site / "en" / "page-0" / "index.html").stat().st_size
    assert index_site(site, part_bytes=3 * size) is None  # 8 pages: 3 parts, of 3, 3 and 2
    bundle = site / "pagefind" / "en"
    parts = json.loads((bundle / PARTS_FILE).read_bytes())["parts"]
    assert parts == ["1/", "2/"]
    counts = [
        json.loads((bundle / part / "pagefind-entry.json").read_bytes())["languages"]["en"][
            "page_count"
        ]
        for part in ["", *parts]
    ]
    assert sorted(counts) == [2, 3, 3]
    # A language within the size is one bundle, which lists no other part.
    assert json.loads((site / "pagefind" / "ru" / PARTS_FILE).read_bytes()) == {"parts": []}
    assert sorted(p.name for p in site.iterdir()) == ["en", "pagefind", "ru"]


@pytest.mark.parametrize("part_mib", [0, -1])
def test_a_part_size_below_one_mib_is_refused(part_mib: int) -> None:
    plugin = PagefindSearchPlugin()
    plugin.load_config({"part_mib": part_mib})
    plugin.on_startup(command="build", dirty=False)
    with pytest.raises(PluginError, match=f"part_mib must be at least 1 \\(MiB\\), not {part_mib}"):
        plugin.on_config(SimpleNamespace())  # type: ignore[arg-type]


def _index_files(site: Path) -> dict[str, bytes]:
    root = site / "pagefind"
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_pagefind_indexes_the_searchable_part_as_it_would_the_whole_page(
    our_site: Build, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut, whole = tmp_path / "cut", tmp_path / "whole"
    for site in (cut, whole):
        shutil.copytree(our_site.site, site, ignore=shutil.ignore_patterns("pagefind"))
    pages = [page.read_bytes() for page in cut.rglob("*.html")]
    bodies = [page for page in pages if b"data-pagefind-body" in page]
    assert bodies and all(searchable(page) is not None for page in bodies)
    assert index_site(cut) is None
    monkeypatch.setattr(pagefind, "searchable", lambda page: None)
    assert index_site(whole) is None
    assert _index_files(cut) == _index_files(whole)


def test_the_searchable_part_keeps_the_language_the_title_and_the_body() -> None:
    page = (
        b'<!doctype html><html lang="ru" dir="ltr"><head><meta charset="utf-8">'
        b"<title>Role - Site</title></head><body><nav>menu</nav>"
        b'<div id="c" data-pagefind-body><h1>Role</h1></div><footer>f</footer></body></html>'
    )
    assert searchable(page) == (
        b'<html lang="ru" dir="ltr"><head><title>Role - Site</title></head><body>'
        b'<div id="c" data-pagefind-body><h1>Role</h1></div><footer>f</footer></body></html>'
    )


@pytest.mark.parametrize(
    "page",
    [
        b'<html lang="en"><body><p>no body marked: Pagefind reads it all</p></body></html>',
        b'<html lang="en"><body><img src="logo.png"><div data-pagefind-body>x</div></body></html>',
        b'<html lang="en"><body><h1>Site</h1><div data-pagefind-body>x</div></body></html>',
        b'<html lang="en"><body data-pagefind-filter="a"><div data-pagefind-body>x</div></html>',
        b"<div data-pagefind-body>no html tag before it</div>",
    ],
    ids=["no-body", "image-before", "heading-before", "attribute-before", "no-html-tag"],
)
def test_a_page_with_anything_pagefind_reads_before_its_body_is_indexed_whole(
    page: bytes,
) -> None:
    assert searchable(page) is None


def test_a_page_larger_than_the_cut_is_linked_whole_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(b'<html lang="en"><nav>menu</nav><div data-pagefind-body>x</div></html>')
    monkeypatch.setattr(pagefind, "CUT_MOST", page.stat().st_size - 1)
    monkeypatch.setattr(pagefind, "searchable", lambda _: pytest.fail("the page was read"))
    pagefind._place(page, tmp_path / "tree" / "page.html")
    assert (tmp_path / "tree" / "page.html").read_bytes() == page.read_bytes()


@pytest.mark.parametrize("part_bytes", [pagefind.PART_MIB * pagefind.MiB, 200_000])
def test_pages_placed_as_written_in_any_order_are_indexed_as_the_site_is(
    our_site: Build, tmp_path: Path, part_bytes: int
) -> None:
    """A build cuts each page for Pagefind as either of its processes writes it, in whatever
    order: the index is the one of the site's pages as written, byte for byte, in one part or
    many; a page placed and then gone from the site is not in it, a page never placed is read
    from the site, and nothing is left behind."""
    placed_site, read_site = tmp_path / "placed", tmp_path / "read"
    for site in (placed_site, read_site):
        shutil.copytree(our_site.site, site, ignore=shutil.ignore_patterns("pagefind"))
    placed = Placed(placed_site)
    pages = sorted(placed_site.rglob("*.html"))
    random.Random(4).shuffle(pages)
    for page in pages[1:]:  # the first is read from the site
        placed.place(page.relative_to(placed_site).as_posix(), page.read_bytes())
    gone = next(page for page in pages[1:] if page.name == "index.html" and "ru" in page.parts)
    for site in (placed_site, read_site):
        (site / gone.relative_to(placed_site)).unlink()
    assert index_site(placed_site, part_bytes=part_bytes, placed=placed) is None
    assert index_site(read_site, part_bytes=part_bytes) is None
    assert _index_files(placed_site) == _index_files(read_site)
    if part_bytes < pagefind.MiB:
        assert json.loads((placed_site / "pagefind" / "en" / PARTS_FILE).read_bytes())["parts"]
    assert not placed.scratch.exists()
    assert not list(placed_site.glob(".rolecat-search-*"))


def test_pages_are_placed_as_written_only_where_no_other_plugin_changes_them() -> None:
    ours = PagefindSearchPlugin()

    class Minifier:
        def on_post_page(self, output: str, **_: object) -> str:
            return output

    def config(**events: list[object]) -> SimpleNamespace:
        return SimpleNamespace(plugins=SimpleNamespace(events=events))

    assert pages_stay_written(config(post_page=[ours.on_post_page]))  # type: ignore[arg-type]
    other = config(post_page=[ours.on_post_page, Minifier().on_post_page])
    assert not pages_stay_written(other)  # type: ignore[arg-type]
    assert not pages_stay_written(config(post_build=[print]))  # type: ignore[arg-type]
