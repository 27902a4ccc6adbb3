"""Real sites built from real catalogs: raw tree, pages, escaping, links, reproducibility."""

# ruff: noqa: RUF001

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from markupsafe import escape

from build_tools.check import check_catalog
from build_tools.model.catalog import load_catalog
from build_tools.model.schema import schema_text
from site_plugins.pages.labels import labels
from tests.support.catalog_files import our_catalog_as_yaml
from tests.support.cli import run
from tests.support.paths import OUR_CATALOG, REPO
from tests.support.site_builds import (
    PAYLOAD,
    PAYLOAD_INSTRUCTIONS,
    PAYLOADS,
    SITE_URL,
    Build,
    build,
    config_with,
    copy_catalog,
    site_env,
    write_catalog,
)
from tests.support.upstream_fixtures import upstream


class Elements(HTMLParser):
    """Collects every tag with its attributes, and the text inside chosen elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.texts: dict[str, str] = {}
        self._capture: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.append((tag, found))
        key = found.get("id") or found.get("class") or ""
        if tag in ("script", "pre") and key in ("rolecat-instructions",):
            self._capture.append(f"{tag}#{key}")
            self.texts[f"{tag}#{key}"] = ""

    def handle_endtag(self, tag: str) -> None:
        if self._capture and self._capture[-1].startswith(f"{tag}#"):
            self._capture.pop()

    def handle_data(self, data: str) -> None:
        for key in self._capture:
            self.texts[key] += data


def parse(path: Path) -> Elements:
    parser = Elements()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def expected_pages(catalog_dir: Path) -> list[str]:
    catalog, _ = load_catalog(catalog_dir)
    assert catalog is not None
    pages = ["index.html"]
    for bundle in catalog.bundles:
        for lang in bundle.languages:
            pages += [f"{lang}/index.html", f"{lang}/{bundle.id}/index.html"]
            pages += [f"{lang}/{bundle.id}/{slug}/index.html" for _p, slug, _v in bundle.roles]
    return pages


MARKETPLACE_DIRS = (".claude-plugin/", ".github/")
"""The marketplaces' manifests: tests/marketplace/ tests them."""


@pytest.mark.parametrize("which", ["our_site", "upstream_site"])
def test_raw_tree_is_byte_identical_and_never_the_lock(
    which: str, request: pytest.FixtureRequest
) -> None:
    site: Build = request.getfixturevalue(which)
    source = OUR_CATALOG if which == "our_site" else upstream()
    assert "WARNING" not in site.output and "ERROR" not in site.output, site.output
    published = sorted(
        p.relative_to(site.site).as_posix()
        for p in site.site.rglob("*.json")
        if not p.relative_to(site.site).as_posix().startswith(MARKETPLACE_DIRS)
    )
    sources = sorted(
        p.relative_to(source).as_posix()
        for p in source.rglob("*.json")
        if p.name != "content-hashes.json"
    )
    expected = sorted(
        [
            *sources,
            "schema/index.schema.json",
            "schema/bundle.schema.json",
            "pagefind/en/pagefind-entry.json",
            "pagefind/en/rolecat-parts.json",
            "pagefind/ru/pagefind-entry.json",
            "pagefind/ru/rolecat-parts.json",
        ]
    )
    assert published == expected
    for relpath in sources:
        assert (site.site / relpath).read_bytes() == (source / relpath).read_bytes(), relpath
    assert (site.site / "schema/index.schema.json").read_bytes() == schema_text("index")
    assert (site.site / "schema/bundle.schema.json").read_bytes() == schema_text("bundle")
    assert not list(site.site.rglob("content-hashes*"))


@pytest.mark.parametrize("which", ["our_site", "upstream_site"])
def test_every_page_is_generated(which: str, request: pytest.FixtureRequest) -> None:
    site: Build = request.getfixturevalue(which)
    source = OUR_CATALOG if which == "our_site" else upstream()
    for page in expected_pages(source):
        assert (site.site / page).is_file(), page


