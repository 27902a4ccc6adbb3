"""``rolecat verify``: a served catalog passes; each fault a host can have gives its own message.

Every fault is played in both server generations: the earlier one's ``.json`` files and the
current one's ``.yaml`` files, each read with its own parser.
"""

from __future__ import annotations

import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from build_tools.sources.formats import dump_json, dump_yaml
from build_tools.wire.fetch import FetchError, fetch, normalize_base
from build_tools.wire.remote import RemoteSource
from tests.support.catalog_files import write_json
from tests.support.cli import Run, run
from tests.support.paths import OUR_CATALOG
from tests.support.remote_hosts import (
    StartHost,
    StartStatic,
    copy_catalog,
    drip,
    publish,
    published_files,
    read_json,
    send,
)
from tests.support.reports import json_report
from tests.support.upstream_fixtures import upstream

ENGINEERING_RU = "bundles/engineering/ru.json"
FORMATS = ("json", "yaml")
GENERATION = {"json": "JSON generation", "yaml": "YAML generation"}


def problems(result: Run) -> list[str]:
    """The lines naming a failure, without the one verdict line per generation."""
    return [line for line in result.lines if not line.startswith(("OK ", "FAILED "))]


def rules(*argv: str) -> list[str]:
    """The rule of each problem the command reports, run again with ``--format json``."""
    return [problem["rule"] for problem in json_report(run(*argv, "--format", "json"))["problems"]]


def verdicts(result: Run, base: str) -> dict[str, str]:
    """``{"json": "OK", "yaml": "FAILED"}``: what each generation's verdict line says."""
    found = {}
    for line in result.lines:
        for format, generation in GENERATION.items():
            for verdict in ("OK", "FAILED"):
                if line.startswith(f"{verdict} {base}: {generation}: "):
                    found[format] = verdict
    return found


def failed(format: str) -> dict[str, str]:
    return {other: "FAILED" if other == format else "OK" for other in FORMATS}


def engineering_ru(format: str) -> str:
    return f"bundles/engineering/ru.{format}"


# --- a good deploy, served by python -m http.server ---------------------------------------------


@pytest.mark.parametrize("which", ["ours", "upstream"])
@pytest.mark.parametrize("sub_path", ["", "/deploys/main"], ids=["root", "sub-path"])
def test_a_served_catalog_passes_in_both_generations(
    tmp_path: Path, static_server: StartStatic, which: str, sub_path: str
) -> None:
    catalog = OUR_CATALOG if which == "ours" else upstream()
    publish(catalog, tmp_path / "site" / sub_path.lstrip("/"))
    server = static_server(tmp_path / "site")

    result = run("verify", f"{server.url}{sub_path}//")  # trailing slashes are stripped

    assert result.code == 0, result.out + result.err
    bundles = read_json(catalog / "index.json")["bundles"]
    roles = sum(len(b["roles"]) for b in bundles)
    expected = []
    for format in FORMATS:
        files = published_files(catalog, (format,))  # type: ignore[arg-type]
        expected.append(
            f"OK {server.url}{sub_path}: {GENERATION[format]}: {len(bundles)} bundles, "
            f"2 languages (en, ru), {roles} roles, {len(files)} .{format} files, "
            f"{sum(map(len, files.values())):,} bytes"
        )
    assert result.lines == expected


@pytest.mark.parametrize("reader", ["head -1", "true"])
def test_a_reader_that_stops_early_ends_it_quietly(
    tmp_path: Path, static_server: StartStatic, reader: str
) -> None:
    """``rolecat verify … | head -1``: no traceback when the pipe closes (``true`` reads none)."""
    server = static_server(publish(OUR_CATALOG, tmp_path / "site"))
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
        assert done.stdout.startswith(f"OK {server.url}: JSON generation: 2 bundles")
        assert done.stdout.count("\n") == 1


