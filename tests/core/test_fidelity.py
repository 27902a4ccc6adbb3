"""Small fidelity faults, each a way the checked value could differ from what the server gets."""

from __future__ import annotations

import hashlib
import json
import math
import re
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from build_tools.sources.json_reader import SourceError, parse_json
from build_tools.sources.yaml_reader import TAGS, parse_yaml
from tests.support.catalogs import Catalog, use_file
from tests.support.diagnostics import value
from tests.support.paths import REPO

# --- numbers: refused wherever JSON.parse (or the YAML parser) would hold another value ----------

digits = st.text("0123456789", min_size=1, max_size=30)
number_literals = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.integers(2**53 - 3, 2**53 + 3).map(str),
    st.builds(lambda d, n: d * n, st.sampled_from(["9", "1", "7"]), st.integers(300, 6000)),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.builds(
        lambda sign, whole, frac, exp: f"{sign}{whole.lstrip('0') or '0'}{frac}e{exp}",
        st.sampled_from(["", "-"]),
        digits,
        st.one_of(st.just(""), digits.map(lambda d: "." + d)),
        st.integers(-420, 420),
    ),
    st.builds(lambda d: "0." + "0" * 330 + d, digits),
)


def javascript_reads(literal: str) -> float:
    """``JSON.parse``'s number: the nearest double, as Python's ``float`` rounds too."""
    return float(literal)


@settings(max_examples=500, deadline=None)
@given(number_literals, st.sampled_from(["json", "yaml"]))
def test_a_number_is_accepted_only_as_the_server_reads_it(literal: str, form: str) -> None:
    try:
        if form == "json":
            read = parse_json("f.json", f'{{"a": {literal}}}'.encode()).data["a"]
        else:
            read = parse_yaml("f.yaml", f"a: {literal}".encode()).data["a"]
    except SourceError as error:
        [problem] = error.diagnostics
        assert literal[:16] in problem.message
        accepted = False
    else:
        accepted = True
    server = javascript_reads(literal)
    exact = math.isfinite(server) and Decimal(literal) == Decimal(server)
    if accepted:
        assert read == server  # what was checked is what the server holds
        assert math.isfinite(server)
        assert (Decimal(literal) == 0) == (server == 0)  # nothing turns into 0
    if exact:
        assert accepted  # never stricter than need be: 2^53 and 2^60 are doubles exactly


@pytest.mark.parametrize(
    ("literal", "ok"),
    [
        ("9007199254740992", True),  # 2^53: a double exactly
        ("9007199254740993", False),  # 2^53 + 1: JSON.parse reads ...992
        ("9007199254740993.0", False),
        ("9.007199254740993e15", False),
        ("1e-400", False),  # JSON.parse reads 0
        ("0.1", True),  # not a double exactly, but what it prints back as
        ("1e400", False),
    ],
)
def test_versions_as_the_server_reads_them(catalog: Catalog, literal: str, ok: bool) -> None:
    catalog.write()
    path = catalog.path("index.json")
    path.write_text(
        path.read_text(encoding="utf-8").replace('"version": 2', f'"version": {literal}'),
        encoding="utf-8",
    )
    result = catalog.check("--fix")
    assert (result.code == 0) == ok, result.out
    if not ok:
        assert result.lines[0].startswith(value(catalog, "index.json", "version", literal))


# --- text --------------------------------------------------------------------------------------


def test_a_crlf_instruction_file_loses_its_final_line_break(catalog: Catalog) -> None:
    """Its text is the role's instructions less one final line break, "\\r\\n" as well as "\\n"."""
    text = catalog.files[("alpha", "en")]["roles"][0]["instructions"]
    use_file(catalog, "alpha", "en", 0, "one.md")
    catalog.write()
    catalog.path("bundles/alpha/one.md").write_bytes(text.replace("\n", "\r\n").encode() + b"\r\n")
    catalog.files[("alpha", "en")]["roles"][0].pop("instructionsFile")
    catalog.files[("alpha", "en")]["roles"][0]["instructions"] = text.replace("\n", "\r\n")
    inline = Catalog(catalog.root.parent / "inline", catalog.index, catalog.files).write()
    inline.record()
    catalog.path("content-hashes.json").write_bytes(inline.path("content-hashes.json").read_bytes())
    assert catalog.check().lines == ["OK"]  # the same hash as the text written inline


