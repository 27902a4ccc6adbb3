"""The bench cannot fool itself: a failed run fails its target, a stale site is no build."""

from __future__ import annotations

import argparse
import html
import json
import os
import shutil
import time
from pathlib import Path

import pytest

import bench.__main__ as bench_main
from bench.__main__ import Row, _paired_ratio, _site_problem, build_phases, report, targets
from bench.catalogs import REPO
from bench.checkers import CheckRow, check_targets
from bench.measure import TIMES


def test_a_failed_run_fails_its_target_instead_of_shifting_the_pairs() -> None:
    row = CheckRow("L", "json", check=[1.0, None, 1.2], peer=[1.0, 1.0, 5.0])
    assert row.ratio() is None  # zipping the two good runs would pair 1.2 with 1.0
    found = {text: (holds, numbers) for text, holds, numbers in check_targets([row])}
    text = next(t for t in found if t.startswith(f"rolecat check ≤ 0.5{TIMES} check-json.mjs at L"))
    assert found[text] == (False, "—")


def test_a_failed_build_fails_its_target() -> None:
    row = Row("M", Path("."), plugin=[1.0, None, 1.0], markdown=[1.0, 1.0, 1.0])
    assert row.build_ratio() is None
    text, holds, numbers = targets({"M": row})[0]
    assert "built-in search" in text and "as Markdown" in text and "at M" in text
    assert holds is False and numbers == "—"


def test_a_skipped_peer_is_not_measured_rather_than_met() -> None:
    row = CheckRow("S", "yaml", check=[0.2], skipped="node is not installed")
    found = {text: (holds, numbers) for text, holds, numbers in check_targets([row])}
    text = next(t for t in found if "check-yaml.mjs at S" in t)
    holds, numbers = found[text]
    assert holds is None and "node is not installed" in numbers


def test_the_build_phases_come_from_the_plugins_marks() -> None:
    marks = [("config", 10.5), ("checked", 11.0), ("files", 11.25), ("files_done", 12.0)]
    marks += [("env", 12.0), ("post_build", 20.0), ("published", 23.0), ("config", 99.0)]
    phases = build_phases(marks, 10.0, 23.5)
    assert phases["our check"] == 0.5
    assert phases["MkDocs reading, rendering and writing every page"] == 8.0
    assert phases["after the pages: Pagefind and publishing"] == 3.0
    assert sum(phases.values()) == 13.5  # every moment of the process, once


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


def test_the_report_prints_each_ratio_with_its_target_and_the_machine() -> None:
    checks = [
        CheckRow("S", "json", Path("."), "upstream fixture", 6, 2, [0.1], [0.2], [0.05]),
        CheckRow("L", "yaml", Path("."), "synthetic", 5000, 2, [4.0], [1.0]),
    ]
    row = Row("M", Path("."), 500, 2, plugin=[6.0], plain=[4.0], pagefind=[5.0], role_pages=1000)
    row.markdown = [3.0]
    row.page_floor = 0.35
    args = argparse.Namespace(runs=1, l_build_runs=1)
    text = report([row], args, checks=checks, node=None)
    first = f"| S | upstream fixture | JSON (check-json.mjs) | 6 {TIMES} 2 | 0.10 s | 0.20 s |"
    assert first in text
    assert f"2.00{TIMES} | ≤ 1.0{TIMES}" in text  # the ratio beside its target
    assert f"0.25{TIMES} | ≤ 0.5{TIMES}" in text
    assert f"6.00 s | 3.00 s | 2.00{TIMES} | 4.00 s | 1.50{TIMES} | 5.00 s | 1.20{TIMES}" in text
    # The summary: each line of the targets with both sides and the ratio.
    build_line = f"| build M (500 roles {TIMES} 2) | plain MkDocs + Material, the roles as Markdown"
    assert build_line in text
    assert f"| 3.00 s | 6.00 s | 2.00{TIMES} | ≤ 1.2{TIMES} |" in text
    assert f"| 0.35 ms | 6.00 ms | 17.14{TIMES} | ≤ 3 ms |" in text
    check_line = "| rolecat check L (YAML) | upstream check-yaml.mjs | 4.00 s | 1.00 s |"
    assert f"{check_line} 0.25{TIMES} |" in text
    assert "✘ NOT MET       the plugin's build at M ≤ 3 ms per role page: 6.00 ms" in text
    assert "per role page at M: the plugin's build 6.00 ms" in text and "0.35 ms" in text
    assert f"✘ NOT MET       rolecat check ≤ 1.0{TIMES} check-json.mjs at S" in text
    assert f"✔ MET           rolecat check ≤ 0.5{TIMES} check-yaml.mjs at L" in text
    machine = next(line for line in text.splitlines() if line.startswith("Machine: "))
    assert "CPUs (" in machine and "Python 3." in machine and "node not installed" in machine


def test_the_targets_pair_alternates_alone_before_the_second_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plugin and roles-as-Markdown alternate with nothing between them; the same-pages
    baselines come after, each run paired with a plugin run of its own."""
    order: list[str] = []

    def built(config: Path, site: Path, *_: object, **__: object) -> bench_main.Run:
        order.append(site.name.rsplit("-", 1)[-1])
        (site / "en" / "b" / "r").mkdir(parents=True, exist_ok=True)
        (site / "en" / "b" / "r" / "index.html").write_text("<h1>r</h1>")
        return bench_main.Run(1.0, 1, 1, 0, "", "")

    def prepared(catalog: Path, project: Path, *_: object, **__: object) -> tuple[Path, list[str]]:
        return project / "mkdocs.yml", ["en/b/r/index.html"]

    monkeypatch.setattr(bench_main, "_build", built)
    monkeypatch.setattr(bench_main.handwritten, "prepare", prepared)
    monkeypatch.setattr(bench_main.plain, "prepare", prepared)
    monkeypatch.setattr(bench_main, "catalog_for", lambda size, work: tmp_path)
    monkeypatch.setattr(bench_main, "_shape", lambda catalog: (1, 1, 1))
    monkeypatch.setattr(bench_main, "_read_marks", lambda path: [])
    monkeypatch.setattr(bench_main, "profile_build", lambda *_: "")
    monkeypatch.setattr(bench_main, "run", lambda *_, **__: bench_main.Run(1.0, 1, 1, 1, "", ""))
    row = bench_main.measure_site("S", tmp_path, 2, keep=True)
    assert order == [*["plugin", "markdown"] * 2, *["plugin", "material", "pagefind"] * 2]
    assert len(row.plugin) == len(row.markdown) == 2 and len(row.plugin_others) == 2
