"""The real thing: the site ``mkdocs build`` writes, served statically and by ``mkdocs serve``.

A deploy is proven only when the server's client can read what the publisher wrote, so these tests
build with the repository's own ``mkdocs.yml`` and plugin and then run ``rolecat verify``, which
reads both server generations: the ``.json`` files and the ``.yaml`` files.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.catalog_files import our_catalog_as_yaml
from tests.support.cli import run
from tests.support.paths import OUR_CATALOG, REPO
from tests.support.remote_hosts import StartStatic, copy_catalog, published_files
from tests.support.upstream_fixtures import upstream, upstream_yaml

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


SOURCES: dict[str, Callable[[], Path]] = {
    "ours": lambda: OUR_CATALOG,
    "upstream": upstream,
    "upstream-yaml": upstream_yaml,
}
"""Our catalog and both upstream fixtures (JSON sources, and YAML sources with literal blocks);
a fixture that is not there skips its test (fails under CI=true)."""


Built = Callable[[str], Path]
"""The ``built`` fixture: the site of one catalog of ``SOURCES``, by name."""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """Each catalog of ``SOURCES`` built at most once for the module, under www/<name>/site."""
    www = tmp_path_factory.mktemp("www")
    sites: dict[str, Path] = {}

    def site(name: str) -> Path:
        if name not in sites:
            catalog = Path(shutil.copytree(SOURCES[name](), tmp_path_factory.mktemp(name) / "c"))
            sites[name] = build(catalog, www / name / "site")
        return sites[name]

    return site


@pytest.mark.parametrize("name", list(SOURCES))
@pytest.mark.parametrize("mount", ["root", "sub-path"])
def test_a_built_site_served_statically_passes_in_both_generations(
    built: Built, static_server: StartStatic, name: str, mount: str
) -> None:
    site = built(name)
    if mount == "root":
        server, base = static_server(site), ""
    else:  # the parent of www/: the site lives at /<name>/site, as on GitHub Pages project sites
        server, base = static_server(site.parent.parent), f"/{name}/site"
    source = SOURCES[name]()

    result = run("verify", f"{server.url}{base}/", "--catalog", str(source))

    assert result.code == 0, result.out + result.err
    for line, generation, extension in zip(
        result.lines, ["JSON", "YAML"], [".json", ".yaml"], strict=False
    ):
        assert line.startswith(
            f"OK {server.url}{base}: {generation} generation: 2 bundles, 2 languages (en, ru), "
            f"6 roles, 5 {extension} files, "
        )
    published = published_files(source)
    assert result.lines[2:-1] == [
        f"{server.url}{base}/{path}: current (byte-identical to what a build of {source} publishes)"
        for extension in (".json", ".yaml")
        for path in sorted(published, key=lambda p: (not p.startswith("index."), p))
        if path.endswith(extension)
    ]
    assert result.lines[-1] == (
        "deploy is current: every published file is byte-identical to what a build of "
        f"{source} publishes"
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def mkdocs_serve() -> Iterator[str]:
    """``mkdocs serve`` of our catalog on a free loopback port, live-reloading as ``make serve``
    does (the plugin's server is the live-reloading one); yields its base URL when ready."""
    port = _free_port()  # mkdocs serve cannot report a port 0 it was given
    process = subprocess.Popen(
        [str(MKDOCS), "serve", "--livereload", "-a", f"127.0.0.1:{port}"],
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
    with urllib.request.urlopen(f"{mkdocs_serve}/index.yaml", timeout=10) as response:
        assert response.headers["Content-Type"] == "text/yaml; charset=utf-8"  # shown, not saved
    result = run("verify", mkdocs_serve, "--catalog", str(OUR_CATALOG))
    assert result.code == 0, result.out + result.err
    assert result.lines[0].startswith(f"OK {mkdocs_serve}: JSON generation: 2 bundles")
    assert result.lines[1].startswith(f"OK {mkdocs_serve}: YAML generation: 2 bundles")
    assert result.lines[-1].startswith("deploy is current")


def test_a_build_of_an_edited_catalog_is_reported_stale(
    built: Built, static_server: StartStatic, tmp_path: Path
) -> None:
    local = copy_catalog(OUR_CATALOG, tmp_path / "catalog")
    path = local / "bundles/writing/en.json"
    path.write_bytes(path.read_bytes().replace(b'"instructions": "', b'"instructions": "Now: ', 1))
    server = static_server(built("ours"))

    result = run("verify", server.url, "--catalog", str(local))

    assert result.code == 1
    for published in ("bundles/writing/en.json", "bundles/writing/en.yaml"):
        assert (
            f"{server.url}/{published}: DIFFERS from what a build of {local} publishes: the "
            "deploy is stale" in result.lines
        )


def test_stale_yaml_sources_are_named_as_published(
    static_server: StartStatic, tmp_path: Path
) -> None:
    """A YAML catalog's deploy: every line names a file the site publishes, never a source
    file that does not exist (``catalog/bundles/x/en.json``)."""
    local = our_catalog_as_yaml(tmp_path / "catalog")
    server = static_server(build(local, tmp_path / "site"))
    path = local / "bundles/engineering/en.yaml"
    path.write_bytes(path.read_bytes().replace(b"You are a", b"You are now a", 1))

    result = run("verify", server.url, "--catalog", str(local))

    assert result.code == 1
    stale = [line for line in result.lines if "DIFFERS" in line]
    assert [line.split(": DIFFERS")[0] for line in stale] == [
        f"{server.url}/bundles/engineering/en.json",
        f"{server.url}/bundles/engineering/en.yaml",
    ]
    assert str(local / "bundles") not in result.out
