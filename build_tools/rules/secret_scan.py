"""The secret scan: every string the site would publish, read for credentials before it builds.

The verdict is detect-secrets' (Yelp's maintained scanner) through its ad-hoc ``scan_line``, with
its high-confidence detectors only (provider keys and tokens, private keys, credentials in URLs,
JSON Web Tokens) and its usual heuristic filters. Its entropy and keyword detectors are left out:
on prompts, which are prose, they flag words. Nothing is ever verified over the network.

detect-secrets runs a few dozen regular expressions per line: over the prompts of a large catalog
(80 MB) that takes many times longer than reading and hashing them. A screen goes first. Every
credential of the kinds those detectors know (their formats are fixed: a GitHub token is 40
characters, an AWS access key 20) is a run of at least :data:`RUN` characters drawn from letters,
digits and ``_-+/=.\\``, except a URL's ``user:password@`` and a private key's ``BEGIN … PRIVATE
KEY`` line, which have screens of their own; shorter strings that the detectors' patterns also
match (``xoxb-1-a``) are no credentials. The screen finds such runs with two C-speed passes
over each string (map every character to token or not, then look for :data:`RUN` tokens in a
row); only lines holding one reach the detectors' own patterns, and only lines those match reach
detect-secrets, which is imported then: a clean catalog never loads it.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from build_tools.diagnostics import Diagnostic, Pointer, describe_pointer
from build_tools.model.catalog import Bundle
from build_tools.model.credentials import ADVICE
from build_tools.sources.json_reader import Document, strings

DETECTORS: tuple[str, ...] = (
    "AWSKeyDetector",
    "AzureStorageKeyDetector",
    "BasicAuthDetector",
    "DiscordBotTokenDetector",
    "GitHubTokenDetector",
    "GitLabTokenDetector",
    "JwtTokenDetector",
    "MailchimpDetector",
    "NpmDetector",
    "OpenAIDetector",
    "PrivateKeyDetector",
    "PypiTokenDetector",
    "SendGridDetector",
    "SlackDetector",
    "SquareOAuthDetector",
    "StripeDetector",
    "TelegramBotTokenDetector",
)
"""detect-secrets plugins whose patterns name a provider's credential format exactly."""

FILTERS: tuple[str, ...] = tuple(
    f"detect_secrets.filters.heuristic.{name}"
    for name in (
        "is_sequential_string",
        "is_potential_uuid",
        "is_likely_id_string",
        "is_templated_secret",
        "is_prefixed_with_dollar_sign",
        "is_indirect_reference",
        "is_not_alphanumeric_string",
    )
)
"""detect-secrets' default filters that apply to text (``ABCDEF…``, ``<password>``, ``${TOKEN}``).
Not its inline ``pragma: allowlist secret`` comments: they would be published with the prompt."""

RUN = 20
"""The shortest run of token characters that a credential of the detectors' kinds holds."""

TOKEN_CHARACTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+/=.\\"
"""A backslash counts: an escape in a JSON or YAML source never splits a run."""

_TABLE = bytes(0x61 if chr(i) in TOKEN_CHARACTERS else 0x20 for i in range(256))
_RUN_BYTES = b"a" * RUN


def _guarded(text: str) -> bool:
    """The two credentials that are no run: a password in a URL, a private key's first line."""
    return ("@" in text and "://" in text) or ("V" in text and "PRIVATE KEY" in text)


def suspect(text: str) -> bool:
    """Whether the detectors could find anything in ``text``; never false where they would.

    Other scripts are dropped first: that only joins runs, never splits one, and keeps every
    newline. Then each byte becomes ``a`` for a token character, a space for any other."""
    data = text.encode("ascii") if text.isascii() else text.encode("ascii", "ignore")
    return _RUN_BYTES in data.translate(_TABLE) or _guarded(text)


@dataclass(frozen=True)
class Finding:
    """One credential in a string: what it is and where; never the credential itself."""

    kind: str
    """detect-secrets' name for it, e.g. ``GitHub Token``."""
    start: int
    """Where the text the detector matched starts in the string..."""
    end: int
    """... and where it ends."""
    digest: str
    """SHA-256 of the matched text: how an allowlist entry names it."""


def scan_text(text: str) -> list[Finding]:
    """Every credential the detectors find in ``text``, line by line (their unit), in order."""
    # suspect(), inlined: nearly every string of a catalog ends here.
    data = text.encode("ascii") if text.isascii() else text.encode("ascii", "ignore")
    runs = data.translate(_TABLE)
    at = runs.find(_RUN_BYTES)
    if at < 0 and not (("@" in text and "://" in text) or ("V" in text and "PRIVATE KEY" in text)):
        return []
    numbers: set[int] = set()
    while at >= 0:  # the line of each run, counted in the same bytes
        numbers.add(data.count(b"\n", 0, at))
        end = data.find(b"\n", at)
        at = -1 if end < 0 else runs.find(_RUN_BYTES, end)
    lines = text.split("\n")
    if _guarded(text):
        numbers.update(n for n, line in enumerate(lines) if _guarded(line))
    found = []
    start = number = 0
    for wanted in sorted(numbers):
        start += sum(map(len, lines[number:wanted])) + wanted - number
        number = wanted
        regions = list(_regions(lines[wanted]))
        if regions and any(_gate().search(region) for region in regions):
            found += [
                Finding(kind, start + begin, start + end, digest)
                for kind, begin, end, digest in _detector().scan(lines[wanted], regions)
            ]
    return found


