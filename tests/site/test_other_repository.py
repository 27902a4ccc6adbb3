"""The plugin in a catalog repository that is not this one: five lines of mkdocs.yml, the
templates from the package, a repository's own templates overriding single ones."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import REPO
from tests.support.upstream_fixtures import FIVE_LINES, UPSTREAM_DIR, upstream_layout


def mkdocs_build(repository: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` as the team runs it at its repository's root."""
    # Material's end-of-life banner is off by upstream's own switch, as the README says.
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "1700000000"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", *argv],
        cwd=repository,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def team_repository(root: Path, config: str = FIVE_LINES, generation: str = "json") -> Path:
    upstream_layout(root, generation)
    (root / "docs").mkdir()  # MkDocs refuses a config whose docs_dir does not exist
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    return root


def role_pages(site: Path) -> list[Path]:
    return sorted(p for p in site.glob("*/*/*/index.html") if p.parts[-4] != "history")


@pytest.mark.parametrize("generation", ["json", "yaml"])
def test_five_lines_of_mkdocs_yml_build_the_upstream_layout(
    tmp_path: Path, generation: str
) -> None:
    repository = team_repository(tmp_path, generation=generation)
    built = mkdocs_build(repository)
    output = built.stdout + built.stderr
    assert built.returncode == 0, output
    assert "Traceback" not in output
    assert output.count("where the upstream checker keeps it") == 1
    site = repository / "site"
    assert (site / "index.json").is_file() and (site / "index.yaml").is_file()
    page = role_pages(site)[0].read_text("utf-8")
    # The shipped overrides are in: our script, the copy button, the language switcher.
    assert "assets/javascripts/rolecat.js" in page and "data-rolecat-copy" in page
    assert "fonts.googleapis.com" not in page  # system fonts, as in our own site
    assert not (site / "scripts").exists() and not (site / "package.json").exists()


def test_a_repositorys_own_page_template_overrides_that_one_only(tmp_path: Path) -> None:
    repository = team_repository(tmp_path)
    own = repository / "templates/pages"
    own.mkdir(parents=True)
    shipped = (REPO / "templates/pages/role.html").read_text("utf-8")
    (own / "role.html").write_text(shipped + "\n<p>Reviewed by our team.</p>\n", encoding="utf-8")
    built = mkdocs_build(repository)
    assert built.returncode == 0, built.stdout + built.stderr
    site = repository / "site"
    assert all("Reviewed by our team." in p.read_text("utf-8") for p in role_pages(site))
    assert "Reviewed by our team." not in (site / "index.html").read_text("utf-8")


def test_custom_dir_overrides_one_partial_and_keeps_the_shipped_ones(tmp_path: Path) -> None:
    config = FIVE_LINES.replace(
        "theme: material\n", "theme:\n  name: material\n  custom_dir: overrides\n"
    )
    repository = team_repository(tmp_path, config)
    (repository / "overrides/partials").mkdir(parents=True)
    (repository / "overrides/partials/copyright.html").write_text(
        '<div class="md-copyright">Our team, 2026</div>\n', encoding="utf-8"
    )
    built = mkdocs_build(repository)
    assert built.returncode == 0, built.stdout + built.stderr
    page = role_pages(repository / "site")[0].read_text("utf-8")
    assert "Our team, 2026" in page and "assets/javascripts/rolecat.js" in page


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (
            FIVE_LINES.replace("theme: material", "theme: mkdocs"),
            "the site's pages are made for Material for MkDocs; set `theme: material`",
        ),
        (
            FIVE_LINES.replace(f"{UPSTREAM_DIR}}}", f"{UPSTREAM_DIR}, page_templates: ours}}"),
            "roles-catalog: page_templates: ",
        ),
    ],
    ids=["another theme", "page_templates missing"],
)
def test_a_config_the_pages_cannot_use_is_one_line(
    tmp_path: Path, config: str, expected: str
) -> None:
    repository = team_repository(tmp_path, config)
    built = mkdocs_build(repository)
    output = built.stdout + built.stderr
    assert built.returncode == 1 and "Traceback" not in output
    line = next(x for x in output.splitlines() if expected in x)
    assert not (repository / "site").exists(), line
