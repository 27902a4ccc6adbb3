"""What a build generates: a page rendered without a Markdown processor, to what MkDocs would
make of it; an export's second file a hard link to its first."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from build_tools.exports import Export
from site_plugins.catalog.files import EncodedFile, render_no_markdown


def _page(tmp_path: Path, markdown: str) -> tuple[Page, MkDocsConfig, Files]:
    (tmp_path / "d").mkdir(exist_ok=True)
    config = MkDocsConfig()
    config.load_dict(
        {"site_name": "x", "docs_dir": str(tmp_path / "d"), "site_dir": str(tmp_path / "s")}
    )
    assert config.validate() == ([], [])
    file = File("en/role/index.md", config.docs_dir, config.site_dir, use_directory_urls=True)
    page = Page(None, file, config)
    page.markdown = markdown
    return page, config, Files([file])


RENDERED = ("content", "_title_from_render", "present_anchor_ids", "links_to_anchors")


@pytest.mark.parametrize("level", [logging.INFO, logging.DEBUG])
def test_an_empty_page_renders_as_mkdocs_renders_it(tmp_path: Path, level: int) -> None:
    logging.getLogger("mkdocs.structure.pages").setLevel(level)
    try:
        theirs, config, files = _page(tmp_path, "")
        theirs.render(config, files)
        ours, config, files = _page(tmp_path, "")
        render_no_markdown(ours)
        ours.render(config, files)
    finally:
        logging.getLogger("mkdocs.structure.pages").setLevel(logging.NOTSET)
    for name in RENDERED:
        mine, expected = getattr(ours, name), getattr(theirs, name)
        assert (type(mine), repr(mine)) == (type(expected), repr(expected)), name
    assert (type(ours.toc), ours.toc.items) == (type(theirs.toc), theirs.toc.items)
    assert "render" not in vars(ours)  # the class's render again, for the next build


def test_markdown_another_plugin_gave_the_page_is_rendered(tmp_path: Path) -> None:
    page, config, files = _page(tmp_path, "")
    render_no_markdown(page)
    page.markdown = "# Added\n\ntext {: #x }"
    page.render(config, files)
    assert page.content is not None and "<h1" in page.content and "text" in page.content
    assert page.toc.items and page.toc.items[0].title == "Added"


def _config(tmp_path: Path) -> MkDocsConfig:
    config = _page(tmp_path, "")[1]
    config.plugins._current_plugin = "roles-catalog"  # as while the plugin adds its files
    return config


def _export(body: str) -> Export:
    return Export("copilot", "role.agent.md", "---\nname: role\n---\n", body)


def _write(
    config: MkDocsConfig, src_uri: str, made: Export, written: dict[Export, str] | None
) -> Path:
    file = EncodedFile.of(config, src_uri, made, written)
    file.dest_dir = config.site_dir
    file.copy_file()
    return Path(config.site_dir, file.dest_uri)


def test_the_same_export_twice_in_a_build_is_one_file_linked(tmp_path: Path) -> None:
    config, written = _config(tmp_path), {}
    first = _write(config, "en/b/role.agent.md", _export("Review."), written)
    again = _write(
        config, ".github/plugin/plugins/b-en/agents/role.agent.md", _export("Review."), written
    )
    other = _write(config, "en/b/other.agent.md", _export("Other."), written)
    assert again.read_bytes() == first.read_bytes() == _export("Review.").encoded()
    assert os.path.samefile(first, again)
    assert other.read_bytes() == _export("Other.").encoded()
    assert not os.path.samefile(first, other)


def test_a_preview_or_a_disk_without_links_writes_each_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _config(tmp_path)
    first = _write(config, "en/b/role.agent.md", _export("Review."), None)  # a preview's
    again = _write(config, "ru/b/role.agent.md", _export("Review."), None)
    assert again.read_bytes() == first.read_bytes() and not os.path.samefile(first, again)

    def no_links(*_: object) -> None:
        raise PermissionError("no hard links here")

    monkeypatch.setattr(os, "link", no_links)
    written: dict[Export, str] = {}
    first = _write(config, "de/b/role.agent.md", _export("Review."), written)
    again = _write(config, "fr/b/role.agent.md", _export("Review."), written)
    assert again.read_bytes() == first.read_bytes() and not os.path.samefile(first, again)
