"""``make serve`` as an author runs it, on an address another program already holds."""

from __future__ import annotations

import re
import socket
import subprocess

from tests.support.paths import REPO


def test_a_busy_address_is_one_line_not_a_traceback() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        found = subprocess.run(
            ["make", "--no-print-directory", "serve", f"DEV_ADDR=127.0.0.1:{port}"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )
    make = re.compile(r"^make(\[\d+\])?: \*\*\* ")  # make's own line, at any depth
    ours = [line for line in found.stderr.splitlines() if not make.match(line)]
    assert found.returncode != 0 and "Traceback" not in found.stderr
    assert ours == [
        f"make serve: cannot listen on 127.0.0.1:{port} (Address already in use): another "
        f"`make serve` may be running; pick another address: make serve "
        f"DEV_ADDR=127.0.0.1:{port + 1}"
    ]
    assert "Building documentation" not in found.stdout + found.stderr
