"""The site built from a catalog with a git history: versions, diffs, staleness, health, feeds.

The repository is the story of ``tests/support/history_repo.py``: bumps, a translation left
behind and one catching up, a role removed and added again, en.json renamed to en.yaml, a broken
commit and an instruction file.
"""

# Russian text is meant to be Cyrillic: RUF001 (letters that look Latin) does not apply here.
# ruff: noqa: RUF001

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import feedparser
import pytest
from markupsafe import escape

from build_tools.wire import raw_tree, site_paths
from build_tools.wire.site_paths import TOOLS
from tests.support.history_repo import LONG_LINK, SUBJECT, StoryRepo
from tests.support.site_builds import SITE_URL, Build, build, config_with, site_env

RAW = re.compile(r"^(index\.(json|yaml)|bundles/.+|schema/.+)$")


@pytest.fixture(scope="module")
def site(story: StoryRepo, tmp_path_factory: pytest.TempPathFactory) -> Build:
    built = build(
        story[0] / "catalog", tmp_path_factory.mktemp("story-site") / "site", site_url=SITE_URL
    )
    assert built.returncode == 0, built.output
    return built


@pytest.fixture(scope="module")
def shallow_site(story: StoryRepo, tmp_path_factory: pytest.TempPathFactory) -> Build:
    clone = tmp_path_factory.mktemp("shallow") / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{story[0]}", str(clone)], check=True
    )
    built = build(clone / "catalog", clone.parent / "site", site_url=SITE_URL)
    assert built.returncode == 0, built.output
    return built


