"""Atom feeds (RFC 4287), written with ElementTree so every text is escaped as XML needs.

Entry ids are ``urn:uuid`` names derived from what the entry is about (a role, a version, the
commit that published it), so a rebuild, a mirror or a move to another host keeps them: readers
never see an old change twice.
"""

from __future__ import annotations

import re
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

ATOM = "http://www.w3.org/2005/Atom"

_NAMESPACE = uuid.UUID("6f4b6f0e-4a8e-5d55-9a57-8f1f6c1d3b0a")
"""Our namespace for name-based UUIDs (RFC 4122, version 5): fixed forever, like the ids."""

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 cannot hold, even escaped (a catalog's JSON may carry ``\\u0001``)."""


def stable_id(*parts: str) -> str:
    """The same parts give the same id, on every build and every host."""
    return f"urn:uuid:{uuid.uuid5(_NAMESPACE, chr(0).join(parts))}"


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    updated: datetime
    link: str
    author: str
    summary: str
    categories: tuple[tuple[str, str], ...] = ()
    """(term, label) pairs."""


@dataclass(frozen=True)
class Feed:
    id: str
    title: str
    updated: datetime
    self_link: str
    link: str
    """The page the feed is about."""
    language: str | None = None
    subtitle: str = ""
    entries: Sequence[Entry] = field(default_factory=list)
    generator: str = "rolecat"


def atom(feed: Feed) -> bytes:
    """The feed document: UTF-8, with its XML declaration and a final newline."""
    # Plain names under a default namespace declared once: ElementTree's own namespace handling
    # would need a prefix on every element, or refuse the unqualified attributes Atom uses.
    root = ET.Element("feed", xmlns=ATOM)
    if feed.language:
        root.set("{http://www.w3.org/XML/1998/namespace}lang", feed.language)
    _text(root, "id", feed.id)
    _text(root, "title", feed.title)
    if feed.subtitle:
        _text(root, "subtitle", feed.subtitle)
    _text(root, "updated", _date(feed.updated))
    _link(root, feed.self_link, "self", "application/atom+xml")
    _link(root, feed.link, "alternate", "text/html")
    _text(root, "generator", feed.generator)
    for item in feed.entries:
        entry = ET.SubElement(root, "entry")
        _text(entry, "id", item.id)
        _text(entry, "title", item.title)
        _text(entry, "updated", _date(item.updated))
        _text(entry, "published", _date(item.updated))
        author = ET.SubElement(entry, "author")
        _text(author, "name", item.author or "unknown")
        _link(entry, item.link, "alternate", "text/html")
        for term, label in item.categories:
            ET.SubElement(entry, "category", term=_clean(term), label=_clean(label))
        _text(entry, "summary", item.summary)
    ET.indent(root)
    document: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return document + b"\n"


def _text(parent: ET.Element, name: str, value: str) -> None:
    ET.SubElement(parent, name).text = _clean(value)


def _link(parent: ET.Element, href: str, rel: str, media_type: str) -> None:
    ET.SubElement(parent, "link", rel=rel, type=media_type, href=_clean(href))


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _date(moment: datetime) -> str:
    """RFC 3339, as Atom requires: ``2026-01-05T12:00:00Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
