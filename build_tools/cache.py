"""What rolecat derives from its own code and from its dependencies' code, kept between runs.

Never a catalog's verdict: only values that a function of installed code would compute again the
same way (the secret scan's gate, made from detect-secrets' detectors, costs importing
detect-secrets and half of ``requests``: more than the rest of a small catalog's check). Each value
is stored under a key made of rolecat's version and every byte it is derived from, so a changed
file or another version reads nothing and computes the value anew; it is never needed (a missing,
unreadable or unwritable cache computes it), and never stale.

The directory is ``ROLECAT_CACHE_DIR`` (empty: no cache), else ``$XDG_CACHE_HOME/rolecat``, else
``~/.cache/rolecat``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from build_tools import __version__

ENV = "ROLECAT_CACHE_DIR"


def directory() -> Path | None:
    """Where values are kept, or ``None`` where the cache is switched off."""
    configured = os.environ.get(ENV)
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rolecat"


def key(parts: Iterable[bytes]) -> str:
    """A key over rolecat's version and ``parts`` (each length-prefixed, so no two splits of the
    same bytes collide)."""
    digest = hashlib.sha256(__version__.encode())
    for part in parts:
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def remembered(name: str, made_of: Iterable[bytes], make: Callable[[], tuple[str, bool]]) -> str:
    """The value ``make`` computes, read from the cache where the same inputs stored it; else
    computed, and stored for the next run (as well as the directory allows) unless ``make`` says
    it is not made of those inputs alone (its second value false)."""
    folder = directory()
    if folder is None:
        return make()[0]
    stamp = key(made_of)
    path = folder / f"{name}-{stamp[:32]}.json"
    try:
        stored = json.loads(path.read_bytes())
        if isinstance(stored, dict) and stored.get("key") == stamp:
            value = stored.get("value")
            if isinstance(value, str):
                return value
    except (OSError, ValueError):
        pass
    value, keep = make()
    if not keep:
        return value
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial.write_text(json.dumps({"key": stamp, "value": value}), encoding="utf-8")
        os.replace(partial, path)  # whole or not at all, whoever else writes it meanwhile
    except OSError:
        with contextlib.suppress(OSError):  # a cache that cannot be written is only not kept
            partial.unlink(missing_ok=True)
    return value