@pytest.fixture(scope="module")
def tarball_site(story: StoryRepo, tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The same catalog outside git, as from a tarball."""
    catalog = shutil.copytree(story[0] / "catalog", tmp_path_factory.mktemp("tarball") / "catalog")
    built = build(catalog, catalog.parent / "site", site_url=SITE_URL)
    assert built.returncode == 0, built.output
    return built


def page(site: Build, path: str) -> str:
    text = (site.site / path / "index.html").read_text(encoding="utf-8")
    return text[text.index('<div class="rolecat ') : text.index("</article>")]


def versions_listed(text: str) -> list[tuple[str, str]]:
    """(version, date) of each entry of a role page's history, in page order."""
    return re.findall(
        r"<strong>[^<]+ (\d+)</strong> · <time datetime=\"[^\"]+\">([\d-]+)</time>", text
    )


def test_role_pages_list_their_versions_newest_first(site: Build) -> None:
    reviewer = page(site, "en/team/reviewer")
    assert versions_listed(reviewer) == [
        ("4", "2026-06-01"),
        ("3", "2026-03-01"),
        ("2", "2026-02-01"),
        ("1", "2026-01-05"),
    ]
    for number in (2, 3, 4):
        assert f'<a href="v{number}/">what changed</a>' in reviewer
        assert (site.site / f"en/team/reviewer/v{number}/index.html").is_file()
    assert not (site.site / "en/team/reviewer/v1").exists()  # nothing to compare it with
    assert "first version" in reviewer
    assert "History starts at 2026-01-05, the catalog&#39;s first commit." in reviewer
    assert "reviewer: Russian catches up" in reviewer
    # Any two of them are compared on one page, the two newest picked.
    assert '<form class="rolecat-compare-form" action="compare/" method="get"' in reviewer
    assert '<option value="3" selected>Version 3 · 2026-03-01</option>' in reviewer
    assert (site.site / "en/team/reviewer/compare/index.html").is_file()
    # Russian labels on Russian pages.
    ru = page(site, "ru/team/reviewer")
    assert "История" in ru and "что изменилось" in ru and "History starts" not in ru
    assert "Сравнить версии" in ru and "<label>Было <select" in ru


def test_a_role_removed_and_added_again_shows_both_lives(site: Build) -> None:
    helper = page(site, "en/team/helper")
    assert f'<span class="rolecat-subject">{escape(SUBJECT)}</span>' in helper
    assert "<script>window.__pwned" not in helper
    assert versions_listed(helper) == [
        ("3", "2026-08-01"),
        ("2", "2026-05-01"),
        ("1", "2026-01-05"),
    ]
    assert "removed from the catalog on 2026-04-02" in helper
    back = page(site, "en/team/helper/v2")
    assert "Compared with version 1 (2026-01-05)." in back
    assert "<ins>" in back and "Edit 1: be brief." in back


def test_a_version_page_shows_a_word_diff_and_the_changed_fields(site: Build) -> None:
    text = page(site, "en/team/writer/v2")
    assert "Writer (en), version 2" in text
    assert "2026-07-01" in text and "writer: release notes" in text
    # The old and the new description, each whole with its side of the word diff; catalog text
    # is escaped inside the diff like everywhere else.
    description = (
        '<tr><th scope="row">Description</th><td data-label="Before"><div class="rolecat-diff">'
        "<del>What the writer does</del> (en).</div></td>"
        '<td data-label="After"><div class="rolecat-diff">'
        "<ins>Writes &lt;b&gt;release notes&lt;/b&gt; &amp; guides</ins> (en).</div></td></tr>"
    )
    assert description in text
    assert '<th scope="row">Name</th>' not in text
    assert '<a href="../compare/?from=1&amp;to=2" class="rolecat-compare-link">' in text
    instructions = text[text.index('<div class="rolecat-diff rolecat-diff-instructions">') :]
    assert instructions.startswith(
        '<div class="rolecat-diff rolecat-diff-instructions">You are the writer.'
    )
    assert f"<ins>\n\nEdit 1: be brief.{escape(LONG_LINK)}</ins></div>" in instructions
    # The other language: what changed there, and that it is possibly out of date.
    assert 'hreflang="ru">Russian</a>: No change in this language.' in text
    assert '<span class="rolecat-badge">possibly out of date</span>' in text
    # Versions link to each other and to the role's history.
    assert '<a href="../v1/" rel="prev">' not in text  # version 1 has no page of changes
    assert '<a href="../#history">History</a>' in text


def test_a_version_page_in_the_language_left_behind(site: Build) -> None:
    text = page(site, "ru/team/reviewer/v3")
    assert "На этом языке ничего не изменилось." in text
    assert "возможно, устарел" in text and "в версии 3 изменился текст (английский)" in text
    assert '<a href="../v2/" rel="prev">← Версия 2</a>' in text
    assert '<a href="../v4/" rel="next">Версия 4 →</a>' in text
    caught_up = page(site, "ru/team/reviewer/v4")
    assert "<del>" in caught_up or "<ins>" in caught_up
    assert "rolecat-stale" not in caught_up


def test_stale_translations_are_flagged_on_role_pages(site: Build) -> None:
    writer_ru = page(site, "ru/team/writer")
    assert 'class="admonition warning rolecat-stale"' in writer_ru
    # Which version of which language it was translated from, and where that language is now.
    assert (
        "Перевод сделан с версии 1 текста (английский); сейчас этот текст в версии 2." in writer_ru
    )
    helper_ru = page(site, "ru/team/helper")
    assert "с версии 2 текста (английский); сейчас этот текст в версии 3." in helper_ru
    assert 'href="../../../en/team/writer/v2/">что изменилось</a>' in writer_ru
    for path in ("en/team/writer", "ru/team/reviewer", "en/team/reviewer"):
        assert "rolecat-stale" not in page(site, path), path


def test_published_agent_files_say_a_translation_is_behind(site: Build) -> None:
    for tool in TOOLS:
        behind = (site.site / site_paths.role_export("ru", "team", "writer", tool)).read_text()
        assert "(переведено с версии 1; оригинал уже в версии 2)" in behind, tool
        current = (site.site / site_paths.role_export("en", "team", "writer", tool)).read_text()
        assert "версии" not in current and "version" not in current.split("---")[1], tool


def test_health_pages_count_per_language(site: Build) -> None:
    pattern = (
        r'<a href="[^"]+">([^<]+)</a> <code>(\w+)</code></td><td>(\d+)</td>'
        r'<td class="rolecat-stale-count">(\d+)</td><td class="rolecat-missing-count">(\d+)</td>'
    )
    # Every health page sums up every language, each named in the page's language.
    overview, ru = page(site, "health"), page(site, "health/ru")
    assert re.findall(pattern, overview) == [
        ("English", "en", "3", "0", "0"),
        ("Russian", "ru", "3", "2", "0"),
    ]
    assert re.findall(pattern, ru) == [
        ("английский", "en", "3", "0", "0"),
        ("русский", "ru", "3", "2", "0"),
    ]
    stale = ru[ru.index('<div class="rolecat-table rolecat-stale-roles"') :]
    assert [m for m in re.findall(r'<a href="../../ru/team/(\w+)/">', stale)] == [
        "writer",
        "helper",
    ]
    assert '<a href="../../en/team/writer/v2/">2</a>' in stale
    assert "<td>версия 1, английский</td>" in stale and "<td>версия 2, английский</td>" in stale
    en = page(site, "health/en")
    assert en.count("<p>None.</p>") == 2


def test_the_health_page_is_a_coverage_matrix(site: Build) -> None:
    overview = page(site, "health")
    matrix = overview[overview.index('<div class="rolecat-table rolecat-coverage"') :]
    heads = re.findall(r'<th scope="col" class="rolecat-coverage-language">(.*?)</th>', matrix)
    assert heads == ['<span lang="en">English</span> <code>en</code>',
                     '<span lang="ru">Russian</span> <code>ru</code>']  # fmt: skip
    assert '<th scope="rowgroup" colspan="3"><a href="../en/team/">Team</a></th>' in matrix
    cells = re.findall(
        r'<tr data-rolecat-role="(\w+)"><th scope="row">.*?</th>(.*?)</tr>', matrix, re.S
    )
    states = {slug: re.findall(r'data-state="(\w+)" data-lang="(\w+)"', row) for slug, row in cells}
    assert states == {
        "reviewer": [("current", "en"), ("current", "ru")],
        "writer": [("current", "en"), ("behind", "ru")],
        "helper": [("current", "en"), ("behind", "ru")],
    }
    # A lagging cell names the version that left it behind and links to what changed there.
    writer = dict(cells)["writer"]
    assert '<a href="../en/team/writer/v2/">behind since v2</a>' in writer
    assert 'title="Translated from version 1 of the text in English; that text is now at ' in writer
    assert '<span class="rolecat-cell-note">from v1, English</span>' in writer
    assert '<a href="../ru/team/reviewer/">current</a>' in dict(cells)["reviewer"]


def test_feeds_are_atom_with_stable_ids(site: Build, story: StoryRepo) -> None:
    whole = feedparser.parse((site.site / "feed.xml").read_bytes())
    assert not whole.bozo and whole.version == "atom10"
    titles = [e.title for e in whole.entries]
    assert titles[:3] == [
        "🧭 Helper (en), version 3",
        "🧭 Writer (en), version 2",
        "🧭 Reviewer (en), version 4",
    ]
    # Every published version, never the broken commit nor the renaming one; newest first.
    assert len(whole.entries) == 4 + 2 + 3
    assert [e.updated for e in whole.entries] == sorted(
        (e.updated for e in whole.entries), reverse=True
    )
    assert whole.entries[0].link == f"{SITE_URL}en/team/helper/v3/"
    assert whole.entries[-1].link.startswith(f"{SITE_URL}en/team/")
    assert (
        "English: changed: Instructions · "
        "Русский: No change in this language. (possibly out of date)" in whole.entries[0].summary
    )
    assert len({e.id for e in whole.entries}) == len(whole.entries)
    assert whole.entries[0].summary.startswith(SUBJECT + " · ")

    ru = feedparser.parse((site.site / "ru/feed.xml").read_bytes())
    assert not ru.bozo and ru.feed.language == "ru"
    assert ru.entries[0].title == "🧭 Helper (ru), версия 3"
    assert ru.entries[0].link == f"{SITE_URL}ru/team/helper/v3/"
    assert "возможно, устарел" in ru.entries[0].summary
    assert ru.entries[0].author == "Ada Lovelace"
    assert {e.id for e in ru.entries}.isdisjoint(e.id for e in whole.entries)


def test_each_home_links_its_languages_feed_and_health(site: Build) -> None:
    home, ru = page(site, ""), page(site, "ru")
    assert '<a href="en/feed.xml" type="application/atom+xml">Atom feed of changes</a>' in home
    assert '<a href="health/en/">Catalog health</a>' in home
    assert '<a href="feed.xml" type="application/atom+xml">Atom-лента изменений</a>' in ru
    assert '<a href="../health/ru/">Состояние каталога</a>' in ru


def test_version_and_health_pages_stay_out_of_search(site: Build) -> None:
    """Pagefind indexes only what a page marks data-pagefind-body."""
    indexed = {
        page.parent.relative_to(site.site).as_posix()
        for page in site.site.rglob("index.html")
        if "data-pagefind-body" in page.read_text(encoding="utf-8")
    }
    assert "en/team/reviewer" in indexed
    assert (site.site / "en/team/reviewer/v2/index.html").is_file()
    assert (site.site / "en/team/reviewer/compare/index.html").is_file()
    assert (site.site / "health/en/index.html").is_file()
    assert not [path for path in indexed if re.search(r"/(v\d+|compare)$|^health(/|$)", path)]


def test_skipped_commits_are_logged(site: Build, story: StoryRepo) -> None:
    short = story[1]["broken"][:7]
    assert f"history: commit {short} (Oops <b>broken</b>) is skipped" in site.output


def test_sha256sums_cover_the_raw_tree(site: Build) -> None:
    raw = sorted(
        p.relative_to(site.site).as_posix()
        for p in site.site.rglob("*")
        if p.is_file() and RAW.match(p.relative_to(site.site).as_posix())
    )
    listed = [
        line.split("  ", 1)[1] for line in (site.site / "sha256sums").read_text().splitlines()
    ]
    assert listed == raw and "index.json" in raw and "bundles/team/en.yaml" in raw
    done = subprocess.run(
        ["sha256sum", "--strict", "-c", "sha256sums"],
        cwd=site.site,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_history_leaves_the_raw_tree_as_it_was(site: Build, tarball_site: Build) -> None:
    """With history or without, the server reads the same bytes."""
    sums = (site.site / raw_tree.CHECKSUMS).read_bytes()
    assert sums == (tarball_site.site / raw_tree.CHECKSUMS).read_bytes()
    for line in sums.decode().splitlines():
        path = line.split("  ", 1)[1]
        assert (site.site / path).read_bytes() == (tarball_site.site / path).read_bytes(), path


def test_a_tarball_builds_without_history(tarball_site: Build) -> None:
    reviewer = page(tarball_site, "en/team/reviewer")
    assert versions_listed(reviewer) == []
    assert "<strong>Version 4</strong>\n  </li>" in reviewer
    assert "not committed" not in reviewer and "first version" not in reviewer
    assert (
        "No history (the catalog is not in a git repository): only the current version is shown."
        in reviewer
    )
    assert not (tarball_site.site / "en/team/reviewer/v4").exists()
    # One version: nothing to compare, so no form and no compare page.
    assert "rolecat-compare-form" not in reviewer
    assert not (tarball_site.site / "en/team/reviewer/compare").exists()
    parsed = feedparser.parse((tarball_site.site / "feed.xml").read_bytes())
    assert not parsed.bozo and parsed.entries == []
    # With no change to date it, the feed is dated by SOURCE_DATE_EPOCH (the last commit's time).
    assert parsed.feed.updated == "2023-11-14T22:13:20Z"


def test_a_shallow_clone_says_where_history_starts(shallow_site: Build) -> None:
    for path in ("en/team/reviewer", "health/en"):
        text = page(shallow_site, path)
        assert (
            "History starts at 2026-08-01: this build&#39;s git checkout is shallow, so older "
            "versions are not shown." in text
        ), path
    reviewer = page(shallow_site, "en/team/reviewer")
    assert versions_listed(reviewer) == [("4", "2026-08-01")]
    assert "already in the catalog where the history starts" in reviewer
    assert not (shallow_site.site / "en/team/reviewer/v4").exists()
    assert not (shallow_site.site / "en/team/reviewer/compare").exists()
    assert "rolecat-stale" not in page(shallow_site, "ru/team/writer")  # unknown, not claimed
    parsed = feedparser.parse((shallow_site.site / "feed.xml").read_bytes())
    assert not parsed.bozo and parsed.entries == []


def test_two_builds_give_the_same_feeds(site: Build, story: StoryRepo, tmp_path: Path) -> None:
    again = build(story[0] / "catalog", tmp_path / "site", site_url=SITE_URL)
    assert again.returncode == 0, again.output
    for path in ("feed.xml", "en/feed.xml", "ru/feed.xml", "sha256sums"):
        assert (again.site / path).read_bytes() == (site.site / path).read_bytes(), path


def test_history_can_be_turned_off(story: StoryRepo, tmp_path: Path) -> None:
    config = config_with(tmp_path, "history: false")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", "out"],
        env=site_env(story[0] / "catalog"),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "out/en/team/reviewer/index.html").read_text(encoding="utf-8")
    assert "No history (history is turned off in mkdocs.yml)" in text
    assert not (tmp_path / "out/en/team/reviewer/v2").exists()
    assert (tmp_path / "out/feed.xml").is_file() and (tmp_path / "out/health/index.html").is_file()
