"""The site in Chromium: browse, switch language, copy, search, payloads, and live reload."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

from build_tools.check import update_lock
from site_plugins.search.pagefind import PARTS_FILE, pages_by_language, split
from tests.support.paths import OUR_CATALOG
from tests.support.search_parts import split_part_bytes
from tests.support.site_builds import (
    NAME_PAYLOAD,
    PAYLOAD,
    PAYLOAD_INSTRUCTIONS,
    copy_catalog,
    serve,
)


def instructions(bundle: str, lang: str, slug: str, catalog: Path = OUR_CATALOG) -> str:
    data = json.loads((catalog / "bundles" / bundle / f"{lang}.json").read_text("utf-8"))
    return str(next(r for r in data["roles"] if r["slug"] == slug)["instructions"])


def test_home_to_bundle_to_role(page: Page, our_url: str) -> None:
    page.goto(our_url)
    expect(page.locator("article h1")).to_have_text("Agent roles catalog")
    page.locator("#bundle-engineering h2 a").click()
    expect(page).to_have_url(f"{our_url}en/engineering/")
    expect(page.locator("article h1")).to_have_text("Engineering")
    # The role's card (the sidebar, open at this bundle, links the role too).
    page.locator("article").get_by_role("link", name="Code Reviewer", exact=True).click()
    expect(page).to_have_url(f"{our_url}en/engineering/code-reviewer/")
    expect(page.locator("article h1 .rolecat-name")).to_have_text("Code Reviewer")
    expect(page.locator("pre.rolecat-instructions")).to_contain_text("You are a code reviewer")


def test_language_switcher_keeps_the_role(page: Page, our_url: str) -> None:
    page.goto(f"{our_url}en/engineering/code-reviewer/")
    page.locator(".md-header__option .md-select").hover()
    page.locator(".md-header__option a.md-select__link[lang='ru']").click()
    expect(page).to_have_url(f"{our_url}ru/engineering/code-reviewer/")
    expect(page.locator("article h1 .rolecat-name")).to_have_text("Ревьюер кода")
    page.locator("ul.rolecat-others a[hreflang='en']").click()
    expect(page).to_have_url(f"{our_url}en/engineering/code-reviewer/")


def copy_and_read(page: Page) -> str:
    button = page.locator("button.rolecat-copy")
    button.click()
    expect(button).to_have_attribute("data-rolecat-copied", "")
    return str(page.evaluate("navigator.clipboard.readText()"))


def test_copy_button_copies_the_exact_instructions(page: Page, our_url: str) -> None:
    page.goto(f"{our_url}ru/writing/translator/")
    assert copy_and_read(page) == instructions("writing", "ru", "translator")


def test_copy_button_copies_payload_instructions_byte_for_byte(
    page: Page, payload_url: str
) -> None:
    page.goto(f"{payload_url}en/payload/injector/")
    assert copy_and_read(page) == PAYLOAD_INSTRUCTIONS + "en"


def search(page: Page, url: str, word: str) -> None:
    """Open a page, press "/" as a reader would, and type into the header's search box."""
    page.goto(url)
    page.keyboard.press("/")
    expect(page.locator("input.md-search__input")).to_be_focused()
    page.keyboard.type(word)


def results(page: Page) -> list[str]:
    links = page.locator(".md-search-result__list a.md-search-result__link")
    expect(links.first).to_be_visible()
    return [str(href) for href in links.evaluate_all("all => all.map(a => a.href)")]


def test_search_finds_a_role_by_a_word_of_its_instructions(page: Page, our_url: str) -> None:
    # Each word appears only in the instructions of the code reviewer (in its language).
    for lang, word in (("en", "deserialization"), ("ru", "архитектуру")):
        assert word in instructions("engineering", lang, "code-reviewer")
        search(page, f"{our_url}{lang}/", word)
        # Russian stemming also finds "архитектура" elsewhere: the exact word ranks first.
        assert results(page)[0] == f"{our_url}{lang}/engineering/code-reviewer/"


def test_search_on_a_russian_page_finds_russian_word_forms(page: Page, our_url: str) -> None:
    # The catalog says "дежурному" (to the on-call engineer); the reader types "дежурный".
    assert "дежурный" not in instructions("engineering", "ru", "incident-responder")
    assert "дежурному" in instructions("engineering", "ru", "incident-responder")
    search(page, f"{our_url}ru/engineering/", "дежурный")
    assert f"{our_url}ru/engineering/incident-responder/" in results(page)
    # Keyboard: down to the first result, Enter opens it.
    page.keyboard.press("ArrowDown")
    expect(page.locator(".md-search-result__link").first).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{our_url}ru/engineering/incident-responder/")


def every_result(page: Page, url: str, word: str) -> list[str]:
    """All the results of a search, the "more" button pressed until none is left."""
    search(page, url, word)
    meta = page.locator(".md-search-result__meta")
    expect(meta).to_have_text(re.compile(r"\d"))
    count = int(re.sub(r"\D", "", meta.inner_text()))
    more = page.locator(".rolecat-search-more")
    while more.is_visible():
        more.click()
    links = page.locator(".md-search-result__list a.md-search-result__link")
    # Each result shows once its fragment has arrived: on a loaded machine, seconds.
    expect(links).to_have_count(count, timeout=30_000)
    return [str(href) for href in links.evaluate_all("all => all.map(a => a.href)")]