@pytest.mark.parametrize(
    ("invisible", "field"),
    [("\u200b", "name"), ("\u3164\u3164", "name"), ("\u200d\ufe0f", "emoji"), ("\u2800", "name")],
)
def test_a_text_of_invisible_characters_is_empty(
    catalog: Catalog, invisible: str, field: str
) -> None:
    for language in ("en", "ru"):
        catalog.files[("beta", language)]["roles"][0][field] = invisible
    catalog.write().record()
    result = catalog.check()
    assert result.code == 1
    shown = json.dumps(invisible, ensure_ascii=False)
    assert result.lines[0] == (
        f'{value(catalog, "bundles/beta/en.json", field, shown)}: role "three": "{field}" has '
        "no visible character, only spaces, marks or invisible ones such as U+200B; write text "
        "people can see"
    )


def test_a_bundle_name_of_invisible_characters(catalog: Catalog) -> None:
    catalog.index["bundles"][1]["name"]["ru"] = "\u200b\u200b"
    catalog.write()
    [line] = catalog.check().lines
    assert line.endswith(
        'bundle "beta": "name" in "ru" has no visible character, only spaces, '
        "marks or invisible ones such as U+200B; write text people can see"
    )


def test_instructions_and_a_file_together_is_said_once(catalog: Catalog) -> None:
    catalog.files[("beta", "en")]["roles"][0]["instructionsFile"] = "x.md"
    catalog.write()
    place = value(
        catalog,
        "bundles/beta/en.json",
        "instructions",
        json.dumps(catalog.files[("beta", "en")]["roles"][0]["instructions"]),
    )
    assert catalog.check().lines == [
        f'{place}: role "three": give either "instructions" or "instructionsFile", not both'
    ]


def test_a_path_with_a_nul_byte_is_named(catalog: Catalog) -> None:
    use_file(catalog, "beta", "en", 0, "a\u0000b.md")
    catalog.write()
    [line] = catalog.check().lines
    assert line.endswith(
        'role "three": "instructionsFile" "a\\x00b.md" contains a NUL byte; no path has one'
    )


def test_every_message_is_one_line(catalog: Catalog) -> None:
    catalog.path("bundles/beta/typo\nline.json").write_text("{}", encoding="utf-8")
    catalog.path("bundles/gam\nma").mkdir()
    catalog.path("bundles/gam\nma/en.json").write_text("{}", encoding="utf-8")
    result = catalog.check()
    assert result.code == 1
    assert result.lines == [
        'bundles/beta/typo\\nline.json: language "typo\\nline" is not declared for bundle "beta" '
        'in index.json; add it to its "languages" or remove the file',
        'bundles/gam\\nma/en.json: bundle "gam\\nma" is not declared in index.json; add it to '
        '"bundles" or remove the file',
    ]


def test_a_lock_hash_is_described_as_a_hash(catalog: Catalog) -> None:
    lock = json.loads(catalog.path("content-hashes.json").read_text(encoding="utf-8"))
    lock["one"]["hash"] = hashlib.sha256(b"x").hexdigest().upper()
    catalog.path("content-hashes.json").write_text(json.dumps(lock, indent=2), encoding="utf-8")
    [line] = catalog.check().lines
    assert line.endswith(
        "; it must match ^[0-9a-f]{64}$ (64 lowercase hexadecimal digits, a SHA-256)"
    )


# --- the manual says what is read --------------------------------------------------------------

FORMAT_PAGE = REPO / "manual" / "docs" / "catalog-format.md"


def test_the_manual_lists_exactly_the_accepted_tags() -> None:
    page = " ".join(FORMAT_PAGE.read_text(encoding="utf-8").split())
    found = re.search(r"The tags a YAML file may carry are (.*?), each only", page)
    assert found, f"{FORMAT_PAGE.relative_to(REPO)} names the accepted YAML tags"
    assert sorted(re.findall(r"`(![^`]*)`", found.group(1))) == sorted(TAGS)
    examples = {
        "!!seq": "[1]",
        "!!map": "{b: 1}",
        "!!bool": "true",
        "!!null": "~",
        "!!float": "1.5",
    }
    for tag in TAGS:  # and each of them is read
        parse_yaml("f.yaml", f"a: {tag} {examples.get(tag, '1')}".encode())
