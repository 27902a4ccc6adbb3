"""The sidebar's shared items are rendered once: the site is the same, byte for byte."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import pytest
from markupsafe import Markup
from mkdocs.commands.build import build
from mkdocs.config import load_config

from site_plugins.catalog import nav_cache
from site_plugins.catalog.nav_cache import CALLS, CachingLoader, NavCache
from tests.support.paths import OUR_CATALOG, REPO
from tests.support.site_builds import SOURCE_DATE_EPOCH


def _build_in_process(site: Path) -> dict[str, bytes]:
    config = load_config(str(REPO / "mkdocs.yml"), site_dir=str(site))
    build(config)
    return {page.relative_to(site).as_posix(): page.read_bytes() for page in site.rglob("*.html")}


# The plugin reads where mkdocs.yml puts the site from MkDocs' user_configs (deprecated).
@pytest.mark.filterwarnings("ignore:user_configs:DeprecationWarning")
def test_the_site_is_the_same_with_and_without_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ROLES_CATALOG_DIR", str(OUR_CATALOG))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    monkeypatch.chdir(REPO)
    reused: list[int] = []
    render = NavCache.__call__

    def counted(self: NavCache, *args: Any) -> Markup:
        before = len(self._rendered)
        out = render(self, *args)
        reused.append(len(self._rendered) == before)
        return out

    monkeypatch.setattr(NavCache, "__call__", counted)
    cached = _build_in_process(tmp_path / "cached")
    assert sum(reused) > len(reused) / 3, "the cache is not used"
    monkeypatch.setattr(NavCache, "_key", lambda *args: None)
    fresh = _build_in_process(tmp_path / "fresh")
    assert cached.keys() == fresh.keys()
    assert [page for page in fresh if cached[page] != fresh[page]] == []


def test_materials_templates_still_have_the_calls_the_cache_replaces() -> None:
    # Material's own file, not an override: a Material that changed the call would render
    # every item afresh, correct and slow.
    loader = jinja2.PackageLoader("material", "templates")
    env = jinja2.Environment(loader=loader)
    for template, (call, _) in CALLS.items():
        source, _, _ = loader.get_source(env, template)
        assert source.count(call) == 1, template


def test_a_template_without_the_exact_call_is_served_unchanged() -> None:
    source = "{{ item.render(nav_item, path, 1, 'mine') }}"
    env = jinja2.Environment(loader=CachingLoader(jinja2.DictLoader({"partials/nav.html": source})))
    assert env.loader is not None
    assert env.loader.get_source(env, "partials/nav.html")[0] == source


def test_the_loader_replaces_the_call_once() -> None:
    call, replaced = CALLS["partials/nav.html"]
    env = jinja2.Environment(
        loader=CachingLoader(jinja2.DictLoader({"partials/nav.html": f"<ul>{call}</ul>"}))
    )
    assert env.loader is not None
    assert env.loader.get_source(env, "partials/nav.html")[0] == f"<ul>{replaced}</ul>"
    nav_cache.use_cache(env)
    nav_cache.use_cache(env)  # twice: one loader around the theme's, not two
    assert isinstance(env.loader, CachingLoader)
    assert not isinstance(env.loader.loader, CachingLoader)


@dataclass(eq=False)
class Item:
    url: str | None = None
    active: bool = False
    children: list[Item] = field(default_factory=list)


@dataclass(eq=False)
class Page:
    url: str


def _renders(cache: NavCache, page: Page, item: Item) -> int:
    calls: list[str] = []

    def render(item: Item, path: str, level: int) -> Markup:
        calls.append(path)
        return Markup(f"<li>{item.url}</li>")

    cache(render, page, item, "__nav_1", 1)
    return len(calls)


def test_an_item_is_rendered_once_for_the_pages_of_a_directory() -> None:
    cache, item = NavCache(), Item("en/other/")
    assert _renders(cache, Page("en/b/one/"), item) == 1
    assert _renders(cache, Page("en/b/two/"), item) == 0
    assert _renders(cache, Page("en/c/one/"), item) == 1  # another directory: other links


@pytest.mark.parametrize(
    ("page", "why"),
    [
        ("en/b/one/", "a link under the page's own address is relative to it alone"),
        ("", "the site's root holds every link"),
    ],
)
def test_an_item_with_a_link_under_the_page_is_rendered_for_it(page: str, why: str) -> None:
    cache = NavCache()
    section = Item(None, children=[Item("en/b/one/sub/"), Item("en/b/one/more/")])
    _renders(cache, Page("en/b/two/"), section)
    assert _renders(cache, Page(page), section) == 1, why


def test_the_active_item_is_rendered_for_each_page() -> None:
    cache, item = NavCache(), Item("en/b/one/", active=True)
    assert _renders(cache, Page("en/b/one/"), item) == 1
    assert _renders(cache, Page("en/b/one/"), item) == 1


def test_a_page_with_a_file_name_links_from_its_directory() -> None:
    # 404.html links from the root, as "about/" does not: they never share an item.
    cache, item = NavCache(), Item("en/")
    assert _renders(cache, Page("404.html"), item) == 1
    assert _renders(cache, Page("about/"), item) == 1


def test_absolute_links_do_not_keep_an_item_from_being_shared() -> None:
    cache = NavCache()
    section = Item(None, children=[Item("https://example.test/en/b/one/"), Item("/en/b/one/")])
    assert _renders(cache, Page("en/b/one/"), section) == 1
    assert _renders(cache, Page("en/b/two/"), section) == 0