def test_role_page_shows_the_role(our_site: Build) -> None:
    catalog = check_catalog(OUR_CATALOG).catalog
    assert catalog is not None
    bundle = catalog.bundles[0]
    for lang in bundle.languages:
        for _pointer, slug, version in bundle.roles:
            found = bundle.files[lang].role(slug)
            assert found is not None
            role = found.fields
            page = our_site.site / lang / bundle.id / slug / "index.html"
            text = page.read_text(encoding="utf-8")
            parsed = parse(page)
            assert json.loads(parsed.texts["script#rolecat-instructions"]) == role["instructions"]
            assert parsed.texts["pre#rolecat-instructions"] == role["instructions"]
            assert html.escape(role["name"], quote=False) in text
            assert role["emoji"] in text
            assert (
                f'<span class="rolecat-fact-label">{labels(lang)["version"]}</span> {version}'
                in (text)
            )
            assert f'href="../../../bundles/{bundle.id}/{lang}.json"' in text
            # The language switcher and the in-page links lead to the same role.
            for other in bundle.languages:
                if other != lang:
                    assert f'href="../../../{other}/{bundle.id}/{slug}/" hreflang="{other}"' in text


def test_labels_follow_the_page_language(our_site: Build) -> None:
    ru = (our_site.site / "ru/engineering/code-reviewer/index.html").read_text(encoding="utf-8")
    en = (our_site.site / "en/engineering/code-reviewer/index.html").read_text(encoding="utf-8")
    assert "Скопировать инструкции" in ru and "Инструкции" in ru
    assert "Copy instructions" in en and "Скопировать" not in en


def sidebar_targets(site: Build, page: str) -> set[str]:
    text = (site.site / page).read_text(encoding="utf-8")
    sidebar = text[text.index("md-sidebar--primary") : text.index("md-sidebar--secondary")]
    here = f"https://host.test/{page.removesuffix('index.html')}"
    return {urlsplit(urljoin(here, h)).path for h in re.findall(r'href="([^"]+)"', sidebar)}


def test_the_sidebar_holds_its_pages_language_and_marks_where_you_are(our_site: Build) -> None:
    # A bundle page: its language's home, bundles, health, servers and about pages, and this
    # bundle's roles; never another language's pages.
    targets = sidebar_targets(our_site, "en/engineering/index.html")
    expected = {"/en/", "/en/engineering/", "/en/writing/", "/health/en/", "/connect/en/"}
    assert expected | {"/about/", "/en/engineering/code-reviewer/"} <= targets
    assert not [t for t in targets if t.startswith(("/ru/", "/health/ru/", "/about/ru/"))]
    assert "/en/writing/translator/" not in targets  # another bundle stays closed
    ru = sidebar_targets(our_site, "ru/writing/translator/index.html")
    assert {"/ru/", "/ru/writing/translator/", "/health/ru/", "/connect/ru/", "/about/ru/"} <= ru
    assert not [t for t in ru if t.startswith(("/en/", "/health/en/", "/connect/en/"))]
    assert "/about/" not in ru
    # The current role is marked, inside its open bundle.
    text = (our_site.site / "ru/writing/translator/index.html").read_text(encoding="utf-8")
    sidebar = text[text.index("md-sidebar--primary") : text.index("md-sidebar--secondary")]
    assert re.search(r'href="\./" class="md-nav__link md-nav__link--active">\s*<span', sidebar)
    assert "Переводчик" in sidebar and "Code Reviewer" not in sidebar


def test_the_server_url_and_raw_files_are_on_the_page_for_servers(our_site: Build) -> None:
    for lang in ("en", "ru"):
        text = (our_site.site / "connect" / lang / "index.html").read_text(encoding="utf-8")
        assert f"AI_AGENT_ROLES_CATALOG_URL={SITE_URL.rstrip('/')}</code>" in text
        for link in ("index.json", "bundles/engineering/ru.json", "schema/bundle.schema.json"):
            assert f'href="../../{link}"' in text
    home = (our_site.site / "index.html").read_text(encoding="utf-8")
    assert "AI_AGENT_ROLES_CATALOG_URL" not in home and "index.json" not in home


def test_without_a_site_url_no_page_shows_an_error(payload_site: Build) -> None:
    """The page for servers takes the address it is served at (rolecat.js) instead."""
    text = (payload_site.site / "connect/en/index.html").read_text(encoding="utf-8")
    assert (
        "AI_AGENT_ROLES_CATALOG_URL="
        '<span data-rolecat-absolute="../../" data-rolecat-shell>../../</span></code>' in text
    )
    for page in payload_site.site.rglob("*.html"):
        assert "site_url" not in page.read_text(encoding="utf-8"), page


