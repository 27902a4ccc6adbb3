"""Atom documents as feed readers and the schema see them; the checksums file as sha256sum does."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import feedparser

from build_tools.history.feeds import ATOM, Entry, Feed, atom, stable_id
from build_tools.wire.raw_tree import checksums

NS = {"atom": ATOM}
WHEN = datetime(2026, 3, 1, 12, tzinfo=UTC)


def feed(**changes: object) -> Feed:
    entry = Entry(
        id=stable_id("reviewer", "3", "abc"),
        title="🔎 <b>Reviewer</b> & co, version 3",
        updated=WHEN,
        link="https://roles.example.test/en/team/reviewer/v3/",
        author="Ada <ada@example.test>",
        summary="changed: Instructions \x01 \ud7ff ]]> <script>",
        categories=(("team", "Team & co"),),
    )
    values: dict[str, object] = {
        "id": stable_id("feed", "en"),
        "title": "Agent roles catalog: role changes",
        "updated": WHEN,
        "self_link": "https://roles.example.test/en/feed.xml",
        "link": "https://roles.example.test/en/",
        "language": "en",
        "entries": [entry],
    }
    values.update(changes)
    return Feed(**values)  # type: ignore[arg-type]


def test_feed_readers_read_it_as_atom() -> None:
    parsed = feedparser.parse(atom(feed()))
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    assert parsed.feed.title == "Agent roles catalog: role changes"
    assert parsed.feed.language == "en"
    (entry,) = parsed.entries
    assert entry.title == "🔎 <b>Reviewer</b> & co, version 3"
    assert entry.link == "https://roles.example.test/en/team/reviewer/v3/"
    assert entry.author == "Ada <ada@example.test>"
    assert entry.updated == "2026-03-01T12:00:00Z"
    assert entry.tags[0]["term"] == "team" and entry.tags[0]["label"] == "Team & co"
    # A character XML cannot hold becomes U+FFFD; everything else arrives as it was written.
    assert entry.summary == "changed: Instructions \ufffd \ud7ff ]]> <script>"


def test_every_element_rfc_4287_requires() -> None:
    root = ET.fromstring(atom(feed()))
    assert root.tag == f"{{{ATOM}}}feed"
    for name in ("id", "title", "updated"):
        assert root.find(f"atom:{name}", NS) is not None
    assert root.find("atom:link[@rel='self']", NS) is not None
    for entry in root.findall("atom:entry", NS):
        for name in ("id", "title", "updated", "author/atom:name", "summary"):
            assert entry.find(f"atom:{name}", NS) is not None, name
        assert entry.findtext("atom:id", namespaces=NS).startswith("urn:uuid:")


def test_dates_are_utc_rfc_3339() -> None:
    later = datetime(2026, 3, 1, 15, tzinfo=timezone(timedelta(hours=3)))
    root = ET.fromstring(atom(feed(updated=later)))
    assert root.findtext("atom:updated", namespaces=NS) == "2026-03-01T12:00:00Z"


def test_ids_are_stable_and_distinct() -> None:
    assert stable_id("reviewer", "3", "abc") == stable_id("reviewer", "3", "abc")
    assert stable_id("reviewer", "3", "abc") != stable_id("reviewer", "3", "abc", "ru")
    assert stable_id("a", "bc") != stable_id("ab", "c")


def test_an_empty_feed_is_valid() -> None:
    parsed = feedparser.parse(atom(feed(entries=[])))
    assert not parsed.bozo and parsed.entries == []


def test_checksums_verify_with_sha256sum(tmp_path: Path) -> None:
    files = {"index.json": b"{}\n", "bundles/team/ru.yaml": "язык: ru\n".encode()}
    for path, content in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(content)
    (tmp_path / "sha256sums").write_bytes(checksums(files))
    assert checksums(files).decode().splitlines()[0].endswith("  bundles/team/ru.yaml")
    done = subprocess.run(
        ["sha256sum", "--strict", "-c", "sha256sums"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == ["bundles/team/ru.yaml: OK", "index.json: OK"]
