"""``--format text|json|github``: what a program or GitHub reads from ``rolecat check``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from build_tools.cli.report import escape_data, escape_property, github_command, json_pointer
from build_tools.diagnostics import Diagnostic
from tests.support.catalog_files import write_json
from tests.support.catalogs import Catalog
from tests.support.cli import run
from tests.support.reports import json_report


def git_init(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(directory)], check=True)
    return directory


# --- the pieces


@pytest.mark.parametrize(
    ("pointer", "expected"),
    [
        ((), ""),
        (("bundles", 0, "roles", 2, "version"), "/bundles/0/roles/2/version"),
        (("a/b", "m~n", "~1"), "/a~1b/m~0n/~01"),
        (("",), "/"),
    ],
)
def test_pointers_are_rfc_6901(pointer: tuple[str | int, ...], expected: str) -> None:
    assert json_pointer(pointer) == expected


def test_workflow_command_escaping() -> None:
    assert escape_data("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext: a,b"
    assert escape_property("dir,x:y 100%\r\n") == "dir%2Cx%3Ay 100%25%0D%0A"
    # "%" first: an escape is never escaped twice.
    assert escape_data("%0A") == "%250A"


def test_workflow_commands_escape_control_and_bidi_characters_as_text_does() -> None:
    diagnostic = Diagnostic("a\u202eb.json", 1, 2, 'role "x\u202e\x1b[31m": bad', "secret")
    command = github_command(diagnostic, "a\u202eb.json")
    assert "\u202e" not in command and "\x1b" not in command
    assert command == (
        '::error file=a\\u202eb.json,line=1,col=2,title=secret::role "x\\u202e\\x1b[31m": bad'
    )
    assert str(diagnostic).endswith('role "x\\u202e\\x1b[31m": bad')


@pytest.mark.parametrize(
    ("diagnostic", "path", "label", "expected"),
    [
        (
            Diagnostic("index.json", 9, 42, "bump it: 1 -> 2, then 100%", "lock-not-bumped"),
            "catalog/index.json",
            "",
            "::error file=catalog/index.json,line=9,col=42,title=lock-not-bumped::"
            "bump it: 1 -> 2, then 100%25",
        ),
        (
            Diagnostic("bundles/a/en.json", 0, 0, "missing: a\nb", "missing-file"),
            "x,y:z/bundles/a/en.json",
            "",
            "::error file=x%2Cy%3Az/bundles/a/en.json,title=missing-file::missing: a\\nb",
        ),
        (
            Diagnostic("https://h.example/c/index.json", 3, 4, "HTTP 404", "fetch-status"),
            None,
            "live catalog: ",
            "::error title=fetch-status::live catalog: https://h.example/c/index.json:3:4: "
            "HTTP 404",
        ),
    ],
)
def test_workflow_commands(
    diagnostic: Diagnostic, path: str | None, label: str, expected: str
) -> None:
    assert github_command(diagnostic, path, label) == expected


# --- rolecat check --format …


def test_text_stays_the_default(catalog: Catalog) -> None:
    catalog.files["alpha", "ru"]["roles"][0]["emoji"] = "🔍"
    result = catalog.write().check()
    assert result.code == 1
    assert result.lines == [
        'bundles/alpha/ru.json:7:16: role "one": "emoji" is "🔍" here but "🧭" in '
        "bundles/alpha/en.json; it must be the same in every language"
    ]
    assert result.err == "rolecat: 1 problem\n"


def test_json_is_one_document_with_every_field(catalog: Catalog) -> None:
    catalog.files["alpha", "ru"]["roles"][0]["emoji"] = "🔍"
    catalog.files["beta", "en"]["roles"][0]["instrutions"] = "x"
    result = catalog.write().check("--format", "json")
    assert result.code == 1
    assert json_report(result) == {
        "ok": False,
        "problems": [
            {
                "file": "bundles/alpha/ru.json",
                "line": 7,
                "column": 16,
                "pointer": "/roles/0/emoji",
                "rule": "not-same-in-languages",
                "severity": "error",
                "message": 'role "one": "emoji" is "🔍" here but "🧭" in bundles/alpha/en.json; '
                "it must be the same in every language",
            },
            {
                "file": "bundles/beta/en.json",
                "line": 13,
                "column": 7,
                "pointer": "/roles/0/instrutions",
                "rule": "schema-additionalProperties",
                "severity": "error",
                "message": 'role "three": unknown field "instrutions" (did you mean '
                '"instructions"?)',
            },
        ],
        "rules": {
            "not-same-in-languages": {
                "severity": "error",
                "summary": "`slug`, `emoji`, `autoStart` and `modelConfig` are the same in every "
                "language of a role: they are one role, translated",
            },
            "schema-additionalProperties": {
                "severity": "error",
                "summary": "no unknown field: a misspelt one (`instrutions`) would be dropped "
                "silently; the message suggests the field meant",
            },
        },
    }
    assert result.err == "rolecat: 2 problems\n"


def test_json_ok_keeps_the_ok_line_off_stdout(catalog: Catalog) -> None:
    result = catalog.check("--format", "json")
    assert (result.code, json_report(result), result.err) == (
        0,
        {"ok": True, "problems": [], "rules": {}},
        "OK\n",
    )


def test_json_a_whole_file_problem_has_no_position(catalog: Catalog) -> None:
    catalog.path("bundles/beta/ru.json").unlink()
    (problem,) = json_report(catalog.check("--format", "json"))["problems"]
    assert problem == {
        "file": "bundles/beta/ru.json",
        "line": None,
        "column": None,
        "pointer": "",
        "rule": "missing-file",
        "severity": "error",
        "message": 'missing: bundle "beta" declares language "ru" (index.json:37:9)',
    }


def test_json_update_hashes_prints_what_changed_on_stderr(catalog: Catalog) -> None:
    catalog.index["bundles"][1]["roles"][0]["version"] = 3
    catalog.files["beta", "en"]["roles"][0]["name"] = "Three, renamed"
    catalog.write()
    result = catalog.check("--fix", "--format", "json")
    assert result.code == 0
    assert json_report(result) == {"ok": True, "problems": [], "rules": {}}
    assert result.err == "updated three: version 2 -> 3\nlock updated\n"
    catalog.files["beta", "en"]["roles"][0]["name"] = "Three, renamed again"
    refused = catalog.write().check("--fix", "--format", "json")
    assert refused.code == 1
    assert [p["rule"] for p in json_report(refused)["problems"]] == ["lock-not-bumped"]
    assert refused.err == "rolecat: lock not written\n"


def test_rolecat_format_sets_the_default_and_the_option_wins(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ROLECAT_FORMAT", "json")
    assert json_report(catalog.check()) == {"ok": True, "problems": [], "rules": {}}
    assert catalog.check("--format", "text").out == "OK\n"
    monkeypatch.setenv("ROLECAT_FORMAT", "xml")
    refused = catalog.check()
    assert refused.code == 2 and refused.out == ""
    assert refused.err == "rolecat: error: ROLECAT_FORMAT='xml' is not one of text, json, github\n"


def test_an_unknown_format_option_is_a_usage_error(catalog: Catalog) -> None:
    result = catalog.check("--format", "yaml")
    assert result.code == 2 and result.out == ""
    assert "argument --format: invalid choice: 'yaml'" in result.err


def test_convert_takes_the_format_too(catalog: Catalog) -> None:
    catalog.files["beta", "en"]["roles"][0]["autoStart"] = "yes"
    catalog.write()
    converted = run("convert", "--to", "yaml", "--catalog", str(catalog.root), "--format", "json")
    assert converted.code == 1
    assert [p["rule"] for p in json_report(converted)["problems"]] == ["schema-type"]
    assert converted.err == "rolecat: nothing converted: fix these first\n"


# --- github: paths relative to the repository root


def test_github_golden_output_with_escapes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalog directory whose name needs escaping, a key holding % CR LF (shown escaped, as in
    the text format), a missing file."""
    repository = git_init(tmp_path / "repo")
    root = repository / "data" / "my,cat:alog 100%"
    write_json(
        root / "index.json",
        {
            "schemaVersion": 1,
            "bundles": [{"id": "b", "name": {"en": "B"}, "languages": ["en"], "roles": []}],
            "x%y\r\nz": 1,
        },
    )
    monkeypatch.chdir(repository / "data")  # the path is from the repository root, not the cwd
    result = run("check", "--catalog", "my,cat:alog 100%", "--format", "github")
    assert result.code == 1
    assert result.lines == [
        "::error file=data/my%2Ccat%3Aalog 100%25/bundles/b/en.json,title=missing-file::"
        'missing: bundle "b" declares language "en" (index.json:10:9)',
        "::error file=data/my%2Ccat%3Aalog 100%25/index.json,line=15,col=3,"
        'title=schema-additionalProperties::unknown field "x%25y\\r\\nz" (known: bundles, '
        "schemaVersion)",
    ]
    assert result.err == "rolecat: 2 problems\n"


