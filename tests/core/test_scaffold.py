"""``rolecat new role``, ``new bundle``, ``add-language``: each file kept in step and as written.

Every scaffold is followed the way an author follows it: ``rolecat check`` fails on the
placeholders only, the author writes them, ``rolecat check --fix`` records the lock and
``rolecat check`` prints ``OK``, in JSON and in YAML catalogs, written by hand.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from build_tools.cli.convert import convert_catalog
from build_tools.rules.across_files import PLACEHOLDER
from build_tools.sources.formats import dump, format_of, parse
from tests.support.catalogs import Catalog
from tests.support.cli import Run, run

SOURCES = ("*.json", "*.yaml", "*.yml")


def sources(root: Path) -> dict[str, str]:
    """Every index and bundle file's text (not the lock), by catalog-relative path."""
    found = {}
    for pattern in SOURCES:
        for path in root.rglob(pattern):
            if path.name != "content-hashes.json":
                found[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
    return found


def tabs_and_inline_arrays(root: Path) -> None:
    """JSON as some people write it: tab indents, short arrays on one line."""
    for relpath in sources(root):
        path = root / relpath
        text = json.dumps(json.loads(path.read_text()), ensure_ascii=False, indent="\t")
        text = re.sub(r'\[\n\t+("[a-z-]+"),\n\t+("[a-z-]+")\n\t+\]', r"[\1, \2]", text)
        path.write_text(text + "\n")


def commented_yaml(root: Path) -> None:
    """YAML as people write it: comments everywhere, an inline list, sequences indented in the
    bundle files (``rolecat convert`` writes them flush with their key)."""
    assert convert_catalog(root, "yaml").diagnostics == []
    index = root / "index.yaml"
    text = index.read_text()
    text = "# The team's roles.\n" + text.replace("bundles:\n", "bundles:   # two for now\n", 1)
    text = text.replace("  languages:\n  - en\n  - ru\n", "  languages: [en, ru]  # both\n", 1)
    text = text.replace("  - slug: two\n", "  # the second role\n  - slug: two\n")
    index.write_text(text)
    for path in (root / "bundles").rglob("*.yaml"):
        lines = path.read_text().splitlines(keepends=True)
        text = "".join("  " + line if line.startswith(("- ", "  ")) else line for line in lines)
        path.write_text(text.replace("roles:\n", "roles:  # in the index's order\n"))


STYLES: dict[str, Callable[[Path], None]] = {
    "json": lambda root: None,
    "json-tabs": tabs_and_inline_arrays,
    "yaml-commented": commented_yaml,
}


@pytest.fixture(params=list(STYLES))
def authored(request: pytest.FixtureRequest, catalog: Catalog) -> Path:
    """The catalog fixture written in one style by hand, passing ``rolecat check``."""
    STYLES[request.param](catalog.root)
    assert run("check", "--catalog", str(catalog.root)).out == "OK\n"
    return catalog.root


def rules(result: Run) -> set[str]:
    return {problem["rule"] for problem in json.loads(result.out)["problems"]}


def check(root: Path, *extra: str) -> Run:
    return run("check", "--catalog", str(root), "--format", "json", *extra)


def fill_in(root: Path) -> None:
    """What the author does: every placeholder replaced by real text, in each file's format."""
    for relpath, text in sources(root).items():
        if PLACEHOLDER in text:
            data = written(parse(relpath, text.encode()), relpath)
            (root / relpath).write_bytes(dump(data, format_of(relpath)))


def written_then_recorded(root: Path) -> None:
    """The author writes every placeholder: only the lock lacks the new role, and once ``--fix``
    records it the check passes."""
    fill_in(root)
    assert rules(check(root)) == {"lock-missing-role"}
    assert check(root, "--fix").code == 0
    assert run("check", "--catalog", str(root)).out == "OK\n"


def written(value: Any, relpath: str, key: str = "", where: str = "") -> Any:
    """Each text its own (role names are unique per language, as the server wants them)."""
    if isinstance(value, dict):
        return {k: written(v, relpath, k, where) for k, v in value.items()}
    if isinstance(value, list):
        return [written(v, relpath, key, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, str) and PLACEHOLDER in value:
        return "🛠" if key == "emoji" else f"Written by hand ({key}{where}, {relpath})."
    return value


def only_added(before: str, after: str) -> None:
    """``after`` is ``before`` with lines added; a line may only gain characters (a comma, an
    item of an inline list) or have a number changed (a version bump)."""
    old, new = before.splitlines(), after.splitlines()
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("equal", "insert"):
            continue
        candidates = iter(new[j1:j2])  # each old line, in order, is one of the new lines
        for was in old[i1:i2]:
            assert any(grown(was, now) for now in candidates), (was, new[j1:j2])


def grown(was: str, now: str) -> bool:
    if re.sub(r"\d+", "N", was) == re.sub(r"\d+", "N", now):
        return True
    steps = difflib.SequenceMatcher(None, was, now, autojunk=False).get_opcodes()
    return all(op in ("equal", "insert") for op, *_ in steps)


def edited(root: Path, before: dict[str, str]) -> dict[str, str]:
    after = sources(root)
    for relpath, text in before.items():
        only_added(text, after[relpath])
    return {p: t for p, t in after.items() if before.get(p) != t}


# --- the three scaffolds, each followed to OK


def test_new_role_then_fill_in_then_fix_is_ok(authored: Path) -> None:
    before = sources(authored)
    result = run("new", "role", "reviewer", "--bundle", "alpha", "--catalog", str(authored))
    assert result.code == 0, result.out + result.err
    index, en, ru = (p for p in sorted(edited(authored, before), key=lambda p: (p[0] != "i", p)))
    assert result.lines == [
        f'{index}: role "reviewer" added to bundle "alpha" at version 1',
        f'{en}: a skeleton of role "reviewer" added',
        f'{ru}: a skeleton of role "reviewer" added',
        "next: write every placeholder (`rolecat check` lists each one), then "
        "`rolecat check --fix`",
    ]
    index_data = parse(index, (authored / index).read_bytes())
    assert index_data["bundles"][0]["roles"][-1] == {"slug": "reviewer", "version": 1}
    for relpath, language in ((en, "en"), (ru, "ru")):
        role = parse(relpath, (authored / relpath).read_bytes())["roles"][-1]
        assert role["slug"] == "reviewer" and role["autoStart"] is False
        assert role["name"] == f"{PLACEHOLDER} write the role's name in {language}"

    failing = check(authored)
    assert failing.code == 1 and rules(failing) == {"placeholder"}
    assert len(json.loads(failing.out)["problems"]) == 8  # emoji, name, description, instructions

    written_then_recorded(authored)


def test_new_bundle_then_a_role_in_it_then_fill_in_then_fix_is_ok(authored: Path) -> None:
    before = sources(authored)
    result = run("new", "bundle", "gamma", "--languages", "en,ru,de", "--catalog", str(authored))
    assert result.code == 0, result.out + result.err
    changed = edited(authored, before)
    extension = ".yaml" if "yaml" in next(iter(changed)) else ".json"
    assert sorted(changed) == sorted(
        [f"index{extension}"] + [f"bundles/gamma/{lang}{extension}" for lang in ("de", "en", "ru")]
    )
    assert result.lines[-1] == (
        "next: write the placeholders, then add roles with `rolecat new role SLUG --bundle gamma`"
    )
    assert rules(check(authored)) == {"placeholder"}

    # A second scaffold before anything is filled in: placeholders do not block it.
    added = run("new", "role", "three-b", "--bundle", "gamma", "--catalog", str(authored))
    assert added.code == 0, added.out + added.err
    assert rules(check(authored)) == {"placeholder"}
    written_then_recorded(authored)


def test_add_language_then_translate_then_fix_is_ok(authored: Path) -> None:
    before = sources(authored)
    result = run("add-language", "de", "--bundle", "alpha", "--catalog", str(authored))
    assert result.code == 0, result.out + result.err
    changed = edited(authored, before)
    index = next(p for p in changed if p.startswith("index"))
    created = next(p for p in changed if p.startswith("bundles/alpha/de"))
    assert result.lines == [
        f'{index}: language "de" added to bundle "alpha"; versions bumped: one 1 -> 2, two 1 -> 2',
        f"{created}: created, a translation stub of every role (from "
        f"{created.replace('/de.', '/en.')})",
        "next: write every placeholder (`rolecat check` lists each one), then "
        "`rolecat check --fix`",
    ]
    alpha = parse(index, (authored / index).read_bytes())["bundles"][0]
    assert alpha["languages"] == ["en", "ru", "de"]
    assert alpha["name"]["de"] == f"{PLACEHOLDER} translate into de: Alpha"
    assert [r["version"] for r in alpha["roles"]] == [2, 2]
    stub = parse(created, (authored / created).read_bytes())
    assert stub["language"] == "de"
    first = stub["roles"][0]
    assert (first["slug"], first["emoji"], first["autoStart"]) == ("one", "🧭", False)
    assert first["instructions"] == (
        f"{PLACEHOLDER} translate into de: You are one. Answer in en.\n\nBe precise."
    )

    failing = check(authored)
    assert rules(failing) == {"placeholder"}
    messages = [p["message"] for p in json.loads(failing.out)["problems"]]
    assert 'bundle "alpha": "name.de" is still a placeholder: translate into de: Alpha' in messages
    assert (
        'role "one": "instructions" is still a placeholder: translate into de: You are one. '
        "Answer in en." in messages
    )

    fill_in(authored)
    assert rules(check(authored)) == {"lock-not-recorded"}
    fixed = check(authored, "--fix")
    assert fixed.code == 0 and fixed.err == (
        "updated one: version 1 -> 2\nupdated two: version 1 -> 2\nlock updated\n"
    )
    assert run("check", "--catalog", str(authored)).out == "OK\n"


# --- the files as people wrote them


def test_yaml_comments_and_layout_are_kept(catalog: Catalog) -> None:
    commented_yaml(catalog.root)
    before = sources(catalog.root)
    for argv in (
        ["new", "role", "reviewer", "--bundle", "alpha"],
        ["add-language", "de", "--bundle", "alpha"],
        ["new", "bundle", "gamma", "--languages", "en"],
    ):
        assert run(*argv, "--catalog", str(catalog.root)).code == 0
    after = sources(catalog.root)
    for relpath, text in before.items():
        only_added(text, after[relpath])
        comments = [line[line.index("#") :] for line in text.splitlines() if "#" in line]
        assert all(after[relpath].count(c) == text.count(c) for c in comments)
    index = after["index.yaml"]
    assert index.startswith("# The team's roles.\nschemaVersion: 1\nbundles:   # two for now\n")
    assert "  languages: [en, ru, de]  # both\n" in index
    assert "  # the second role\n  - slug: two\n    version: 2\n" in index
    assert (
        "  - slug: reviewer\n    emoji: 'TODO(rolecat): choose one emoji"
        in after["bundles/alpha/en.yaml"]
    )  # at the column of the hand-written items beside it


def test_json_indentation_is_kept(catalog: Catalog) -> None:
    tabs_and_inline_arrays(catalog.root)
    before = sources(catalog.root)
    assert (
        run("new", "role", "reviewer", "--bundle", "beta", "--catalog", str(catalog.root)).code == 0
    )
    assert run("add-language", "de", "--bundle", "beta", "--catalog", str(catalog.root)).code == 0
    after = sources(catalog.root)
    for relpath, text in before.items():
        only_added(text, after[relpath])
    assert '\t\t\t"languages": ["en", "ru", "de"],\n' in after["index.json"]
    assert (
        '\t\t\t\t},\n\t\t\t\t{\n\t\t\t\t\t"slug": "reviewer",\n\t\t\t\t\t"version": 2\n\t\t\t\t}\n'
        in after["index.json"]
    )
    assert after["bundles/beta/en.json"].endswith(
        '\t\t{\n\t\t\t"slug": "reviewer",\n'
        '\t\t\t"emoji": "TODO(rolecat): choose one emoji for the role, the same in every '
        'language",\n'
        '\t\t\t"name": "TODO(rolecat): write the role\'s name in en",\n'
        '\t\t\t"description": "TODO(rolecat): write one or two sentences on what the role does, '
        'in en",\n'
        '\t\t\t"instructions": "TODO(rolecat): write the role\'s instructions (its system '
        'prompt) in en",\n'
        '\t\t\t"autoStart": false,\n\t\t\t"launchMessage": null\n\t\t}\n\t]\n}\n'
    )


@pytest.mark.parametrize("format", ["json", "yaml"])
def test_windows_line_endings_are_kept(catalog: Catalog, format: str) -> None:
    if format == "yaml":
        assert convert_catalog(catalog.root, "yaml").diagnostics == []
    for relpath, text in sources(catalog.root).items():
        (catalog.root / relpath).write_bytes(text.replace("\n", "\r\n").encode())
    assert (
        run("new", "role", "reviewer", "--bundle", "beta", "--catalog", str(catalog.root)).code == 0
    )
    assert run("add-language", "de", "--bundle", "beta", "--catalog", str(catalog.root)).code == 0
    for relpath in ("index", "bundles/beta/en"):
        raw = (catalog.root / f"{relpath}.{format}").read_bytes()
        assert raw.count(b"\n") == raw.count(b"\r\n") > 0, relpath


def test_a_json_file_on_one_line_stays_on_one_line(catalog: Catalog) -> None:
    for relpath in sources(catalog.root):
        path = catalog.root / relpath
        path.write_text(json.dumps(json.loads(path.read_text()), ensure_ascii=False))
    assert (
        run("new", "role", "reviewer", "--bundle", "beta", "--catalog", str(catalog.root)).code == 0
    )
    assert (
        run("new", "bundle", "gamma", "--languages", "en", "--catalog", str(catalog.root)).code == 0
    )
    assert run("new", "role", "g", "--bundle", "gamma", "--catalog", str(catalog.root)).code == 0
    index = (catalog.root / "index.json").read_text()
    assert "\n" not in index
    assert '{"slug": "three", "version": 2}, {"slug": "reviewer", "version": 1}]' in index
    assert '"roles": [{"slug": "g", "version": 1}]}]}' in index
    fill_in(catalog.root)
    assert check(catalog.root, "--fix").code == 0
    assert run("check", "--catalog", str(catalog.root)).out == "OK\n"


def test_new_files_follow_the_format_of_the_bundle_files(catalog: Catalog) -> None:
    """A catalog whose index is JSON and its bundles YAML: new bundle files are YAML."""
    assert convert_catalog(catalog.root, "yaml").diagnostics == []
    index = catalog.root / "index.yaml"
    (catalog.root / "index.json").write_bytes(dump(parse("index.yaml", index.read_bytes()), "json"))
    index.unlink()
    result = run("new", "bundle", "gamma", "--languages", "en", "--catalog", str(catalog.root))
    assert result.code == 0, result.err
    assert (catalog.root / "bundles/gamma/en.yaml").read_text() == (
        "schemaVersion: 1\nlanguage: en\nroles: []\n"
    )


# --- refusals: nothing is written


def refused(root: Path, *argv: str) -> Run:
    before = sources(root)
    result = run(*argv, "--catalog", str(root))
    assert result.code == 1, result.out + result.err
    assert result.err.endswith("; nothing was changed\n")
    assert sources(root) == before
    return result


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["new", "role", "two", "--bundle", "beta"], 'role "two" is already in bundle "alpha"'),
        (["new", "role", "x", "--bundle", "nope"], 'no bundle "nope" in index.json (bundles: '),
        (["new", "role", "Bad_Slug", "--bundle", "beta"], "slug 'Bad_Slug' must match"),
        (["new", "bundle", "alpha", "--languages", "en"], 'bundle "alpha" already exists'),
        (["new", "bundle", "assets", "--languages", "en"], 'bundle id "assets" is reserved'),
        (
            ["new", "bundle", "gamma", "--languages", "en,pagefind"],
            'language "pagefind" is reserved',
        ),
        (["add-language", "ru", "--bundle", "beta"], 'bundle "beta" already has language "ru"'),
        (["add-language", "EN", "--bundle", "beta"], "language 'EN' must match"),
    ],
)
def test_refusals(catalog: Catalog, argv: list[str], message: str) -> None:
    assert message in refused(catalog.root, *argv).err


