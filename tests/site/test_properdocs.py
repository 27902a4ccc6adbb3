"""ProperDocs, the maintained fork of MkDocs 1.x, builds the same raw tree and role pages.

MkDocs 1.x is unmaintained and MkDocs 2.0 drops plugins; ProperDocs loads ``mkdocs.plugins`` entry
points and Material unchanged. This keeps the plugin honest about using only public 1.6 APIs.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tests.support.paths import OUR_CATALOG
from tests.support.site_builds import SITE_URL, Build, build

PROPERDOCS = Path(sys.executable).parent / "properdocs"


def article(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    found = re.search(r"<article .*?</article>", text, re.S)
    assert found, path
    return found.group(0)


def test_properdocs_builds_the_same_site(our_site: Build, tmp_path: Path) -> None:
    assert PROPERDOCS.is_file(), "properdocs is part of the test extra: pip install -e '.[test]'"
    proper = build(OUR_CATALOG, tmp_path / "site", site_url=SITE_URL, engine=str(PROPERDOCS))
    assert proper.returncode == 0, proper.output
    assert "WARNING" not in proper.output, proper.output

    def files(root: Path) -> set[str]:
        return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}

    assert files(proper.site) == files(our_site.site)
    raw = [p for p in files(proper.site) if p.endswith(".json") and not p.startswith("search/")]
    assert "index.json" in raw and len(raw) > 3
    for path in raw:
        assert (proper.site / path).read_bytes() == (our_site.site / path).read_bytes()
    pages = sorted(p for p in files(proper.site) if p.count("/") == 3 and p.endswith(".html"))
    assert pages, "no role pages"
    for path in pages:
        assert article(proper.site / path) == article(our_site.site / path), path
