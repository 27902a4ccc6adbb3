"""What the site cannot publish, ``rolecat check`` refuses too: reserved names, unwritable paths."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from build_tools.wire import site_paths
from build_tools.wire.staging import STAGING_EXTRA
from tests.support.catalogs import Catalog, role
from tests.support.diagnostics import at_string, value

RESERVED = "assets, bundles, connect, health, pagefind, schema, sha256sums"


@pytest.mark.parametrize("name", ["assets", "bundles", "pagefind", "schema"])
def test_a_reserved_bundle_id(catalog: Catalog, tmp_path: Path, name: str) -> None:
    rename_bundle(catalog, "beta", name)
    result = catalog.check("--docs", str(tmp_path / "no-docs"))
    assert result.code == 1
    holds = site_paths.RESERVED[name]
    place = value(catalog, "index.json", "id", json.dumps(name))
    assert result.lines == [
        f'{place}: bundle id "{name}" is reserved on the site (/{name}/ holds {holds}); rename '
        f"the bundle (reserved: {RESERVED})"
    ]


def rename_bundle(catalog: Catalog, old: str, new: str) -> None:
    catalog.index["bundles"][1]["id"] = new
    for language in ("en", "ru"):
        catalog.files[(new, language)] = catalog.files.pop((old, language))
    shutil.rmtree(catalog.path(f"bundles/{old}"))
    catalog.write().record()


def test_a_hand_written_page_takes_its_name(catalog: Catalog, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    (docs / "guide.md").write_text("# Guide\n", encoding="utf-8")
    rename_bundle(catalog, "beta", "guide")
    result = catalog.check("--docs", str(docs))
    assert result.code == 1
    [line] = result.lines
    assert line.endswith(
        'bundle id "guide" is reserved on the site (/guide/ holds a hand-written page or file of '
        "the site); rename the bundle (reserved: assets, bundles, connect, guide, health, "
        "pagefind, schema, sha256sums)"
    )
    assert catalog.check("--docs", str(tmp_path / "elsewhere")).lines == ["OK"]


def test_a_slug_longer_than_a_file_name(catalog: Catalog) -> None:
    """The longest name a slug gives is its Claude Code export beside its page, <slug>.claude.md:
    246 bytes of slug make it 256, though the page's directory would still fit."""
    slug = "s" * 246
    catalog.index["bundles"][1]["roles"][0]["slug"] = slug
    for language in ("en", "ru"):
        catalog.files[("beta", language)]["roles"] = [
            role(slug, language, name=f"Long ({language})")
        ]
    catalog.write().record()
    result = catalog.check()
    assert result.code == 1
    assert result.lines == [
        f'{at_string(catalog, "index.json", slug)}: role "{"s" * 24}…" (246 characters): its '
        "longest file, <slug>.claude.md, would be named 256 bytes long, and a name holds at most "
        "255; shorten the slug"
    ]
    assert site_paths.id_name_problem("slug", slug) == result.lines[0].split(": ", 1)[1]
    assert site_paths.id_name_problem("slug", slug[:-1]) is None


def test_a_language_too_long_for_its_file_name(catalog: Catalog) -> None:
    language = "l" * 251  # fine as a directory, too long as l…l.yaml
    bundle = catalog.index["bundles"][0]
    bundle["languages"] = ["en", language]
    for field in ("name", "description"):
        bundle[field][language] = bundle[field].pop("ru")
    del catalog.files[("alpha", "ru")]  # a file of that name cannot even be written
    catalog.write()
    (catalog.root / "bundles/alpha/ru.json").unlink()
    result = catalog.check("--formats", "json")  # the file of this language cannot exist either
    assert any("would be named 256 bytes long" in line for line in result.lines), result.out


def test_a_path_too_long_where_the_site_is_built(catalog: Catalog, tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 200) / ("e" * 200)
    base = len(str(deep)) + STAGING_EXTRA
    # Deep enough that the longest page, en/beta/three/index.html, is one byte over 4,095.
    site = deep / ("f" * (4096 - base - len("/") - len("/en/beta/three/index.html")))
    result = catalog.check("--site", str(site))
    assert result.code == 1
    assert len(result.lines) == 1, result.out
    [line] = result.lines
    assert line.startswith(f"{at_string(catalog, 'index.json', 'three')}: ")
    assert line.endswith(
        f'role "three": en/beta/three/index.html would be written at a path of 4,096 bytes in '
        f"{site}, and a path holds at most 4,095; shorten the ids or build the site in a "
        "directory with a shorter path"
    )
    as_json = json.loads(catalog.check("--site", str(site), "--format", "json").out)
    assert [problem["rule"] for problem in as_json["problems"]] == ["site-path-too-long"]
    assert catalog.check("--site", str(site)[:-1]).lines == ["OK"]