def test_python_m_build_tools_is_the_same_program(
    tmp_path: Path, static_server: StartStatic
) -> None:
    server = static_server(publish(OUR_CATALOG, tmp_path / "site"))
    done = subprocess.run(
        [sys.executable, "-m", "build_tools", "verify", server.url],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"OK {server.url}: JSON generation: 2 bundles")


# --- one generation only ------------------------------------------------------------------------


def test_a_yaml_only_host_passes_with_formats_yaml(scripted_host: StartHost) -> None:
    host = scripted_host(published_files(OUR_CATALOG, ("yaml",)))

    result = run("verify", host.url, "--formats", "yaml")

    assert result.code == 0, result.out
    assert len(result.lines) == 1
    assert result.lines[0].startswith(f"OK {host.url}: YAML generation: 2 bundles, ")
    assert ", 6 roles, 5 .yaml files, " in result.lines[0]
    assert host.requests and all(path.endswith(".yaml") for path in host.requests)


def test_a_yaml_only_host_fails_the_json_generation_by_default(scripted_host: StartHost) -> None:
    host = scripted_host(published_files(OUR_CATALOG, ("yaml",)))

    result = run("verify", host.url)

    assert result.code == 1
    assert problems(result) == [
        f"{host.url}/index.json: HTTP 404 Not Found: the server refuses non-2xx answers"
    ]
    assert result.lines[-2] == (
        f"FAILED {host.url}: JSON generation: 1 problem; 0 .json files read, 0 bytes"
    )
    assert verdicts(result, host.url) == failed("json")


def test_a_json_only_host_passes_with_formats_json(scripted_host: StartHost) -> None:
    host = scripted_host(published_files(OUR_CATALOG, ("json",)))
    result = run("verify", host.url, "--formats", " JSON ")
    assert result.code == 0, result.out
    assert verdicts(result, host.url) == {"json": "OK"}
    assert not [path for path in host.requests if path.endswith(".yaml")]


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
    assert "--timeout must be a number of seconds above 0" in result.err


@pytest.mark.parametrize("formats", ["xml", "json,yml", ","])
def test_formats_are_json_and_yaml_only(formats: str) -> None:
    result = run("verify", "http://127.0.0.1:1", "--formats", formats)
    assert result.code == 2
    assert "argument --formats: " in result.err
    assert result.err.rstrip().endswith("choose json, yaml or json,yaml, each once")


def test_the_base_is_used_as_the_server_uses_it() -> None:
    assert normalize_base("https://example.org/catalog///") == "https://example.org/catalog"
    assert normalize_base("http://127.0.0.1:8000") == "http://127.0.0.1:8000"


# --- faulty hosts, in each generation -------------------------------------------------------------


@pytest.fixture
def files() -> dict[str, bytes]:
    return published_files(OUR_CATALOG)


@pytest.mark.parametrize("format", FORMATS)
def test_a_redirected_index_names_where_to_point_the_server(
    scripted_host: StartHost, files: dict[str, bytes], format: str
) -> None:
    host = scripted_host(files, prefix="/catalog")
    index = f"index.{format}"
    host.answers[index] = lambda h: send(
        h, b"", status=301, headers={"Location": f"https://example.org/catalog/{index}"}
    )

    result = run("verify", host.url)

    assert result.code == 1
    assert problems(result) == [
        f"{host.url}/{index}: HTTP 301 redirect to https://example.org/catalog/{index}; "
        "the server refuses redirects (fetch with redirect: 'error'): set "
        "AI_AGENT_ROLES_CATALOG_URL to https://example.org/catalog instead"
    ]
    assert verdicts(result, host.url) == failed(format)
    # The redirect was not followed, and nothing else of that generation was fetched.
    assert [path for path in host.requests if path.endswith(format)] == [f"/catalog/{index}"]


