"""The gallery of the start and the language pages: a card per role, grouped by bundle, with its
name, description, model, version and languages, every catalog text shown as text."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from markupsafe import escape

from build_tools.check import check_catalog
from tests.support.paths import OUR_CATALOG
from tests.support.site_builds import NAME_PAYLOAD, PAYLOAD, Build


@dataclass
class Card:
    bundle: str
    attrs: dict[str, str]
    links: list[dict[str, str]] = field(default_factory=list)
    text: dict[str, str] = field(default_factory=dict)
    """The text of each element of the card, by ``tag.class``."""

    @property
    def slug(self) -> str:
        return self.attrs["data-rolecat-slug"]


class Cards(HTMLParser):
    """Each card (li.rolecat-card) of a page, under the bundle section it is in."""

    VOID = frozenset({"br", "wbr", "img", "input", "hr", "meta", "link"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cards: list[Card] = []
        self._bundle = ""
        self._open: list[list[str]] | None = None
        """While in a card: the tag.class keys of each element open in it."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        classes = found.get("class", "").split()
        if tag == "section" and "rolecat-gallery-bundle" in classes:
            self._bundle = found["id"].removeprefix("bundle-")
        if tag == "li" and "rolecat-card" in classes:
            self.cards.append(Card(self._bundle, found))
            self._open = []
        if self._open is None or tag in self.VOID:
            return
        if tag == "a":
            self.cards[-1].links.append(found)
        self._open.append([f"{tag}.{c}" for c in classes])

    def handle_endtag(self, tag: str) -> None:
        if self._open:
            self._open.pop()
            if not self._open:
                self._open = None

    def handle_data(self, data: str) -> None:
        if self._open:
            text = self.cards[-1].text
            for key in {k for keys in self._open for k in keys}:
                text[key] = text.get(key, "") + data


def cards(page: Path) -> list[Card]:
    parser = Cards()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.cards


def test_the_start_page_shows_every_role_as_a_card(our_site: Build) -> None:
    catalog = check_catalog(OUR_CATALOG).catalog
    assert catalog is not None
    shown = {card.slug: card for card in cards(our_site.site / "index.html")}
    expected = [(b.id, slug) for b in catalog.bundles for _p, slug, _v in b.roles]
    assert [(card.bundle, slug) for slug, card in shown.items()] == expected
    for bundle in catalog.bundles:
        for _pointer, slug, version in bundle.roles:
            role = bundle.files["en"].role(slug)
            assert role is not None
            card = shown[slug]
            assert card.text["span.rolecat-name"] == role.fields["name"]
            assert card.text["p.rolecat-card-description"] == role.fields["description"]
            assert card.text["li.rolecat-card-version"] == f"Version {version}"
            assert card.text["li.rolecat-tier-cell"].strip()
            # The role in each of its languages, one click away.
            hrefs = {a["href"] for a in card.links}
            assert {f"{lang}/{bundle.id}/{slug}/" for lang in bundle.languages} <= hrefs
    # Searching comes before the gallery; what a server reads is on a page of its own.
    start = (our_site.site / "index.html").read_text(encoding="utf-8")
    gallery = start.index('class="rolecat-gallery"')
    assert start.index("data-rolecat-search-open") < gallery
    assert "AI_AGENT_ROLES_CATALOG_URL" not in start


def test_a_language_page_shows_its_roles_as_cards(our_site: Build) -> None:
    shown = {card.slug: card for card in cards(our_site.site / "ru/index.html")}
    assert len(shown) == 6
    reviewer = shown["code-reviewer"]
    assert reviewer.text["span.rolecat-name"] == "Ревьюер кода"
    # The model has a place of its own, never run into the description.
    assert "по умолчанию" not in reviewer.text["p.rolecat-card-description"]
    assert reviewer.text["li.rolecat-tier-cell"] == "Модель по умолчанию"
    assert reviewer.text["li.rolecat-card-version"] == "Версия 1"
    assert [a["href"] for a in reviewer.links] == [
        "engineering/code-reviewer/",
        "../en/engineering/code-reviewer/",
    ]
    assert reviewer.links[1]["hreflang"] == "en" and reviewer.links[1]["title"] == "английский"


def test_a_bundle_page_shows_its_roles_as_the_same_cards(our_site: Build) -> None:
    shown = cards(our_site.site / "ru/engineering/index.html")
    assert [card.slug for card in shown] == ["code-reviewer", "test-engineer", "incident-responder"]
    assert shown[0].text["span.rolecat-name"] == "Ревьюер кода"
    assert shown[0].links[0]["href"] == "code-reviewer/"


def test_headings_go_down_one_level_at_a_time(our_site: Build) -> None:
    """Screen readers list a page by its headings: a card's name is one level below the heading
    it stands under (h3 under a bundle's h2 on a home page, h2 under the bundle's h1 on its own
    page), never a level skipped (Lighthouse's heading-order)."""
    for path, card_level in (
        ("index.html", 3),
        ("ru/index.html", 3),
        ("ru/engineering/index.html", 2),
    ):
        page = (our_site.site / path).read_text(encoding="utf-8")
        article = page[page.index("<article") : page.index("</article>")]
        levels = [int(level) for level in re.findall(r"<h([1-6])[\s>]", article)]
        assert levels[0] == 1, path
        assert all(b <= a + 1 for a, b in itertools.pairwise(levels)), (path, levels)
        titles = re.findall(r'<h([1-6]) class="rolecat-card-title"', article)
        assert titles and set(titles) == {str(card_level)}, (path, titles)


def test_role_pages_carry_no_cards(our_site: Build) -> None:
    """Cards are on the home and bundle pages only: a role page stays its size."""
    for page in (our_site.site / "en").glob("*/*/index.html"):
        assert "rolecat-card" not in page.read_text(encoding="utf-8"), page


def test_a_cards_texts_show_as_text(payload_site: Build) -> None:
    for path in ("index.html", "en/index.html", "ru/index.html"):
        shown = cards(payload_site.site / path)
        assert [card.slug for card in shown] == ["injector", "index"], path
        for card in shown:
            name = f"{card.slug} {NAME_PAYLOAD}"
            # What the filter looks in, and what the card shows, are the texts themselves.
            assert (
                card.attrs["data-rolecat-text"] == f"{name} {card.slug} {PAYLOAD} Bundle {PAYLOAD}"
            )
            assert card.text["span.rolecat-name"] == name
            assert card.text["p.rolecat-card-description"] == PAYLOAD
            assert card.text["span.rolecat-emoji"] == "<b>"
        raw = (payload_site.site / path).read_text(encoding="utf-8")
        assert f'data-rolecat-text="{escape(f"injector {NAME_PAYLOAD}")}' in raw
