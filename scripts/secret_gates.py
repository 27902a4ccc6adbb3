"""Record the secret scan's gate for the installed detect-secrets in build_tools/rules/.

Run after upgrading detect-secrets (``python scripts/secret_gates.py``): the gate is made from the
installed plugins and added to ``secret_gates.json`` under their digest, beside those of the
releases recorded before. ``tests/core/test_startup.py`` fails until it is.
"""

from __future__ import annotations

import json
from pathlib import Path

import detect_secrets

from build_tools.rules import secret_scan


def main() -> None:
    place = Path(detect_secrets.__file__).parent.resolve()
    gates = json.loads(secret_scan.GATES.read_bytes())
    gates[secret_scan.plugins_digest(place)] = secret_scan._Detector().gate.pattern
    text = json.dumps(dict(sorted(gates.items())), indent=2, ensure_ascii=False) + "\n"
    secret_scan.GATES.write_text(text, encoding="utf-8")
    print(f"{secret_scan.GATES}: {len(gates)} gate(s)")


if __name__ == "__main__":
    main()
