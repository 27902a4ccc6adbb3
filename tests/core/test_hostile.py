"""No input crashes, hangs or exhausts memory: whatever a catalog holds, one line and exit 1.

Each hostile catalog runs through ``rolecat check`` as a process, as a user runs it, with a
timeout far above the second or two it takes: a hang fails the test instead of the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from build_tools.sources.json_reader import MAX_DEPTH, MAX_FILE_BYTES, SourceError, parse_json
from build_tools.sources.yaml_reader import parse_yaml
from tests.support.catalogs import Catalog

TOO_DEEP = f"nested more than {MAX_DEPTH} levels deep (a catalog needs 5 at most)"


def rolecat(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "build_tools", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        check=False,
    )


def only_problem(catalog: Catalog) -> str:
    """The one line ``rolecat check`` prints for a broken catalog (and no traceback)."""
    done = rolecat("check", "--catalog", str(catalog.root))
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    return lines[0]


# --- nesting: near the recursion limit, and far beyond it ---------------------------------------


def nest(kind: str, depth: int) -> bytes:
    """A file whose value nests ``depth`` deep, in one of the ways YAML or JSON can."""
    if kind == "json-array":
        return b'{"a": ' + b"[" * depth + b"]" * depth + b"}"
    if kind == "json-object":
        return b'{"a": ' + b'{"b": ' * depth + b"1" + b"}" * depth + b"}"
    if kind == "yaml-flow":
        return b"a: " + b"[" * depth + b"]" * depth
    if kind == "yaml-compact":  # - - - x: a block sequence in each, on one line
        return b"a:\n" + b"- " * depth + b"x"
    # yaml-indented: a mapping in each, one more space each line (quadratic: kept short)
    return b"a:\n" + b"".join(b" " * (i + 1) + b"k:\n" for i in range(min(depth, 1400)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["json-array", "json-object", "yaml-flow", "yaml-compact", "yaml-indented"]),
    st.integers(1, 70) | st.sampled_from([990, 1000, 1100, 5000, 30_000, 100_000]),
)
def test_nesting_at_any_depth_is_read_or_refused_in_one_line(kind: str, depth: int) -> None:
    raw = nest(kind, depth)
    parse = parse_json if kind.startswith("json") else parse_yaml
    try:
        document = parse("f", raw)
    except SourceError as error:
        assert [d.message for d in error.diagnostics] == [TOO_DEEP]
        assert depth >= MAX_DEPTH  # the file's own mapping is one level
    else:
        assert depth < MAX_DEPTH, kind
        assert document.data["a"] is not None


@pytest.mark.parametrize("depth", [MAX_DEPTH * 2, 995, 100_000])
@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_deep_bundle_file_is_one_line_naming_it(
    catalog: Catalog, depth: int, suffix: str
) -> None:
    path = catalog.path("bundles/beta/en.json")
    path.unlink()
    nested = "[" * depth + "]" * depth
    text = '{"schemaVersion": 1, "language": "en", "roles": ' + nested + "}"
    catalog.path(f"bundles/beta/en{suffix}").write_text(text, encoding="utf-8")
    line = only_problem(catalog)
    assert line.startswith(f"bundles/beta/en{suffix}:1:")
    assert line.endswith(TOO_DEEP)


# --- aliases: counted as the server's parser counts them, never expanded -------------------------


def aliases(uses: int, value: str = "1") -> bytes:
    return f"a: &x {value}\nb: [{', '.join(['*x'] * uses)}]".encode()


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        # `yaml` 2.x counts the anchor as its first use: 99 aliases of a scalar pass, 100 do not.
        (aliases(99), None),
        (aliases(100), "&x and its 100 aliases make 101 uses"),
        (aliases(49, "[1, 2]"), None),
        (aliases(100, "[1, 2]"), "&x and its 100 aliases make 101 uses"),
        # An anchor holding aliases counts them: 11 uses of &a0 inside &a1, 10 uses of &a1.
        (
            b"a0: &a0 [x]\na1: &a1 ["
            + b", ".join([b"*a0"] * 10)
            + b"]\nb: ["
            + b", ".join([b"*a1"] * 9)
            + b"]",
            "&a1 and its 9 aliases make 10 uses of 11 aliased values each",
        ),
        (
            b"a0: &a0 [x]\na1: &a1 ["
            + b", ".join([b"*a0"] * 10)
            + b"]\nb: ["
            + b", ".join([b"*a1"] * 8)
            + b"]",
            None,
        ),
        # Empty collections count nothing, however often they are aliased.
        (b"e: &e []\nb: [" + b", ".join([b"*e"] * 5000) + b"]", None),
    ],
)
def test_alias_uses_are_counted_as_the_server_counts_them(text: bytes, refused: str | None) -> None:
    if refused is None:
        parse_yaml("f.yaml", text)
        return
    with pytest.raises(SourceError) as caught:
        parse_yaml("f.yaml", text)
    [problem] = caught.value.diagnostics
    assert problem.message.startswith(f"too many aliases: {refused}; the server's YAML parser")


def test_the_billion_laughs_stop_at_the_first_alias_too_many() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 30)]
    with pytest.raises(SourceError) as caught:
        parse_yaml("f.yaml", "\n".join(lines).encode())
    assert "too many aliases" in str(caught.value)


def test_aliases_that_would_expand_past_the_cap_are_refused_unexpanded() -> None:
    # 99 aliases of a 500,000-character list pass the server's count; as JSON they are 50 MB.
    text = "a: &x [" + ", ".join(["abcdefgh"] * 50_000) + "]\nb: [" + ", ".join(["*x"] * 60) + "]"
    with pytest.raises(SourceError) as caught:
        parse_yaml("f.yaml", text.encode())
    [problem] = caught.value.diagnostics
    assert problem.message.startswith("with its aliases expanded, as JSON has none")
    assert f"more than {MAX_FILE_BYTES:,} bytes" in problem.message


def test_an_alias_is_the_same_value_again() -> None:
    document = parse_yaml("f.yaml", b"a: &x {k: [1, 2]}\nb: *x\nc: *x")
    assert document.data == {"a": {"k": [1, 2]}, "b": {"k": [1, 2]}, "c": {"k": [1, 2]}}


# --- numbers of any length ----------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_an_integer_thousands_of_digits_long(catalog: Catalog, suffix: str) -> None:
    catalog.index["bundles"][0]["roles"][0]["version"] = 1
    catalog.write()
    text = catalog.path("index.json").read_text(encoding="utf-8")
    catalog.path("index.json").unlink()
    digits = "9" * 50_000
    catalog.path(f"index{suffix}").write_text(
        text.replace('"version": 1', f'"version": {digits}', 1), encoding="utf-8"
    )
    line = only_problem(catalog)
    assert "9999999999999999…99999999 (50,000 characters) is too large:" in line
    assert line.endswith("turns it into Infinity")


# --- special files wherever the catalog is read ---------------------------------------------------

WHERE = {
    "index": "index.json",
    "bundle": "bundles/beta/en.json",
    "lock": "content-hashes.json",
}


def make_special(path: Path, kind: str) -> str:
    """Replace ``path`` by a special file; return what the message says it is."""
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
        return "cannot read: it is a FIFO (named pipe), not a regular file"
    if kind == "device":
        path.symlink_to("/dev/zero")
        return "cannot read: it is a character device, not a regular file"
    if kind == "directory":
        path.mkdir()
        return "cannot read: it is a directory, not a regular file"
    if kind == "loop":
        path.symlink_to(path.name)
        return "cannot read: it is a symbolic link loop"
    if kind == "dangling":
        path.symlink_to("nowhere.json")
        return "cannot read: it is a symbolic link to a file that does not exist"
    # huge: 3 GB that take no disk, refused by their size before a byte is read
    with path.open("wb") as sparse:
        sparse.truncate(3_000_000_000)
    return f"file is 3,000,000,000 bytes; {_CAP}"


_CAP = f"the server refuses files over {MAX_FILE_BYTES:,} bytes"
KINDS = ["fifo", "device", "directory", "loop", "dangling", "huge"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("where", ["index", "bundle"])
def test_a_special_catalog_file(catalog: Catalog, where: str, kind: str) -> None:
    relpath = WHERE[where]
    said = make_special(catalog.path(relpath), kind)
    assert only_problem(catalog) == f"{relpath}: {said}"


@pytest.mark.parametrize("kind", KINDS)
def test_a_special_lock(catalog: Catalog, kind: str) -> None:
    said = make_special(catalog.path(WHERE["lock"]), kind)
    if kind == "huge":
        said = "file is 3,000,000,000 bytes; a lock is read up to 8,000,000 bytes"
    assert only_problem(catalog) == f"content-hashes.json: {said}"


@pytest.mark.parametrize("kind", KINDS)
def test_a_special_instruction_file(catalog: Catalog, kind: str) -> None:
    role = catalog.files[("beta", "en")]["roles"][0]
    del role["instructions"]
    role["instructionsFile"] = "prompt.md"
    catalog.write()
    prompt = catalog.path("bundles/beta/prompt.md")
    prompt.write_text("Be precise.\n", encoding="utf-8")
    said = make_special(prompt, kind)
    line = only_problem(catalog)
    assert line.startswith("bundles/beta/en.json:")
    if kind == "huge":
        assert line.endswith(
            'role "three": instructions file "bundles/beta/prompt.md" is 3,000,000,000 bytes: '
            f"inlined, its bundle file would be over the {MAX_FILE_BYTES:,} bytes the server "
            "accepts"
        )
    elif kind == "device":  # /dev/zero is outside the catalog: that is said first
        assert line.endswith("resolves outside the catalog directory (a symlink?)")
    else:
        assert line.endswith(f'role "three": instructions file "bundles/beta/prompt.md": {said}')


def test_a_catalog_directory_that_is_a_symlink_loop(tmp_path: Path) -> None:
    loop = tmp_path / "catalog"
    loop.symlink_to(loop.name)
    done = rolecat("check", "--catalog", str(loop))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"rolecat: error: catalog directory not found: {loop}\n"


def test_an_unexpected_error_is_one_line(tmp_path: Path) -> None:
    """The last guard: a bug of rolecat's own is a line, with exit 70, not a traceback."""
    script = (
        "import build_tools.cli.main as cli\n"
        "def boom(*a, **k): raise KeyError('a bug')\n"
        "cli.check_catalog = boom\n"
        "cli.run()\n"
    )
    catalog = tmp_path / "catalog"
    catalog.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", script, "check", "--catalog", str(catalog)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 70
    assert done.stderr == "rolecat: internal error: KeyError: 'a bug'\n"


# --- any bytes at all ---------------------------------------------------------------------------

yamlish = st.lists(
    st.sampled_from(
        ["a", ": ", "- ", "[", "]", "{", "}", ", ", "&x ", "*x", "!!str ", "!t ", '"', "'", "\\",
         "\\uD83D", "\\uDEA8", "\\U0010FFFF", "\\UFFFFFFFF", "\n", "  ", "|\n", "#", "%", "---\n",
         "1e400", "0x", "9" * 30, "\t", "\x00", "\u2028", "é"]
    ),
    max_size=40,
).map("".join)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=200) | yamlish.map(str.encode) | st.text(max_size=80).map(str.encode))
def test_any_bytes_are_read_or_refused_with_diagnostics(raw: bytes) -> None:
    for parse in (parse_json, parse_yaml):
        try:
            parse("f", raw)
        except SourceError as error:
            assert error.diagnostics
            assert all("\n" not in str(d) for d in error.diagnostics)
