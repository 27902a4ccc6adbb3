"""A generated page is rendered without a Markdown processor, to what MkDocs would make of it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from site_plugins.catalog.files import render_no_markdown


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
