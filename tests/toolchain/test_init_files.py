"""What ``rolecat init`` writes, read by the tools that run it: GitHub's workflow schema,
pre-commit itself, and MkDocs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.commits import commit_all, git
from tests.support.paths import OUR_CATALOG


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A team's repository holding our catalog in ``roles/``, set up by ``rolecat init``."""
    shutil.copytree(OUR_CATALOG, tmp_path / "roles")
    monkeypatch.chdir(tmp_path)
    assert run("init").code == 0
    monkeypatch.setenv("PRE_COMMIT_HOME", str(tmp_path.parent / "pre-commit-home"))
    monkeypatch.setenv("PRE_COMMIT_COLOR", "never")
    return tmp_path


def rolecat_on_path() -> dict[str, str]:
    """The hook's ``language: system`` runs the rolecat on PATH: the test environment's."""
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}


def tool(directory: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """A tool of the test environment, run as a module."""
    env = rolecat_on_path()
    return subprocess.run(
        [sys.executable, "-m", *argv],
        cwd=directory,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize(
    "schema", ["vendor.github-workflows", "custom.github-workflows-require-timeout"]
)
def test_the_workflow_is_valid(repository: Path, schema: str) -> None:
    workflow = repository / ".github/workflows/pages.yml"
    found = tool(repository, "check_jsonschema", "--builtin-schema", schema, str(workflow))
    assert found.returncode == 0, found.stdout + found.stderr


def test_the_hook_refuses_a_commit_until_the_catalog_passes(repository: Path) -> None:
    assert tool(repository, "pre_commit", "validate-config").returncode == 0
    commit_all(repository, "init")
    installed = tool(repository, "pre_commit", "install")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    index = repository / "roles/index.json"
    index.write_text(index.read_text("utf-8").replace('"version": 1', '"version": 0', 1))
    git(repository, "add", "-A")
    refused = subprocess.run(
        ["git", "commit", "-q", "-m", "a version down"],
        cwd=repository,
        env=rolecat_on_path(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0 and re.search(r"^rolecat check\.+Failed$", output, re.M)
    assert "recorded 1 for the same content" in output
    assert git(repository, "rev-list", "--count", "HEAD") == "1"


def test_mkdocs_builds_the_repository_strict(repository: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=repository,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert (repository / "site/about/index.html").is_file()
    assert (repository / "site/index.json").is_file()
