"""The one problem type shared by the CLI, the MkDocs plugin and the serve preview."""

from __future__ import annotations

from dataclasses import dataclass, field

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

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col}: {self.message}"
        return f"{self.file}: {self.message}"


def describe_pointer(pointer: Pointer) -> str:
    """``("roles", 2, "name")`` -> ``roles[2].name``: how the messages name a field."""
    text = ""
    for segment in pointer:
        if isinstance(segment, int):
            text += f"[{segment}]"
        else:
            text += f".{segment}" if text else segment
    return text or "(top level)"
