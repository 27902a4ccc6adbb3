"""``make serve``'s first step: one line, not MkDocs' traceback, when its address is taken.

MkDocs binds the address only after the first build, and then fails with ``OSError: [Errno 98]``
and a traceback. This binds it first, for a moment, and says what to do instead.
"""

from __future__ import annotations

import os
import socket
import sys


def main(address: str) -> int:
    host, _, port = address.rpartition(":")
    try:
        number = int(port)
        with socket.create_server((host or "127.0.0.1", number)):
            return 0
    except ValueError:
        print(f"make serve: DEV_ADDR={address} is not HOST:PORT", file=sys.stderr)
    except OSError as error:
        after = number + 1 if number < 65535 else 8000
        reason = os.strerror(error.errno) if error.errno else str(error)
        print(
            f"make serve: cannot listen on {address} ({reason}): another `make serve` "
            f"may be running; pick another address: make serve DEV_ADDR={host}:{after}",
            file=sys.stderr,
        )
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
