"""The server's limits at their exact edges over HTTP: one byte, half a timeout either way."""

from __future__ import annotations

import time
from http.server import BaseHTTPRequestHandler

import pytest

from build_tools.sources.json_reader import MAX_FILE_BYTES, TIMEOUT_SECONDS
from build_tools.wire.fetch import FetchError, fetch
from tests.support.remote_hosts import StartHost, drip, send


def _body(size: int) -> bytes:
    body = b'{"pad": "' + b"x" * (size - 11) + b'"}'
    assert len(body) == size
    return body


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "streamed"])
def test_a_body_of_exactly_the_cap_is_read(scripted_host: StartHost, declared: bool) -> None:
    body = _body(1_000_000)
    host = scripted_host({})
    host.answers["big.json"] = lambda h: send(h, body, length=declared)
    assert fetch(f"{host.url}/big.json").body == body


def test_a_declared_length_one_byte_over_the_cap_is_refused(scripted_host: StartHost) -> None:
    host = scripted_host({})
    host.answers["big.json"] = lambda h: send(h, _body(1_000_001))
    with pytest.raises(FetchError) as caught:
        fetch(f"{host.url}/big.json")
    assert str(caught.value).endswith(
        "Content-Length is 1,000,001 bytes; the server refuses files over 1,000,000 bytes"
    )
    assert caught.value.rule == "fetch-too-large"


def test_a_streamed_body_one_byte_over_the_cap_is_refused(scripted_host: StartHost) -> None:
    host = scripted_host({})
    host.answers["big.json"] = lambda h: send(h, _body(1_000_001), length=False)
    with pytest.raises(FetchError) as caught:
        fetch(f"{host.url}/big.json")
    assert "body is over 1,000,000 bytes (stopped reading at 1,000,001)" in str(caught.value)
    assert caught.value.rule == "fetch-too-large"


def test_the_limits_are_the_servers() -> None:
    assert (MAX_FILE_BYTES, TIMEOUT_SECONDS) == (1_000_000, 10.0)


def _drip_forever(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.end_headers()
    drip(b" " * 1000, every=0.05)(handler)


def test_the_whole_request_timeout_holds_within_half_again(scripted_host: StartHost) -> None:
    host = scripted_host({})
    host.answers["slow.json"] = _drip_forever
    limit = 1.0
    started = time.monotonic()
    with pytest.raises(FetchError) as caught:
        fetch(f"{host.url}/slow.json", timeout=limit)
    elapsed = time.monotonic() - started
    assert "timed out after 1 s" in str(caught.value)
    assert caught.value.rule == "fetch-timeout"
    assert limit <= elapsed < 1.5 * limit
