"""Where a preview rebuild's time goes: ``ROLECAT_TIMINGS=<file>`` appends a timestamp per phase.

The bench (``bench/serve.py``) sets it for ``make serve`` and turns the marks into the breakdown it
prints: MkDocs' file polling, the configuration it loads again, our check, the files and pages,
MkDocs writing them, and what runs after. Unset, nothing is recorded and nothing is slower.

Each line is ``{"mark": <name>, "t": <seconds since the epoch>}``: wall-clock time, so the bench
can set it against the moment it saved a file. MkDocs' own moments come from its log messages.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

ENV = "ROLECAT_TIMINGS"

SERVER_MESSAGES = {
    "mkdocs.livereload": {
        "Detected file changes": "detected",
        "Reloading browsers": "reloaded",
    },
    "mkdocs.commands.serve": {"Building documentation...": "building"},
}
"""MkDocs' log messages that mark a moment of a rebuild, by logger, with the mark's name."""


class Timings:
    """Appends marks to the file ``ROLECAT_TIMINGS`` names, or does nothing."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._followed: list[tuple[logging.Logger, int, _Marker]] = []

    @classmethod
    def from_environment(cls) -> Timings:
        named = os.environ.get(ENV)
        return cls(Path(named) if named else None)

    def mark(self, name: str) -> None:
        if self.path is None:
            return
        line = json.dumps({"mark": name, "t": time.time()})
        with self.path.open("a", encoding="utf-8") as stream:
            stream.write(line + "\n")

    def follow_server(self) -> None:
        """Mark MkDocs' own moments: a change detected, a rebuild started, browsers told.

        Only while the bench asks (``ROLECAT_TIMINGS``): a handler on each of MkDocs' loggers
        named above, which must pass INFO records to it; :meth:`stop_following` undoes both."""
        if self.path is None:
            return
        for name, messages in SERVER_MESSAGES.items():
            logger = logging.getLogger(name)
            self._followed.append((logger, logger.level, _Marker(self, messages)))
            logger.addHandler(self._followed[-1][2])
            if logger.getEffectiveLevel() > logging.INFO:
                logger.setLevel(logging.INFO)

    def stop_following(self) -> None:
        for logger, level, marker in self._followed:
            logger.removeHandler(marker)
            logger.setLevel(level)
        self._followed.clear()


class _Marker(logging.Handler):
    def __init__(self, timings: Timings, messages: dict[str, str]) -> None:
        super().__init__(logging.INFO)
        self.timings = timings
        self.messages = messages

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        for text, mark in self.messages.items():
            if text in message:
                self.timings.mark(mark)
