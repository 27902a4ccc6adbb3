"""Identifiers and patterns as JavaScript reads them: ``$`` is the very end, ``\\d`` is ASCII."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from build_tools.model import schema
from build_tools.model.catalog import ID_PATTERN
from build_tools.sources import javascript
from build_tools.sources.json_reader import parse_json
from tests.support.catalogs import Catalog


def javascript_accepts(text: str) -> bool:
    """The server's ``/^[a-z0-9-]+$/.test(text)``, modelled on its definition: the whole string,
    ASCII only, no final newline."""
    return re.fullmatch(r"[a-z0-9-]+", text, re.ASCII) is not None


# Ids, and the near misses Python's `$` and `\d` let through: a final newline, Unicode digits.
near_ids = st.builds(
    lambda head, tail: head + tail,
    st.from_regex(r"[a-z0-9-]{0,8}", fullmatch=True),
    st.sampled_from(
        ["", "\n", "\n\n", "\r", " ", "\u0661", "\uff21", "é", "-\n", "\u2028", "\x00"]
    ),
) | st.text(max_size=6)


def accepted_everywhere(text: str) -> dict[str, bool]:
    """Every place rolecat decides whether a string is an id."""
    bundle = {"schemaVersion": 1, "language": text, "roles": []}
    index = {
        "schemaVersion": 1,
        "bundles": [{"id": text, "name": {}, "languages": ["en"], "roles": []}],
    }
    lock: dict[str, Any] = {text: {"version": 1, "hash": "0" * 64}}
    return {
        "ID_PATTERN": ID_PATTERN.match(text) is not None,
        "is_id": javascript.is_id(text),
        "bundle screen": schema.screen("bundle")(bundle),
        "bundle jsonschema": not list(schema.validator("bundle").iter_errors(bundle)),
        "index screen": schema.screen("index")(index),
        "index jsonschema": not list(schema.validator("index").iter_errors(index)),
        "lock screen": schema.screen("lock")(lock),
        "lock jsonschema": not list(schema.validator("lock").iter_errors(lock)),
    }


@settings(max_examples=400, deadline=None)
@given(near_ids)
def test_every_id_rolecat_accepts_javascript_accepts(text: str) -> None:
    expected = javascript_accepts(text)
    assert accepted_everywhere(text) == dict.fromkeys(accepted_everywhere(text), expected)


@pytest.mark.parametrize("text", ["en\n", "code-reviewer\n"])
def test_what_pythons_dollar_lets_through_is_refused_everywhere(text: str) -> None:
    assert re.match(r"^[a-z0-9-]+$", text) is not None  # Python's `$` matches before the "\n"
    assert not any(accepted_everywhere(text).values())


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=8) | st.sampled_from(["\x1c", "\ufeff", "\u00a0", "\u200b", "\u0085"]))
def test_a_texts_non_space_test_is_javascripts(text: str) -> None:
    javascript_space = set("\t\n\x0b\x0c\r \xa0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") | {
        chr(c) for c in range(0x2000, 0x200B)
    }
    assert (javascript.regex(r"\S").search(text) is not None) == any(
        c not in javascript_space for c in text
    )


def test_a_hash_with_a_final_newline_is_not_a_hash() -> None:
    document = parse_json("l.json", b'{"one": {"version": 1, "hash": "' + b"a" * 64 + b'\\n"}}')
    [problem] = schema.validate("lock", document)
    assert problem.message.endswith(
        "it must match ^[0-9a-f]{64}$ (64 lowercase hexadecimal digits, a SHA-256)"
    )


def test_patterns_javascript_does_not_share_are_refused_not_guessed() -> None:
    for source in (r"\bword", r"(?<=a)b", r"\p{L}", "a\\", "[]a]", r"[\S]"):
        with pytest.raises(NotImplementedError):
            javascript.regex(source)
    assert javascript.regex("^a.c$").match("a\u2028c") is None  # `.` is no line terminator
    assert javascript.regex(r"^\d+$").match("\u0661\u0662") is None  # Arabic-Indic digits


@pytest.mark.parametrize(("where", "field"), [("index", "slug"), ("bundle", "language")])
def test_a_final_newline_in_an_id_fails_the_check(catalog: Catalog, where: str, field: str) -> None:
    if where == "index":
        catalog.index["bundles"][0]["roles"][0]["slug"] = "one\n"
    else:
        catalog.files[("beta", "en")]["language"] = "en\n"
    catalog.write()
    result = catalog.check()
    assert result.code == 1
    assert any(
        f'"{field}" is "{"one" if where == "index" else "en"}\\n"; it must match ^[a-z0-9-]+$'
        in line
        for line in result.lines
    ), result.out
