"""Published YAML reads the same in every reader a consumer may use, and as people expect it.

The server's generation reads YAML 1.2 (core schema); other consumers may read YAML 1.1, where
``no`` is false, ``0777`` is 511 and ``2001-12-14`` a date. Whatever a catalog holds, each reader
must get exactly what ``JSON.parse`` gets from the ``.json`` twin.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest
import yaml as pyyaml
from hypothesis import given, settings
from hypothesis import strategies as st

from build_tools.sources import yaml_reader
from build_tools.sources.formats import (
    compact_json,
    dump_json,
    dump_yaml,
    json_size_bound,
    shape,
    yaml_size_bound,
)
from build_tools.sources.yaml_reader import parse_yaml


def _words(text: str) -> list[str]:
    return text.split()


NASTY = [
    *_words("yes Yes YES no No NO on On ON off Off OFF y Y n N true True FALSE"),
    *_words("~ null Null NULL 0777 -0777 0o17 0b101 0x1F 0x_1F 1_000 +1 -0 1:20 190:20:30.15"),
    *_words("1e3 1E-3 1.0 1. .5 ._ 1.2.3 .inf -.Inf .NaN << = 2001-12-14 2001-1-4"),
    "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10 -5",
    "",
    " ",
    " lead",
    "trail ",
    "\t",
    "a\tb",
    "\ttab first",
    "\r",
    "x\r\ny",
    "a\n\nb   ",
    "a\n \nb",
    "a\n  b\n\n\n",
    "\x85",
    "\u2028",
    "\u2029",
    "\ufeff",
    "\ue000",
    "\x00",
    "\x7f",
    "🔎",
    "✍️",
    "👩‍💻",
    "- x",
    "-",
    "key: v",
    "key:v",
    ": x",
    "#",
    "# c",
    "a #b",
    "&a",
    "*a",
    "!tag",
    "!!str x",
    "%YAML 1.2",
    "---",
    "...",
    "'",
    '"',
    "\\",
    "\\u0041",
    "\\U0001F50E",
    "\\n",
    "|",
    "> x",
    "? x",
    "[a]",
    "{a: b}",
    "@x",
    "`x",
    "\n",
    "\n\n",
    "Привет",
]
"""Text a YAML reader may take as something else, or that tests an emitter's escaping."""

nasty_text = st.one_of(
    st.sampled_from(NASTY),
    st.lists(st.sampled_from(NASTY) | st.text(max_size=5), min_size=1, max_size=6).map("".join),
    st.lists(st.sampled_from(NASTY) | st.text(max_size=20), min_size=2, max_size=5).map("\n".join),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=40),
)
"""Lone surrogates excluded: the readers refuse them in catalogs (``\\ud800`` is no text)."""

scalars = st.one_of(
    nasty_text,
    st.none(),
    st.booleans(),
    st.integers(-(2**53 - 1), 2**53 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(nasty_text, children, max_size=4)
    ),
    max_leaves=20,
)
roles = st.fixed_dictionaries(
    {"slug": st.just("r"), "name": nasty_text, "instructions": nasty_text},
    optional={
        "emoji": nasty_text,
        "description": nasty_text,
        "autoStart": st.booleans(),
        "launchMessage": nasty_text | st.none(),
        "modelConfig": st.dictionaries(nasty_text, nasty_text, max_size=2) | st.none(),
    },
)
catalog_values = st.one_of(
    st.fixed_dictionaries(
        {"schemaVersion": st.just(1), "language": nasty_text, "roles": st.lists(roles, max_size=3)}
    ),
    st.dictionaries(nasty_text, json_values, max_size=5),
)


def typed(value: Any) -> Any:
    """A value compared as JSON sees it: ``True`` is not ``1``, an integer is just a number."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return (type(value).__name__, value)
    if isinstance(value, int | float):
        return ("number", float(value))
    if isinstance(value, list):
        return ("array", tuple(typed(item) for item in value))
    if isinstance(value, dict):
        return ("object", frozenset((typed(k), typed(v)) for k, v in value.items()))
    return (type(value).__name__, repr(value))  # a date, bytes, ...: never equal to JSON


def read_1_2(text: bytes) -> Any:
    return parse_yaml("published.yaml", text).data


def read_1_2_pure(text: bytes) -> Any:
    """The same reader on ruamel.yaml's own scanner instead of libyaml's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(yaml_reader, "CParser", None)
        return read_1_2(text)


READERS_1_1: dict[str, Callable[[bytes], Any]] = {
    "PyYAML safe_load": pyyaml.safe_load,
    "PyYAML CSafeLoader": lambda text: pyyaml.load(text, Loader=pyyaml.CSafeLoader),
}


def assert_reads_the_same(value: Any) -> None:
    expected = typed(json.loads(dump_json(value)))
    published = dump_yaml(value)
    assert typed(read_1_2(published)) == expected, published
    assert typed(read_1_2_pure(published)) == expected, published
    for name, read in READERS_1_1.items():
        assert typed(read(published)) == expected, (name, published)


