"""The bench cannot fool itself: a failed run fails its target, a stale site is no build."""

from __future__ import annotations

import html
import json
import os
import shutil
import time
from pathlib import Path

from bench.__main__ import REPO, Row, _paired_ratio, _site_problem, targets


def test_a_failed_run_fails_its_target_instead_of_shifting_the_pairs() -> None:
    row = Row("L", Path("."), check=[1.0, None, 1.2], floor=[1.0, 1.0, 5.0])
    assert row.check_ratio() is None  # zipping the two good runs would pair 1.2 with 1.0
    text, holds, numbers = targets({"L": row})[0]
    assert text.startswith("rolecat check") and holds is False and numbers == "—"


def test_runs_pair_by_their_number() -> None:
    assert _paired_ratio([2.0, 3.0, 4.0], [1.0, 3.0, 1.0]) == 2.0
    assert _paired_ratio([], []) is None


def _site(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A copy of catalog/ and a site holding its raw index and its first role's page."""
    catalog = tmp_path / "catalog"
    shutil.copytree(REPO / "catalog", catalog)
    index = json.loads((catalog / "index.json").read_bytes())
    bundle = index["bundles"][0]
    language, slug = bundle["languages"][0], bundle["roles"][0]["slug"]
    roles = json.loads((catalog / "bundles" / bundle["id"] / f"{language}.json").read_bytes())
    name = next(role["name"] for role in roles["roles"] if role["slug"] == slug)
    site = tmp_path / "site"
    page = site / language / bundle["id"] / slug / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text(f"<h1>{html.escape(name)}</h1>", encoding="utf-8")
    shutil.copy(catalog / "index.json", site / "index.json")
    return catalog, site, page


def test_a_verified_site_counts(tmp_path: Path) -> None:
    catalog, site, _page = _site(tmp_path)
    assert _site_problem(site, catalog, time.time()) is None


def test_a_page_older_than_the_build_does_not_count(tmp_path: Path) -> None:
    catalog, site, page = _site(tmp_path)
    os.utime(page, (time.time() - 3600, time.time() - 3600))
    problem = _site_problem(site, catalog, time.time())
    assert problem is not None and "older than the build" in problem


def test_a_page_without_the_role_or_a_stale_index_does_not_count(tmp_path: Path) -> None:
    catalog, site, page = _site(tmp_path)
    page.write_text("<h1>Something else</h1>", encoding="utf-8")
    assert "does not show the role's name" in (_site_problem(site, catalog, time.time()) or "")
    (site / "index.json").write_text("{}", encoding="utf-8")
    assert "is not the catalog's index.json" in (_site_problem(site, catalog, time.time()) or "")
