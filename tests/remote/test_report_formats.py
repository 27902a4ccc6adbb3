"""``verify`` and ``check --against`` in ``--format json`` and ``github``: URLs as files."""

from __future__ import annotations

from pathlib import Path

from tests.support.catalog_files import write_json
from tests.support.cli import run
from tests.support.paths import OUR_CATALOG
from tests.support.remote_hosts import (
    StartHost,
    StartStatic,
    catalog_files,
    copy_catalog,
    read_json,
    send,
)
from tests.support.reports import json_report

ENGINEERING_RU = "bundles/engineering/ru.json"
WRITING_EN = "bundles/writing/en.json"


def test_verify_json_names_each_failed_file_by_its_url(scripted_host: StartHost) -> None:
    files = catalog_files(OUR_CATALOG)
    del files[ENGINEERING_RU]
    host = scripted_host(files)
    host.answers[WRITING_EN] = lambda h: send(
        h, b"", status=301, headers={"Location": "/elsewhere/en.json"}
    )

    result = run("verify", host.url, "--formats", "json", "--format", "json")

    assert result.code == 1
    assert json_report(result)["problems"] == [
        {
            "file": f"{host.url}/{ENGINEERING_RU}",
            "line": None,
            "column": None,
            "pointer": "",
            "rule": "fetch-status",
            "severity": "error",
            "message": "HTTP 404 Not Found: the server refuses non-2xx answers",
        },
        {
            "file": f"{host.url}/{WRITING_EN}",
            "line": None,
            "column": None,
            "pointer": "",
            "rule": "fetch-redirect",
            "severity": "error",
            "message": f"HTTP 301 redirect to {host.url}/elsewhere/en.json; the "
            "server refuses redirects (fetch with redirect: 'error'): serve the file itself at "
            "this URL",
        },
    ]
    assert result.err.splitlines() == [
        f"FAILED {host.url}: JSON generation: 2 problems; 3 .json files read, "
        f"{sum(len(files[path]) for path in files if path != WRITING_EN):,} bytes",
        f"rolecat: 2 problems reading {host.url} as the server does",
    ]


def test_verify_json_places_a_problem_in_the_published_file(scripted_host: StartHost) -> None:
    files = catalog_files(OUR_CATALOG)
    files[WRITING_EN] = files[WRITING_EN].replace(b'"autoStart": false', b'"autoStart": "no"', 1)
    host = scripted_host(files)

    result = run("verify", host.url, "--formats", "json", "--format", "json")
    (problem,) = json_report(result)["problems"]

    assert problem["file"] == f"{host.url}/{WRITING_EN}"
    assert (problem["rule"], problem["pointer"]) == ("schema-type", "/roles/1/autoStart")
    assert problem["line"] and problem["column"]


def test_verify_json_ok_with_the_summary_on_stderr(
    tmp_path: Path, static_server: StartStatic
) -> None:
    server = static_server(copy_catalog(OUR_CATALOG, tmp_path / "site", with_lock=False))
    result = run(
        "verify", server.url, "--formats", "json", "--format", "json", "--catalog", str(OUR_CATALOG)
    )
    assert result.code == 0
    assert json_report(result) == {"ok": True, "problems": [], "rules": {}}
    lines = result.err.splitlines()
    assert lines[0].startswith(
        f"OK {server.url}: JSON generation: 2 bundles, 2 languages (en, ru), 6 roles"
    )
    assert lines[-1] == (
        "deploy is current: every published file is byte-identical to what a build of "
        f"{OUR_CATALOG} publishes"
    )


def test_verify_json_a_stale_deploy_is_a_problem(
    tmp_path: Path, static_server: StartStatic
) -> None:
    server = static_server(copy_catalog(OUR_CATALOG, tmp_path / "site", with_lock=False))
    local = copy_catalog(OUR_CATALOG, tmp_path / "local")
    bundle = read_json(local / ENGINEERING_RU)
    bundle["roles"][0]["description"] += " (updated)"
    write_json(local / ENGINEERING_RU, bundle)

    result = run(
        "verify", server.url, "--formats", "json", "--catalog", str(local), "--format", "json"
    )

    assert result.code == 1
    assert json_report(result)["problems"] == [
        {
            "file": f"{server.url}/{ENGINEERING_RU}",
            "line": None,
            "column": None,
            "pointer": "",
            "rule": "deploy-stale",
            "severity": "error",
            "message": f"DIFFERS from what a build of {local} publishes: the deploy is stale",
        }
    ]
    assert (
        f"deploy is NOT current: 1 file not byte-identical to what a build of {local} publishes"
        in result.err
    )


def test_verify_github_annotates_the_run_with_the_url(scripted_host: StartHost) -> None:
    files = catalog_files(OUR_CATALOG)
    del files[ENGINEERING_RU]
    host = scripted_host(files)

    result = run("verify", host.url, "--formats", "json", "--format", "github")

    assert result.code == 1
    assert result.lines == [
        f"::error title=fetch-status::{host.url}/{ENGINEERING_RU}: HTTP 404 Not Found: the server "
        "refuses non-2xx answers"
    ]  # in the message, ":" stays as it is: only properties escape it


def test_against_json_live_problems_are_urls_local_ones_files(
    tmp_path: Path, scripted_host: StartHost
) -> None:
    local = copy_catalog(OUR_CATALOG, tmp_path / "local")
    files = catalog_files(OUR_CATALOG)
    # Live: one role's text differs at the same version; one bundle file cannot be read.
    files[ENGINEERING_RU] = files[ENGINEERING_RU].replace("ревью".encode(), "обзор".encode(), 1)
    del files[WRITING_EN]
    host = scripted_host(files)

    result = run(
        "check", "--catalog", str(local), "--model-tiers", "--against", host.url, "--format", "json"
    )

    assert result.code == 1
    problems = json_report(result)["problems"]
    assert [(p["file"], p["rule"], p["pointer"]) for p in problems] == [
        ("index.json", "live-not-bumped", "/bundles/0/roles/0/version"),
        (f"{host.url}/{WRITING_EN}", "fetch-status", ""),
    ]
