"""The rolecat-search plugin: Pagefind's index, and a clean one-line failure when it cannot."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from site_plugins.search import PagefindSearchPlugin, index_site


def test_a_failing_index_is_one_line(tmp_path: Path) -> None:
    problem = index_site(tmp_path)  # no HTML page to index
    assert problem is not None and "\n" not in problem
    assert "html" in problem.lower()


def test_a_failing_index_fails_the_build(tmp_path: Path) -> None:
    plugin = PagefindSearchPlugin()
    plugin.load_config({})
    plugin.on_startup(command="build", dirty=False)
    config = SimpleNamespace(site_dir=str(tmp_path))
    with pytest.raises(PluginError) as failed:
        plugin.on_post_build(config=config)  # type: ignore[arg-type]
    message = str(failed.value)
    assert message.startswith(f"search: Pagefind could not index {tmp_path}: ")
    assert "\n" not in message


def test_the_index_is_the_same_from_build_to_build(tmp_path: Path) -> None:
    for run in ("a", "b"):
        site = tmp_path / run
        for lang in ("en", "ru", "de"):
            page = site / lang / "index.html"
            page.parent.mkdir(parents=True)
            page.write_text(f'<html lang="{lang}"><body><p>quokka {lang}</p></body></html>')
        assert index_site(site) is None
    entries = [(tmp_path / run / "pagefind/pagefind-entry.json").read_bytes() for run in "ab"]
    assert entries[0] == entries[1]
