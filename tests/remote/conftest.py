"""The fixtures of these tests; their hosts and helpers are in tests/support/remote_hosts.py."""

from __future__ import annotations

import shutil
import ssl
import subprocess
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests.support.remote_hosts import LoopbackServer, ScriptedHost


@pytest.fixture
def scripted_host() -> Iterator[Callable[..., ScriptedHost]]:
    """An in-process HTTP host on 127.0.0.1 port 0 serving ``files`` with scripted faults."""
    servers: list[LoopbackServer] = []

    def start(
        files: dict[str, bytes],
        *,
        prefix: str = "",
        http11: bool = False,
        tls: ssl.SSLContext | None = None,
    ) -> ScriptedHost:
        host = ScriptedHost(dict(files), prefix=prefix)

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1" if http11 else "HTTP/1.0"

            def do_GET(self) -> None:
                host.handle(self)

            def log_message(self, format: str, *args: Any) -> None:
                pass  # keep test output clean

        server = LoopbackServer(("127.0.0.1", 0), Handler)
        if tls is not None:
            server.socket = tls.wrap_socket(server.socket, server_side=True)
        servers.append(server)
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        scheme = "https" if tls is not None else "http"
        host.url = f"{scheme}://127.0.0.1:{server.server_address[1]}{prefix}"
        return host

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A self-signed certificate for 127.0.0.1 (key and certificate in one PEM file)."""
    if shutil.which("openssl") is None:
        pytest.fail("the https tests need the openssl command")
    directory = tmp_path_factory.mktemp("tls")
    pem = directory / "host.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", str(directory / "key.pem"), "-out", str(directory / "cert.pem"),
        ],
        check=True,
        capture_output=True,
        timeout=30,
    )  # fmt: skip
    pem.write_bytes((directory / "key.pem").read_bytes() + (directory / "cert.pem").read_bytes())
    return pem


@pytest.fixture
def server_tls(certificate: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate)
    return context
