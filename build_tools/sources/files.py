"""Read a catalog's files without trusting them: look before reading, and never read too much.

A catalog is input like any other: its index, a bundle file, the lock or an instruction file may be
a FIFO that never ends, a device, a directory, a symlink loop or a file of gigabytes. Each is
refused with a sentence instead of hanging, crashing or filling memory: the file's type and size
are looked at first, it is opened without blocking, and at most ``limit + 1`` bytes are read.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
_CHUNK = 1 << 20


class Unreadable(OSError):
    """A file that exists but is not one rolecat reads; ``message`` says why, as a sentence."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(errno.EINVAL, message, str(path))
        self.message = message


class TooLarge(Unreadable):
    """A file larger than the limit (its size, when the file system tells it before reading)."""

    def __init__(self, path: Path, limit: int, size: int | None) -> None:
        super().__init__(
            path, f"is {size:,} bytes" if size is not None else f"is over {limit:,} bytes"
        )


def describe(error: OSError) -> str:
    """How a diagnostic says that a file could not be read."""
    if isinstance(error, Unreadable):
        return f"cannot read: it {error.message}"
    return f"cannot read: {error.strerror or error}"


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, following symlinks.

    Raises ``FileNotFoundError`` when nothing is there, :class:`TooLarge` for a larger file and
    :class:`Unreadable` for anything that is not a regular file (a dangling symlink included).
    """
    try:
        os.lstat(path)  # missing: FileNotFoundError, as for any file
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise Unreadable(path, "is a symbolic link to a file that does not exist") from None
        raise
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise Unreadable(path, "is a symbolic link loop") from None
        raise
    _regular(path, info)
    if info.st_size > limit:
        raise TooLarge(path, limit, info.st_size)
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    try:
        _regular(path, os.fstat(descriptor))  # the file opened is the file looked at
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(descriptor, min(left, _CHUNK))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(descriptor)
    data = b"".join(chunks)
    if len(data) > limit:  # it grew since it was looked at
        raise TooLarge(path, limit, None)
    return data


def _regular(path: Path, info: os.stat_result) -> None:
    for test, kind in _KINDS:
        if test(info.st_mode):
            raise Unreadable(path, f"is {kind}, not a regular file")
    if not stat.S_ISREG(info.st_mode):
        raise Unreadable(path, "is not a regular file")