def test_a_file_left_over_is_not_overwritten(catalog: Catalog) -> None:
    (catalog.root / "bundles/beta/de.yaml").write_text("kept: true\n")
    assert (
        "bundles/beta/de.yaml exists already"
        in refused(catalog.root, "add-language", "de", "--bundle", "beta").err
    )


def test_a_broken_file_to_edit_is_reported_first(catalog: Catalog) -> None:
    catalog.path("bundles/beta/ru.json").write_text('{"schemaVersion": 1,')
    result = refused(catalog.root, "new", "role", "x", "--bundle", "beta")
    assert result.lines == [
        "bundles/beta/ru.json:1:21: invalid JSON: Expecting property name enclosed in double quotes"
    ]
    # Another bundle's files are not in the way.
    assert run("new", "role", "x", "--bundle", "alpha", "--catalog", str(catalog.root)).code == 0


def test_what_cannot_be_added_without_rewriting_is_refused(catalog: Catalog) -> None:
    """Through an alias, an added language would reach the other bundle too: refused."""
    assert convert_catalog(catalog.root, "yaml").diagnostics == []
    index = catalog.root / "index.yaml"
    text = index.read_text()
    languages = "  languages:\n  - en\n  - ru\n"
    assert text.count(languages) == 2
    text = text.replace(languages, "  languages: &both [en, ru]\n", 1)
    index.write_text(text.replace(languages, "  languages: *both\n", 1))
    assert run("check", "--catalog", str(catalog.root)).out == "OK\n"
    result = refused(catalog.root, "add-language", "de", "--bundle", "alpha")
    assert result.err == (
        "rolecat: index.yaml: cannot add to this file without rewriting what is there; add the "
        "change by hand (the manual's author's guide: By hand); nothing was changed\n"
    )
