"""What the test packages share: where things are, the CLI as users run it, JSON as we write it."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from build_tools.cli import main

REPO = Path(__file__).resolve().parents[1]
OUR_CATALOG = REPO / "catalog"
FIXTURES = REPO.parent / "shared" / "fixtures"
"""The upstream catalog, read-only: CI lays ``shared/`` beside the clone, as here."""
UPSTREAM = FIXTURES / "upstream-catalog-json"
UPSTREAM_YAML = FIXTURES / "upstream-catalog-yaml"


def write_json(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


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
