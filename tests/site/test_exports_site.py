"""Each role's exports in the built site, beside its plain text, and the role page's links to them:
the files to download, VS Code's installer where the site's URL is known, and the chat links that
pre-fill the instructions where they fit."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest

from build_tools.check import check_catalog
from build_tools.exports import TOOLS, exports
from build_tools.exports.links import MAX_URL
from build_tools.model.catalog import Role
from build_tools.wire import site_paths
from site_plugins.pages.labels import labels
from tests.support.export_files import read_as_tool
from tests.support.paths import OUR_CATALOG
from tests.support.site_builds import PAYLOAD_INSTRUCTIONS, SITE_URL, Build
from tests.support.upstream_fixtures import upstream

LABELS = {
    "en": {
        "claude-code": "Claude Code subagent",
        "copilot": "GitHub Copilot custom agent",
        "cursor": "Cursor rule",
    },
    "ru": {
        "claude-code": "Субагент Claude Code",
        "copilot": "Пользовательский агент GitHub Copilot",
        "cursor": "Правило Cursor",
    },
}


class Links(HTMLParser):
    """Every ``<a>`` of a page, with its attributes and its text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[dict[str, str]] = []
        self._open: dict[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._open = {k: v or "" for k, v in attrs} | {"text": ""}
            self.links.append(self._open)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a":
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open["text"] += data


def links(page: Path, css_class: str) -> list[dict[str, str]]:
    parser = Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return [a for a in parser.links if css_class in a.get("class", "").split()]


def roles(source: Path) -> list[tuple[str, str, str, Role]]:
    """(language, bundle, slug, role) of every role of a catalog in every language."""
    catalog = check_catalog(source).catalog
    assert catalog is not None
    found = []
    for bundle in catalog.bundles:
        for language, file in bundle.files.items():
            for _pointer, slug, _version in bundle.roles:
                role = file.role(slug)
                assert role is not None
                found.append((language, bundle.id, slug, role))
    return found


@pytest.mark.parametrize("which", ["our_site", "upstream_site", "payload_site"])
def test_every_role_is_published_in_every_format_and_linked(
    which: str, request: pytest.FixtureRequest, payload_catalog: Path
) -> None:
    site: Build = request.getfixturevalue(which)
    source = {"our_site": OUR_CATALOG, "upstream_site": upstream()}.get(which, payload_catalog)
    every = roles(source)
    assert every
    for language, bundle, slug, role in every:
        page = site.site / language / bundle / slug / "index.html"
        here = f"https://host.test/{language}/{bundle}/{slug}/"
        # The Download panel offers each tool's file under the tool's name (each tool's own panel
        # offers it again); before them, the plain text.
        named = LABELS.get(language)
        offered = [
            a for a in links(page, "rolecat-export") if named is None or a["text"] in named.values()
        ]
        if named is None:  # a language we have no words for: every other link, once
            offered = [a for a in offered if a["data-rolecat-tool"] in TOOLS][-len(TOOLS) :]
        assert [a["data-rolecat-tool"] for a in offered] == list(TOOLS)
        plain = [a for a in links(page, "rolecat-export") if a["data-rolecat-tool"] == "text"]
        assert [urlsplit(urljoin(here, a["href"])).path for a in plain] == [
            f"/{site_paths.role_text(language, bundle, slug)}"
        ]
        for export, link in zip(exports(role), offered, strict=True):
            path = site_paths.role_export(language, bundle, slug, export.tool)
            data = (site.site / path).read_bytes()
            assert data == export.encoded(), path
            _fields, body = read_as_tool(export)
            assert body == role.fields["instructions"].encode("utf-8")
            # The link downloads that file, under the name its tool looks for.
            assert urlsplit(urljoin(here, link["href"])).path == f"/{path}"
            assert link["download"] == export.name
            if language in LABELS:
                assert link["text"] == LABELS[language][export.tool]
        assert f"<code>{exports(role)[0].path}</code>" in page.read_text(encoding="utf-8")


def test_vscode_installs_the_agent_from_the_published_url(our_site: Build) -> None:
    for language, bundle, slug, _role in roles(OUR_CATALOG):
        page = our_site.site / language / bundle / slug / "index.html"
        [install] = links(page, "rolecat-install")
        assert install["href"].startswith("https://vscode.dev/redirect?url=")
        assert install["rel"] == "noopener"
        inner = parse_qs(urlsplit(install["href"]).query)["url"]
        assert [u.split("?")[0] for u in inner] == ["vscode:chat-agent/install"]
        [agent] = parse_qs(urlsplit(inner[0]).query)["url"]
        assert agent == f"{SITE_URL}{language}/{bundle}/{slug}.agent.md"


def test_without_a_site_url_the_page_makes_the_vscode_link(payload_site: Build) -> None:
    """Hidden until the page's script makes it from the address the page is served at."""
    pages = list(payload_site.site.glob("*/payload/*/index.html"))
    assert pages
    for page in pages:
        [install] = links(page, "rolecat-install")
        assert "rolecat-js-only" in install["class"].split()
        slug = page.parent.name
        assert install["href"] == install["data-rolecat-vscode"] == f"../{slug}.agent.md"


def test_chat_links_prefill_the_instructions_where_they_fit(our_site: Build) -> None:
    seen = {"fit": 0, "too long": 0}
    for language, bundle, slug, role in roles(OUR_CATALOG):
        page = our_site.site / language / bundle / slug / "index.html"
        text = page.read_text(encoding="utf-8")
        chats = links(page, "rolecat-open-in")
        instructions = role.fields["instructions"]
        if language == "en":  # about 4,500 characters encoded
            seen["fit"] += 1
            assert [a["data-rolecat-chat"] for a in chats] == ["chatgpt", "claude"]
            for chat, base in zip(
                chats, ("https://chatgpt.com/", "https://claude.ai/new"), strict=True
            ):
                assert chat["href"].startswith(f"{base}?q=")
                assert len(chat["href"]) <= MAX_URL
                assert parse_qs(urlsplit(chat["href"]).query) == {"q": [instructions]}
                assert chat["rel"] == "noopener noreferrer" and chat["target"] == "_blank"
            assert [a["text"] for a in chats] == ["Open in ChatGPT", "Open in Claude"]
            assert "rolecat-open-in-too-long" not in text
        else:  # Cyrillic takes six characters a letter: past 8,000, the chat reads the text
            seen["too long"] += 1
            assert [a["data-rolecat-chat"] for a in chats] == ["chatgpt", "claude"]
            url = f"{SITE_URL}{site_paths.role_text(language, bundle, slug)}"
            prompt = labels(language)["open_in_prompt"] % {"url": url}
            for chat in chats:
                assert parse_qs(urlsplit(chat["href"]).query) == {"q": [prompt]}
                assert "rolecat-js-only" not in chat["class"]
            assert [a["text"] for a in chats] == ["Открыть в ChatGPT", "Открыть в Claude"]
            assert 'class="rolecat-note rolecat-open-in-short"' in text
    assert seen == {"fit": 6, "too long": 6}


def test_chat_links_carry_payloads_as_data(payload_site: Build) -> None:
    for language in ("en", "ru"):
        page = payload_site.site / language / "payload" / "injector" / "index.html"
        chats = links(page, "rolecat-open-in")
        assert len(chats) == 2
        for chat in chats:
            assert parse_qs(urlsplit(chat["href"]).query) == {
                "q": [PAYLOAD_INSTRUCTIONS + language]
            }
            assert re.fullmatch(r"https://[a-z.]+/[a-z]*\?q=[A-Za-z0-9%._~-]*", chat["href"])


def test_the_exports_block_stays_small_whatever_the_catalog(
    our_site: Build, upstream_site: Build
) -> None:
    """What a role page offers of its exports depends on its role alone: a few links, and at
    most two chat links of at most 8,000 characters."""
    for site in (our_site, upstream_site):
        for page in site.site.glob("*/*/*/index.html"):
            text = page.read_text(encoding="utf-8")
            start = text.index('class="rolecat-actions"')
            block = text[start : text.index('role="status"', start)]
            assert len(block) < 2 * MAX_URL + 6_000, page


def test_a_plugins_agent_is_the_file_beside_its_role_page(our_site: Build) -> None:
    """Each agent in a marketplace plugin's folder is the role's export beside its page: the same
    file, linked (one inode on the disk, not two)."""
    site = our_site.site
    beside = {
        (path.stat().st_dev, path.stat().st_ino): path
        for path in site.rglob("*.md")
        if not path.relative_to(site).parts[0].startswith(".")
    }
    agents = [*site.glob(".claude-plugin/plugins/*/agents/*.md")]
    agents += site.glob(".github/plugin/plugins/*/agents/*.md")
    assert agents
    for agent in agents:
        twin = beside.get((agent.stat().st_dev, agent.stat().st_ino))
        assert twin is not None, agent
        assert twin.read_bytes() == agent.read_bytes()