def test_github_outside_a_repository_paths_are_from_the_cwd(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    catalog.files["alpha", "ru"]["roles"][0]["emoji"] = "🔍"
    catalog.write()
    monkeypatch.chdir(tmp_path)
    result = run("check", "--catalog", "catalog", "--format", "github")
    assert result.lines == [
        "::error file=catalog/bundles/alpha/ru.json,line=7,col=16,title=not-same-in-languages::"
        'role "one": "emoji" is "🔍" here but "🧭" in bundles/alpha/en.json; it must be the same '
        "in every language"
    ]


def test_github_a_lock_outside_the_catalog_is_placed_where_it_is(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    git_init(tmp_path)
    monkeypatch.chdir(tmp_path)
    write_json(tmp_path / "locks" / "roles.json", {"gone": {"version": 1, "hash": "0" * 64}})
    result = run("check", "--lock", "locks/roles.json", "--format", "github")
    assert result.code == 1
    assert [line.split("::")[1].split(",title=")[0] for line in result.lines] == [
        "error file=catalog/index.json,line=21,col=22",
        "error file=catalog/index.json,line=25,col=22",
        "error file=catalog/index.json,line=42,col=22",
        "error file=locks/roles.json,line=2,col=3",
    ]


def test_github_ok_prints_no_command(catalog: Catalog) -> None:
    result = catalog.check("--format", "github")
    assert (result.code, result.out, result.err) == (0, "", "OK\n")


def test_a_reader_that_stops_early_gets_no_traceback(catalog: Catalog) -> None:
    """``rolecat check --format github | head -1`` on a catalog with many problems."""
    catalog.files["alpha", "en"]["roles"][0].update({f"extra{n}": n for n in range(3000)})
    catalog.write()
    process = subprocess.Popen(
        [sys.executable, "-m", "build_tools", "check", "--catalog", str(catalog.root),
         "--format", "github"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().startswith(b"::error file=")
    process.stdout.close()  # the reader goes away with most of the output unread
    assert process.wait(timeout=60) == 1
    assert b"Traceback" not in process.stderr.read()
    process.stderr.close()
