"""The one problem type shared by the CLI, the MkDocs plugin and the serve preview."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from build_tools.rules.registry import Severity, registered

__all__ = ["Diagnostic", "Pointer", "Severity", "describe_pointer", "one_line", "show_id"]

Pointer = tuple[str | int, ...]
"""A JSON pointer as segments: keys of objects and indexes of arrays."""


@dataclass(frozen=True, order=True)
class Diagnostic:
    """A problem in a catalog, placed at the value it is about.

    ``line`` and ``col`` are 1-based (columns count characters); both are 0 when the problem is the
    file as a whole (for example a missing file), and the printed form then omits them.
    """

    file: str
    line: int
    col: int
    message: str
    rule: str = field(default="", compare=False)
    pointer: Pointer = field(default=(), compare=False)
    severity: Severity = field(default="error", compare=False)
    """A warning is printed and logged but passes ``rolecat check`` (a strict build fails on
    it, as on every MkDocs warning)."""

    def __post_init__(self) -> None:
        # Every rule id is registered, with this severity (build_tools/rules/rules.toml): one
        # that is not fails here, in the first test that reports it.
        registered(self.rule, self.severity)

    def __str__(self) -> str:
        message = f"warning: {self.message}" if self.severity == "warning" else self.message
        if self.line:
            return one_line(f"{self.file}:{self.line}:{self.col}: {message}")
        return one_line(f"{self.file}: {message}")


_UNPRINTABLE = "[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
"""Control characters (line breaks among them) and the bidirectional overrides that can make a
terminal show text other than what it holds: compiled on first use (it takes a millisecond, and
a clean check prints none)."""


def one_line(text: str) -> str:
    """Text as one printable line: a name or value from a catalog may hold any character."""
    return re.sub(_UNPRINTABLE, lambda m: ascii(m.group())[1:-1], text)


def show_id(text: str) -> str:
    """An id as messages show it: quoted, and cut short when it is very long."""
    if len(text) <= 40:
        return f'"{text}"'
    return f'"{text[:24]}…" ({len(text):,} characters)'


def describe_pointer(pointer: Pointer) -> str:
    """``("roles", 2, "name")`` -> ``roles[2].name``: how the messages name a field."""
    text = ""
    for segment in pointer:
        if isinstance(segment, int):
            text += f"[{segment}]"
        else:
            text += f".{segment}" if text else segment
    return text or "(top level)"