_FOLDED = "\u0130\u0131\u017f\u212a"
"""The letters besides ASCII ones that ``[a-z]`` matches under IGNORECASE (U+0130, U+0131,
U+017F, U+212A)."""


def _regions(line: str) -> Iterator[str]:
    """Where in a line the detectors could match. Mostly each word (between spaces and tabs)
    holding a run, with the character after it; the whole line where a pattern reaches across
    words (AWS's secret key after ``aws``, npm's ``_authToken``), has no run (a password in a
    URL, a private key), or could match letters the screen drops."""
    lowered = line.lower()
    if (
        "aws" in lowered
        or "_authtoken" in lowered
        or _guarded(line)
        or (not line.isascii() and any(letter in line for letter in _FOLDED))
    ):
        yield line
        return
    runs = line.encode("ascii", "replace").translate(_TABLE)  # a byte per character
    at = runs.find(_RUN_BYTES)
    while at >= 0:
        begin = max(line.rfind(" ", 0, at), line.rfind("\t", 0, at)) + 1
        ends = [end for end in (line.find(" ", at), line.find("\t", at)) if end >= 0]
        end = min(ends, default=len(line))
        yield line[begin : end + 1]
        at = runs.find(_RUN_BYTES, end)


class _Detector:
    """detect-secrets, loaded when needed: its plugins' patterns as a gate, then its verdict."""

    def __init__(self) -> None:
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

        classes: Any = get_mapping_from_secret_type_to_class().values()
        plugins: dict[str, Any] = {plugin.__name__: plugin for plugin in classes}
        self.plugins = [plugins[name] for name in DETECTORS]
        flags = ((re.IGNORECASE, "i"), (re.VERBOSE, "x"), (re.MULTILINE, "m"), (re.DOTALL, "s"))
        self.gate = re.compile(
            "|".join(
                f"(?{''.join(letter for flag, letter in flags if pattern.flags & flag)}:"
                f"{pattern.pattern})"
                for plugin in self.plugins
                for pattern in plugin.denylist
            )
        )
        self.settings = {
            "plugins_used": [{"name": name} for name in DETECTORS],
            "filters_used": [{"path": path} for path in FILTERS],
        }

    def scan(self, line: str, regions: list[str]) -> list[tuple[str, int, int, str]]:
        """(kind, start, end, digest) of each credential detect-secrets reports on one line,
        asked only where the detectors' own patterns match one of its ``regions``."""
        if not any(self.gate.search(region) for region in regions):
            return []
        from detect_secrets.core.scan import scan_line
        from detect_secrets.settings import transient_settings

        with transient_settings(self.settings):
            verdict = {(secret.type, secret.secret_value) for secret in scan_line(line)}
        found = []
        for plugin in self.plugins:
            if not any(kind == plugin.secret_type for kind, _ in verdict):
                continue
            for pattern in plugin.denylist:
                for match in pattern.finditer(line):
                    values = [g for g in match.groups() if g] or [match.group()]
                    if any((plugin.secret_type, value) in verdict for value in values):
                        digest = hashlib.sha256(match.group().encode("utf-8")).hexdigest()
                        found.append((plugin.secret_type, match.start(), match.end(), digest))
        return sorted(set(found), key=lambda item: item[1])


@cache
def _detector() -> _Detector:
    return _Detector()


GATES = Path(__file__).with_name("secret_gates.json")
"""The gate of each detect-secrets release rolecat knows, by the SHA-256 of its plugins' sources:
package data, written by ``scripts/secret_gates.py`` from detect-secrets itself and held to it by
the tests. Never a cache: a verdict-bearing value is only ever read from what ships with rolecat."""


@cache
def _gate() -> re.Pattern[str]:
    """The detectors' own patterns as one: most catalogs hold a word the screen lets through (a
    long hyphenated one, a URL) that no detector matches, and are then scanned without importing
    detect-secrets. Taken from :data:`GATES` where the installed plugins are the ones it was made
    from, else made by :class:`_Detector` from the plugins themselves."""
    place = _detect_secrets_dir()
    if place is not None:
        shipped = json.loads(GATES.read_bytes()).get(plugins_digest(place))
        if isinstance(shipped, str):
            return re.compile(shipped)
    return _detector().gate


def _detect_secrets_dir() -> Path | None:
    """Where ``import detect_secrets`` finds the package, found as the path finder finds a
    regular package (the first entry of ``sys.path`` holding it), without importing it."""
    for entry in sys.path:
        place = Path(entry or ".") / "detect_secrets"
        if (place / "__init__.py").is_file():
            return place.resolve()
    return None