@pytest.mark.parametrize("format", FORMATS)
def test_a_redirected_bundle_file_is_refused(
    scripted_host: StartHost, files: dict[str, bytes], format: str
) -> None:
    host = scripted_host(files)
    path = engineering_ru(format)
    host.answers[path] = lambda h: send(
        h, b"", status=302, headers={"Location": f"/login?next=/{path}"}
    )

    result = run("verify", host.url)

    assert result.code == 1
    assert problems(result) == [
        f"{host.url}/{path}: HTTP 302 redirect to {host.url}/login?next=/{path}; the server "
        "refuses redirects (fetch with redirect: 'error'): serve the file itself at this URL"
    ]
    assert verdicts(result, host.url) == failed(format)
    assert "/login" not in " ".join(host.requests)


@pytest.mark.parametrize("format", FORMATS)
def test_a_missing_bundle_file_is_named_by_its_url(
    scripted_host: StartHost, files: dict[str, bytes], format: str
) -> None:
    path = engineering_ru(format)
    del files[path]
    host = scripted_host(files)

    result = run("verify", host.url)

    assert result.code == 1
    assert problems(result) == [
        f"{host.url}/{path}: HTTP 404 Not Found: the server refuses non-2xx answers"
    ]
    assert f"FAILED {host.url}: {GENERATION[format]}: 1 problem; 4 .{format} files read, " in (
        result.out
    )
    assert verdicts(result, host.url) == failed(format)
    assert "1 problem reading" in result.err


def test_a_server_error_is_refused(scripted_host: StartHost, files: dict[str, bytes]) -> None:
    host = scripted_host(files)
    host.answers["index.json"] = lambda h: send(h, b"oops", status=503, content_type="text/plain")
    result = run("verify", host.url)
    assert result.code == 1
    assert problems(result) == [
        f"{host.url}/index.json: HTTP 503 Service Unavailable: the server refuses non-2xx answers"
    ]


@pytest.mark.parametrize("format", FORMATS)
def test_a_declared_length_over_the_cap_is_refused_before_reading(
    scripted_host: StartHost, files: dict[str, bytes], format: str
) -> None:
    host = scripted_host(files)
    path = engineering_ru(format)
    # Declares 1,000,001 bytes but sends only a few: the client must not wait for the rest.
    host.answers[path] = lambda h: send(
        h, b"{}", headers={"Content-Length": "1000001"}, length=False
    )

    started = time.monotonic()
    result = run("verify", host.url, "--timeout", "5")

    assert time.monotonic() - started < 3
    assert result.code == 1
    assert problems(result) == [
        f"{host.url}/{path}: Content-Length is 1,000,001 bytes; the server refuses "
        "files over 1,000,000 bytes"
    ]
    assert verdicts(result, host.url) == failed(format)


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


@pytest.mark.parametrize("format", FORMATS)
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
    format: str,
) -> None:
    host = scripted_host(files, http11=http11)
    path = engineering_ru(format)
    host.answers[path] = answer

    result = run("verify", host.url)

    assert result.code == 1
    assert problems(result) == [
        f"{host.url}/{path}: body is over 1,000,000 bytes (stopped reading at "
        "1,000,001); the server counts the bytes as they arrive and refuses the file"
    ]
    assert verdicts(result, host.url) == failed(format)


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
    result = run("verify", host.url, "--timeout", "0.5", "--formats", "json")
    elapsed = time.monotonic() - started

    assert result.code == 1
    assert 0.5 <= elapsed < 2
    [line] = problems(result)
    assert line.startswith(f"{host.url}/index.json: timed out after 0.5 s with ")
    assert line.endswith(
        "body bytes received; the server gives up on a request (connect, headers and body "
        "together) after 10 s"
    )


