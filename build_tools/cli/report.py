"""How ``rolecat`` prints problems: text for people, JSON for programs, commands for GitHub Actions.

The rules and the remote reader only produce :class:`Diagnostic` values; choosing how they look is
this module's job alone, as check-jsonschema keeps its result apart from its reporters. Whatever
the format, stdout carries the machine-readable part only: in ``json`` mode exactly one JSON
document (``schemas/report.schema.json``), in ``github`` mode one workflow command per problem; the
lines meant for people (``OK``, summaries, what the lock update changed) then go to stderr.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal, TextIO, get_args
from urllib.parse import urlsplit

from build_tools.diagnostics import Diagnostic, Pointer, one_line
from build_tools.rules.registry import by_id

OutputFormat = Literal["text", "json", "github"]
OUTPUT_FORMATS: tuple[OutputFormat, ...] = get_args(OutputFormat)
FORMAT_ENV = "ROLECAT_FORMAT"
"""Sets ``--format`` for every command that prints problems (the option wins)."""

SCHEMA_FILE = "report.schema.json"
"""The JSON Schema of the ``--format json`` document, in ``build_tools/schemas/``."""


def json_pointer(pointer: Pointer) -> str:
    """RFC 6901: ``("roles", 0, "a/b~")`` -> ``/roles/0/a~1b~0``; the whole document is ``""``."""
    return "".join("/" + str(s).replace("~", "~0").replace("/", "~1") for s in pointer)


def problem_object(diagnostic: Diagnostic) -> dict[str, Any]:
    """One entry of ``problems``: positions are ``null`` where the problem is the whole file."""
    return {
        "file": diagnostic.file,
        "line": diagnostic.line or None,
        "column": diagnostic.col or None,
        "pointer": json_pointer(diagnostic.pointer),
        "rule": diagnostic.rule,
        "severity": diagnostic.severity,
        "message": diagnostic.message,
    }


def rules_object(problems: list[dict[str, Any]]) -> dict[str, dict[str, str]]:
    """The ``rules`` section: each rule id of ``problems`` once, in the order first reported, with
    its severity and what it protects (``build_tools/rules/registry.py``)."""
    found: dict[str, dict[str, str]] = {}
    for problem in problems:
        rule = by_id()[problem["rule"]]
        if rule.id not in found:
            found[rule.id] = {"severity": rule.severity, "summary": rule.plain_summary}
    return found


def escape_data(text: str) -> str:
    """A workflow command's message, escaped as the runner unescapes it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: ``:`` and ``,`` would end it early."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_command(diagnostic: Diagnostic, path: str | None, label: str = "") -> str:
    """``::error file=…,line=…,col=…,title=<rule>::message``.

    ``path`` is the file relative to the repository root, so GitHub can place the annotation on
    the pull request; without one (a URL, a file outside the repository) the message names the
    file itself and the annotation belongs to the run.
    """
    properties: list[tuple[str, str]] = []
    if path is not None:
        properties.append(("file", path))
        if diagnostic.line:
            properties += [("line", str(diagnostic.line)), ("col", str(diagnostic.col))]
        message = label + diagnostic.message
    else:
        message = label + str(diagnostic)
    if diagnostic.rule:
        properties.append(("title", diagnostic.rule))
    # Control and bidirectional characters escaped as in the text format: a runner's log and
    # annotations show them too.
    listed = ",".join(f"{name}={escape_property(one_line(value))}" for name, value in properties)
    command = "warning" if diagnostic.severity == "warning" else "error"
    return f"::{command}{' ' if listed else ''}{listed}::{escape_data(one_line(message))}"


Locate = Callable[[str], str | None]
"""A diagnostic's file -> its path relative to the repository root, ``None`` where it has none."""


def repository_paths(catalog: Path, known: Mapping[str, Path] | None = None) -> Locate:
    """Place catalog-relative files in the git work tree that holds the catalog (else the cwd).

    ``known`` names files that are not under the catalog (a ``--lock`` elsewhere) by how the
    diagnostics show them. URLs (``verify``, the live catalog of ``--against``) have no path.
    """
    top: list[Path] = []

    def root() -> Path:
        if not top:
            top.append(_git_toplevel(catalog) or Path.cwd().resolve())
        return top[0]

    def locate(file: str) -> str | None:
        if urlsplit(file).scheme in ("http", "https"):
            return None
        path = (known or {}).get(file) or catalog / file
        return Path(os.path.relpath(path.resolve(), root())).as_posix()

    return locate


def _git_toplevel(directory: Path) -> Path | None:
    import subprocess  # only a report with paths asks git, and never a check that passes

    try:
        found = subprocess.run(
            ["git", "-C", str(directory), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if found.returncode != 0 or not found.stdout.strip():
        return None
    return Path(found.stdout.strip()).resolve()


class Reporter:
    """Prints one command's problems in the chosen format; ``finish`` ends the output."""

    def __init__(
        self,
        format: OutputFormat,
        out: TextIO,
        err: TextIO,
        locate: Locate = lambda file: None,
    ) -> None:
        self.format = format
        self.out = out
        self.err = err
        self.locate = locate
        self.problems: list[dict[str, Any]] = []

    def problem(self, diagnostic: Diagnostic, label: str = "") -> None:
        """Report one problem; ``label`` says where it comes from (e.g. ``live catalog: ``)."""
        if self.format == "json":
            self.problems.append(problem_object(diagnostic))
        elif self.format == "github":
            path = self.locate(diagnostic.file)
            print(github_command(diagnostic, path, label), file=self.out)
        else:
            print(f"{label}{diagnostic}", file=self.out)

    def note(self, line: str) -> None:
        """A line for people: on stdout in text mode, else on stderr to keep stdout parseable."""
        print(line, file=self.out if self.format == "text" else self.err)

    def finish(self, ok: bool) -> None:
        """In JSON mode, print the one document: ``ok`` is true exactly when the exit code is 0."""
        if self.format == "json":
            document = {
                "ok": ok,
                "problems": self.problems,
                "rules": rules_object(self.problems),
            }
            print(json.dumps(document, ensure_ascii=False, indent=2), file=self.out)