def test_a_search_index_in_parts_finds_what_the_whole_one_finds(
    page: Page, our_url: str, split_url: str, split_site_dir: Path
) -> None:
    # Every role's instructions say the word, and each language's role pages are spread over
    # several parts of its index: a query finds them in every part, as the whole index does.
    part_of = role_page_parts(split_site_dir)
    for lang, word in (("en", "communicate"), ("ru", "общайся")):
        listed = json.loads((split_site_dir / "pagefind" / lang / PARTS_FILE).read_text("utf-8"))
        assert len(listed["parts"]) >= 2
        parts = {number for url, number in part_of.items() if url.startswith(f"{lang}/")}
        assert len(parts) >= 2
        whole = [u.removeprefix(our_url) for u in every_result(page, f"{our_url}{lang}/", word)]
        found = [u.removeprefix(split_url) for u in every_result(page, f"{split_url}{lang}/", word)]
        assert sorted(found) == sorted(whole)
        assert {part_of[url] for url in found if url in part_of} == parts
    # Results from all parts are ranked together: the one role that says the word comes first.
    search(page, f"{split_url}en/", "deserialization")
    assert results(page)[0] == f"{split_url}en/engineering/code-reviewer/"


def role_page_parts(site: Path) -> dict[str, int]:
    """The part of its language's index each role page (``<lang>/<bundle>/<role>/``) is in."""
    found: dict[str, int] = {}
    budget = split_part_bytes(site)
    for pages in pages_by_language(site).values():
        sizes = [(site / page).stat().st_size for page in pages]
        for number, part in enumerate(split(pages, sizes, budget)):
            found.update((p.parent.as_posix() + "/", number) for p in part if len(p.parts) == 4)
    return found


def test_search_keeps_to_the_page_language(page: Page, our_url: str) -> None:
    # An English page searches English pages; the same word on a Russian page finds nothing.
    assert "deserialization" not in instructions("engineering", "ru", "code-reviewer")
    search(page, f"{our_url}en/", "deserialization")
    assert all("/en/" in url for url in results(page))
    search(page, f"{our_url}ru/", "deserialization")
    expect(page.locator(".md-search-result__meta")).to_have_text("Совпадений не найдено")
    # The interface's own words are not indexed: the copy button's label on every role page
    # finds no role page (the about page speaks of copying instructions, in its own words).
    search(page, f"{our_url}en/", "Copy instructions")
    expect(page.locator(".md-search-result__meta")).to_have_text("1 matching document")
    assert results(page) == [f"{our_url}about/"]


def test_payload_pages_run_nothing_and_log_no_errors(page: Page, payload_url: str) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (errors.append(f"dialog: {d.message}"), d.dismiss()))
    for path in ("", "en/", "ru/", "en/payload/", "en/payload/injector/", "ru/payload/index/"):
        page.goto(f"{payload_url}{path}")
        expect(page.locator("article h1")).to_be_visible()
        assert page.evaluate("typeof window.__pwned") == "undefined", path
        assert (
            page.locator("article img, article script:not([type='application/json'])").count() == 0
        )
    page.goto(f"{payload_url}en/payload/injector/")
    expect(page.locator("article h1 .rolecat-name")).to_have_text(f"injector {NAME_PAYLOAD}")
    expect(page.locator("article .rolecat-description")).to_have_text(PAYLOAD)
    # Search results show the payloads as text, and text after < or & is found: "open" follows
    # "<!--", "exclude" follows "&amp; &lt;b&gt; data-search-".
    for word in ("quokka", "open", "exclude"):
        search(page, f"{payload_url}en/", word)
        assert f"{payload_url}en/payload/injector/" in results(page), word
        assert (
            page.locator(".md-search-result__list img, .md-search-result__list script").count() == 0
        )
        assert page.evaluate("typeof window.__pwned") == "undefined"
    assert errors == []


def settled(page: Page, expression: str) -> object:
    """``expression`` in the page once it stops navigating: the three files of an edit (a
    bundle, the index, the lock) may reach ``make serve`` as two rebuilds, so two reloads."""
    for _attempt in range(10):
        try:
            return page.evaluate(expression)
        except PlaywrightError as error:
            if "Execution context was destroyed" not in error.message:
                raise
            page.wait_for_load_state()
    raise AssertionError("the page never stopped reloading")


