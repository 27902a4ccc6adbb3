"""A small catalog's check costs little more than starting Python: it imports only what it needs,
takes the secret scan's gate from what ships with rolecat (never from a cache), and compiles no
pattern that walks all of Unicode."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from build_tools.rules import secret_scan
from build_tools.sources import formats
from tests.support.paths import OUR_CATALOG, REPO

LAZY = (
    "detect_secrets",
    "requests",
    "jsonschema",
    "ruamel",
    "yaml",
    "subprocess",
    "tempfile",
    "difflib",
    "ctypes",
    "importlib.resources",
    "build_tools.reuse",
    "build_tools.wire.staging",
    "build_tools.exports",
    "decimal",
)
"""What a check of a clean catalog never imports: only a problem, a preview, a write or a YAML
catalog needs them. (Not ``shutil``: argparse's help formatter imports it for every option.)"""


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )


CHECK_AND_LIST = """
import sys
from build_tools.cli.main import main
code = main(["check", "--catalog", sys.argv[1], "--model-tiers"])
print(sorted(m for m in sys.modules if m.split(".")[0] in {"detect_secrets", "requests",
      "jsonschema", "ruamel", "yaml", "subprocess", "tempfile", "difflib", "ctypes",
      "importlib", "build_tools", "decimal"}))
sys.exit(code)
"""


def test_a_clean_check_imports_none_of_what_only_some_runs_need(tmp_path: Path) -> None:
    catalog = tmp_path / "catalog"
    shutil.copytree(OUR_CATALOG, catalog)
    done = _python(CHECK_AND_LIST, str(catalog))
    assert done.returncode == 0, done.stderr
    imported = json.loads(done.stdout.strip().splitlines()[-1].replace("'", '"'))
    assert [m for m in imported if m in LAZY or m.split(".")[0] in LAZY] == []


def test_the_gate_shipped_for_the_installed_detect_secrets_is_the_one_it_makes() -> None:
    """Fails after an upgrade of detect-secrets until ``scripts/secret_gates.py`` records it."""
    import detect_secrets

    place = Path(detect_secrets.__file__).parent.resolve()
    shipped = json.loads(secret_scan.GATES.read_bytes())
    digest = secret_scan.plugins_digest(place)
    assert digest in shipped, "run scripts/secret_gates.py for this detect-secrets"
    assert shipped[digest] == secret_scan._Detector().gate.pattern


def test_a_word_no_detector_matches_is_scanned_without_detect_secrets() -> None:
    code = (
        "import sys\n"
        "from build_tools.rules.secret_scan import scan_text\n"
        "found = scan_text('A word the screen lets through: split-the-difference-always.')\n"
        "print(found, 'detect_secrets' in sys.modules)\n"
    )
    done = _python(code)
    assert done.stdout.split() == ["[]", "False"], done.stderr


def test_detect_secrets_makes_the_gate_where_none_is_shipped_for_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "gates.json").write_text('{"0000": "(?!)"}', encoding="utf-8")  # another release
    monkeypatch.setattr(secret_scan, "GATES", tmp_path / "gates.json")
    secret_scan._gate.cache_clear()
    try:
        assert secret_scan._gate().pattern == secret_scan._Detector().gate.pattern
        assert [f.kind for f in secret_scan.scan_text("token ghp_" + "a1B2" * 9)] == [
            "GitHub Token"
        ]
    finally:
        secret_scan._gate.cache_clear()


def test_a_credential_is_found_in_a_fresh_process() -> None:
    code = (
        "from build_tools.rules.secret_scan import scan_text\n"
        "print([f.kind for f in scan_text('token ghp_' + 'a1B2' * 9)])\n"
    )
    done = _python(code)
    assert done.stdout.strip() == "['GitHub Token']", done.stderr


def test_the_gates_key_covers_the_detectors_sources(tmp_path: Path) -> None:
    import detect_secrets

    place = secret_scan._detect_secrets_dir()
    assert place == Path(detect_secrets.__file__).parent.resolve()  # found without importing it
    copy = tmp_path / "detect_secrets"
    shutil.copytree(place / "plugins", copy / "plugins")
    assert secret_scan.plugins_digest(copy) == secret_scan.plugins_digest(place)
    github = copy / "plugins" / "github_token.py"
    github.write_bytes(github.read_bytes().replace(b"ghp", b"ghq"))
    assert secret_scan.plugins_digest(copy) != secret_scan.plugins_digest(place)


def test_the_complements_match_what_the_negated_classes_match() -> None:
    everything = "".join(map(chr, range(0x110000)))
    raw = formats._RAW
    assert re.findall(formats._NOT_RAW, everything) == re.findall(f"[^{raw}]", everything)
    not_raw_in_lines = re.findall(f"[^\n{raw}]", everything)
    assert re.findall(formats._NOT_RAW_IN_LINES, everything) == not_raw_in_lines
    assert re.findall(formats._ESCAPED, everything) == re.findall(f'[^{raw}]|["\\\\]', everything)