@pytest.mark.parametrize("format", FORMATS)
def test_a_200_html_error_page_says_it_is_not_the_format(
    scripted_host: StartHost, files: dict[str, bytes], format: str
) -> None:
    host = scripted_host(files)
    page = b"<!DOCTYPE html>\n<html><head><title>Page not found \xc2\xb7 GitHub Pages</title>"
    host.answers[f"index.{format}"] = lambda h: send(
        h, page, content_type="text/html; charset=utf-8"
    )

    result = run("verify", host.url)

    parser = {"json": "JSON.parse", "yaml": "YAML parser"}[format]
    assert result.code == 1
    assert problems(result) == [
        f'{host.url}/index.{format}: answered with an HTML page (title "Page not found · GitHub '
        f'Pages"), Content-Type text/html; charset=utf-8: this is not {format.upper()}, so the '
        f"server's {parser} fails. Is the file published at this path, or does the host serve an "
        "error or fallback page with status 200?"
    ]
    assert verdicts(result, host.url) == failed(format)
    assert rules("verify", host.url) == ["fetch-html"]


def test_nothing_listening_is_a_clear_failure(unused_port: int) -> None:
    result = run("verify", f"http://127.0.0.1:{unused_port}")
    assert result.code == 1
    assert problems(result) == [
        f"http://127.0.0.1:{unused_port}/index.{format}: connection refused: nothing listens at "
        "this host and port"
        for format in FORMATS
    ]
    assert verdicts(result, f"http://127.0.0.1:{unused_port}") == {
        "json": "FAILED",
        "yaml": "FAILED",
    }
    assert rules("verify", f"http://127.0.0.1:{unused_port}") == ["fetch", "fetch"]


@pytest.fixture
def unused_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- the bytes as each generation's parser and the catalog rules see them ------------------------


def test_json_problems_are_placed_in_the_published_file(
    scripted_host: StartHost, files: dict[str, bytes]
) -> None:
    files[ENGINEERING_RU] = b"\xef\xbb\xbf" + files[ENGINEERING_RU]
    host = scripted_host(files)
    result = run("verify", host.url)
    assert result.code == 1
    assert problems(result) == [
        f"{host.url}/{ENGINEERING_RU}:1:1: file starts with a UTF-8 byte order mark; remove it"
    ]
    assert verdicts(result, host.url) == failed("json")


YAML_RU = "bundles/engineering/ru.yaml"


def _aliases(text: str) -> tuple[str, int, int]:
    """An anchor and 100 aliases of it: 101 uses, one more than the server's parser allows."""
    line = text.count("\n") + 2
    return text + "x: &many [1]\ny: [" + ", ".join(["*many"] * 100) + "]\n", line, 4 + 99 * 7 + 1


def _duplicate(text: str) -> tuple[str, int, int]:
    return text + "language: en\n", text.count("\n") + 1, 1


def _type_guard(text: str) -> tuple[str, int, int]:
    """``autoStart: no`` is the string "no" in YAML 1.2: the server's guard wants a boolean."""
    before = text[: text.index("autoStart: true")]
    return text.replace("autoStart: true", "autoStart: no", 1), before.count("\n") + 1, 14


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        (_duplicate, 'duplicate key "language"'),
        (
            _aliases,
            "too many aliases: &many and its 100 aliases make 101 uses; the server's YAML parser "
            "allows 100 (maxAliasCount)",
        ),
        (
            _type_guard,
            'role "code-reviewer": "autoStart" must be a boolean, not a string',
        ),
    ],
    ids=["duplicate-key", "aliases", "type-guard"],
)
def test_yaml_the_strict_parser_or_the_type_guards_refuse_fails_the_yaml_generation(
    scripted_host: StartHost,
    files: dict[str, bytes],
    fault: Callable[[str], tuple[str, int, int]],
    message: str,
) -> None:
    text, line, col = fault(files[YAML_RU].decode("utf-8"))
    files[YAML_RU] = text.encode("utf-8")
    host = scripted_host(files)

    result = run("verify", host.url)

    assert result.code == 1
    assert problems(result) == [f"{host.url}/{YAML_RU}:{line}:{col}: {message}"]
    assert verdicts(result, host.url) == failed("yaml")


