"""A build's pages written by two processes: the same site, the same log, one line on failure."""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from site_plugins.catalog import split_pages
from site_plugins.catalog.plugin import RolesCatalogPlugin
from site_plugins.catalog.split_pages import SplitPages, worth_it
from tests.support.paths import OUR_CATALOG, REPO
from tests.support.site_builds import our_config, site_env

BUILD = (
    "import sys; from site_plugins.catalog import split_pages; "
    "split_pages.SPLIT_PAGES = int(sys.argv[1]); "
    "from mkdocs.__main__ import cli; cli(sys.argv[2:])"
)
"""``mkdocs`` with another threshold: 1, every build splits; a large one, none does."""
LEAVE_CONNECT = (
    "import sys; from site_plugins.catalog import split_pages as s; s.SPLIT_PAGES = 1; "
    "take = s.Claims.take; "
    "s.Claims.take = lambda self, page: s.in_second() if 'connect/' in page.file.src_uri "
    "else take(self, page); "
    "from mkdocs.__main__ import cli; cli(sys.argv[2:])"
)
"""Every build splits, and the first process leaves the pages for servers to the second."""


def _build(
    config: Path, site: Path, split_at: int, code: str = BUILD
) -> subprocess.CompletedProcess[str]:
    argv = ["build", "--strict", "-f", str(config), "-d", str(site)]
    return subprocess.run(
        [sys.executable, "-c", code, str(split_at), *argv],
        env=site_env(OUR_CATALOG),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def _log(done: subprocess.CompletedProcess[str]) -> list[str]:
    lines = (done.stdout + done.stderr).splitlines()
    return [re.sub(r"[\d.]+ seconds|rolecat-\w+|/(split|single)/", "…", line) for line in lines]


def test_two_processes_write_the_site_one_writes(tmp_path: Path) -> None:
    config = REPO / "mkdocs.yml"
    split = _build(config, tmp_path / "split" / "site", 1)
    assert split.returncode == 0, split.stderr
    single = _build(config, tmp_path / "single" / "site", 10**9)
    assert single.returncode == 0, single.stderr
    written, expected = _files(tmp_path / "split" / "site"), _files(tmp_path / "single" / "site")
    assert written.keys() == expected.keys()
    assert [path for path in expected if written[path] != expected[path]] == []
    assert _log(split) == _log(single)  # no line of the skipped pages, none twice


def test_a_page_failing_in_the_second_process_fails_the_build_in_one_line(
    tmp_path: Path,
) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(REPO / "templates" / "pages", templates)
    # The pages for servers and tools, which the first process leaves to the second here.
    connect = templates / "connect.html"
    fail = '{% if lang == "ru" %}{{ no_such_value.at_all }}{% endif %}'
    connect.write_text(fail + connect.read_text())
    config = our_config(tmp_path, templates=templates)
    done = _build(config, tmp_path / "site", 1, LEAVE_CONNECT)
    assert done.returncode != 0
    errors = [line for line in done.stderr.splitlines() if line.startswith("ERROR")]
    assert any("second process" in line and "cannot render connect/ru/" in line for line in errors)
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "site").exists()  # nothing published
    assert not list(tmp_path.glob(".site.rolecat-*"))  # and the staging removed


def test_what_the_second_process_logs_is_logged_here_and_its_failure_fails(
    caplog: pytest.LogCaptureFixture,
) -> None:
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child ends in end_second)
        os.close(reader)
        split_pages._second.writer = writer
        odd = ("mkdocs.test", logging.WARNING, "", 0, "odd %s", ("page",), None)
        warning = logging.LogRecord(*odd)
        split_pages._second.records.append(warning)
        split_pages.end_second(RuntimeError("broken"))
    os.close(writer)
    split = SplitPages(pid, reader, split_pages.Claims([]))
    with caplog.at_level(logging.INFO), pytest.raises(Exception) as failed:
        split.join()
    assert [(r.name, r.levelno, r.getMessage()) for r in caplog.records] == [
        ("mkdocs.test", logging.WARNING, "odd page")
    ]
    assert str(failed.value).endswith("the pages rendered in a second process: broken")


def _config(**events: list[Any]) -> Any:
    return SimpleNamespace(plugins=SimpleNamespace(events=events))


def test_a_build_splits_only_where_nothing_but_the_time_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    threads = [1]
    monkeypatch.setattr(threading, "active_count", lambda: threads[0])
    plugin = RolesCatalogPlugin()
    mine = {"page_context": [plugin.on_page_context], "post_page": [plugin.on_post_page]}
    monkeypatch.setattr(split_pages, "held_mib", lambda: 100.0)
    assert worth_it(_config(**mine), 1000)
    assert not worth_it(_config(**mine), split_pages.SPLIT_PAGES - 1)  # too few pages

    class Other:
        def on_post_page(self, output: str, **_: Any) -> str:
            return output

    other = {**mine, "post_page": [*mine["post_page"], Other().on_post_page]}
    assert not worth_it(_config(**other), 1000)  # it would see half the pages
    threads[0] = 2
    assert not worth_it(_config(**mine), 1000)  # a fork copies no other thread
    threads[0] = 1
    monkeypatch.setattr(split_pages, "held_mib", lambda: split_pages.SPLIT_MEMORY_MIB + 1)
    assert not worth_it(_config(**mine), 1000)  # with the fork's share, too much memory


def _page(uri: str) -> Any:
    return SimpleNamespace(file=SimpleNamespace(src_uri=uri))


def test_each_page_is_rendered_by_the_first_process_to_reach_its_run() -> None:
    """Both processes go through the pages in order; each run of pages is taken by one of them,
    whichever comes first: every page rendered once, in runs, by both."""
    pages = [_page(f"page-{number}.md") for number in range(10 * split_pages.CLAIM_PAGES + 3)]
    claims = split_pages.Claims([page.file for page in pages])
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child ends with os._exit)
        split_pages._second.writer = writer
        taken = [number for number, page in enumerate(pages) if claims.take(page)]
        os.write(writer, " ".join(map(str, taken)).encode())
        os._exit(0)
    os.close(writer)
    here = [number for number, page in enumerate(pages) if claims.take(page)]
    os.waitpid(pid, 0)
    with os.fdopen(reader, "rb") as stream:
        there = [int(number) for number in stream.read().split()]
    assert sorted(here + there) == list(range(len(pages)))
    runs = {number // split_pages.CLAIM_PAGES for number in here}
    assert runs.isdisjoint(number // split_pages.CLAIM_PAGES for number in there)
    assert claims.take(_page("elsewhere.md"))  # a page the split does not know: this process's
