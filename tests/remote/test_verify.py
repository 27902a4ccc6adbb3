"""``rolecat verify``: a served catalog passes; each fault a host can have gives its own message."""

from __future__ import annotations

import json
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from build_tools.remote import FetchError, fetch, normalize_base

from .conftest import (
    OUR_CATALOG,
    StartHost,
    StartStatic,
    catalog_files,
    copy_catalog,
    drip,
    read_json,
    run,
    send,
    upstream,
    write_json,
)

ENGINEERING_RU = "bundles/engineering/ru.json"


# --- a good deploy, served by python -m http.server ---------------------------------------------


@pytest.mark.parametrize("which", ["ours", "upstream"])
@pytest.mark.parametrize("sub_path", ["", "/deploys/main"], ids=["root", "sub-path"])
def test_a_served_catalog_passes(
    tmp_path: Path, static_server: StartStatic, which: str, sub_path: str
) -> None:
    catalog = OUR_CATALOG if which == "ours" else upstream()
    copy_catalog(catalog, tmp_path / "site" / sub_path.lstrip("/"), with_lock=False)
    server = static_server(tmp_path / "site")

    result = run("verify", f"{server.url}{sub_path}//")  # trailing slashes are stripped

    assert result.code == 0, result.out + result.err
    bundles = read_json(catalog / "index.json")["bundles"]
    roles = sum(len(b["roles"]) for b in bundles)
    size = sum(len(b) for b in catalog_files(catalog).values())
    assert result.lines == [
        f"OK {server.url}{sub_path}: {len(bundles)} bundles, 2 languages (en, ru), {roles} roles, "
        f"{len(catalog_files(catalog))} files, {size:,} bytes"
    ]


@pytest.mark.parametrize("reader", ["head -1", "true"])
def test_a_reader_that_stops_early_ends_it_quietly(
    tmp_path: Path, static_server: StartStatic, reader: str
) -> None:
    """``rolecat verify … | head -1``: no traceback when the pipe closes (``true`` reads none)."""
    copy_catalog(OUR_CATALOG, tmp_path / "site", with_lock=False)
    server = static_server(tmp_path / "site")
    command = [sys.executable, "-m", "build_tools", "verify", server.url, "--catalog", "catalog"]
    done = subprocess.run(
        f"{' '.join(command)} 2>{tmp_path / 'err'} | {reader}",
        shell=True,
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (tmp_path / "err").read_text(encoding="utf-8") == ""
    if reader == "head -1":
        assert done.stdout.startswith(f"OK {server.url}: 2 bundles")
        assert done.stdout.count("\n") == 1


def test_python_m_build_tools_is_the_same_program(
    tmp_path: Path, static_server: StartStatic
) -> None:
    copy_catalog(OUR_CATALOG, tmp_path / "site", with_lock=False)
    server = static_server(tmp_path / "site")
    done = subprocess.run(
        [sys.executable, "-m", "build_tools", "verify", server.url],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"OK {server.url}: 2 bundles")


# --- usage errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "base", ["ftp://example.org/catalog", "file:///srv/catalog", "example.org/catalog", "http://"]
)
def test_only_http_and_https_bases(base: str) -> None:
    result = run("verify", base)
    assert result.code == 2
    assert "not an http:// or https:// URL" in result.err


def test_a_timeout_must_be_positive() -> None:
    result = run("verify", "http://127.0.0.1:1", "--timeout", "0")
    assert result.code == 2
    assert "--timeout must be a positive number" in result.err


def test_the_base_is_used_as_the_server_uses_it() -> None:
    assert normalize_base("https://example.org/catalog///") == "https://example.org/catalog"
    assert normalize_base("http://127.0.0.1:8000") == "http://127.0.0.1:8000"


# --- faulty hosts -------------------------------------------------------------------------------


@pytest.fixture
def files() -> dict[str, bytes]:
    return catalog_files(OUR_CATALOG)


def test_a_redirected_index_names_where_to_point_the_server(
    scripted_host: StartHost, files: dict[str, bytes]
) -> None:
    host = scripted_host(files, prefix="/catalog")
    host.answers["index.json"] = lambda h: send(
        h, b"", status=301, headers={"Location": "https://example.org/catalog/index.json"}
    )

    result = run("verify", host.url)

    assert result.code == 1
    assert result.lines == [
        f"{host.url}/index.json: HTTP 301 redirect to https://example.org/catalog/index.json; "
        "the server refuses redirects (fetch with redirect: 'error'): set "
        "AI_AGENT_ROLES_CATALOG_URL to https://example.org/catalog instead"
    ]
    assert host.requests == ["/catalog/index.json"]  # the redirect was not followed