def test_yaml_that_does_not_parse_fails_the_yaml_generation(
    scripted_host: StartHost, files: dict[str, bytes]
) -> None:
    files["index.yaml"] = b"schemaVersion: 1\nbundles: [\n  - id: x\n"
    host = scripted_host(files)

    result = run("verify", host.url)

    assert result.code == 1
    [line] = problems(result)
    assert line.startswith(f"{host.url}/index.yaml:")
    assert "invalid YAML: " in line
    assert verdicts(result, host.url) == failed("yaml")
    assert host.requests[-1] == "/index.yaml"  # nothing is fetched without an index


def test_the_full_rules_run_on_top_of_the_servers_guards(
    scripted_host: StartHost, tmp_path: Path
) -> None:
    # A role missing in one language passes the server's type guards, but the catalog is broken.
    local = copy_catalog(OUR_CATALOG, tmp_path / "local")
    files = published_files(local)
    bundle = read_json(local / ENGINEERING_RU)
    gone = bundle["roles"].pop()["slug"]
    files[ENGINEERING_RU], files[YAML_RU] = dump_json(bundle), dump_yaml(bundle)
    host = scripted_host(files)

    result = run("verify", host.url)

    assert result.code == 1
    lines = problems(result)
    assert len(lines) == 2
    assert lines[0].startswith(f"{host.url}/{ENGINEERING_RU}:")
    assert lines[1].startswith(f"{host.url}/{YAML_RU}:")
    assert all(f'"{gone}"' in line for line in lines)
    assert verdicts(result, host.url) == {"json": "FAILED", "yaml": "FAILED"}


def test_only_declared_files_with_valid_ids_are_requested(
    scripted_host: StartHost, files: dict[str, bytes]
) -> None:
    index = read_json(OUR_CATALOG / "index.json")
    index["bundles"][0]["id"] = "../secrets"
    index["bundles"][1]["languages"].append("EN/../../x")
    files["index.json"], files["index.yaml"] = dump_json(index), dump_yaml(index)
    host = scripted_host(files)

    result = run("verify", host.url)

    assert result.code == 1
    assert all(".." not in path and "EN" not in path for path in host.requests)
    assert host.requests == [
        f"/{path}.{format}"
        for format in FORMATS
        for path in ("index", "bundles/writing/en", "bundles/writing/ru")
    ]


@pytest.mark.parametrize(
    "relpath", ["bundles/../secrets/en.json", "bundles/writing/EN.json", "bundles/a/b/en.json"]
)
def test_a_url_is_never_built_from_an_id_the_server_refuses(
    scripted_host: StartHost, files: dict[str, bytes], relpath: str
) -> None:
    host = scripted_host(files)
    with pytest.raises(FetchError) as refused:
        RemoteSource(host.url).read(relpath)
    assert (refused.value.url, refused.value.rule) == (f"{host.url}/…", "fetch-refused-url")
    assert refused.value.message == (
        f"refused to build a URL for {relpath!r}: bundle ids and languages must match ^[a-z0-9-]+$"
    )
    assert host.requests == []


def test_fetch_raises_with_the_url(scripted_host: StartHost) -> None:
    host = scripted_host({})
    with pytest.raises(FetchError) as caught:
        fetch(f"{host.url}/index.json")
    assert caught.value.url == f"{host.url}/index.json"
    assert str(caught.value).startswith(f"{host.url}/index.json: HTTP 404")


# --- is this deploy current? ---------------------------------------------------------------------


def test_catalog_reports_a_current_deploy(tmp_path: Path, static_server: StartStatic) -> None:
    server = static_server(publish(OUR_CATALOG, tmp_path / "site"))

    result = run("verify", server.url, "--catalog", str(OUR_CATALOG))

    assert result.code == 0, result.out
    published = published_files(OUR_CATALOG)
    in_order = [
        path
        for format in FORMATS
        for path in sorted(published, key=lambda p: (p != f"index.{format}", p))
        if path.endswith(format)
    ]
    assert result.lines[2:] == [
        *(
            f"{server.url}/{path}: current (byte-identical to what a build of {OUR_CATALOG} "
            "publishes)"
            for path in in_order
        ),
        "deploy is current: every published file is byte-identical to what a build of "
        f"{OUR_CATALOG} publishes",
    ]


