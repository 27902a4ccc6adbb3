"""A role as each tool's file, read back as the tool reads it, and ``rolecat export`` writing
those files where each tool looks, never over a hand edit."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from build_tools.check import check_catalog
from build_tools.exports import DIRECTORIES, TOOLS, Tool, claude_model, exports
from build_tools.exports.links import MAX_URL, chat_url, vscode_install
from build_tools.exports.writer import MANIFEST
from build_tools.model.catalog import Role
from build_tools.rules.server_contract import Stored
from build_tools.sources.formats import double_quoted as quoted
from tests.support.catalogs import Catalog
from tests.support.cli import run
from tests.support.export_files import front_matter, read_as_tool, split
from tests.support.paths import OUR_CATALOG
from tests.support.site_builds import PAYLOAD, PAYLOAD_INSTRUCTIONS, PAYLOADS

YAML_HOSTILE = [
    "key: value",
    "a #comment",
    "#starts",
    "---",
    "...",
    "line one\nline two",
    "windows\r\nline",
    "\ttab",
    "*alias",
    "&anchor",
    "!tag",
    "!!python/object:os.system",
    "no",
    "yes",
    "off",
    "~",
    "null",
    "1e3",
    "0x10",
    "2001-12-14",
    "'single'",
    '"double"',
    "back\\slash \\n",
    "% directive",
    "@at",
    "`tick",
    "| literal",
    "> folded",
    "{flow: map}",
    "[flow, seq]",
    "? key",
    "- item",
    "trailing space ",
    "Ж 字 🧭 é",
    "nel\x85 ls\u2028 ps\u2029",
    "bom\ufeff inside",
    "del\x7f c1\x9b",
    "bell\x07 esc\x1b",
]


def a_role(slug: str = "reviewer", **fields: Any) -> Role:
    values = {"slug": slug, "name": "Reviewer", "instructions": "Review.", **fields}
    return Role(slug, "en", 0, values)


def test_every_role_of_our_catalog_in_every_format() -> None:
    catalog = check_catalog(OUR_CATALOG).catalog
    assert catalog is not None
    count = 0
    for bundle in catalog.bundles:
        for _language, file in bundle.files.items():
            for _pointer, slug, _version in bundle.roles:
                role = file.role(slug)
                assert role is not None
                for export in exports(role):
                    fields, body = read_as_tool(export)
                    assert body == role.fields["instructions"].encode("utf-8")
                    assert fields["description"] == role.fields["description"]
                    assert export.name.startswith(slug + ".")
                    count += 1
    assert count == 6 * 2 * 3


def test_each_tool_gets_the_name_and_place_it_looks_for() -> None:
    role = a_role("code-reviewer", description="Reviews code.")
    claude, copilot, cursor = exports(role)
    assert (claude.path, copilot.path, cursor.path) == (
        ".claude/agents/code-reviewer.md",
        ".github/agents/code-reviewer.agent.md",
        ".cursor/rules/code-reviewer.mdc",
    )
    assert claude.encoded() == (
        b'---\nname: "code-reviewer"\ndescription: "Reviews code."\n---\nReview.'
    )
    assert copilot.encoded() == (
        b'---\nname: "Reviewer"\ndescription: "Reviews code."\n---\nReview.'
    )
    assert (
        cursor.encoded() == b'---\ndescription: "Reviews code."\nalwaysApply: false\n---\nReview.'
    )


def test_a_role_without_a_description_is_described_by_its_name() -> None:
    for description in (None, "", "   "):
        fields = {"description": description} if description is not None else {}
        for export in exports(a_role(**fields)):
            assert read_as_tool(export)[0]["description"] == "Reviewer"


@pytest.mark.parametrize("text", [*YAML_HOSTILE, *PAYLOADS, PAYLOAD])
def test_hostile_texts_round_trip_through_the_front_matter(text: str) -> None:
    # As the server stores them: a description or name that is blank when trimmed is none.
    role = a_role(name=f"x {text}", description=f"{text} x", instructions=text)
    stored = Stored.of(role.fields)
    for export in exports(role):
        fields, body = read_as_tool(export)
        assert fields["description"] == stored.description
        assert body == text.encode("utf-8")
        if export.tool == "copilot":
            assert fields["name"] == stored.name
    # And the bare scalar, untrimmed.
    assert front_matter(f"---\nk: {quoted(text)}\n---\n".encode())["k"] == text


@given(st.text(st.characters(exclude_categories=("Cs",))))
def test_any_text_round_trips_in_yaml_1_1_and_1_2(text: str) -> None:
    scalar = quoted(text)
    assert "\n" not in scalar and "\r" not in scalar
    assert front_matter(f"---\nk: {scalar}\n---\n".encode())["k"] == text


@given(st.text(st.characters(exclude_categories=("Cs",))))
def test_the_body_is_the_instructions_whatever_they_hold(text: str) -> None:
    for export in exports(a_role(instructions=text)):
        _fields, body = read_as_tool(export)
        assert body == text.encode("utf-8")


def test_instructions_that_look_like_front_matter_stay_the_body() -> None:
    sneaky = '---\nname: "evil"\nmodel: "opus"\n---\n\n---\nbody'
    claude = exports(a_role(instructions=sneaky))[0]
    fields, body = read_as_tool(claude)
    assert fields == {"name": "reviewer", "description": "Reviewer"}
    assert body == sneaky.encode()


def test_no_byte_order_mark_hides_the_opening_line() -> None:
    role = a_role(instructions="\ufeffStarts with a mark.\r\n")
    for export in exports(role):
        assert export.encoded().startswith(b"---\n")
        assert split(export.encoded())[1] == "\ufeffStarts with a mark.\r\n".encode()


@pytest.mark.parametrize(
    ("chat_model", "expected"),
    [
        ("sonnet", "sonnet"),
        ("opus", "opus"),
        ("haiku", "haiku"),
        ("claude-sonnet-4-5", "claude-sonnet-4-5"),
        ("claude-3-5-haiku-20241022", "claude-3-5-haiku-20241022"),
        ("claude-opus-4.1", "claude-opus-4.1"),
        ("pro", None),
        ("best", None),
        ("flash", None),
        ("lite", None),
        ("max", None),
        ("inherit", None),
        ("Opus", None),
        ("gpt-4o-mini", None),
        ("anthropic/claude-sonnet-4", None),
        ("claude-", None),
        ("claude-Sonnet", None),
        ("sonnet ", None),
    ],
)
def test_claude_code_gets_a_model_only_where_one_clearly_maps(
    chat_model: str, expected: str | None
) -> None:
    config = {"driver": "openai", "chatModel": chat_model}
    assert claude_model(config) == expected
    fields, _ = read_as_tool(exports(a_role(modelConfig=config))[0])
    assert fields.get("model") == expected
    # Copilot names models as its picker shows them: none is written.
    assert "model" not in read_as_tool(exports(a_role(modelConfig=config))[1])[0]


def test_no_model_config_no_model() -> None:
    for config in (None, {}, {"driver": "anthropic"}):
        assert claude_model(config) is None
        assert "model" not in read_as_tool(exports(a_role(modelConfig=config))[0])[0]


def test_open_in_links_carry_the_instructions_exactly() -> None:
    text = PAYLOAD_INSTRUCTIONS + "Ж & ? # % +"
    for chat, base in (("chatgpt", "https://chatgpt.com/"), ("claude", "https://claude.ai/new")):
        url = chat_url(chat, text)  # type: ignore[arg-type]
        assert url is not None and url.startswith(base + "?q=")
        parts = urlsplit(url)
        assert parse_qs(parts.query, keep_blank_values=True) == {"q": [text]}
        assert " " not in url and "<" not in url and '"' not in url


def test_an_open_in_link_is_left_out_past_the_limit() -> None:
    base = len("https://claude.ai/new?q=")
    assert len(chat_url("claude", "a" * (MAX_URL - base)) or "") == MAX_URL
    assert chat_url("claude", "a" * (MAX_URL - base + 1)) is None
    # Encoded length counts: six characters for each Cyrillic letter.
    fits = (MAX_URL - base) // 6
    assert chat_url("claude", "Ж" * fits) is not None
    assert chat_url("claude", "Ж" * (fits + 1)) is None
    assert chat_url("chatgpt", "") == "https://chatgpt.com/?q="


def test_the_vscode_install_link_names_the_agent_file() -> None:
    agent = "https://example.org/team roles/en/writing/translator.agent.md"
    link = vscode_install(agent)
    outer = parse_qs(urlsplit(link).query)["url"]
    assert link.startswith("https://vscode.dev/redirect?url=vscode%3Achat-agent%2Finstall%3Furl%3D")
    assert outer[0].startswith("vscode:chat-agent/install?url=https%3A%2F%2Fexample.org%2F")
    inner = parse_qs(urlsplit(outer[0]).query)["url"]
    assert inner == [agent]


# rolecat export


def export(catalog: Catalog, target: Path, *args: str) -> Any:
    return run("export", "--catalog", str(catalog.root), *args, str(target))


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("tool", TOOLS)
def test_export_writes_where_each_tool_looks(catalog: Catalog, tmp_path: Path, tool: Tool) -> None:
    project = tmp_path / "project"
    project.mkdir()
    result = export(catalog, project, "--to", tool)
    assert result.code == 0, result.err
    suffix = {"claude-code": ".md", "copilot": ".agent.md", "cursor": ".mdc"}[tool]
    written = [f"{DIRECTORIES[tool]}/{slug}{suffix}" for slug in ("one", "two", "three")]
    assert result.lines == [
        *(f"{path}: created" for path in written),
        f"3 roles in en exported for {tool} into {project} (recorded in {MANIFEST})",
    ]
    files = tree(project)
    assert sorted(files) == sorted([*written, MANIFEST])
    checked = check_catalog(catalog.root).catalog
    assert checked is not None
    for path in written:
        slug = path.rsplit("/", 1)[1].split(".")[0]
        bundle = "beta" if slug == "three" else "alpha"
        role = checked.bundles[0 if bundle == "alpha" else 1].files["en"].role(slug)
        assert role is not None
        [made] = [e for e in exports(role) if e.tool == tool]
        assert files[path] == made.encoded()
        _fields, body = read_as_tool(made)
        assert body == role.fields["instructions"].encode()
    manifest = json.loads(files[MANIFEST])
    assert set(manifest["files"]) == set(written)
    # Again: nothing to write.
    again = export(catalog, project, "--to", tool)
    assert again.code == 0
    assert again.lines[:3] == [f"{path}: unchanged" for path in written]
    assert tree(project) == files


def test_export_updates_its_own_files_and_refuses_hand_edits(
    catalog: Catalog, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert export(catalog, project, "--to", "claude-code").code == 0
    # The catalog changes: rolecat export's own files are brought up to date.
    catalog.files[("alpha", "en")]["roles"][0]["instructions"] = "You are one, revised."
    catalog.index["bundles"][0]["roles"][0]["version"] = 2
    catalog.write().lock()
    updated = export(catalog, project, "--to", "claude-code")
    assert updated.code == 0, updated.err
    assert ".claude/agents/one.md: updated" in updated.lines
    assert (project / ".claude/agents/one.md").read_bytes().endswith(b"You are one, revised.")
    # A hand edit, then another catalog change: all refused, nothing written.
    hand = project / ".claude/agents/two.md"
    hand.write_bytes(hand.read_bytes() + b"\nMy own line.\n")
    catalog.files[("alpha", "en")]["roles"][0]["instructions"] = "You are one, again."
    catalog.index["bundles"][0]["roles"][0]["version"] = 3
    catalog.write().lock()
    before = tree(project)
    refused = export(catalog, project, "--to", "claude-code")
    assert refused.code == 1
    assert refused.lines == [".claude/agents/two.md: changed by hand since rolecat export wrote it"]
    assert refused.err == (
        "rolecat: 1 file refused; nothing was written (--force overwrites files changed by hand)\n"
    )
    assert tree(project) == before
    forced = export(catalog, project, "--to", "claude-code", "--force")
    assert forced.code == 0
    assert ".claude/agents/two.md: overwritten" in forced.lines
    assert ".claude/agents/one.md: updated" in forced.lines
    assert b"My own line." not in hand.read_bytes()
    # Recorded now: the next run leaves it be.
    assert (
        ".claude/agents/two.md: unchanged" in export(catalog, project, "--to", "claude-code").lines
    )


def test_export_refuses_a_file_it_did_not_write(catalog: Catalog, tmp_path: Path) -> None:
    project = tmp_path / "project"
    theirs = project / ".github/agents/one.agent.md"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("---\ndescription: mine\n---\nMine.\n", encoding="utf-8")
    result = export(catalog, project, "--to", "copilot")
    assert result.code == 1
    assert result.lines == [
        f".github/agents/one.agent.md: exists, and rolecat export did not write it (no record "
        f"in {MANIFEST})"
    ]
    assert tree(project) == {".github/agents/one.agent.md": theirs.read_bytes()}
    # A file that already holds exactly what the export writes is taken as written.
    assert export(catalog, project, "--to", "copilot", "--force").code == 0
    manifest = project / MANIFEST
    manifest.unlink()
    again = export(catalog, project, "--to", "copilot")
    assert again.code == 0 and ".github/agents/one.agent.md: unchanged" in again.lines
    assert manifest.is_file()


def test_export_never_writes_through_a_symbolic_link(catalog: Catalog, tmp_path: Path) -> None:
    project = tmp_path / "project"
    elsewhere = tmp_path / "elsewhere.md"
    elsewhere.write_text("outside the project\n", encoding="utf-8")
    link = project / ".cursor/rules/one.mdc"
    link.parent.mkdir(parents=True)
    os.symlink(elsewhere, link)
    result = export(catalog, project, "--to", "cursor", "--force")
    assert result.code == 1
    assert result.lines == [
        ".cursor/rules/one.mdc: is a symbolic link; rolecat export writes only regular files"
    ]
    assert elsewhere.read_text(encoding="utf-8") == "outside the project\n"


def test_export_one_bundle_in_one_language(catalog: Catalog, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    result = export(catalog, project, "--to", "cursor", "--language", "ru", "--bundle", "beta")
    assert result.code == 0, result.err
    assert result.lines == [
        ".cursor/rules/three.mdc: created",
        f"1 role in ru exported for cursor into {project} (recorded in {MANIFEST})",
    ]
    data = (project / ".cursor/rules/three.mdc").read_bytes()
    assert front_matter(data) == {"description": "What three does, in ru.", "alwaysApply": False}
    assert split(data)[1] == b"You are three. Answer in ru.\n\nBe precise."


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--language", "de"], 'the catalog has no language "de" (it has en, ru)'),
        (["--bundle", "gamma"], 'the catalog has no bundle "gamma" (it has alpha, beta)'),
    ],
)
def test_export_refuses_what_the_catalog_does_not_have(
    catalog: Catalog, tmp_path: Path, args: list[str], message: str
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    result = export(catalog, project, "--to", "copilot", *args)
    assert (result.code, result.out) == (1, "")
    assert result.err == f"rolecat: {message}; nothing was written\n"
    assert tree(project) == {}


def test_export_refuses_a_catalog_that_fails_its_check(catalog: Catalog, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    catalog.files[("alpha", "ru")]["roles"][0]["emoji"] = "🔥"  # not the same in every language
    catalog.write().record()
    checked = run("check", "--catalog", str(catalog.root), "--docs", str(tmp_path / "no-docs"))
    assert checked.code == 1
    result = export(catalog, project, "--to", "claude-code")
    assert result.code == 1
    assert result.lines == checked.lines  # one line per problem, as `rolecat check` prints them
    assert len(result.lines) == 1
    assert result.err == "rolecat: 1 problem (see `rolecat check`); nothing was exported\n"
    assert tree(project) == {}


def test_export_needs_a_directory_to_write_into(catalog: Catalog, tmp_path: Path) -> None:
    result = export(catalog, tmp_path / "missing", "--to", "claude-code")
    assert (result.code, result.out) == (2, "")
    assert result.err == f"rolecat: error: not a directory: {tmp_path / 'missing'}\n"
    assert run("export", "--catalog", str(catalog.root), str(tmp_path)).code == 2  # no --to
    assert not (tmp_path / "missing").exists()


def test_exported_files_match_in_every_tool(catalog: Catalog, tmp_path: Path) -> None:
    """Three tools in one project: each its own directory, one manifest for all."""
    project = tmp_path / "project"
    project.mkdir()
    for tool in TOOLS:
        assert export(catalog, project, "--to", tool).code == 0
    manifest = json.loads((project / MANIFEST).read_bytes())["files"]
    assert len(manifest) == 9
    assert sorted(manifest) == sorted(p for p in tree(project) if p != MANIFEST)