def plugins_digest(place: Path) -> str:
    """The SHA-256 of every source file of detect-secrets' plugins, each with its name (each
    length-prefixed, so that no two splits of the same bytes collide)."""
    digest = hashlib.sha256()
    for plugin in sorted((place / "plugins").glob("*.py")):
        for part in (plugin.name.encode(), plugin.read_bytes()):
            digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


@dataclass(frozen=True)
class Hit:
    """A finding in the catalog: the string it is in, and whose string that is."""

    finding: Finding
    document: Document
    pointer: Pointer
    text: str
    where: str
    """Whose string, for the message: ``role "x": "instructions"``."""
    slug: str | None
    """The role, which an allowlist entry can name; ``None`` for a bundle's texts."""
    instructions_file: str | None = None
    """The catalog-relative instruction file the string was read from, if any."""


def scanned_as_source(document: Document) -> bool:
    """Whether :meth:`SecretScan.source` scans the document's whole text: a YAML source."""
    return not document.inlined and document.path.endswith((".yaml", ".yml"))


def source_findings(document: Document) -> list[Finding]:
    """What :meth:`SecretScan.source` finds in a YAML source's whole text."""
    return scan_text(document.raw.decode("utf-8", "replace"))


class SecretScan:
    """Collects the findings of every published string, one document at a time."""

    def __init__(self) -> None:
        self.hits: list[Hit] = []
        self.raw: list[tuple[Document, str, list[Finding]]] = []
        """Findings in the whole text of sources published as their own bytes."""

    def source(self, document: Document, found: list[Finding] | None = None) -> None:
        """A YAML source is published as written, comments, anchors, tags and keys included:
        its text is scanned too, not only its values. (A JSON source holds nothing else that
        could carry a credential: its keys are the schema's, and duplicate keys are refused.)

        ``found`` is what :func:`source_findings` gave for it already (in a worker)."""
        if not scanned_as_source(document):
            return
        if found is None:
            found = source_findings(document)
        if found:  # nearly never: the text is decoded again for the findings' places
            self.raw.append((document, document.raw.decode("utf-8", "replace"), found))

    def outside_values(self) -> list[Diagnostic]:
        """Each credential in a source's text that no value holds: it cannot be allowed."""
        diagnostics = []
        for document, text, found in self.raw:
            in_values = Counter(
                hit.finding.digest
                for hit in self.hits
                if hit.document is document and hit.instructions_file is None
            )
            for finding in found:
                if in_values[finding.digest] > 0:
                    in_values[finding.digest] -= 1
                    continue
                line, col = line_col(text, finding.start)
                message = (
                    f"a credential ({finding.kind}) outside any value (in a comment, an anchor, "
                    f"a tag or a key): the file is published as written; {ADVICE}; remove it"
                )
                diagnostics.append(Diagnostic(document.path, line, col, message, "secret"))
        return diagnostics

    def bundle(self, bundle: Bundle) -> None:
        for file in bundle.files.values():
            self.bundle_file(file.document)

    def bundle_file(self, document: Document) -> None:
        """Every string of every role; nearly all of them stop at the screen."""
        roles = document.data.get("roles")
        from_files = {position: path for path, position in document.inlined.items()}
        for position, role in enumerate(roles if isinstance(roles, list) else []):
            if not isinstance(role, dict):
                continue
            for key, value in role.items():
                if isinstance(value, str):
                    found = scan_text(value)
                    if found:
                        path = from_files.get(position) if key == "instructions" else None
                        self._add(found, document, ("roles", position, key), value, path)
                elif isinstance(value, (dict, list)):  # modelConfig
                    for pointer, text, is_key in strings(value, ("roles", position, key)):
                        if not is_key:
                            self._add(scan_text(text), document, pointer, text, None)

    def index(self, document: Document) -> None:
        for pointer, text, is_key in strings(document.data):
            if not is_key:
                self._add(scan_text(text), document, pointer, text, None)

    def _add(
        self,
        found: list[Finding],
        document: Document,
        pointer: Pointer,
        text: str,
        instructions_file: str | None,
    ) -> None:
        if not found:
            return
        # A role in a bundle file, or a bundle in the index: ("roles" | "bundles", n, field...).
        kind, position = pointer[0], pointer[1] if len(pointer) > 2 else None
        owner = document.data[kind][position] if isinstance(position, int) else None
        field = describe_pointer(pointer[2:] if isinstance(owner, dict) else pointer)
        slug = owner.get("slug") if kind == "roles" and isinstance(owner, dict) else None
        slug = slug if isinstance(slug, str) else None
        if slug is not None:
            where = f'role "{slug}": "{field}"'
        elif isinstance(owner, dict) and isinstance(owner.get("id"), str):
            where = f'bundle "{owner["id"]}": "{field}"'
        else:
            where = f'"{describe_pointer(pointer)}"'
        for finding in found:
            self.hits.append(Hit(finding, document, pointer, text, where, slug, instructions_file))


def line_col(text: str, offset: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1
