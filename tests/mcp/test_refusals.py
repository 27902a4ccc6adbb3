"""What ``rolecat mcp`` refuses to serve, before any session: a catalog that fails its check
(the same lines as ``rolecat check``), a catalog mid-change (left as it is), a language the
catalog lacks, a bad URL, a site the server cannot read. Each is said on stderr, a line each,
never a traceback; stdout, the protocol's, stays empty."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.catalogs import Catalog
from tests.support.cli import run
from tests.support.mcp_sessions import command, require_sdk
from tests.support.remote_hosts import StaticServer, publish


def refused(*args: str, cwd: Path) -> tuple[int, list[str]]:
    """The exit code and stderr's lines of a server that must stop before serving."""
    require_sdk()
    done = subprocess.run(
        command(*args),
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    return done.returncode, done.stderr.splitlines()


def test_a_catalog_that_fails_its_check_is_not_served(catalog: Catalog, tmp_path: Path) -> None:
    del catalog.files[("alpha", "en")]["roles"][1]["name"]
    catalog.files[("beta", "ru")]["roles"][0]["emoji"] = "🔥"
    catalog.write()
    checked = catalog.check()
    code, lines = refused("--catalog", str(catalog.root), cwd=tmp_path)
    assert (checked.code, code) == (1, 1)
    assert lines[:-1] == checked.lines and len(lines) >= 3
    assert lines[-1] == (
        f"rolecat: {len(checked.lines)} problems (see `rolecat check --catalog {catalog.root}`); "
        "nothing is served"
    )


def files(root: Path) -> list[tuple[str, bytes]]:
    return sorted(
        (p.relative_to(root).as_posix(), p.read_bytes()) for p in root.rglob("*") if p.is_file()
    )


def test_a_catalog_mid_change_is_left_as_it_is(catalog: Catalog, tmp_path: Path) -> None:
    """A check finishes or undoes a killed command's change, which writes: the server refuses
    instead. (This journal's plan was cut short as it was written: a check removes it.)"""
    journal = catalog.root / ".rolecat-change-0123abcd"
    journal.mkdir()
    (journal / "plan.json").write_text('{"writer": "cat', encoding="utf-8")
    copy = shutil.copytree(catalog.root, tmp_path / "copy")
    assert run("check", "--catalog", str(copy)).code == 0 and files(copy) != files(catalog.root)
    before = files(catalog.root)
    code, lines = refused("--catalog", str(catalog.root), cwd=tmp_path)
    assert code == 1
    assert lines == [
        f"{journal}: a change that a killed rolecat command left half made; `rolecat check "
        f"--catalog {catalog.root}` finishes or undoes it (rolecat mcp writes nothing)",
        "rolecat: the catalog is mid-change; nothing is served",
    ]
    assert files(catalog.root) == before


def test_a_language_the_catalog_lacks(catalog: Catalog, tmp_path: Path) -> None:
    code, lines = refused("--catalog", str(catalog.root), "--language", "de", cwd=tmp_path)
    assert (code, lines) == (
        1,
        ['rolecat: the catalog has no language "de" (it has en, ru); nothing is served'],
    )


def test_english_by_default_else_the_first_language(catalog: Catalog) -> None:
    from build_tools.mcp.prompts import choose_language
    from build_tools.model.catalog import load_catalog

    loaded, _problems = load_catalog(catalog.root)
    assert loaded is not None and choose_language(loaded, None) == "en"
    for bundle in catalog.index["bundles"]:
        bundle["languages"] = ["ru"]
    catalog.write()
    loaded, _problems = load_catalog(catalog.root)
    assert loaded is not None and choose_language(loaded, None) == "ru"


@pytest.mark.parametrize(
    "url", ["ftp://example.org/roles", "https://example.org/roles?branch=main", "not a url"]
)
def test_a_bad_url_is_a_usage_error(url: str, tmp_path: Path) -> None:
    code, lines = refused("--url", url, cwd=tmp_path)
    assert code == 2 and len(lines) == 1 and lines[0].startswith("rolecat: error: ")


def test_an_unreachable_site(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on once it is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    code, lines = refused("--url", base, cwd=tmp_path)
    assert (code, lines) == (
        1,
        [
            f"rolecat: cannot read {base} as the server does: {base}/index.json: connection "
            "refused: nothing listens at this host and port; nothing is served"
        ],
    )


def test_a_site_the_server_cannot_read(
    catalog: Catalog, static_server: Callable[[Path], StaticServer], tmp_path: Path
) -> None:
    site = publish(catalog.root, tmp_path / "site")
    broken = site / "bundles" / "beta" / "en.json"
    value = json.loads(broken.read_text(encoding="utf-8"))
    value["roles"][0]["description"] = None  # the server's type guard rejects the whole file
    broken.write_text(json.dumps(value), encoding="utf-8")
    host = static_server(site)
    code, lines = refused("--url", host.url, cwd=tmp_path)
    assert code == 1 and len(lines) == 1
    assert lines[0].startswith(f"rolecat: cannot read {host.url} as the server does: ")
    assert f"{host.url}/bundles/beta/en.json" in lines[0]


def test_catalog_and_url_together_are_a_usage_error(catalog: Catalog) -> None:
    done = run("mcp", "--catalog", str(catalog.root), "--url", "https://example.org")
    assert done.code == 2 and done.out == ""
    assert done.err.splitlines()[-1] == (
        "rolecat mcp: error: argument --url: not allowed with argument --catalog"
    )


def test_no_catalog_directory_is_a_usage_error(tmp_path: Path) -> None:
    code, lines = refused(cwd=tmp_path)  # the default, catalog/, is not there
    assert (code, lines) == (2, ["rolecat: error: catalog directory not found: catalog"])
