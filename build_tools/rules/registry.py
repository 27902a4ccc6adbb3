"""Every rule id rolecat can report, in one place (the table ``rules.toml`` beside this module):
its severity, what it protects, where it is raised and which test raises it.

A :class:`~build_tools.diagnostics.Diagnostic` refuses a rule id that is not here, or one with
another severity than here, so a new rule is registered before any check can report it. Three
readers use this table: the manual's rules page (``manual/docs/rules.md``, whose tables the hook
``manual/hooks/rules_page.py`` writes from it), the ``--format json`` report (its ``rules``
section), and the tests, which prove that every rule here is raised by one: a golden case in
``tests/cases/`` whose ``rules.txt`` names it, or else the test named by ``tested_by``.

A rule is added by one entry in ``rules.toml`` (in the section of the rules page it belongs to),
the literal id where the module raises it, and a golden case folder that makes ``rolecat check``
raise it (see ``tests/core/test_cases.py``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

Severity = Literal["error", "warning"]

# The sections of the rules page, in its order: ``<!-- rules: KEY -->`` there becomes the table.
READING = "reading"
FILES = "files"
SHAPE = "shape"
ACROSS = "across"
PUBLISHED = "published"
SERVER = "server"
CREDENTIALS = "credentials"
LOCK = "lock"
LIVE = "live"
DEPLOY = "deploy"
CHANGES = "changes"
SECTIONS = (
    READING,
    FILES,
    SHAPE,
    ACROSS,
    PUBLISHED,
    SERVER,
    CREDENTIALS,
    LOCK,
    LIVE,
    DEPLOY,
    CHANGES,
)


@dataclass(frozen=True)
class Rule:
    """One rule id: what the ``rule`` of each :class:`Diagnostic` it reports holds."""

    id: str
    section: str
    """The section of the rules page that lists it (one of :data:`SECTIONS`)."""
    raised_in: tuple[str, ...]
    """The modules that report it (each holds the id as a literal, or ``schema-{`` for the
    ``schema-<keyword>`` ids)."""
    summary: str
    """What the rule protects, in one line of Markdown: the row of the rules page."""
    severity: Severity = "error"
    tested_by: str = ""
    """``tests/…/test_x.py::test_name`` for a rule no golden case can raise (a fetch, a lock held
    by another command, a file over 1,000,000 bytes); the test names the id. Every other rule
    is raised by a golden case in ``tests/cases/``."""

    @property
    def plain_summary(self) -> str:
        """The summary without Markdown links (``[text](page.md)`` -> ``text``): for programs."""
        return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", self.summary)


class UnregisteredRule(ValueError):
    """A diagnostic whose rule id is not in :data:`RULES`, or has another severity there."""


@functools.cache
def rules() -> tuple[Rule, ...]:
    """The rules of ``rules.toml``, each field checked: a typo there fails the first diagnostic
    (and the tests). Read when first asked for: a check that finds nothing needs none of it, and
    reading it was a sixth of a small check's time."""
    import tomllib

    fields = {"id", "section", "raised_in", "summary", "severity", "tested_by"}
    found = []
    for entry in tomllib.loads(TABLE.read_text(encoding="utf-8"))["rule"]:
        unknown = set(entry) - fields
        severity = entry.get("severity", "error")
        if unknown or entry["section"] not in SECTIONS or severity not in ("error", "warning"):
            raise ValueError(f"{TABLE.name}: rule {entry.get('id')!r} is not as registry.py says")
        found.append(
            Rule(
                str(entry["id"]),
                str(entry["section"]),
                tuple(str(module) for module in entry["raised_in"]),
                str(entry["summary"]),
                severity=severity,
                tested_by=str(entry.get("tested_by", "")),
            )
        )
    return tuple(found)


TABLE = Path(__file__).with_name("rules.toml")
"""The table itself: one ``[[rule]]`` per id, with the fields of :class:`Rule`."""


@functools.cache
def by_id() -> dict[str, Rule]:
    return {rule.id: rule for rule in rules()}


def __getattr__(name: str) -> Any:
    """``RULES`` and ``BY_ID``, the table by order and by id, read when first asked for."""
    if name == "RULES":
        return rules()
    if name == "BY_ID":
        return by_id()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def registered(rule_id: str, severity: str) -> Rule:
    """The entry of ``rule_id``; :class:`UnregisteredRule` where it has none or another severity."""
    found = by_id().get(rule_id)
    if found is None:
        raise UnregisteredRule(
            f"rule id {rule_id!r} is not registered: add it to build_tools/rules/rules.toml "
            "with its severity, summary and module, and a golden case in tests/cases/"
        )
    if found.severity != severity:
        raise UnregisteredRule(
            f"rule {rule_id!r} is registered as an {found.severity}, not an {severity}"
        )
    return found


PLACEHOLDER = re.compile(r"^<!-- rules: ([a-z]+) -->$", re.MULTILINE)
"""Where the rules page wants a section's table: the hook ``manual/hooks/rules_page.py`` puts it
there (a placeholder of an unknown section fails the build)."""


def fill_tables(markdown: str) -> str:
    """The rules page with each ``<!-- rules: KEY -->`` replaced by the table of section KEY."""
    return PLACEHOLDER.sub(lambda match: markdown_table(match.group(1)), markdown)


def markdown_table(section: str) -> str:
    """The rules page's table of one section: ``| `id` | what it protects |`` per rule."""
    rows = [
        f"| `{rule.id}` | "
        + ("**warning**: " if rule.severity == "warning" else "")
        + f"{rule.summary} |"
        for rule in rules()
        if rule.section == section
    ]
    if not rows:
        raise KeyError(f"no rule is in section {section!r} (one of {', '.join(SECTIONS)})")
    return "\n".join(["| rule | what it protects |", "|---|---|", *rows])
