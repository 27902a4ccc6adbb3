"""The Pages workflow: parsed, and its shell steps run as the runner runs them, on loopback.

The steps that need GitHub (checkout, Pages, artifacts) are GitHub's own actions; every step of
ours that runs ``rolecat`` runs here with bash as the runner starts it, its ``${{ }}`` values
put in the way GitHub would for a push to each branch, and a static host on 127.0.0.1 standing in
for GitHub Pages.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from build_tools.check import update_lock
from build_tools.model.catalog import load_catalog
from build_tools.wire.raw_tree import raw_files
from tests.support.catalog_files import write_json
from tests.support.commits import commit_all
from tests.support.paths import OUR_CATALOG, REPO
from tests.support.remote_hosts import StartStatic, StaticServer, read_json

WORKFLOW = REPO / ".github" / "workflows" / "pages.yml"
BRANCHES = ["main", "develop"]
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
ROLECAT = re.compile(r"(^|[\s;&|(])rolecat\s", re.MULTILINE)
"""A shell line that runs rolecat (not ``make .venv/bin/rolecat``)."""


def workflow() -> dict[str, Any]:
    """Read as GitHub reads it: YAML 1.2, so ``on`` is a key, not ``true``."""
    loaded: dict[str, Any] = YAML(typ="safe", pure=True).load(WORKFLOW.read_text())
    return loaded


@dataclass
class Step:
    job: str
    id: str
    run: str
    env: dict[str, str]


def steps() -> dict[tuple[str, str], Step]:
    """Our shell steps by (job, step id), with the env of the workflow, job and step."""
    found = {}
    document = workflow()
    for job_name, job in document["jobs"].items():
        for step in job["steps"]:
            if "run" in step:
                env = {**document.get("env", {}), **job.get("env", {}), **step.get("env", {})}
                key = (job_name, step.get("id", step.get("name", "")))
                found[key] = Step(job_name, key[1], step["run"], env)
    return found


def run_step(
    step: Step, cwd: Path, context: dict[str, str], **overrides: str
) -> subprocess.CompletedProcess[str]:
    """bash as the runner starts it; ``${{ … }}`` only in env, each one known to this test."""
    assert "${{" not in step.run, "pass values through env: an expression in a script is injected"
    env = {
        key: EXPRESSION.sub(lambda m: context[m.group(1)], str(v)) for key, v in step.env.items()
    }
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step.run],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={
            **os.environ,
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            **env,
            **overrides,
        },
    )


def on_push(host: str, branch: str, **more: str) -> dict[str, str]:
    """The expression values of a push: ``inputs`` is empty outside workflow_dispatch."""
    return {
        "steps.pages.outputs.base_url": host,
        "matrix.branch": branch,
        "inputs.first_deploy": "",
        **more,
    }


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """What actions/checkout leaves: the repository with its catalog, a git work tree."""
    root = tmp_path / "checkout"
    shutil.copytree(OUR_CATALOG, root / "catalog")
    commit_all(root)
    return root


def published(catalog: Path, target: Path) -> None:
    """The raw files a build of ``catalog`` publishes (what the server reads of the site)."""
    loaded, problems = load_catalog(catalog)
    assert loaded is not None and problems == []
    for relpath, data in raw_files(loaded).items():
        (target / relpath).parent.mkdir(parents=True, exist_ok=True)
        (target / relpath).write_bytes(data)


@pytest.fixture
def pages(tmp_path: Path, static_server: StartStatic) -> tuple[Path, StaticServer]:
    """The deploy job's artifact, put together by its own step from both branches' builds, and
    served on loopback as Pages would serve it."""
    deploy = tmp_path / "deploy"
    for branch in BRANCHES:
        published(OUR_CATALOG, deploy / "artifacts" / f"site-{branch}")
    assembled = run_step(steps()["deploy", "assemble"], deploy, {})
    assert assembled.returncode == 0, assembled.stderr
    return deploy / "pages", static_server(deploy / "pages")


# --- the workflow as GitHub reads it


@pytest.mark.parametrize(
    "schema", ["vendor.github-workflows", "custom.github-workflows-require-timeout"]
)
def test_it_is_a_valid_workflow(schema: str) -> None:
    """SchemaStore's schema of GitHub workflows (check-jsonschema ships it): no misspelt key."""
    found = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, str(WORKFLOW)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert found.returncode == 0, found.stdout + found.stderr


def test_it_publishes_both_branches_side_by_side_on_every_push() -> None:
    document = workflow()
    assert document["on"]["push"]["branches"] == BRANCHES
    assert document["env"]["ROLECAT_FORMAT"] == "github"
    jobs = document["jobs"]
    for name in ("build", "verify"):
        assert jobs[name]["strategy"]["matrix"]["branch"] == BRANCHES
        checkout = jobs[name]["steps"][0]
        assert checkout["uses"].startswith("actions/checkout@")
        assert checkout["with"]["ref"] == "${{ matrix.branch }}"
    assert (jobs["deploy"]["needs"], jobs["verify"]["needs"]) == ("build", "deploy")
    uses = [step.get("uses", "") for step in jobs["deploy"]["steps"]]
    assert [u.split("@")[0] for u in uses if u] == [
        "actions/download-artifact",
        "actions/upload-pages-artifact",
        "actions/deploy-pages",
    ]
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}


