"""A bundle file a worker checked, as the parent holds it: its values now, its bytes on demand.

:mod:`build_tools.check.workers` sends each file's values back without its bytes or positions;
this module is the parent's side of that bargain: the file is read again only when something
asks for a place in it, and a file whose bytes changed since the worker read them turns the
whole check into :class:`ChangedWhileChecked`.
"""

from __future__ import annotations

import zlib
from typing import Any

from build_tools.diagnostics import Diagnostic, Pointer
from build_tools.model.catalog import CatalogSource
from build_tools.sources.formats import located
from build_tools.sources.json_reader import Document, Position, SourceError

SentFile = tuple[str, Any, int, int, dict[str, int]] | None
"""A bundle file as a worker sends it: path, data without the roles' instructions
(:func:`~build_tools.check.workers._sent_data`), the length and CRC-32 of its bytes (which the
parent reads again only if it needs them, :class:`ReadAgain`: sending them took longer than
parsing), inlined files; ``None`` if not read (or not sent: read here)."""


class ChangedWhileChecked(SourceError):
    """A file a worker read, changed before the check could report a place in it: the check's
    whole report, since what it found there may no longer hold."""


class ReadAgain(Document):
    """A file a worker checked, whose bytes are read here only when something asks for them (a
    diagnostic's position, a credential's place in a YAML file's text): a sound catalog never
    does, and reading every file twice took a tenth of a large catalog's check. Bytes that are
    not the ones the worker read (a file changed since) are :class:`ChangedWhileChecked`, one
    line: positions in other bytes would name the wrong place."""

    def __init__(self, source: CatalogSource, sent: SentFile) -> None:
        assert sent is not None
        path, data, self._size, self._crc, inlined = sent
        self._source = source
        self._bytes: bytes | None = None
        self._located: Document | None = None
        super().__init__(path, data, self._value, self._key, b"", inlined)

    @property
    def raw(self) -> bytes:
        if self._bytes is None:
            try:
                raw = self._source.read(self.path)
            except OSError as error:
                raise self._changed(error.strerror or type(error).__name__) from None
            if raw is None:
                raise self._changed("it is gone")
            if len(raw) != self._size or zlib.crc32(raw) != self._crc:
                raise self._changed("its bytes are not the ones checked")
            self._bytes = raw
        return self._bytes

    @raw.setter
    def raw(self, value: bytes) -> None:
        self._bytes = value or None  # the dataclass's b"" (and a build's letting go): not read

    def _changed(self, reason: str) -> ChangedWhileChecked:
        message = f"changed while it was checked ({reason}): check it again"
        return ChangedWhileChecked([Diagnostic(self.path, 0, 0, message, "changed-while-checked")])

    def _positions(self) -> Document:
        if self._located is None:
            self._located = located(self.path, self.data, self.raw, self.inlined)
        return self._located

    def _value(self, pointer: Pointer) -> Position | None:
        return self._positions()._value_position(pointer)

    def _key(self, pointer: Pointer) -> Position | None:
        return self._positions()._key_position(pointer)