def test_catalog_reports_a_stale_deploy(tmp_path: Path, static_server: StartStatic) -> None:
    server = static_server(publish(OUR_CATALOG, tmp_path / "site"))
    local = copy_catalog(OUR_CATALOG, tmp_path / "local")
    # Locally: one translation edited, and a language added that was never deployed.
    bundle = read_json(local / ENGINEERING_RU)
    bundle["roles"][0]["description"] += " (updated)"
    write_json(local / ENGINEERING_RU, bundle)
    index = read_json(local / "index.json")
    writing = next(b for b in index["bundles"] if b["id"] == "writing")
    writing["languages"].append("de")
    writing["name"]["de"], writing["description"]["de"] = "Schreiben", "Texte."
    write_json(local / "index.json", index)
    (local / "bundles/writing/de.json").write_bytes(
        (local / "bundles/writing/en.json").read_bytes().replace(b'"en"', b'"de"')
    )

    result = run("verify", server.url, "--catalog", str(local))

    assert result.code == 1
    assert verdicts(result, server.url) == {"json": "OK", "yaml": "OK"}  # readable, but stale
    build = f"what a build of {local} publishes"
    for format in FORMATS:
        assert f"{server.url}/index.{format}: DIFFERS from {build}: the deploy is stale" in (
            result.lines
        )
        assert (
            f"{server.url}/{engineering_ru(format)}: DIFFERS from {build}: the deploy is stale"
            in result.lines
        )
        assert (
            f"{server.url}/bundles/writing/de.{format}: NOT PUBLISHED, but a build of {local} "
            "publishes it: the deploy is stale" in result.lines
        )
        assert (
            f"{server.url}/bundles/engineering/en.{format}: current (byte-identical to {build})"
            in result.lines
        )
    assert result.lines[-1] == (
        f"deploy is NOT current: 6 files not byte-identical to {build}; publish the site again"
    )


def test_catalog_that_a_build_refuses_cannot_be_compared(
    tmp_path: Path, static_server: StartStatic
) -> None:
    server = static_server(publish(OUR_CATALOG, tmp_path / "site"))
    local = copy_catalog(OUR_CATALOG, tmp_path / "local")
    (local / "bundles/engineering/en.json").unlink()

    result = run("verify", server.url, "--catalog", str(local))

    assert result.code == 1
    assert result.lines[-1] == (
        f"{local}: cannot tell whether the deploy is current: it has 1 problem that a build "
        f"refuses (see `rolecat check --catalog {local}`)"
    )
    assert rules("verify", server.url, "--catalog", str(local)) == ["deploy-unknown"]


def test_catalog_on_a_yaml_only_host(scripted_host: StartHost) -> None:
    host = scripted_host(published_files(OUR_CATALOG, ("yaml",)))
    build = f"what a build of {OUR_CATALOG} publishes"

    only_yaml = run("verify", host.url, "--formats", "yaml", "--catalog", str(OUR_CATALOG))
    both = run("verify", host.url, "--catalog", str(OUR_CATALOG))

    assert only_yaml.code == 0, only_yaml.out
    assert only_yaml.lines[-1].startswith("deploy is current: ")
    assert both.code == 1
    json_lines = [line for line in both.lines if line.startswith(host.url) and ".json:" in line]
    assert json_lines == [
        f"{host.url}/index.json: HTTP 404 Not Found: the server refuses non-2xx answers",
        f"{host.url}/index.json: NOT PUBLISHED, but a build of {OUR_CATALOG} publishes it: the "
        "deploy is stale",
        *(
            f"{host.url}/bundles/{bundle}/{language}.json: not read (see above), so not compared "
            f"with {build}"
            for bundle in ("engineering", "writing")
            for language in ("en", "ru")
        ),
    ]
    assert both.lines[-1] == (
        f"deploy is NOT current: 1 file not byte-identical to {build}; publish the site again"
    )