def test_make_serve_reloads_the_browser_after_a_catalog_edit(page: Page, tmp_path: Path) -> None:
    catalog = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    with serve(catalog, make=True) as served:
        page.goto(f"{served.url}en/engineering/code-reviewer/")
        expect(page.locator("article h1 .rolecat-name")).to_have_text("Code Reviewer")
        page.evaluate("window.__before_reload = true")

        en = catalog / "bundles/engineering/en.json"
        en.write_text(
            en.read_text("utf-8").replace('"name": "Code Reviewer"', '"name": "Code Critic"'),
            encoding="utf-8",
        )
        index = catalog / "index.json"
        bumped = re.sub(
            r'("slug": "code-reviewer",\s*"version": )1', r"\g<1>2", index.read_text("utf-8")
        )
        index.write_text(bumped, encoding="utf-8")
        assert update_lock(catalog).written

        expect(page.locator("article h1 .rolecat-name")).to_have_text("Code Critic", timeout=60_000)
        expect(page.locator(".rolecat-facts li.rolecat-version")).to_have_text(
            re.compile(r"^Version 2( · |$)")
        )
        assert settled(page, "window.__before_reload === undefined")


HINTS = {
    # The fact in words, what happens where the deployment lacks the tier, and what the server
    # reads: the word as written and the chain of tiers it walks, or the driver.
    "writing/release-notes-writer": ("Lite, light and fastest", None, "chatModel: lite · lite"),
    "engineering/test-engineer": (
        "Flash, fast",  # an alias, as its tier
        "If flash is not set up, it uses lite.",
        "chatModel: sonnet · flash → lite",
    ),
    "engineering/incident-responder": (
        "The strongest available",
        None,
        "chatModel: best · ultra → max → pro → flash → lite",
    ),
    "writing/translator": ("gpt-4o-mini", None, "chatModel: gpt-4o-mini · driver openai"),
    "engineering/code-reviewer": ("Default model", None, "Default model"),
}


def model_hint(page: Page, url: str) -> tuple[Locator, Locator]:
    """A role page's model fact, and the model as written in its details for servers and tools,
    unfolded."""
    page.goto(url)
    details = page.locator("details.rolecat-server-details")
    details.locator("summary").click()
    raw = details.locator("dd.rolecat-model-raw")
    expect(raw).to_be_visible()
    return page.locator(".rolecat-facts li.rolecat-model"), raw


def test_role_pages_show_the_model_hint(page: Page, our_url: str) -> None:
    """A tier with its chain, an alias as its tier, best, a model key with its driver, none."""
    for path, (shown, fallback, written) in HINTS.items():
        fact, raw = model_hint(page, f"{our_url}en/{path}/")
        expect(fact).to_be_visible()
        expect(fact).to_have_text(f"Model: {shown}")
        if fallback:
            expect(fact).to_have_attribute("title", fallback)
        else:
            expect(fact).not_to_have_attribute("title", re.compile("."))
        expect(raw).to_have_text(written)
    fact, raw = model_hint(page, f"{our_url}ru/engineering/test-engineer/")
    expect(fact).to_have_text("Модель: Flash, быстрая")
    expect(fact).to_have_attribute("title", "Если flash не настроена, используется lite.")
    expect(raw).to_have_text("chatModel: sonnet · flash → lite")


def visible_roles(page: Page, items: str) -> list[str]:
    names = page.locator(f"{items}:visible a:not([hreflang]) .rolecat-name")
    return [text.strip() for text in names.all_inner_texts()]


def test_bundle_page_narrows_roles_by_tier(page: Page, our_url: str) -> None:
    page.goto(f"{our_url}en/engineering/")
    cards = "#rolecat-roles .rolecat-card"
    everyone = ["Code Reviewer", "Test Engineer", "Incident Responder"]
    expect(page.locator(cards)).to_have_count(3)
    assert visible_roles(page, cards) == everyone
    chips = page.locator(f"{cards} .rolecat-tier-cell").all_inner_texts()
    assert chips == ["Default model", "Flash, fast", "The strongest available"]
    control = page.get_by_role("combobox", name="Model", exact=True)
    expect(control).to_be_visible()
    assert control.locator("option").all_inner_texts() == [
        "all", "Flash, fast", "The strongest available", "Default model"
    ]  # fmt: skip
    control.select_option("flash")
    expect(page.locator(f"{cards}:visible")).to_have_count(1)
    assert visible_roles(page, cards) == ["Test Engineer"]
    control.select_option("")
    expect(page.locator(f"{cards}:visible")).to_have_count(3)


def test_language_page_lists_every_role_with_its_tier_and_narrows(page: Page, our_url: str) -> None:
    page.goto(f"{our_url}ru/")
    cards = "#rolecat-roles .rolecat-card"
    expect(page.locator(cards)).to_have_count(6)
    control = page.get_by_role("combobox", name="Модель", exact=True)
    assert control.locator("option").all_inner_texts() == [
        "все",
        "Flash, быстрая",
        "Lite, лёгкая и самая быстрая",
        "Самая сильная из доступных",
        "Конкретная модель",
        "Модель по умолчанию",
    ]
    control.select_option("default")
    assert visible_roles(page, cards) == ["Ревьюер кода", "Технический писатель"]
    control.select_option("model")
    card = page.locator(f"{cards}:visible")
    expect(card).to_have_count(1)
    expect(card.locator(".rolecat-tier-cell")).to_have_text("gpt-4o-mini")
    control.select_option("lite")
    assert len(visible_roles(page, cards)) == 1
