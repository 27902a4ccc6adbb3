"""The real thing: the site ``mkdocs build`` writes, served statically and by ``mkdocs serve``.

A deploy is proven only when the server's client can read what the publisher wrote, so these tests
build with the repository's own ``mkdocs.yml`` and plugin and then run ``rolecat verify``.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import (
    OUR_CATALOG,
    REPO,
    StartStatic,
    catalog_files,
    copy_catalog,
    our_catalog_as_yaml,
    run,
    upstream,
)

MKDOCS = Path(sys.executable).parent / "mkdocs"


def _env(catalog: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "ROLES_CATALOG_SITE_URL"}
    env.update(NO_MKDOCS_2_WARNING="1", ROLES_CATALOG_DIR=str(catalog))
    return env


def build(catalog: Path, target: Path) -> Path:
    """``mkdocs build -d target`` of the repository's site for ``catalog``."""
    done = subprocess.run(
        [str(MKDOCS), "build", "-d", str(target)],
        cwd=REPO,
        env=_env(catalog),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return target


@pytest.fixture(scope="module")
def www(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the sites are built, each under www/<name>/site."""
    return tmp_path_factory.mktemp("www")


def source(name: str) -> Path:
    return OUR_CATALOG if name == "ours" else upstream()


@pytest.fixture(scope="module")
def built(www: Path) -> dict[str, Path]:
    """Our catalog, built once for the module."""
    return {"ours": build(OUR_CATALOG, www / "ours" / "site")}


def site_of(name: str, built: dict[str, Path], www: Path) -> Path:
    """The built site of our catalog or of the upstream fixture (built on first use)."""
    if name not in built:
        built[name] = build(source(name), www / name / "site")
    return built[name]


@pytest.mark.parametrize("name", ["ours", "upstream"])
@pytest.mark.parametrize("mount", ["root", "sub-path"])
def test_a_built_site_served_statically_passes(
    built: dict[str, Path], www: Path, static_server: StartStatic, name: str, mount: str
) -> None:
    site = site_of(name, built, www)
    if mount == "root":
        server, base = static_server(site), ""
    else:  # the parent of www/: the site lives at /<name>/site, as on GitHub Pages project sites
        server, base = static_server(site.parent.parent), f"/{name}/site"
    catalog = source(name)

    result = run("verify", f"{server.url}{base}/", "--catalog", str(catalog))

    assert result.code == 0, result.out + result.err
    assert result.lines[0].startswith(f"OK {server.url}{base}: 2 bundles, 2 languages (en, ru)")
    assert result.lines[-1] == (
        f"deploy is current: every published file is byte-identical to {catalog}"
    )
    assert len(result.lines) == 2 + len(catalog_files(catalog))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def mkdocs_serve() -> Iterator[str]:
    """``mkdocs serve`` of our catalog on a free loopback port; yields its base URL when ready."""
    port = _free_port()  # mkdocs serve cannot report a port 0 it was given
    process = subprocess.Popen(
        [str(MKDOCS), "serve", "--no-livereload", "-a", f"127.0.0.1:{port}"],
        cwd=REPO,
        env=_env(OUR_CATALOG),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:  # readiness: the raw index answers once the first build is done
            try:
                with urllib.request.urlopen(f"{url}/index.json", timeout=5):
                    break
            except (urllib.error.URLError, ConnectionError):
                if process.poll() is not None or time.monotonic() > deadline:
                    stderr = process.stderr.read().decode() if process.stderr else ""
                    pytest.fail(f"mkdocs serve did not come up: {stderr}")
                time.sleep(0.1)
        yield url
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr:
            process.stderr.close()


def test_mkdocs_serve_passes(mkdocs_serve: str) -> None:
    result = run("verify", mkdocs_serve, "--catalog", str(OUR_CATALOG))
    assert result.code == 0, result.out + result.err
    assert result.lines[0].startswith(f"OK {mkdocs_serve}: 2 bundles")
    assert result.lines[-1].startswith("deploy is current")


def test_a_build_of_an_edited_catalog_is_reported_stale(
    built: dict[str, Path], static_server: StartStatic, tmp_path: Path
) -> None:
    local = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    path = local / "bundles/writing/en.json"
    path.write_bytes(path.read_bytes().replace(b'"instructions": "', b'"instructions": "Now: ', 1))
    server = static_server(built["ours"])

    result = run("verify", server.url, "--catalog", str(local))

    assert result.code == 1
    assert f"{server.url}/bundles/writing/en.json: DIFFERS from {path}: the deploy is stale" in (
        result.lines
    )


def test_a_site_built_from_yaml_sources_is_current_for_them(
    tmp_path: Path, static_server: StartStatic
) -> None:
    catalog = our_catalog_as_yaml(tmp_path / "catalog")
    server = static_server(build(catalog, tmp_path / "site"))

    result = run("verify", server.url, "--catalog", str(catalog))

    assert result.code == 0, result.out + result.err
    assert result.lines[-1].startswith("deploy is current")
