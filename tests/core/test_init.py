"""``rolecat init`` at a repository's root: it finds the catalog, writes the files that check
and publish it, overwrites nothing, and says what to do next."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from mkdocs.utils.yaml import yaml_load

from build_tools.cli.init import WRITTEN
from build_tools.lock import LOCK_FILE
from tests.support.cli import Run, run
from tests.support.paths import OUR_CATALOG
from tests.support.upstream_fixtures import UPSTREAM_DIR, upstream_layout


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty repository, the working directory of the test (init runs at the root)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def init(*argv: str) -> Run:
    return run("init", *argv)


def plugin_options(root: Path) -> dict[str, object]:
    config = yaml_load((root / "mkdocs.yml").read_text("utf-8"))  # as MkDocs reads it
    (entry,) = [p for p in config["plugins"] if isinstance(p, dict)]
    assert config["plugins"][0] == "rolecat-search" and config["theme"]["name"] == "material"
    return dict(entry["roles-catalog"])


def test_it_finds_the_one_catalog_and_writes_each_file_for_it(repository: Path) -> None:
    shutil.copytree(OUR_CATALOG, repository / "team/roles")
    (repository / "site").mkdir()  # a built site's index.json is never taken for a catalog
    (repository / "site/index.json").write_text('{"bundles": []}', encoding="utf-8")
    done = init()
    assert done.code == 0, done.err
    assert done.lines[:5] == [f"{name}: created" for name in WRITTEN] + ["next:"]
    assert "  1. rolecat check --catalog team/roles --model-tiers" in done.lines
    assert plugin_options(repository) == {"catalog_dir": "team/roles", "model_tiers": True}
    for name in (".pre-commit-config.yaml", ".github/workflows/pages.yml"):
        text = (repository / name).read_text("utf-8")
        assert "rolecat check --catalog team/roles --model-tiers" in text, name
    assert "`team/roles/`" in (repository / "docs/about.md").read_text("utf-8")


def test_a_catalog_without_tier_words_leaves_model_tiers_off(repository: Path) -> None:
    upstream_layout(repository)
    assert init().code == 0
    assert plugin_options(repository) == {"catalog_dir": UPSTREAM_DIR}
    hook = (repository / ".pre-commit-config.yaml").read_text("utf-8")
    assert f"entry: rolecat check --catalog {UPSTREAM_DIR}\n" in hook


def test_it_overwrites_nothing_and_writes_nothing_beside_a_file_it_would_write(
    repository: Path,
) -> None:
    shutil.copytree(OUR_CATALOG, repository / "catalog")
    (repository / "docs").mkdir()
    (repository / "docs/about.md").write_text("Our own words.\n", encoding="utf-8")
    refused = init()
    assert refused.code == 1 and refused.out == ""
    assert refused.err == (
        "rolecat: docs/about.md already exists; init overwrites nothing: move them aside or set "
        "the rest up by hand\n"
    )
    assert (repository / "docs/about.md").read_text("utf-8") == "Our own words.\n"
    assert sorted(p.name for p in repository.iterdir()) == ["catalog", "docs"]


@pytest.mark.parametrize(
    ("catalogs", "expected"),
    [
        ([], "rolecat: no catalog found under "),
        (["a", "b/roles"], "rolecat: 2 catalogs found (a, b/roles); name one with --catalog DIR"),
    ],
    ids=["none", "two"],
)
def test_without_a_single_catalog_it_asks_for_one(
    repository: Path, catalogs: list[str], expected: str
) -> None:
    for name in catalogs:
        shutil.copytree(OUR_CATALOG, repository / name)
    refused = init()
    assert refused.code == 1 and refused.err.startswith(expected)
    assert not (repository / "mkdocs.yml").exists()
    assert init("--catalog", catalogs[0] if catalogs else "catalog").code == 0


@pytest.mark.parametrize("state", ["missing", "empty"])
def test_a_new_team_gets_a_starter_catalog_that_passes(repository: Path, state: str) -> None:
    if state == "empty":
        (repository / "catalog").mkdir()
    done = init("--catalog", "catalog")
    assert done.code == 0, done.err
    assert done.lines[0] == "catalog: a starter catalog, one bundle and one role, with its lock"
    assert (repository / "catalog" / LOCK_FILE).is_file()
    assert run("check").lines == ["OK"]
    assert "  1. rolecat check --catalog catalog" in done.lines


def test_a_catalog_outside_the_repository_is_refused(repository: Path, tmp_path: Path) -> None:
    (repository / "inner").mkdir()
    outside = repository.parent / f"{repository.name}-roles"
    shutil.copytree(OUR_CATALOG, outside)
    refused = init("--catalog", str(outside))
    assert refused.code == 1 and "is outside the repository" in refused.err
    assert sorted(p.name for p in repository.iterdir()) == ["inner"]