@settings(max_examples=int(os.environ.get("ROLECAT_EXAMPLES", "300")), deadline=None)
@given(catalog_values)
def test_published_yaml_reads_as_the_json_in_yaml_1_2_and_1_1_readers(value: Any) -> None:
    assert_reads_the_same(value)


@pytest.mark.parametrize("text", NASTY)
def test_each_nasty_text_reads_the_same_everywhere(text: str) -> None:
    assert_reads_the_same({text: text, "list": [text, {"k": text}], "lines": f"{text}\n{text}"})


@pytest.mark.parametrize(
    "number", [1e20, 1e-5, 5e-324, -0.0, 0.1, 1.7976931348623157e308, 2**53 - 1, -42]
)
def test_numbers_are_numbers_in_yaml_1_1_too(number: float) -> None:
    assert_reads_the_same({"n": number})  # PyYAML reads 1e+20 as a string


def test_scalars_yaml_1_1_reads_as_other_types_are_quoted() -> None:
    value = {"no": "yes", "on": "off", "y": "n", "d": "2001-12-14", "o": "0777", "m": "<<"}
    assert dump_yaml(value).decode() == (
        "'no': 'yes'\n'on': 'off'\n'y': 'n'\nd: '2001-12-14'\no: '0777'\nm: '<<'\n"
    )


def test_plain_text_stays_plain() -> None:
    value = {"name": "Code Reviewer", "description": "Reviews: code, tests and docs.", "v": 1}
    assert dump_yaml(value).decode() == (
        "name: Code Reviewer\ndescription: 'Reviews: code, tests and docs.'\nv: 1\n"
    )


def test_emoji_are_written_as_themselves_even_in_literal_blocks() -> None:
    value = {
        "emoji": "🔎",
        "name": "Ревьюер 👩‍💻",
        "instructions": "You review code 🔎.\n\n- Be kind ✍️\n- Be precise 🎯",
    }
    text = dump_yaml(value).decode()
    assert text == (
        "emoji: 🔎\n"
        "name: Ревьюер 👩‍💻\n"
        "instructions: |-\n"
        "  You review code 🔎.\n"
        "\n"
        "  - Be kind ✍️\n"
        "  - Be precise 🎯\n"
    )
    assert "\\U" not in text


def test_private_use_characters_in_the_text_are_kept_apart_from_the_emoji() -> None:
    value = {"a": "\ue000🔎\ue001", "b": "🔎\n\ue000"}
    assert parse_yaml("x.yaml", dump_yaml(value)).data == value


def test_multi_line_prompts_are_literal_blocks() -> None:
    value = {"roles": [{"instructions": "First line.\n\nWHAT YOU DO\n- one\n- two\n"}]}
    assert dump_yaml(value).decode() == (
        "roles:\n- instructions: |\n    First line.\n\n    WHAT YOU DO\n    - one\n    - two\n"
    )


def test_private_use_characters_and_emoji_are_written_raw() -> None:
    value = {"a": "".join(map(chr, range(0xE000, 0xF900))), "b": "🔎\n🎯"}
    text = dump_yaml(value)
    assert "b: |-\n  🔎\n  🎯\n" in text.decode()
    assert parse_yaml("x.yaml", text).data == value


def test_text_no_reader_takes_raw_is_escaped_in_double_quotes() -> None:
    value = {"a": "tab\there", "b": "line\u2028sep", "c": "bom\ufeff", "d": "x\n\x85y"}
    assert dump_yaml(value).decode() == (
        'a: "tab\\there"\nb: "line\\Lsep"\nc: "bom\\uFEFF"\nd: "x\\n\\Ny"\n'
    )
    assert_reads_the_same(value)


def test_a_key_too_long_for_an_implicit_key_still_reads_back() -> None:
    value = {"modelConfig": {"k" * 1500: "v", "short": ["x", {"y": 1.5e300}]}}
    assert_reads_the_same(value)


def test_a_prompt_whose_last_line_ends_in_spaces_stays_a_literal_block() -> None:
    value = {"instructions": "One.\n\nTwo.  "}
    assert dump_yaml(value).decode() == "instructions: |-\n  One.\n\n  Two.  \n"
    assert_reads_the_same(value)


SIZE_NASTY = ["\x7f", "\x80", "\x85", "\x9f", "\ufeff", "\ufffe", "\uffff", "\b", "\f", "'", "\n"]
"""What the YAML writer writes longer than the shortest JSON does."""

sized_text = st.one_of(
    nasty_text,
    st.lists(st.sampled_from(SIZE_NASTY) | nasty_text, min_size=1, max_size=12).map("".join),
)
sized_values = st.recursive(
    st.one_of(sized_text, st.floats(allow_nan=False, allow_infinity=False), st.integers()),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(sized_text, children, max_size=4)
    ),
    max_leaves=30,
)