def test_search_has_one_index_per_page_language(our_site: Build) -> None:
    """Pagefind indexes each language's pages (by <html lang>) into a bundle of its own, which
    the search box of a page in that language loads."""
    by_language: dict[str, int] = {}
    homes = {"index.html", "en/index.html", "ru/index.html"}
    for page in our_site.site.rglob("index.html"):
        home = page.relative_to(our_site.site).as_posix() in homes
        if "data-pagefind-body" in page.read_text(encoding="utf-8") and not home:
            by_language[page_language(page)] = by_language.get(page_language(page), 0) + 1
    assert set(by_language) == {"en", "ru"}
    # A home page holds only the gallery, which search leaves to each role's own page.
    for lang, count in by_language.items():
        entry = json.loads((our_site.site / f"pagefind/{lang}/pagefind-entry.json").read_bytes())
        assert {k: e["page_count"] for k, e in entry["languages"].items()} == {lang: count}
    page = (our_site.site / "ru/engineering/index.html").read_text(encoding="utf-8")
    assert 'data-bundle="../../pagefind/ru/"' in page
    # Material's lunr index, which ships every page's text to every visitor, is gone.
    assert not (our_site.site / "search").exists()


def page_language(page: Path) -> str:
    found = re.search(r'<html lang="([^"]*)"', page.read_text(encoding="utf-8"))
    assert found, page
    return found.group(1)


def expected_language(relpath: str) -> str:
    """The language a page of our site is in: its folder's, else the root language's."""
    parts = relpath.split("/")
    if parts[0] in ("health", "connect", "about") and len(parts) > 2:
        parts = parts[1:]  # /health/<lang>/, /connect/<lang>/, /about/<lang>/
    return parts[0] if parts[0] in ("en", "ru") else "en"


def test_every_page_is_in_its_own_language(our_site: Build) -> None:
    for page in our_site.site.rglob("*.html"):
        relpath = page.relative_to(our_site.site).as_posix()
        assert page_language(page) == expected_language(relpath), relpath
    ru = (our_site.site / "ru/engineering/code-reviewer/index.html").read_text(encoding="utf-8")
    # Material's own words, the palette toggle, the site's name and the sidebar, in Russian.
    for words in (
        'placeholder="Поиск"',
        "Включить тёмную тему",
        "Все роли",
        "Выберите язык",
        "<title>Ревьюер кода - Каталог ролей агентов</title>",
        "Состояние каталога",
        "Об этом сайте",
    ):
        assert words in ru, words
    for words in ('placeholder="Search"', "Switch to dark mode", "All roles", "Agent roles"):
        assert words not in ru, words


def test_a_language_material_lacks_falls_back_to_english_words(tmp_path: Path) -> None:
    catalog = write_catalog(tmp_path / "catalog", {"team": ["en", "ar", "sw", "pt-br"]})
    site = build(catalog, tmp_path / "site")
    assert site.returncode == 0, site.output
    cases = {
        "ar": ('dir="rtl"', 'placeholder="بحث"'),
        "sw": ('dir="ltr"', 'placeholder="Search"'),
        "pt-br": ('dir="ltr"', 'placeholder="Buscar"'),
    }
    for lang, (direction, placeholder) in cases.items():
        page = site.site / lang / "team" / "team-first" / "index.html"
        text = page.read_text(encoding="utf-8")
        assert page_language(page) == lang
        assert direction in text and placeholder in text, lang
    bundles = {p.name for p in (site.site / "pagefind").iterdir()}
    assert bundles == {"en", "ar", "sw", "pt-br"}


def test_labels_are_not_indexed(our_site: Build) -> None:
    """Pagefind skips what is marked data-pagefind-ignore: the interface's words, not roles'."""
    page = our_site.site / "en/engineering/code-reviewer/index.html"
    text = page.read_text(encoding="utf-8")
    for label in ("Copy instructions", "Starts the conversation itself", "In other languages"):
        at = text.index(label)
        opened = text.rfind("data-pagefind-ignore", 0, at)
        assert opened != -1 and text.rfind("</div>", opened, at) == -1, label
    for label in ("Claude Code", "Download", "For servers and tools", "History"):
        at = text.index(f">{label}")
        assert text.rfind("data-pagefind-ignore", 0, at) > text.rfind("data-pagefind-body", 0, at)


