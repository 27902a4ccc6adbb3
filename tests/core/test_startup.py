"""A small catalog's check costs little more than starting Python: it imports only what it needs,
keeps the secret scan's gate between runs (never stale, never needed), and compiles no pattern
that walks all of Unicode."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from build_tools import cache
from build_tools.rules import secret_scan
from build_tools.sources import formats
from tests.support import OUR_CATALOG, REPO

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


def _python(code: str, cache_dir: Path | str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, cache.ENV: str(cache_dir)}
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=REPO,
        env=env,
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
    cache_dir = tmp_path / "cache"
    first = _python(CHECK_AND_LIST, cache_dir, str(catalog))
    assert first.returncode == 0, first.stderr
    second = _python(CHECK_AND_LIST, cache_dir, str(catalog))  # the gate is kept now
    assert second.returncode == 0, second.stderr
    imported = json.loads(second.stdout.strip().splitlines()[-1].replace("'", '"'))
    assert [m for m in imported if m in LAZY or m.split(".")[0] in LAZY] == []


def test_the_gate_is_kept_and_read_back_without_detect_secrets(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from build_tools.rules.secret_scan import scan_text\n"
        "found = scan_text('A word the screen lets through: split-the-difference-always.')\n"
        "print(found, 'detect_secrets' in sys.modules)\n"
    )
    first = _python(code, tmp_path)
    assert first.stdout.split() == ["[]", "True"], first.stderr  # made from detect-secrets once
    kept = list(tmp_path.glob("secret-scan-gate-*.json"))
    assert len(kept) == 1
    assert json.loads(kept[0].read_bytes())["value"] == secret_scan._Detector().gate.pattern
    second = _python(code, tmp_path)
    assert second.stdout.split() == ["[]", "False"], second.stderr


def test_a_credential_is_still_found_with_the_gate_kept(tmp_path: Path) -> None:
    code = (
        "from build_tools.rules.secret_scan import scan_text\n"
        "print([f.kind for f in scan_text('token ghp_' + 'a1B2' * 9)])\n"
    )
    for _run in range(2):
        done = _python(code, tmp_path)
        assert done.stdout.strip() == "['GitHub Token']", done.stderr


def test_a_value_is_kept_under_its_inputs_and_rolecats_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    made: list[str] = []

    def make(value: str) -> tuple[str, bool]:
        made.append(value)
        return value, True

    assert cache.remembered("x", [b"a"], lambda: make("one")) == "one"
    assert cache.remembered("x", [b"a"], lambda: make("two")) == "one"  # read back
    assert cache.remembered("x", [b"b"], lambda: make("three")) == "three"  # other inputs
    assert cache.remembered("x", [b"a", b""], lambda: make("four")) == "four"  # other splits
    monkeypatch.setattr(cache, "__version__", "0.0.0-other")
    assert cache.remembered("x", [b"a"], lambda: make("five")) == "five"  # another version
    assert made == ["one", "three", "four", "five"]
    # A value that says it is not made of its inputs alone is never kept.
    assert cache.remembered("y", [b"a"], lambda: ("six", False)) == "six"
    assert cache.remembered("y", [b"a"], lambda: make("seven")) == "seven"


def test_a_broken_or_foreign_entry_is_computed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    cache.remembered("x", [b"a"], lambda: ("right", True))
    (entry,) = tmp_path.glob("x-*.json")
    for content in (b"{not json", b'{"key": "another", "value": "wrong"}', b"[]", b""):
        entry.write_bytes(content)
        assert cache.remembered("x", [b"a"], lambda: ("right", True)) == "right"


def test_no_cache_is_ever_needed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.ENV, "")  # switched off
    assert cache.remembered("x", [b"a"], lambda: ("made", True)) == "made"
    blocked = tmp_path / "file"
    blocked.write_text("a file where the directory would be")
    monkeypatch.setenv(cache.ENV, str(blocked / "cache"))  # cannot be made
    assert cache.remembered("x", [b"a"], lambda: ("made", True)) == "made"
    assert [p.name for p in tmp_path.iterdir()] == ["file"]


def test_the_gates_key_covers_the_detectors_sources() -> None:
    import detect_secrets

    place = secret_scan._detect_secrets_dir()
    assert place == Path(detect_secrets.__file__).parent.resolve()  # found without importing it
    inputs = secret_scan._gate_inputs(place)
    assert inputs[0] == Path(secret_scan.__file__).read_bytes()
    plugins = place / "plugins"
    for name in ("github_token.py", "aws.py", "private_key.py"):
        assert name.encode() in inputs and (plugins / name).read_bytes() in inputs


def test_the_complements_match_what_the_negated_classes_match() -> None:
    everything = "".join(map(chr, range(0x110000)))
    raw = formats._RAW
    assert re.findall(formats._NOT_RAW, everything) == re.findall(f"[^{raw}]", everything)
    not_raw_in_lines = re.findall(f"[^\n{raw}]", everything)
    assert re.findall(formats._NOT_RAW_IN_LINES, everything) == not_raw_in_lines
    assert re.findall(formats._ESCAPED, everything) == re.findall(f'[^{raw}]|["\\\\]', everything)