def shortest_float(number: float) -> str:
    """The shortest JSON literal that reads as ``number`` (``1e15``, not ``1000000000000000.0``)."""
    candidates = [repr(number)] + [f"{number:.{digits}e}" for digits in range(18)]
    shortened = []
    for text in candidates:
        mantissa, _, exponent = text.partition("e")
        if exponent:
            mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
            exponent = str(int(exponent))
            text = f"{mantissa}e{exponent}" if exponent != "0" else mantissa
        if float(text) == number:
            shortened.append(text)
    return min(shortened, key=len)


def shortest_json(value: Any) -> str:
    """The shortest JSON text of ``value``: no spaces, characters raw, floats at their shortest."""
    if isinstance(value, float):
        return shortest_float(value)
    if isinstance(value, list):
        return "[" + ",".join(shortest_json(item) for item in value) + "]"
    if isinstance(value, dict):
        items = (f"{shortest_json(k)}:{shortest_json(v)}" for k, v in value.items())
        return "{" + ",".join(items) + "}"
    return json.dumps(value, ensure_ascii=False)


@settings(max_examples=int(os.environ.get("ROLECAT_EXAMPLES", "300")), deadline=None)
@given(st.one_of(catalog_values, st.dictionaries(sized_text, sized_values, max_size=5)))
def test_the_yaml_size_bound_is_never_below_what_the_writer_writes(value: Any) -> None:
    """``rolecat check`` trusts the bound to leave a YAML file unwritten: it must never be short,
    from the shortest JSON text of the value as from the longest the catalog may hold."""
    written = len(dump_yaml(value))
    compact = compact_json(value)
    for text in (
        shortest_json(value),
        json.dumps(value, ensure_ascii=True),
        dump_json(value).decode("utf-8"),
        *([] if compact is None else [compact.decode("utf-8")]),
    ):
        assert json.loads(text) == value
        bound = yaml_size_bound(value, text.encode("utf-8"))
        assert bound is None or bound >= written, (text, dump_yaml(value))


@settings(max_examples=int(os.environ.get("ROLECAT_EXAMPLES", "300")), deadline=None)
@given(st.one_of(catalog_values, st.dictionaries(sized_text, sized_values, max_size=5)))
def test_the_json_size_bound_is_never_below_what_the_writer_writes(value: Any) -> None:
    """``rolecat check`` leaves a YAML source's JSON twin unwritten on this bound: exact but
    for floats, which ``repr`` may write longer than orjson."""
    compact = compact_json(value)
    if compact is None:  # an integer beyond 64 bits: the check writes the file instead
        assert any(isinstance(v, int) and abs(v) >= 2**63 for v in _scalars(value))
        return
    bound = json_size_bound(compact, shape(value))
    written = len(dump_json(value))
    assert bound >= written, (compact, dump_json(value))
    if not shape(value).floats:
        assert bound == written


def _scalars(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [s for item in value.values() for s in _scalars(item)]
    if isinstance(value, list):
        return [s for item in value for s in _scalars(item)]
    return [value]


@pytest.mark.parametrize(
    "value",
    [{"a": [1e15, 1e-7, -1.5e300, 0.1] * 50}, {"a": [[{}], [], {"b": [[[]]]}]}, [[1]], "text"],
    ids=["floats", "empty collections", "a list at the top", "a lone string"],
)
def test_the_json_size_bound_holds_where_the_writer_is_longest(value: Any) -> None:
    compact = compact_json(value)
    assert compact is not None
    assert json_size_bound(compact, shape(value)) >= len(dump_json(value))


@pytest.mark.parametrize(
    "value",
    [
        {"a": "'" * 500},  # single-quoted, each quote doubled
        {"a": [[{"b": "x\n" * 500}]]},  # a literal block, every line indented deep
        {"a": "\x7f" * 500},  # escaped as \x7F
        {"a": "\x80" * 500},  # C1, escaped as \x80
        {"a": "\ufeff" * 500},  # escaped as \uFEFF
        {"a": "\b\f" * 500},  # \x08 and \x0C where JSON writes \b and \f
        {"a": [1e15] * 100},  # 1000000000000000.0 where the shortest JSON is 1e15
        {"a": [[[{"b": {f"{n}": None for n in range(100)}}]]]},  # a line per entry, indented
    ],
    ids=["quotes", "lines", "del", "c1", "bom", "backspace", "floats", "entries"],
)
def test_the_yaml_size_bound_holds_where_yaml_is_longest(value: Any) -> None:
    bound = yaml_size_bound(value, shortest_json(value).encode("utf-8"))
    assert bound is not None and bound >= len(dump_yaml(value))


def test_the_yaml_size_bound_is_close_for_a_prompt() -> None:
    """Close enough that a catalog's files are never written only to be measured."""
    value = {"roles": [{"slug": "a", "instructions": "Line of a prompt.\n" * 1_000}]}
    bound = yaml_size_bound(value, dump_json(value))
    assert bound is not None
    assert len(dump_yaml(value)) <= bound <= 1.5 * len(dump_yaml(value))


def test_a_key_too_long_for_the_writer_has_no_bound() -> None:
    value = {"modelConfig": {"k" * 1001: "v"}}
    assert yaml_size_bound(value, dump_json(value)) is None