def test_instructions_are_published_as_plain_text(our_site: Build) -> None:
    catalog = check_catalog(OUR_CATALOG).catalog
    assert catalog is not None
    for bundle in catalog.bundles:
        for lang, file in bundle.files.items():
            for _pointer, slug, _version in bundle.roles:
                found = file.role(slug)
                assert found is not None
                text = our_site.site / lang / bundle.id / f"{slug}.txt"
                assert text.read_bytes() == found.fields["instructions"].encode("utf-8-sig")
                page = (our_site.site / lang / bundle.id / slug / "index.html").read_text("utf-8")
                assert f'href="../{slug}.txt"' in page
                url = f"{SITE_URL}{lang}/{bundle.id}/{slug}.txt"
                assert f"<code>{url}</code>" in page
                for ext in ("json", "yaml"):
                    assert f"<code>{SITE_URL}bundles/{bundle.id}/{lang}.{ext}</code>" in page


def test_every_role_is_one_click_from_the_start_and_its_language_page(our_site: Build) -> None:
    catalog = check_catalog(OUR_CATALOG).catalog
    assert catalog is not None
    home = (our_site.site / "index.html").read_text(encoding="utf-8")
    for bundle in catalog.bundles:
        for lang in bundle.languages:
            language = (our_site.site / lang / "index.html").read_text(encoding="utf-8")
            for _pointer, slug, _version in bundle.roles:
                assert f'href="{lang}/{bundle.id}/{slug}/"' in home, (lang, slug)
                assert f'href="{bundle.id}/{slug}/"' in language, (lang, slug)


LINKS_ONLY = ("canonical", "alternate")


def test_nothing_is_loaded_from_third_party_hosts(our_site: Build) -> None:
    for page in our_site.site.rglob("*.html"):
        for tag, attrs in parse(page).tags:
            for name in ("src", "href"):
                value = attrs.get(name) or ""
                # Links name other hosts (the canonical URL, the page in other languages);
                # nothing loads from one.
                linked = tag == "a" or (tag == "link" and attrs.get("rel") in LINKS_ONLY)
                if value.startswith(("http:", "https:", "//")) and not linked:
                    pytest.fail(f"{page}: <{tag} {name}={value}> loads from another host")
        assert "fonts.googleapis" not in page.read_text(encoding="utf-8")


def test_links_resolve_under_a_sub_path(our_site: Build) -> None:
    """Every relative link of every page lands on a file of the site, wherever it is deployed."""
    base = "https://host.test/some/sub/path/"
    files = {p.relative_to(our_site.site).as_posix() for p in our_site.site.rglob("*")}
    for page in our_site.site.rglob("*.html"):
        if page.name == "404.html":
            continue  # MkDocs links the 404 page absolutely from site_url: it answers any path.
        here = urljoin(base, page.relative_to(our_site.site).as_posix())
        for tag, attrs in parse(page).tags:
            link = attrs.get("href") if tag in ("a", "link") else attrs.get("src")
            if not link or link.startswith(("#", "http:", "https:", "mailto:", "data:")):
                continue
            assert not link.startswith("/"), f"{page}: absolute link {link}"
            target = urlsplit(urljoin(here, link)).path
            assert target.startswith("/some/sub/path/"), f"{page}: {link} leaves the sub-path"
            relpath = target.removeprefix("/some/sub/path/")
            assert (
                relpath == "" or relpath.rstrip("/") in files or f"{relpath}index.html" in files
            ), f"{page}: {link} -> {relpath} is not in the site"


def test_payloads_show_as_text(payload_site: Build) -> None:
    pages = list(payload_site.site.rglob("*.html"))
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for bad in ("<script>window.__pwned", "<img src=x", 'onerror="', 'href="javascript:'):
            assert bad not in text, f"{page}: {bad!r} made it into the HTML"
        # {{ 7*7 }} stays as written (a Cyrillic letter's JSON escape, \u0449, is no 49).
        assert not re.search(r"(?<!\w)49(?!\w)", text), f"{page}: a template ran"
    for lang in ("en", "ru"):
        page = payload_site.site / lang / "payload" / "injector" / "index.html"
        text = page.read_text(encoding="utf-8")
        parsed = parse(page)
        expected = PAYLOAD_INSTRUCTIONS + lang
        assert json.loads(parsed.texts["script#rolecat-instructions"]) == expected
        # HTML turns a carriage return into a newline: that is why the copy button reads the JSON.
        assert parsed.texts["pre#rolecat-instructions"] == expected.replace("\r\n", "\n")
        assert str(escape(PAYLOAD)) in text
        for payload in PAYLOADS:
            assert str(escape(payload)) in text
    # A role with the slug "index" gets its own page, not its bundle's.
    assert (payload_site.site / "en/payload/index/index.html").is_file()
    bundle_page = (payload_site.site / "en/payload/index.html").read_text(encoding="utf-8")
    assert "rolecat-bundle" in bundle_page


