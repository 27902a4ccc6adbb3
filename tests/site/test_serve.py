"""``mkdocs serve`` watches the catalog: a bad edit shows the problems, a fix recovers, no restart.

Waiting uses MkDocs' own live-reload long poll (``/livereload/<epoch>/<id>`` answers once a newer
build is visible), the same signal a browser reloads on: no sleeping, no guessing.
"""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

from markupsafe import escape

from build_tools.check import check_catalog
from tests.site.helpers import OUR_CATALOG, Served, copy_catalog, serve


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return str(response.read().decode("utf-8"))


def epoch(html: str) -> int:
    found = re.search(r"livereload\((\d+), \d+\)", html)
    assert found, "no live-reload script in the page"
    return int(found.group(1))


def next_build(served: Served, after: int) -> int:
    """Block until the server shows a build newer than ``after`` (the browser's reload signal)."""
    while True:
        seen = int(get(f"{served.url}livereload/{after}/1"))
        if seen > after:
            return seen


def test_serve_shows_problems_and_recovers(tmp_path: Path) -> None:
    catalog = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    ru = catalog / "bundles/engineering/ru.json"
    good = ru.read_text(encoding="utf-8")
    with serve(catalog) as served:
        role = f"{served.url}en/engineering/code-reviewer/"
        page = get(role)
        assert "Code Reviewer" in page
        first = epoch(page)

        ru.write_text(good.replace('"emoji": "🔎"', '"emoji": "🔍"', 1), encoding="utf-8")
        problems = [str(d) for d in check_catalog(catalog).diagnostics]
        assert problems
        broken = next_build(served, first)
        page = get(role)
        assert "The catalog has problems" in page
        for line in problems:
            assert str(escape(line)) in page
        served.wait_for(problems[0])  # the log carries the same one-line diagnostics
        assert "Code Reviewer" not in page
        assert "The catalog has problems" in get(served.url)

        ru.write_text(good, encoding="utf-8")
        next_build(served, broken)
        page = get(role)
        assert "Code Reviewer" in page and "The catalog has problems" not in page
    assert not any("Traceback" in line for line in served.lines), "\n".join(served.lines)
    assert not any("appear stuck" in line for line in served.lines)