def test_a_redirected_bundle_file_is_refused(
    scripted_host: StartHost, files: dict[str, bytes]
) -> None:
    host = scripted_host(files)
    host.answers[ENGINEERING_RU] = lambda h: send(
        h, b"", status=302, headers={"Location": "/login?next=/bundles/engineering/ru.json"}
    )

    result = run("verify", host.url)

    assert result.code == 1
    assert result.lines == [
        f"{host.url}/{ENGINEERING_RU}: HTTP 302 redirect to "
        f"{host.url}/login?next=/bundles/engineering/ru.json; the server refuses redirects "
        "(fetch with redirect: 'error'): serve the file itself at this URL"
    ]
    assert "/login" not in " ".join(host.requests)


def test_a_missing_bundle_file_is_named_by_its_url(
    scripted_host: StartHost, files: dict[str, bytes]
) -> None:
    del files[ENGINEERING_RU]
    host = scripted_host(files)

    result = run("verify", host.url)

    assert result.code == 1
    assert result.lines == [
        f"{host.url}/{ENGINEERING_RU}: HTTP 404 Not Found: the server refuses non-2xx answers"
    ]
    assert "1 problem reading" in result.err


def test_a_server_error_is_refused(scripted_host: StartHost, files: dict[str, bytes]) -> None:
    host = scripted_host(files)
    host.answers["index.json"] = lambda h: send(h, b"oops", status=503, content_type="text/plain")
    result = run("verify", host.url)
    assert result.code == 1
    assert result.lines == [
        f"{host.url}/index.json: HTTP 503 Service Unavailable: the server refuses non-2xx answers"
    ]


def test_a_declared_length_over_the_cap_is_refused_before_reading(
    scripted_host: StartHost, files: dict[str, bytes]
) -> None:
    host = scripted_host(files)
    # Declares 1,000,001 bytes but sends only a few: the client must not wait for the rest.
    host.answers[ENGINEERING_RU] = lambda h: send(
        h, b"{}", headers={"Content-Length": "1000001"}, length=False
    )

    started = time.monotonic()
    result = run("verify", host.url, "--timeout", "5")

    assert time.monotonic() - started < 3
    assert result.code == 1
    assert result.lines == [
        f"{host.url}/{ENGINEERING_RU}: Content-Length is 1,000,001 bytes; the server refuses "
        "files over 1,000,000 bytes"
    ]