def test_two_builds_are_identical(our_site: Build, tmp_path: Path) -> None:
    again = build(OUR_CATALOG, tmp_path / "site", site_url=SITE_URL)
    assert again.returncode == 0, again.output

    def tree(root: Path) -> dict[str, bytes]:
        return {
            p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()
        }

    first, second = tree(our_site.site), tree(again.site)
    assert first.keys() == second.keys()
    assert [k for k in first if first[k] != second[k]] == []


def _snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if p.is_file()
    }


def test_a_bad_catalog_fails_the_build_and_leaves_the_site_alone(
    our_site: Build, tmp_path: Path
) -> None:
    catalog = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    ru = catalog / "bundles/engineering/ru.json"
    ru.write_text(ru.read_text("utf-8").replace('"autoStart": false', '"autoStart": "no"', 1))
    site = tmp_path / "site"
    first = build(OUR_CATALOG, site)
    assert first.returncode == 0, first.output
    before = _snapshot(site)
    failed = build(catalog, site)
    assert failed.returncode == 1
    expected = [str(d) for d in check_catalog(catalog).diagnostics]
    assert expected
    lines = failed.output.splitlines()
    for line in expected:
        assert line in lines, failed.output
    assert "Traceback" not in failed.output
    assert "Cleaning site directory" not in failed.output
    assert _snapshot(site) == before


def test_a_stale_lock_fails_the_build(tmp_path: Path) -> None:
    catalog = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    en = catalog / "bundles/writing/en.json"
    en.write_text(en.read_text("utf-8").replace("You are", "You were", 1), encoding="utf-8")
    failed = build(catalog, tmp_path / "site")
    assert failed.returncode == 1
    assert "bump it in index.json" in failed.output
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize(
    ("bundles", "message"),
    [
        ({"team": ["en", "pagefind"]}, 'bundle "team": language "pagefind" is reserved'),
        ({"assets": ["en"]}, 'bundle id "assets" is reserved on the site'),
        ({"team": ["bundles"]}, 'language "bundles" is reserved on the site'),
        ({"team": ["en"], "schema": ["en"]}, 'bundle id "schema" is reserved on the site'),
        # A hand-written page (docs/about.md) takes /about/ too.
        ({"team": ["en", "about"]}, 'language "about" is reserved on the site'),
    ],
)
def test_ids_that_would_collide_are_refused(
    tmp_path: Path, bundles: dict[str, list[str]], message: str
) -> None:
    catalog = write_catalog(tmp_path / "catalog", bundles)
    failed = build(catalog, tmp_path / "site")
    assert failed.returncode == 1
    assert re.search(rf"^index\.json:\d+:\d+: .*{re.escape(message)}", failed.output, re.M), (
        failed.output
    )
    # `rolecat check` refuses it too, in the same words.
    checked = run("check", "--catalog", str(catalog), "--docs", str(REPO / "docs"))
    assert checked.code == 1 and checked.lines
    assert set(checked.lines) <= set(failed.output.splitlines()), (checked.out, failed.output)
    assert "Traceback" not in failed.output
    assert "Cleaning site directory" not in failed.output
    assert not (tmp_path / "site").exists()


def test_a_yaml_catalog_serves_both_trees(tmp_path: Path) -> None:
    catalog = our_catalog_as_yaml(tmp_path / "catalog")
    site = build(catalog, tmp_path / "site")
    assert site.returncode == 0, site.output
    for source in OUR_CATALOG.rglob("*.json"):
        relpath = source.relative_to(OUR_CATALOG).as_posix()
        if relpath == "content-hashes.json":
            continue
        assert json.loads((site.site / relpath).read_bytes()) == json.loads(source.read_bytes())
        yaml_path = relpath.replace(".json", ".yaml")
        assert (site.site / yaml_path).read_bytes() == (catalog / yaml_path).read_bytes()
    for page in expected_pages(catalog):
        assert (site.site / page).is_file(), page


def test_formats_option_publishes_only_json(tmp_path: Path) -> None:
    config = config_with(tmp_path, "formats: [json]")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", "out"],
        env=site_env(our_catalog_as_yaml(tmp_path / "catalog")),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out/index.json").is_file()
    assert not list((tmp_path / "out").rglob("*.yaml"))
