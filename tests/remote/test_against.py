"""``rolecat check --against``: no role reaches readers without a version above what is live."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.catalog_files import write_json
from tests.support.cli import run
from tests.support.paths import OUR_CATALOG
from tests.support.remote_hosts import (
    StartHost,
    StartStatic,
    StaticServer,
    catalog_files,
    copy_catalog,
    publish,
    read_json,
)
from tests.support.reports import json_report

SLUG = "translator"
BUNDLE = "writing"


def language_files(root: Path) -> Iterator[Path]:
    return iter(sorted((root / "bundles" / BUNDLE).glob("*.json")))


def index_entry(root: Path, slug: str = SLUG) -> dict[str, Any]:
    index = read_json(root / "index.json")
    bundle = next(b for b in index["bundles"] if b["id"] == BUNDLE)
    entry: dict[str, Any] = next(r for r in bundle["roles"] if r["slug"] == slug)
    return entry


def set_version(root: Path, version: int, slug: str = SLUG) -> None:
    index = read_json(root / "index.json")
    for bundle in index["bundles"]:
        for role in bundle["roles"]:
            if role["slug"] == slug:
                role["version"] = version
    write_json(root / "index.json", index)


def edit_instructions(root: Path, suffix: str, slug: str = SLUG) -> None:
    for path in language_files(root):
        bundle = read_json(path)
        for role in bundle["roles"]:
            if role["slug"] == slug:
                role["instructions"] += suffix
        write_json(path, bundle)


def remove_role(root: Path, slug: str = SLUG) -> tuple[dict[str, Any], dict[Path, dict[str, Any]]]:
    """Take a role out of the index and every language file; return what was removed."""
    index = read_json(root / "index.json")
    bundle = next(b for b in index["bundles"] if b["id"] == BUNDLE)
    entry = next(r for r in bundle["roles"] if r["slug"] == slug)
    bundle["roles"].remove(entry)
    write_json(root / "index.json", index)
    removed = {}
    for path in language_files(root):
        data = read_json(path)
        removed[path] = next(r for r in data["roles"] if r["slug"] == slug)
        data["roles"].remove(removed[path])
        write_json(path, data)
    return entry, removed


def add_role(root: Path, entry: dict[str, Any], roles: dict[Path, dict[str, Any]]) -> None:
    index = read_json(root / "index.json")
    next(b for b in index["bundles"] if b["id"] == BUNDLE)["roles"].append(entry)
    write_json(root / "index.json", index)
    for path, role in roles.items():
        data = read_json(path)
        data["roles"].append(role)
        write_json(path, data)


@pytest.fixture
def live(tmp_path: Path, static_server: StartStatic) -> StaticServer:
    """Our catalog as deployed: what readers have now."""
    return static_server(copy_catalog(OUR_CATALOG, tmp_path / "site", with_lock=False))


@pytest.fixture
def local(tmp_path: Path) -> Path:
    """The same catalog in a working copy, lock included."""
    return copy_catalog(OUR_CATALOG, tmp_path / "local")


def test_an_unchanged_catalog_is_not_behind_live(live: StaticServer, local: Path) -> None:
    result = run("check", "--catalog", str(local), "--model-tiers", "--against", live.url)
    assert result.code == 0, result.out + result.err
    assert result.lines == ["OK", f"no role is behind the live catalog at {live.url}"]


def test_the_seeds_known_hole_a_role_readded_with_new_content_at_its_version(
    live: StaticServer, local: Path
) -> None:
    # Remove the role and prune it from the lock ...
    entry, roles = remove_role(local)
    assert run("check", "--catalog", str(local), "--model-tiers", "--fix").code == 0
    # ... then bring it back with new content at the same version: the lock has no baseline.
    for role in roles.values():
        role["instructions"] += "\n\nAlso rewrite every sentence you touch."
    add_role(local, entry, roles)
    assert run("check", "--catalog", str(local), "--model-tiers", "--fix").code == 0
    # The lock alone misses it (our catalog's tier words are resolved by its deployment).
    assert run("check", "--catalog", str(local), "--model-tiers", "--model-tiers").lines == ["OK"]

    result = run("check", "--catalog", str(local), "--model-tiers", "--against", live.url)

    assert result.code == 1
    [line] = result.lines
    version = entry["version"]
    assert line.startswith("index.json:")
    assert line.endswith(
        f'role "{SLUG}" differs from the live one at {live.url} (version {version}), but its '
        f"version is {version} here: readers would not see the change; bump it in index.json "
        f"above {version}, then run `rolecat check --fix`"
    )
    assert result.err.endswith("rolecat: 1 problem\n")


def test_the_message_points_at_the_version_in_the_local_index(
    live: StaticServer, local: Path
) -> None:
    edit_instructions(local, " Changed.")
    # The lock is out of date too: both problems are reported, each at the version.
    result = run("check", "--catalog", str(local), "--model-tiers", "--against", live.url)
    assert result.code == 1
    text = (local / "index.json").read_text(encoding="utf-8").splitlines()
    for line in result.lines:
        _, row, col, _ = line.split(":", 3)
        assert text[int(row) - 1][int(col) - 1 :].startswith(str(index_entry(local)["version"]))
    assert [line.split(": ", 1)[1].split(" ")[2] for line in result.lines] == [
        "changed",
        "differs",
    ]


def test_a_version_lower_than_live_is_caught(
    tmp_path: Path, static_server: StartStatic, local: Path
) -> None:
    ahead = index_entry(local)["version"] + 2
    site = copy_catalog(OUR_CATALOG, tmp_path / "site-ahead", with_lock=False)
    set_version(site, ahead)  # live went ahead (say, deployed from another branch)
    live = static_server(site)

    result = run("check", "--catalog", str(local), "--model-tiers", "--against", live.url)

    assert result.code == 1
    [line] = result.lines
    version = index_entry(local)["version"]
    assert line.endswith(
        f'role "{SLUG}" has version {version} here but {ahead} at {live.url}: versions must '
        f"never go down; set it back to {ahead} in index.json, then run "
        "`rolecat check --fix`"
    )
    as_json = run(
        "check", "--catalog", str(local), "--model-tiers", "--against", live.url, "--format", "json"
    )
    assert [p["rule"] for p in json_report(as_json)["problems"]] == ["live-version-lower"]


def test_a_lower_version_with_new_content_must_go_above_live(
    tmp_path: Path, static_server: StartStatic, local: Path
) -> None:
    version = index_entry(local)["version"]
    site = copy_catalog(OUR_CATALOG, tmp_path / "site-ahead", with_lock=False)
    set_version(site, version + 2)
    live = static_server(site)
    edit_instructions(local, " Changed.")
    set_version(local, version + 1)  # bumped, but not past live
    assert run("check", "--catalog", str(local), "--model-tiers", "--fix").code == 0

    result = run("check", "--catalog", str(local), "--model-tiers", "--against", live.url)

    assert result.code == 1
    [line] = result.lines
    assert f"versions must never go down; set it above {version + 2} in index.json" in line


def test_a_properly_bumped_change_passes(live: StaticServer, local: Path) -> None:
    edit_instructions(local, " Changed.")
    set_version(local, index_entry(local)["version"] + 1)
    assert run("check", "--catalog", str(local), "--model-tiers", "--fix").code == 0

    result = run("check", "--catalog", str(local), "--model-tiers", "--against", live.url)

    assert result.code == 0, result.out
    assert result.lines == ["OK", f"no role is behind the live catalog at {live.url}"]


def test_new_and_removed_roles_are_not_regressions(live: StaticServer, local: Path) -> None:
    entry, roles = remove_role(local)
    for role in roles.values():
        role["slug"] = "copy-editor"
    add_role(local, {**entry, "slug": "copy-editor"}, roles)
    assert run("check", "--catalog", str(local), "--model-tiers", "--fix").code == 0

    result = run("check", "--catalog", str(local), "--model-tiers", "--against", live.url)

    assert result.code == 0, result.out


def test_a_live_catalog_that_cannot_be_read_fails_the_comparison(
    scripted_host: StartHost, local: Path
) -> None:
    # Half a bundle would give a different hash for every role in it: only the fetch is reported.
    files = catalog_files(OUR_CATALOG)
    del files[f"bundles/{BUNDLE}/en.json"]
    host = scripted_host(files)

    result = run("check", "--catalog", str(local), "--model-tiers", "--against", host.url)

    assert result.code == 1
    assert result.lines == [
        f"live catalog: {host.url}/bundles/{BUNDLE}/en.json: HTTP 404 Not Found: the server "
        "refuses non-2xx answers"
    ]
    assert f"cannot fully compare with {host.url}" in result.err
    # The host has JSON, if broken: that is what it serves, and what is compared.
    assert not [path for path in host.requests if path.endswith(".yaml")]


def test_a_yaml_only_live_catalog_is_compared_through_its_yaml(
    tmp_path: Path, static_server: StartStatic, local: Path
) -> None:
    ahead = index_entry(local)["version"] + 2
    source = copy_catalog(OUR_CATALOG, tmp_path / "deployed", with_lock=False)
    set_version(source, ahead)  # live went ahead, and publishes the YAML generation only
    live = static_server(publish(source, tmp_path / "site", ("yaml",)))

    result = run("check", "--catalog", str(local), "--model-tiers", "--against", live.url)

    assert result.code == 1
    [line] = result.lines
    assert f'role "{SLUG}" has version {index_entry(local)["version"]} here but {ahead} at ' in (
        line
    )


def test_an_unchanged_catalog_is_not_behind_a_yaml_only_live_catalog(
    tmp_path: Path, static_server: StartStatic, local: Path
) -> None:
    live = static_server(publish(OUR_CATALOG, tmp_path / "site", ("yaml",)))
    result = run("check", "--catalog", str(local), "--model-tiers", "--against", live.url)
    assert result.code == 0, result.out + result.err
    assert result.lines == [
        "OK",
        f"no role is behind the live catalog at {live.url} (read from its YAML generation: it "
        "publishes no index.json)",
    ]


def test_a_host_with_neither_generation_reports_the_json_one(
    scripted_host: StartHost, local: Path
) -> None:
    host = scripted_host({})
    result = run("check", "--catalog", str(local), "--model-tiers", "--against", host.url)
    assert result.code == 1
    assert result.lines == [
        f"live catalog: {host.url}/index.json: HTTP 404 Not Found: the server refuses non-2xx "
        "answers"
    ]
    assert host.requests == ["/index.json", "/index.yaml"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--against", "ftp://example.org"], "not an http:// or https:// URL"),
        (["--against", "http://127.0.0.1:1", "--fix"], "cannot be combined with --fix"),
        *(
            (["--against", "http://127.0.0.1:1", "--timeout", value], "--timeout must be a number")
            for value in ("-1", "0", "inf", "nan", "1e309", "1e300")
        ),
        (["--against", "http://[::1"], "not a well-formed URL: 'http://[::1'"),
        (["--against", "http://[::1]:99999/"], "not a well-formed URL"),
        (["--against", "http://a b/"], "holds a space or a control character"),
    ],
)
def test_usage_errors(local: Path, argv: list[str], message: str) -> None:
    result = run("check", "--catalog", str(local), "--model-tiers", *argv)
    assert result.code == 2
    assert message in result.err
    assert result.err.count("\n") == 1 and "Traceback" not in result.err


@pytest.mark.parametrize(
    "argv",
    [
        ["http://[::1"],
        ["http://[::1]:99999/"],
        ["http://a\tb/"],
        ["http://127.0.0.1:1", "--timeout", "inf"],
        ["http://127.0.0.1:1", "--timeout", "nan"],
        ["http://127.0.0.1:1", "--timeout", "1e309"],
    ],
)
def test_verify_usage_errors_are_one_line(argv: list[str]) -> None:
    result = run("verify", *argv)
    assert result.code == 2
    assert result.err.count("\n") == 1 and result.err.startswith("rolecat: error: ")


def test_a_live_bundle_missing_a_role_is_reported_not_compared(
    tmp_path: Path, static_server: StartStatic, local: Path
) -> None:
    """Live lists a role its files lack: the problem is reported, the bundle left out."""
    site = copy_catalog(OUR_CATALOG, tmp_path / "site", with_lock=False)
    for path in language_files(site):
        data = read_json(path)
        data["roles"] = [role for role in data["roles"] if role["slug"] != "technical-writer"]
        write_json(path, data)
    live = static_server(site)

    result = run("check", "--catalog", str(local), "--model-tiers", "--against", live.url)

    assert result.code == 1
    assert result.lines == [
        f'live catalog: {live.url}/bundles/{BUNDLE}/{lang}.json:4:12: role "technical-writer" '
        f'is missing: bundle "{BUNDLE}" lists it in index.json (index.json:49:19) but this file '
        "has no role with that slug"
        for lang in ("en", "ru")
    ]
    assert f"cannot fully compare with {live.url}" in result.err
