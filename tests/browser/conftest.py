"""Chromium through pytest-playwright, against sites built once per session and served on port 0.

The browser is the system Chromium (``$CHROMIUM``, else /usr/bin/chromium, which .ci/run installs),
or Playwright's own build where one is installed. Outside CI a machine without either skips these
tests; in CI (``CI=true``) they fail instead, so they can never silently stop running there.
"""

from __future__ import annotations

import functools
import os
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from site_plugins.search.pagefind import index_site
from tests.support.history_repo import StoryRepo
from tests.support.paths import OUR_CATALOG
from tests.support.search_parts import split_part_bytes
from tests.support.site_builds import (
    MOUNT,
    PUBLISHED_AT,
    build,
    write_catalog,
    write_payload_catalog,
)

LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


def system_chromium() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return shutil.which("chromium") or shutil.which("chromium-browser")


def playwright_chromium() -> bool:
    root = Path(
        os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache" / "ms-playwright"
    )
    return root.is_dir() and any(root.glob("chromium*"))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    args = {**browser_type_launch_args, "args": LAUNCH_ARGS}
    executable = system_chromium()
    if executable:
        args["executable_path"] = executable
    elif not playwright_chromium():
        message = "no Chromium: install the chromium package or set CHROMIUM=/path/to/chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return args


@pytest.fixture(scope="session")
def base_url() -> str | None:
    """Replaces pytest-base-url's fixture, whose method form pytest 9 deprecates; tests build
    their URLs from the served site instead."""
    return None


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "permissions": ["clipboard-read", "clipboard-write"]}


class _Handler(SimpleHTTPRequestHandler):
    """A plain static host that serves the site under MOUNT and nothing outside it, and the
    site's 404.html for a missing page, as GitHub Pages and most static hosts do."""

    def translate_path(self, path: str) -> str:
        if not path.startswith(MOUNT):
            return str(Path(self.directory) / ".no-such-file")
        return super().translate_path("/" + path.removeprefix(MOUNT))

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        missing = Path(self.directory) / "404.html"
        if code != 404 or not missing.is_file():
            super().send_error(code, message, explain)
            return
        body = missing.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep the test output for failures


@pytest.fixture(scope="session")
def static_host() -> Iterator[Any]:
    """Serve any site directory on 127.0.0.1, port 0: returns a function site -> base URL."""
    servers: list[ThreadingHTTPServer] = []

    def host(site: Path) -> str:
        handler = functools.partial(_Handler, directory=str(site))
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        servers.append(server)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        # Bound and listening before serve_forever runs: requests queue, nothing to wait for.
        return f"http://127.0.0.1:{server.server_address[1]}{MOUNT}"

    yield host
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def our_site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = build(OUR_CATALOG, tmp_path_factory.mktemp("browser-ours") / "site")
    assert built.returncode == 0, built.output
    return built.site


@pytest.fixture(scope="session")
def our_url(our_site_dir: Path, static_host: Any) -> str:
    return str(static_host(our_site_dir))


@pytest.fixture(scope="session")
def published_site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = build(
        OUR_CATALOG, tmp_path_factory.mktemp("browser-published") / "site", site_url=PUBLISHED_AT
    )
    assert built.returncode == 0, built.output
    return built.site


@pytest.fixture(scope="session")
def published_url(published_site_dir: Path, static_host: Any) -> str:
    """Our site as published with site_url set: canonical URLs, hreflang links, a sitemap."""
    return str(static_host(published_site_dir))


@pytest.fixture(scope="session")
def split_site_dir(our_site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Our site with each language's search index in three parts or more, as a large catalog's
    index is (site_plugins/search/pagefind.py)."""
    site = tmp_path_factory.mktemp("browser-split") / "site"
    shutil.copytree(our_site_dir, site)
    assert index_site(site, part_bytes=split_part_bytes(site)) is None
    return site


@pytest.fixture(scope="session")
def split_url(split_site_dir: Path, static_host: Any) -> str:
    return str(static_host(split_site_dir))


@pytest.fixture(scope="session")
def payload_site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    catalog = write_payload_catalog(tmp_path_factory.mktemp("browser-payload") / "catalog")
    built = build(catalog, tmp_path_factory.mktemp("browser-payload-site") / "site")
    assert built.returncode == 0, built.output
    return built.site


@pytest.fixture(scope="session")
def payload_url(payload_site_dir: Path, static_host: Any) -> str:
    return str(static_host(payload_site_dir))


@pytest.fixture(scope="session")
def multilingual_url(tmp_path_factory: pytest.TempPathFactory, static_host: Any) -> str:
    """A third language beside en and ru: Arabic, which Material ships and which reads right to
    left."""
    root = tmp_path_factory.mktemp("browser-multilingual")
    catalog = write_catalog(root / "catalog", {"team": ["en", "ru", "ar"]})
    built = build(catalog, root / "site")
    assert built.returncode == 0, built.output
    return str(static_host(built.site))


@pytest.fixture(scope="session")
def history_url(
    tmp_path_factory: pytest.TempPathFactory, static_host: Any, story: StoryRepo
) -> str:
    """The site of a catalog with a git history (tests/support/history_repo.py)."""
    built = build(story[0] / "catalog", tmp_path_factory.mktemp("browser-history") / "site")
    assert built.returncode == 0, built.output
    return str(static_host(built.site))
