"""Where the time of one ``rolecat check`` goes, stage by stage, in CPU seconds.

``python -m bench.check_stages CATALOG_DIR`` runs the check once in this process, all of it here
(``rolecat check`` splits the work of each bundle over the cores at this size), with each stage
timed (the stages are the check's own functions, wrapped here; nothing in ``build_tools`` knows of
it) and prints one line per stage. The bench prints it for L under its table, so
whoever makes the check faster starts from where its time goes rather than from a guess.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

STARTED = time.process_time()

from build_tools import check  # noqa: E402
from build_tools.rules import secret_scan  # noqa: E402
from build_tools.sources import formats  # noqa: E402
from build_tools.wire import judged  # noqa: E402

STAGES: list[tuple[Any, str, str]] = [
    (check, "load_catalog", "every file read, parsed and checked by the schemas, and:"),
    (check, "bundle_hashes", "  every role's lock hash (orjson + SHA-256, as the floor)"),
    (secret_scan.SecretScan, "bundle", "  the secret scan of every bundle file"),
    (check, "run_rules", "the rules across files"),
    (judged, "judge", "every published file judged (size, the server's guards), and:"),
    (formats, "dump_yaml", "  the files of the other format (YAML) written"),
    (check, "read_lock", "the lock read and compared"),
]
"""The stages, in the order they run; an indented one runs inside the one above it."""


def timed(stages: list[tuple[Any, str, str]]) -> Counter[str]:
    """Wrap each stage so its CPU time adds up in the returned counter."""
    spent: Counter[str] = Counter()
    for owner, name, _what in stages:
        original: Callable[..., Any] = getattr(owner, name)

        def wrapper(*args: Any, _f: Callable[..., Any] = original, _n: str = name, **k: Any) -> Any:
            started = time.process_time()
            try:
                return _f(*args, **k)
            finally:
                spent[_n] += time.process_time() - started

        setattr(owner, name, wrapper)
    return spent


def main(argv: list[str]) -> int:
    imported = time.process_time() - STARTED
    spent = timed(STAGES)
    started = time.process_time()
    result = check.check_catalog(Path(argv[1]))
    total = time.process_time() - started
    verdict = "OK" if result.ok else "problems"
    print(f"CPU seconds: imports {imported:.2f}, check_catalog {total:.2f} ({verdict}), of which")
    for _owner, name, what in STAGES:
        print(f"  {spent[name]:5.2f}  {what} ({name})")
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
