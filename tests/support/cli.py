"""The CLI as users run it: ``run(*argv)`` and what it printed."""

from __future__ import annotations

import io
from dataclasses import dataclass

from build_tools.cli.main import main


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.out.splitlines()


def run(*argv: str) -> Run:
    """The CLI through ``main(argv, out, err)``."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return Run(code, out.getvalue(), err.getvalue())