def test_every_step_that_runs_rolecat_is_run_here() -> None:
    assert {key for key, step in steps().items() if ROLECAT.search(step.run)} == {
        ("pull-request", "check"),
        ("build", "check"),
        ("verify", "verify"),
    }


def test_the_assembled_artifact_holds_both_branches(
    pages: tuple[Path, StaticServer],
) -> None:
    root, _server = pages
    assert sorted(p.name for p in root.iterdir()) == ["develop", "index.html", "main"]
    for branch in BRANCHES:
        assert (root / branch / "index.json").read_bytes() == (
            OUR_CATALOG / "index.json"
        ).read_bytes()
    assert '<a href="develop/">develop</a>' in (root / "index.html").read_text()


# --- a push: check against live, deploy, verify


@pytest.mark.parametrize("branch", BRANCHES)
def test_a_push_checks_against_live_then_verifies_the_deploy(
    branch: str, checkout: Path, pages: tuple[Path, StaticServer]
) -> None:
    _root, server = pages
    context = on_push(server.url, branch)

    checked = run_step(steps()["build", "check"], checkout, context)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout == ""  # no annotation
    assert checked.stderr == f"OK\nno role is behind the live catalog at {server.url}/{branch}\n"

    verified = run_step(steps()["verify", "verify"], checkout, context)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout == ""
    assert verified.stderr.startswith(
        f"OK {server.url}/{branch}: JSON generation: 2 bundles, 2 languages"
    )
    assert verified.stderr.endswith(
        "deploy is current: every published file is byte-identical to what a build of catalog "
        "publishes\n"
    )


def test_a_pull_request_is_checked_against_its_target_branch(
    checkout: Path, pages: tuple[Path, StaticServer]
) -> None:
    root, server = pages
    index = read_json(root / "develop" / "index.json")
    index["bundles"][0]["roles"][0]["version"] = 5  # live develop is ahead of this change
    write_json(root / "develop" / "index.json", index)
    context = {"steps.pages.outputs.base_url": server.url}

    into_main = run_step(
        steps()["pull-request", "check"], checkout, {**context, "github.base_ref": "main"}
    )
    assert into_main.returncode == 0, into_main.stdout + into_main.stderr

    into_develop = run_step(
        steps()["pull-request", "check"], checkout, {**context, "github.base_ref": "develop"}
    )
    assert into_develop.returncode == 1
    assert into_develop.stdout.startswith(
        "::error file=catalog/index.json,line=21,col=22,title=live-version-lower::"
        f'role "code-reviewer" has version 1 here but 5 at {server.url}/develop: versions must '
        "never go down"
    )


def test_a_role_changed_without_a_bump_above_live_is_refused(
    checkout: Path, pages: tuple[Path, StaticServer]
) -> None:
    """The lock's hole: a role's content changes and the lock is refreshed at the same version."""
    _root, server = pages
    path = checkout / "catalog" / "bundles" / "writing" / "en.json"
    bundle = read_json(path)
    bundle["roles"][0]["instructions"] += "\n\nCite the source."
    write_json(path, bundle)
    (checkout / "catalog" / "content-hashes.json").unlink()
    assert update_lock(checkout / "catalog").written  # the lock alone no longer sees it

    checked = run_step(steps()["build", "check"], checkout, on_push(server.url, "main"))

    assert checked.returncode == 1
    assert re.fullmatch(
        r"::error file=catalog/index\.json,line=\d+,col=\d+,title=live-not-bumped::"
        r'role "technical-writer" differs from the live one at .*\n',
        checked.stdout,
    )
    assert checked.stderr == "rolecat: 1 problem\n"


def test_the_first_deploy_skips_the_comparison(
    checkout: Path, tmp_path: Path, static_server: StartStatic
) -> None:
    (tmp_path / "empty").mkdir()
    nothing = static_server(tmp_path / "empty")  # Pages before the first deploy: 404 everywhere

    pushed = run_step(steps()["build", "check"], checkout, on_push(nothing.url, "main"))
    assert pushed.returncode == 1
    assert pushed.stdout == (
        f"::error title=fetch-status::live catalog: {nothing.url}/main/index.json: HTTP 404 File "
        "not found: the server refuses non-2xx answers\n"
    )

    first = run_step(
        steps()["build", "check"],
        checkout,
        on_push(nothing.url, "main", **{"inputs.first_deploy": "true"}),
    )
    assert (first.returncode, first.stdout, first.stderr) == (0, "", "OK\n")


def test_a_stale_deploy_fails_verify_after_waiting_for_it(
    checkout: Path, pages: tuple[Path, StaticServer]
) -> None:
    _root, server = pages
    path = checkout / "catalog" / "bundles" / "engineering" / "ru.json"
    path.write_text(path.read_text().replace("ревьюер", "рецензент", 1))

    verified = run_step(
        steps()["verify", "verify"],
        checkout,
        on_push(server.url, "main"),
        VERIFY_ATTEMPTS="2",
        VERIFY_DELAY="0",
    )

    assert verified.returncode == 1
    assert verified.stdout.splitlines() == [
        f"attempt 1: {server.url}/main is not this deploy yet",
        f"attempt 2: {server.url}/main is not this deploy yet",
        f"::error title=deploy-stale::{server.url}/main/bundles/engineering/ru.json: DIFFERS "
        "from what a build of catalog publishes: the deploy is stale",
        f"::error title=deploy-stale::{server.url}/main/bundles/engineering/ru.yaml: DIFFERS "
        "from what a build of catalog publishes: the deploy is stale",
    ]
