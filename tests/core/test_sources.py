"""JSON as the server's JSON.parse reads it: whatever it rejects or silently changes is an error."""

from __future__ import annotations

import pytest

from build_tools.sources.json_reader import MAX_FILE_BYTES, SourceError, parse_json
from tests.support.catalogs import Catalog


def problems(raw: bytes) -> list[str]:
    with pytest.raises(SourceError) as caught:
        parse_json("f.json", raw)
    return [str(d) for d in caught.value.diagnostics]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (
            b'\xef\xbb\xbf{"a": 1}',
            "f.json:1:1: file starts with a UTF-8 byte order mark; remove it",
        ),
        (
            b'{\n  "a": "caf\xe9"\n}',
            "f.json:2:12: invalid UTF-8 (byte 0xe9); the server would replace it with U+FFFD",
        ),
        (b'{\n  "a": NaN\n}', "f.json:2:8: NaN is not valid JSON (JSON.parse rejects it)"),
        (
            b'{"a": [1, -Infinity]}',
            "f.json:1:11: -Infinity is not valid JSON (JSON.parse rejects it)",
        ),
        (b'{"a": 1e400}', "f.json:1:7: 1e400 is too large: JSON.parse turns it into Infinity"),
        (
            b'{"a": 9007199254740993}',
            "f.json:1:7: 9007199254740993 is read by JSON.parse as 9007199254740992: it cannot "
            "hold this number exactly",
        ),
        (b'{"a": 1}\n{"b": 2}', "f.json:2:1: invalid JSON: unexpected data after the JSON value"),
        (
            b'{"a": 1,}',
            "f.json:1:9: invalid JSON: Expecting property name enclosed in double quotes",
        ),
        (
            b'{\n  "a": 1,\n  "a": 2\n}',
            'f.json:3:3: duplicate key "a"; JSON.parse would silently keep only the last',
        ),
        (b"[1, 2]", "f.json:1:1: the top-level value must be an object, not an array"),
        (b'  "text"', "f.json:1:3: the top-level value must be an object, not a string"),
        (
            b'{"a": "x\\ud800y"}',
            "f.json:1:7: a string contains a lone surrogate escape (\\uD800-\\uDFFF without its "
            "pair); it is not valid Unicode",
        ),
        (
            b'{"\\udc00": 1}',
            "f.json:1:2: a key contains a lone surrogate escape (\\uD800-\\uDFFF without its "
            "pair); it is not valid Unicode",
        ),
        (
            b'{"a": "tab\there"}',
            "f.json:1:11: invalid JSON: a raw control character inside a string; escape it "
            "(\\n, \\t)",
        ),
        (b"", "f.json:1:1: invalid JSON: Expecting value"),
    ],
)
def test_what_json_parse_would_reject_or_change(raw: bytes, expected: str) -> None:
    assert problems(raw) == [expected]


def test_every_duplicate_key_is_reported() -> None:
    assert problems(b'{"a": {"b": 1, "b": 2}, "a": 3}') == [
        'f.json:1:16: duplicate key "b"; JSON.parse would silently keep only the last',
        'f.json:1:25: duplicate key "a"; JSON.parse would silently keep only the last',
    ]


def test_paired_surrogates_and_escapes_are_fine() -> None:
    document = parse_json("f.json", b'{"a": "\\ud83d\\ude00 \\\\ud800", "b": 1.5, "c": -0}')
    assert document.data == {"a": "😀 \\ud800", "b": 1.5, "c": 0}


def test_positions_of_values_and_keys() -> None:
    document = parse_json("f.json", '{\n  "roles": [\n    {"slug": "ёж", "x": 1}\n  ]\n}'.encode())
    assert document.position(("roles", 0, "x")).__dict__ == {"line": 3, "col": 25}
    assert document.key_position(("roles", 0, "x")).__dict__ == {"line": 3, "col": 20}
    # an absent value is placed at its nearest ancestor
    assert document.position(("roles", 0, "name")).__dict__ == {"line": 3, "col": 5}


def test_a_published_source_lets_go_of_its_bytes_and_keeps_its_values() -> None:
    """What a build does once the raw tree is written: the values stay, for the pages."""
    raw = '{\n  "roles": [\n    {"slug": "ёж", "x": 1}\n  ]\n}'.encode()
    document = parse_json("f.json", raw)
    document.let_go_of_source()
    assert document.raw == b""
    assert document.data == {"roles": [{"slug": "ёж", "x": 1}]}
    assert document.position(("roles", 0, "x")).__dict__ == {"line": 1, "col": 1}


def test_file_over_the_server_cap(catalog: Catalog) -> None:
    path = catalog.path("bundles/beta/en.json")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("Be precise.", "x" * MAX_FILE_BYTES), encoding="utf-8")
    result = catalog.check()
    assert result.code == 1
    size = path.stat().st_size
    assert result.lines == [
        f"bundles/beta/en.json: file is {size:,} bytes; the server refuses files over "
        "1,000,000 bytes"
    ]


def test_parse_problems_reach_the_cli(catalog: Catalog) -> None:
    catalog.path("index.json").write_bytes(b'{"schemaVersion": 1, "bundles": [] ')
    result = catalog.check()
    assert (result.code, result.lines) == (
        1,
        ["index.json:1:36: invalid JSON: Expecting ',' delimiter"],
    )


def test_json_problems_carry_their_rule_place_and_pointer_after_an_empty_object() -> None:
    # The positional pass runs only for such files: written compactly, with empty and longer
    # arrays and objects before the problems, nothing may shift it by a character.
    raw = b'{"a":{},"e":[],"f":[1,[2]],"b":1,"b":2,"c":"\\ud800","\\udc00":1}'
    with pytest.raises(SourceError) as refused:
        parse_json("f.json", raw)
    assert [(d.col, d.rule, d.pointer) for d in refused.value.diagnostics] == [
        (raw.index(b'"b":2') + 1, "duplicate-key", ("b",)),
        (raw.index(b'"\\ud800"') + 1, "surrogate", ("c",)),
        (raw.index(b'"\\udc00"') + 1, "surrogate", ()),  # a key: the object it is in
    ]
