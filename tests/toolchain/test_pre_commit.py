"""The ``rolecat-check`` pre-commit hook, run by pre-commit itself in a catalog repository.

pre-commit installs the hook's environment from the repository it names (here a snapshot of this
working tree), which takes pip and PyPI, as it would on an author's machine.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.support.commits import commit_all, git
from tests.support.paths import OUR_CATALOG, REPO


@pytest.fixture(autouse=True)
def pre_commit_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """pre-commit's cache of hook environments, for this test only (git hooks inherit it)."""
    monkeypatch.setenv("PRE_COMMIT_HOME", str(tmp_path / "pre-commit-home"))
    monkeypatch.setenv("PRE_COMMIT_COLOR", "never")
    return tmp_path / "pre-commit-home"


def pre_commit(directory: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *argv],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=600,
    )


def hook_result(output: str) -> list[str]:
    """The hook's status lines: ``rolecat check....Passed`` once per run."""
    return re.findall(r"^rolecat check\.+(Passed|Failed)$", output, re.MULTILINE)


def catalog_repository(directory: Path, catalog_dir: str = "catalog") -> Path:
    shutil.copytree(OUR_CATALOG, directory / catalog_dir)
    commit_all(directory, "the catalog")
    return directory


def edit_without_bump(root: Path) -> None:
    path = root / "bundles/engineering/en.json"
    bundle = json.loads(path.read_text(encoding="utf-8"))
    bundle["roles"][0]["instructions"] += "\n\nAlways name the file."
    path.write_text(json.dumps(bundle, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def test_the_manifest_and_our_config_are_valid() -> None:
    for command, path in (
        ("validate-manifest", ".pre-commit-hooks.yaml"),
        ("validate-config", ".pre-commit-config.yaml"),
    ):
        found = pre_commit(REPO, command, path)
        assert found.returncode == 0, found.stdout + found.stderr


def test_our_repository_runs_the_same_hook_on_itself() -> None:
    yaml = YAML(typ="safe", pure=True)
    (published,) = yaml.load((REPO / ".pre-commit-hooks.yaml").read_text())
    hooks = yaml.load((REPO / ".pre-commit-config.yaml").read_text())["repos"][0]["hooks"]
    assert [hook["id"] for hook in hooks] == ["rolecat-check", "ruff"]
    ours = hooks[0]
    same = ("id", "name", "pass_filenames", "always_run", "require_serial")
    assert {k: published[k] for k in same} == {k: ours[k] for k in same}
    assert published["entry"] == "rolecat check" and ours["entry"] == "make --silent check"
    # Its entry, as pre-commit runs it: from the repository root, no file names.
    found = subprocess.run(
        ours["entry"].split(), cwd=REPO, capture_output=True, text=True, timeout=600
    )
    assert (found.returncode, found.stdout) == (0, "OK\n"), found.stderr


def test_our_repository_runs_ruff_beside_the_check() -> None:
    """The second hook: ruff's rules and its formatting, as `make lint` runs them."""
    yaml = YAML(typ="safe", pure=True)
    hooks = yaml.load((REPO / ".pre-commit-config.yaml").read_text())["repos"][0]["hooks"]
    ruff = next(hook for hook in hooks if hook["id"] == "ruff")
    found = subprocess.run(
        ruff["entry"].split(), cwd=REPO, capture_output=True, text=True, timeout=600
    )
    assert found.returncode == 0, found.stdout + found.stderr
    assert "files already formatted" in found.stdout + found.stderr


def test_try_repo_checks_a_catalog_repository(
    tmp_path: Path, rolecat_snapshot: tuple[Path, str]
) -> None:
    snapshot, rev = rolecat_snapshot
    repository = catalog_repository(tmp_path / "roles")

    found = pre_commit(
        repository, "try-repo", str(snapshot), "rolecat-check", "--ref", rev, "--all-files"
    )

    assert found.returncode == 0, found.stdout + found.stderr
    assert hook_result(found.stdout) == ["Passed"]  # once for the whole catalog, not per file


def test_the_readme_config_refuses_a_commit_until_the_catalog_passes(
    tmp_path: Path, rolecat_snapshot: tuple[Path, str]
) -> None:
    """The README's .pre-commit-config.yaml, pointed at a catalog kept in ``roles/``."""
    snapshot, rev = rolecat_snapshot
    repository = catalog_repository(tmp_path / "team", "roles")
    (repository / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"  - repo: {snapshot}\n"
        f"    rev: {rev}\n"
        "    hooks: [{id: rolecat-check, args: [--catalog, roles]}]\n"
    )
    commit_all(repository, "pre-commit")
    installed = pre_commit(repository, "install")
    assert installed.returncode == 0, installed.stdout + installed.stderr

    edit_without_bump(repository / "roles")
    git(repository, "add", "-A")
    with pytest.raises(subprocess.CalledProcessError) as refused:
        git(repository, "commit", "-q", "-m", "edit a role")
    output = refused.value.stdout
    assert hook_result(output) == ["Failed"]
    assert (
        'index.json:21:22: role "code-reviewer" changed since content-hashes.json recorded it at '
        "version 1, but its version is still 1" in output
    )

    index = repository / "roles/index.json"
    index.write_text(index.read_text().replace('"version": 1', '"version": 2', 1))
    fixed = subprocess.run(
        [sys.executable, "-m", "build_tools", "check", "--catalog", "roles", "--fix"],
        cwd=repository, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "updated code-reviewer: version 1 -> 2" in fixed.stdout
    git(repository, "add", "-A")
    committed = git(repository, "commit", "-m", "edit a role, bumped and recorded")
    assert hook_result(committed) == ["Passed"]