def _oversized_chunked(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    chunk = b" " * 65536
    try:
        for _ in range(40):  # 2.6 MB, more than twice the cap
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        handler.wfile.write(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass


def _oversized_until_close(handler: BaseHTTPRequestHandler) -> None:
    send(handler, b"[" + b"0," * 1_000_000 + b"0]", length=False)


@pytest.mark.parametrize(
    ("answer", "http11"),
    [(_oversized_chunked, True), (_oversized_until_close, False)],
    ids=["chunked", "connection-close"],
)
def test_a_body_over_the_cap_without_content_length_is_cut_while_streaming(
    scripted_host: StartHost,
    files: dict[str, bytes],
    answer: Callable[[BaseHTTPRequestHandler], None],
    http11: bool,
) -> None:
    host = scripted_host(files, http11=http11)
    host.answers[ENGINEERING_RU] = answer

    result = run("verify", host.url)

    assert result.code == 1
    assert result.lines == [
        f"{host.url}/{ENGINEERING_RU}: body is over 1,000,000 bytes (stopped reading at "
        "1,000,001); the server counts the bytes as they arrive and refuses the file"
    ]


def test_a_body_at_the_cap_exactly_is_read(scripted_host: StartHost) -> None:
    body = b'{"pad": "' + b"x" * (1_000_000 - 11) + b'"}'
    assert len(body) == 1_000_000
    host = scripted_host({"big.json": body})
    host.answers["big.json"] = lambda h: send(h, body, length=False)
    assert fetch(f"{host.url}/big.json").body == body


def _drip_body(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.end_headers()
    drip(b'{"schemaVersion": 1, "bundles": []}', every=0.1)(handler)


def _drip_headers(handler: BaseHTTPRequestHandler) -> None:
    drip(b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{}", every=0.1)(handler)


@pytest.mark.parametrize("answer", [_drip_body, _drip_headers], ids=["body", "headers"])
def test_a_host_dripping_slower_than_the_timeout_times_out(
    scripted_host: StartHost,
    files: dict[str, bytes],
    answer: Callable[[BaseHTTPRequestHandler], None],
) -> None:
    # Each byte arrives well within any per-read timeout; only a whole-request deadline stops it.
    host = scripted_host(files)
    host.answers["index.json"] = answer

    started = time.monotonic()
    result = run("verify", host.url, "--timeout", "0.5")
    elapsed = time.monotonic() - started

    assert result.code == 1
    assert 0.5 <= elapsed < 2
    [line] = result.lines
    assert line.startswith(f"{host.url}/index.json: timed out after 0.5 s with ")
    assert line.endswith(
        "body bytes received; the server gives up on a request (connect, headers and body "
        "together) after 10 s"
    )


def test_a_200_html_error_page_says_it_is_not_json(
    scripted_host: StartHost, files: dict[str, bytes]
) -> None:
    host = scripted_host(files)
    page = b"<!DOCTYPE html>\n<html><head><title>Page not found \xc2\xb7 GitHub Pages</title>"
    host.answers["index.json"] = lambda h: send(h, page, content_type="text/html; charset=utf-8")

    result = run("verify", host.url)

    assert result.code == 1
    assert result.lines == [
        f'{host.url}/index.json: answered with an HTML page (title "Page not found · GitHub '
        "Pages\"), Content-Type text/html; charset=utf-8: this is not JSON, so the server's "
        "JSON.parse fails. Is the file published at this path, or does the host serve an error "
        "or fallback page with status 200?"
    ]


def test_nothing_listening_is_a_clear_failure(unused_port: int) -> None:
    result = run("verify", f"http://127.0.0.1:{unused_port}")
    assert result.code == 1
    assert result.lines == [
        f"http://127.0.0.1:{unused_port}/index.json: connection refused: nothing listens at "
        "this host and port"
    ]


@pytest.fixture
def unused_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- the bytes as JSON.parse and the catalog rules see them ------------------------------------


def test_json_problems_are_placed_in_the_published_file(
    scripted_host: StartHost, files: dict[str, bytes]
) -> None:
    files[ENGINEERING_RU] = b"\xef\xbb\xbf" + files[ENGINEERING_RU]
    host = scripted_host(files)
    result = run("verify", host.url)
    assert result.code == 1
    assert result.lines == [
        f"{host.url}/{ENGINEERING_RU}:1:1: file starts with a UTF-8 byte order mark; remove it"
    ]


def test_the_full_rules_run_on_top_of_the_servers_guards(
    scripted_host: StartHost, files: dict[str, bytes], tmp_path: Path
) -> None:
    # A role missing in one language passes the server's type guards, but the catalog is broken.
    site = copy_catalog(OUR_CATALOG, tmp_path / "site", with_lock=False)
    bundle = read_json(site / ENGINEERING_RU)
    gone = bundle["roles"].pop()["slug"]
    write_json(site / ENGINEERING_RU, bundle)
    host = scripted_host(catalog_files(site))

    result = run("verify", host.url)

    assert result.code == 1
    assert len(result.lines) == 1
    assert result.lines[0].startswith(f"{host.url}/{ENGINEERING_RU}:")
    assert f'"{gone}"' in result.lines[0]


def test_only_declared_files_with_valid_ids_are_requested(
    scripted_host: StartHost, files: dict[str, bytes]
) -> None:
    index = read_json(OUR_CATALOG / "index.json")
    index["bundles"][0]["id"] = "../secrets"
    index["bundles"][1]["languages"].append("EN/../../x")
    files["index.json"] = json.dumps(index, ensure_ascii=False, indent=2).encode("utf-8")
    host = scripted_host(files)

    result = run("verify", host.url)

    assert result.code == 1
    assert all(".." not in path and "EN" not in path for path in host.requests)
    assert host.requests == ["/index.json", "/bundles/writing/en.json", "/bundles/writing/ru.json"]


def test_fetch_raises_with_the_url(scripted_host: StartHost) -> None:
    host = scripted_host({})
    with pytest.raises(FetchError) as caught:
        fetch(f"{host.url}/index.json")
    assert caught.value.url == f"{host.url}/index.json"
    assert str(caught.value).startswith(f"{host.url}/index.json: HTTP 404")


# --- is this deploy current? ---------------------------------------------------------------------


def test_catalog_reports_a_current_deploy(tmp_path: Path, static_server: StartStatic) -> None:
    copy_catalog(OUR_CATALOG, tmp_path / "site", with_lock=False)
    server = static_server(tmp_path / "site")

    result = run("verify", server.url, "--catalog", str(OUR_CATALOG))

    assert result.code == 0, result.out
    assert result.lines[1:] == [
        *(
            f"{server.url}/{path}: current (byte-identical to {OUR_CATALOG / path})"
            for path in catalog_files(OUR_CATALOG)
        ),
        f"deploy is current: every published file is byte-identical to {OUR_CATALOG}",
    ]


def test_catalog_reports_a_stale_deploy(tmp_path: Path, static_server: StartStatic) -> None:
    copy_catalog(OUR_CATALOG, tmp_path / "site", with_lock=False)
    server = static_server(tmp_path / "site")
    local = copy_catalog(OUR_CATALOG, tmp_path / "local")
    # Locally: one translation edited, and a language added that was never deployed.
    bundle = read_json(local / ENGINEERING_RU)
    bundle["roles"][0]["description"] += " (updated)"
    write_json(local / ENGINEERING_RU, bundle)
    index = read_json(local / "index.json")
    writing = next(b for b in index["bundles"] if b["id"] == "writing")
    writing["languages"].append("de")
    write_json(local / "index.json", index)
    (local / "bundles/writing/de.json").write_bytes(
        (local / "bundles/writing/en.json").read_bytes()
    )

    result = run("verify", server.url, "--catalog", str(local))

    assert result.code == 1
    assert result.lines[0].startswith(f"OK {server.url}: ")  # the deploy itself is readable
    assert f"{server.url}/index.json: DIFFERS from {local / 'index.json'}: the deploy is stale" in (
        result.lines
    )
    assert (
        f"{server.url}/{ENGINEERING_RU}: DIFFERS from {local / ENGINEERING_RU}: the deploy is stale"
        in result.lines
    )
    assert (
        f"{server.url}/bundles/writing/de.json: NOT PUBLISHED, but "
        f"{local / 'bundles/writing/de.json'} exists locally: the deploy is stale" in result.lines
    )
    assert (
        f"{server.url}/bundles/engineering/en.json: current (byte-identical to "
        f"{local / 'bundles/engineering/en.json'})" in result.lines
    )
    assert result.lines[-1] == (
        f"deploy is NOT current: 3 files not byte-identical to {local}; publish the site again"
    )


def test_catalog_must_be_a_directory(tmp_path: Path) -> None:
    result = run("verify", "http://127.0.0.1:1", "--catalog", str(tmp_path / "nope"))
    assert result.code == 2
    assert "catalog directory not found" in result.err


def test_a_body_shorter_than_its_content_length_is_refused(
    scripted_host: StartHost, files: dict[str, bytes]
) -> None:
    host = scripted_host(files)
    host.answers["index.json"] = lambda h: send(
        h, files["index.json"][:100], headers={"Content-Length": "5000"}, length=False
    )
    result = run("verify", host.url)
    assert result.code == 1
    assert result.lines == [
        f"{host.url}/index.json: connection closed before the whole body arrived (100 of "
        "5,000 declared bytes)"
    ]


# --- https ----------------------------------------------------------------------------------------


def test_https_with_a_trusted_certificate_passes(
    scripted_host: StartHost,
    files: dict[str, bytes],
    server_tls: ssl.SSLContext,
    certificate: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate))  # trusted like a CA for this test
    host = scripted_host(files, tls=server_tls)
    result = run("verify", host.url)
    assert result.code == 0, result.out
    assert result.lines[0].startswith(f"OK {host.url}: 2 bundles")


def test_https_with_an_untrusted_certificate_fails(
    scripted_host: StartHost, files: dict[str, bytes], server_tls: ssl.SSLContext
) -> None:
    host = scripted_host(files, tls=server_tls)
    result = run("verify", host.url)
    assert result.code == 1
    assert result.lines == [f"{host.url}/index.json: TLS error: CERTIFICATE_VERIFY_FAILED"]


def test_https_dripping_times_out(
    scripted_host: StartHost,
    files: dict[str, bytes],
    server_tls: ssl.SSLContext,
    certificate: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate))
    host = scripted_host(files, tls=server_tls)
    host.answers["index.json"] = _drip_body
    started = time.monotonic()
    result = run("verify", host.url, "--timeout", "0.5")
    assert time.monotonic() - started < 2
    assert result.code == 1
    assert "index.json: timed out after 0.5 s" in result.out