def test_catalog_does_not_guess_about_files_it_could_not_read(
    scripted_host: StartHost, files: dict[str, bytes]
) -> None:
    host = scripted_host(files)
    host.answers[YAML_RU] = lambda h: send(h, b"", status=302, headers={"Location": "/x"})

    result = run("verify", host.url, "--catalog", str(OUR_CATALOG))

    assert result.code == 1
    assert (
        f"{host.url}/{YAML_RU}: not read (see above), so not compared with what a build of "
        f"{OUR_CATALOG} publishes" in result.lines
    )
    assert result.lines[-1] == "cannot tell whether the deploy is current: 1 file could not be read"


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
    assert problems(result) == [
        f"{host.url}/index.json: connection closed before the whole body arrived (100 of "
        "5,000 declared bytes)"
    ]
    assert rules("verify", host.url) == ["fetch-incomplete"]


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
    assert verdicts(result, host.url) == {"json": "OK", "yaml": "OK"}


def test_https_with_an_untrusted_certificate_fails(
    scripted_host: StartHost, files: dict[str, bytes], server_tls: ssl.SSLContext
) -> None:
    host = scripted_host(files, tls=server_tls)
    result = run("verify", host.url, "--formats", "json")
    assert result.code == 1
    assert problems(result) == [f"{host.url}/index.json: TLS error: CERTIFICATE_VERIFY_FAILED"]


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
    result = run("verify", host.url, "--timeout", "0.5", "--formats", "json")
    assert time.monotonic() - started < 2
    assert result.code == 1
    assert "index.json: timed out after 0.5 s" in result.out


# --- the generations compared -----------------------------------------------------------------


def cut_at_a_line_break(yaml: bytes) -> bytes:
    """A YAML bundle file cut short in its last role's instructions, at a line break: it still
    parses, and every role is still there."""
    lines = yaml.split(b"\n")
    starts = [n for n, line in enumerate(lines) if line.lstrip().startswith(b"instructions: |")]
    inside = range(starts[-1] + 1, len(lines))
    end = next(n for n in inside if lines[n] and not lines[n].startswith(b"    "))
    assert end - starts[-1] > 4, "the last role's instructions are too short to cut"
    return b"\n".join(lines[: starts[-1] + 3] + lines[end:])


def test_a_yaml_file_that_differs_from_its_json_twin_fails_verification(
    scripted_host: StartHost, files: dict[str, bytes]
) -> None:
    """Both languages' YAML cut at a line break still parse: the server's YAML generation
    would take the shortened prompts (role-model-config.ts reads them as they are)."""
    roles = {}
    for language in ("en", "ru"):
        path = f"bundles/engineering/{language}.yaml"
        files[path] = cut_at_a_line_break(files[path])
        roles[language] = files[path].count(b"\n- slug: ") - 1
    host = scripted_host(files)

    result = run("verify", host.url)

    assert result.code == 1
    assert problems(result) == [
        f"{host.url}/bundles/engineering/{language}.yaml: differs from "
        f"{host.url}/bundles/engineering/{language}.json at "
        f'"roles[{roles[language]}].instructions": the two generations of the server would read '
        "different values; publish both from one build"
        for language in ("en", "ru")
    ]
    assert rules("verify", host.url) == ["generations-differ", "generations-differ"]


def test_identical_generations_pass(scripted_host: StartHost, files: dict[str, bytes]) -> None:
    assert run("verify", scripted_host(files).url).code == 0


def test_the_base_is_trimmed_as_the_server_trims_it(
    scripted_host: StartHost, files: dict[str, bytes]
) -> None:
    host = scripted_host(files)
    result = run("verify", f"  {host.url}/ \n")
    assert result.code == 0, result.out + result.err
    assert normalize_base("\ufeff https://example.org/c/ \u3000") == "https://example.org/c"
