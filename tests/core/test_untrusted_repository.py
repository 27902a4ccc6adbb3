"""A repository is untrusted: no file in it makes rolecat touch anything outside what the running
command owns, weaken a verdict, hang or crash (issue 32).

Each attack is planted in a temporary repository the way a pull request would plant it (files
added, nothing else). The command runs in its own process, under a timeout, with ``HOME`` in the
test's directory; the "outside" directory and the home directory are listed and hashed before and
after, and must be the same. Each command ends in one line (or none) with exit 0 or 1, never a
traceback and never exit 70.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from mkdocs.utils.yaml import yaml_load

from build_tools.atomic import JOURNAL_PREFIX
from tests.support.paths import OUR_CATALOG, REPO

TIMEOUT = 60


@dataclass
class World:
    """A repository with our catalog in ``catalog/``, beside an outside directory and a home."""

    repo: Path
    outside: Path
    home: Path

    @property
    def catalog(self) -> Path:
        return self.repo / "catalog"

    def fingerprint(self) -> dict[str, str]:
        """Every entry below the outside directory and the home: its type and bytes' hash."""
        found: dict[str, str] = {}
        for top in (self.outside, self.home):
            for path in sorted(top.rglob("*")):
                if path.is_symlink():
                    found[str(path)] = f"link {os.readlink(path)}"
                elif path.is_dir():
                    found[str(path)] = "directory"
                elif path.is_file():
                    found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
                else:
                    found[str(path)] = "special"
        return found


@pytest.fixture
def world(tmp_path: Path) -> World:
    repo, outside, home = tmp_path / "repo", tmp_path / "outside", tmp_path / "home"
    shutil.copytree(OUR_CATALOG, repo / "catalog")
    outside.mkdir()
    (outside / "victim.txt").write_text("precious\n", encoding="utf-8")
    (outside / "folder").mkdir()
    (outside / "folder" / "keep.txt").write_text("keep\n", encoding="utf-8")
    home.mkdir()
    (home / ".bashrc").write_text("# the user's own\n", encoding="utf-8")
    return World(repo, outside, home)


@dataclass
class Ran:
    code: int
    out: str
    err: str

    @property
    def said(self) -> str:
        return self.out + self.err


def rolecat(world: World, *args: str, cwd: Path | None = None) -> Ran:
    """The CLI as a user runs it, in its own process, never longer than :data:`TIMEOUT`."""
    env = {**os.environ, "HOME": str(world.home), "XDG_CACHE_HOME": str(world.home / ".cache")}
    done = subprocess.run(
        [sys.executable, "-m", "build_tools", *args],
        cwd=cwd or world.repo,
        env={**env, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return Ran(done.returncode, done.stdout, done.stderr)


def untouched(world: World, before: dict[str, str]) -> None:
    assert world.fingerprint() == before


# --- 1. a planted journal ----------------------------------------------------------------------


def plant(directory: Path, plan: object, *, committed: bool = True, name: str = "aaaaaaaa") -> Path:
    journal = directory / f"{JOURNAL_PREFIX}{name}"
    journal.mkdir()
    raw = plan if isinstance(plan, bytes) else json.dumps(plan).encode()
    (journal / "plan.json").write_bytes(raw)
    if committed:
        (journal / "committed").write_bytes(b"")
    return journal


def hostile_plans(world: World, writer: str) -> dict[str, object]:
    """Plans of rolecat's exact shape whose paths lead outside what the writer may write."""
    catalog = world.catalog
    new = f"{catalog}/.rolecat-aaaaaaaa-0-new"
    (catalog / ".rolecat-aaaaaaaa-0-new").write_text("evil\n", encoding="utf-8")
    return {
        "overwrites the home's .bashrc": {
            "writer": writer,
            "entries": [[str(world.home / ".bashrc"), new, None]],
            "trees": [],
        },
        "removes a file outside": {
            "writer": writer,
            "entries": [[str(world.outside / "victim.txt"), None, None]],
            "trees": [],
        },
        "climbs out with ..": {
            "writer": writer,
            "entries": [[f"{catalog}/../../outside/victim.txt", None, None]],
            "trees": [],
        },
        "rolls a directory outside back": {
            "writer": writer,
            "entries": [],
            "trees": [str(world.outside / "folder")],
        },
        "names a file of the repository the command never writes": {
            "writer": writer,
            "entries": [[str(catalog / "notes.txt"), new, None]],
            "trees": [],
        },
        "keeps its new bytes outside": {
            "writer": writer,
            "entries": [[str(catalog / "index.json"), str(world.outside / "victim.txt"), None]],
            "trees": [],
        },
    }


PLANS = [
    "overwrites the home's .bashrc",
    "removes a file outside",
    "climbs out with ..",
    "rolls a directory outside back",
    "names a file of the repository the command never writes",
    "keeps its new bytes outside",
]

COMMANDS = {
    "check": ["check", "--catalog", "catalog"],
    "check --fix": ["check", "--fix", "--catalog", "catalog"],
    "new role": ["new", "role", "scribe", "--bundle", "engineering", "--catalog", "catalog"],
    "convert": ["convert", "--to", "yaml", "--catalog", "catalog"],
}


@pytest.mark.parametrize("plan", PLANS)
@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("committed", [True, False], ids=["committed", "uncommitted"])
def test_a_planted_journal_is_refused_and_nothing_outside_is_touched(
    world: World, command: str, plan: str, committed: bool
) -> None:
    journal = plant(world.catalog, hostile_plans(world, "catalog")[plan], committed=committed)
    before, index = world.fingerprint(), (world.catalog / "index.json").read_bytes()
    ran = rolecat(world, *COMMANDS[command])
    assert ran.code == 1
    refusals = [line for line in ran.said.splitlines() if "not a change rolecat" in line]
    assert len(refusals) == 1, ran.said
    assert f"rm -r -- {journal}" in refusals[0]
    untouched(world, before)
    assert journal.is_dir() and (world.catalog / "index.json").read_bytes() == index


def test_a_planted_journal_stops_mkdocs_build_before_a_site(world: World) -> None:
    from tests.support.site_builds import build

    journal = plant(world.catalog, hostile_plans(world, "catalog")["removes a file outside"])
    before = world.fingerprint()
    built = build(world.catalog, world.repo / "site")
    assert built.returncode == 1
    assert "not a change rolecat could have made" in built.output
    assert not (world.repo / "site").exists()
    untouched(world, before)
    assert journal.is_dir()


def test_a_planted_journal_in_the_export_directory_is_refused(world: World) -> None:
    project = world.repo / "project"
    project.mkdir()
    plan = {"writer": "export", "entries": [[str(world.home / ".bashrc"), None, None]], "trees": []}
    journal = plant(project, plan)
    before = world.fingerprint()
    ran = rolecat(world, "export", "--to", "claude-code", "--catalog", "catalog", str(project))
    assert ran.code == 1
    assert ran.err.count("\n") == 1 and "not a change rolecat could have made" in ran.err
    assert journal.is_dir() and not (project / ".claude").exists()
    untouched(world, before)


def malformed(world: World, kind: str) -> Path:
    journal = world.catalog / f"{JOURNAL_PREFIX}{MALFORMED.index(kind)}"
    journal.mkdir()
    plan = journal / "plan.json"
    if kind == "deeply nested":
        plan.write_bytes(b"[" * 100_000 + b"]" * 100_000)
    elif kind == "an embedded NUL":
        path = f"{world.catalog}/index.json\u0000/etc/passwd"
        plan.write_text(
            json.dumps({"writer": "catalog", "entries": [[path, None, None]], "trees": []})
        )
    elif kind == "a plan that is /dev/zero":
        plan.symlink_to("/dev/zero")
    elif kind == "a plan that is a FIFO":
        os.mkfifo(plan)
    elif kind == "a plan that is a directory":
        plan.mkdir()
    elif kind == "another shape":
        plan.write_text(json.dumps({"entries": [["a", "b", "c", "d"]], "trees": {}}))
    elif kind == "a marker that is a FIFO":
        plan.write_text(json.dumps({"writer": "catalog", "entries": [], "trees": []}))
        os.mkfifo(journal / "committed")
    elif kind == "a stranger's file inside":
        plan.write_text(json.dumps({"writer": "catalog", "entries": [], "trees": []}))
        (journal / "payload.sh").write_text("rm -rf ~\n")
    return journal


MALFORMED = [
    "deeply nested",
    "an embedded NUL",
    "a plan that is /dev/zero",
    "a plan that is a FIFO",
    "a plan that is a directory",
    "another shape",
    "a marker that is a FIFO",
    "a stranger's file inside",
]


@pytest.mark.parametrize("kind", MALFORMED)
def test_a_malformed_journal_is_one_line_and_exit_1(world: World, kind: str) -> None:
    journal = malformed(world, kind)
    before = world.fingerprint()
    ran = rolecat(world, "check", "--catalog", "catalog")
    assert ran.code == 1
    assert [line for line in ran.out.splitlines() if "not a change rolecat" in line], ran.said
    assert journal.is_dir() or journal.is_symlink()
    untouched(world, before)


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        timeout=TIMEOUT,
    )


def test_a_journal_git_tracks_is_refused_even_when_it_is_shaped_right(world: World) -> None:
    """A real, complete journal of rolecat's (of a killed ``--fix``), committed: refused."""
    lock = world.catalog / "content-hashes.json"
    new = world.catalog / ".rolecat-aaaaaaaa-0-new"
    new.write_bytes(b"{}\n")  # an empty lock: every role unrecorded
    plan = {"writer": "catalog", "entries": [[str(lock), str(new), None]], "trees": []}
    journal = plant(world.catalog, plan)
    git(world.repo, "init", "-q")
    git(world.repo, "add", "-A")
    git(world.repo, "commit", "-qm", "a journal")
    before = lock.read_bytes()
    ran = rolecat(world, "check", "--catalog", "catalog")
    assert ran.code == 1 and "git tracks it" in ran.out
    assert lock.read_bytes() == before and journal.is_dir()
    as_json = rolecat(world, "check", "--catalog", "catalog", "--format", "json")
    assert [p["rule"] for p in json.loads(as_json.out)["problems"]] == ["interrupted-change"]
    assert lock.read_bytes() == before and journal.is_dir()


def test_a_journal_that_is_a_symlink_to_a_directory_outside_is_no_journal(world: World) -> None:
    elsewhere = world.outside / "journal"
    elsewhere.mkdir()
    (elsewhere / "plan.json").write_text(
        json.dumps(
            {"writer": "catalog", "entries": [[str(world.outside / "victim.txt"), None, None]]}
        )
    )
    (elsewhere / "committed").write_bytes(b"")
    (world.catalog / f"{JOURNAL_PREFIX}aaaaaaaa").symlink_to(elsewhere)
    before = world.fingerprint()
    ran = rolecat(world, "check", "--catalog", "catalog", "--model-tiers")
    assert ran.code == 0 and ran.out.strip().endswith("OK")
    untouched(world, before)


def test_a_journal_rolecat_wrote_is_still_finished(world: World) -> None:
    """The validated recovery: a killed ``--fix`` that had committed is finished by a check."""
    lock = world.catalog / "content-hashes.json"
    recorded = lock.read_bytes()
    lock.write_bytes(b"{}\n")  # what the change replaced ...
    new = world.catalog / ".rolecat-aaaaaaaa-0-new"
    new.write_bytes(recorded)  # ... and its new bytes, written beside it
    plan = {"writer": "catalog", "entries": [[str(lock), str(new), None]], "trees": []}
    journal = plant(world.catalog, plan)
    ran = rolecat(world, "check", "--catalog", "catalog", "--model-tiers")
    assert ran.code == 0, ran.said
    assert f"finished an interrupted change: {lock}" in ran.out
    assert lock.read_bytes() == recorded and not journal.exists() and not new.exists()


# --- 2. read-only stays read-only --------------------------------------------------------------


def tree_state(top: Path) -> dict[str, str]:
    return {
        str(p.relative_to(top)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "d"
        for p in sorted(top.rglob("*"))
    }


def test_a_check_and_a_build_change_no_file_of_the_repository(world: World) -> None:
    from tests.support.site_builds import build

    (world.catalog / "bundles" / "writing" / "en.json").touch()
    before, outside = tree_state(world.repo), world.fingerprint()
    assert rolecat(world, "check", "--catalog", "catalog", "--model-tiers").code == 0
    assert tree_state(world.repo) == before
    site = world.repo / "site"
    assert build(world.catalog, site).returncode == 0
    assert {k: v for k, v in tree_state(world.repo).items() if not k.startswith("site")} == before
    untouched(world, outside)


# --- 3. every file read is opened safely ------------------------------------------------------


@pytest.mark.parametrize("kind", ["fifo", "device"])
@pytest.mark.parametrize("file", ["index.json", "content-hashes.json", "secrets-allowlist.json"])
def test_a_special_file_where_the_catalog_is_read_is_one_line(
    world: World, file: str, kind: str
) -> None:
    path = world.catalog / file
    path.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    ran = rolecat(world, "check", "--catalog", "catalog")
    assert ran.code == 1
    assert f"{file}: cannot read: it is a" in ran.out


@pytest.mark.parametrize("kind", ["fifo", "device", "nested"])
def test_a_special_or_nested_export_manifest_is_never_trusted(world: World, kind: str) -> None:
    project = world.repo / "project"
    project.mkdir()
    manifest = project / ".rolecat-export.json"
    if kind == "fifo":
        os.mkfifo(manifest)
    elif kind == "device":
        manifest.symlink_to("/dev/zero")
    else:
        manifest.write_bytes(b"[" * 100_000)
    ran = rolecat(world, "export", "--to", "claude-code", "--catalog", "catalog", str(project))
    # Read as nothing: no file counts as written by export, and a special one is not replaced.
    assert ".rolecat-export.json: unreadable" in ran.out
    if kind != "nested":
        assert ran.code == 1 and ".rolecat-export.json: is" in ran.out


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_init_reads_no_special_index(world: World, kind: str) -> None:
    shutil.rmtree(world.catalog)
    odd = world.repo / "odd"
    odd.mkdir()
    if kind == "fifo":
        os.mkfifo(odd / "index.json")
    else:
        (odd / "index.json").symlink_to("/dev/zero")
    before = world.fingerprint()
    ran = rolecat(world, "init")
    assert ran.code == 1 and "no catalog found" in ran.err
    assert sorted(p.name for p in world.repo.iterdir()) == ["odd"]
    untouched(world, before)


# --- 4. every file written stays where it belongs ---------------------------------------------

LINKED = {
    "claude-code": ".claude",
    "copilot": ".github/agents",
    "cursor": ".cursor/rules",
}


@pytest.mark.parametrize("force", [False, True], ids=["", "--force"])
@pytest.mark.parametrize("tool", LINKED)
def test_export_writes_through_no_symlinked_directory(world: World, tool: str, force: bool) -> None:
    project = world.repo / "project"
    link = project / LINKED[tool]
    link.parent.mkdir(parents=True)
    link.symlink_to(world.outside / "folder", target_is_directory=True)
    before = world.fingerprint()
    args = ["export", "--to", tool, "--catalog", "catalog", *(["--force"] if force else [])]
    ran = rolecat(world, *args, str(project))
    assert ran.code == 1
    assert f"{LINKED[tool]} is a symbolic link" in ran.out
    assert "nothing was written" in ran.err
    untouched(world, before)


def test_init_writes_no_starter_catalog_through_a_symlink(world: World) -> None:
    shutil.rmtree(world.catalog)
    (world.repo / "roles").symlink_to(world.outside / "folder", target_is_directory=True)
    before = world.fingerprint()
    ran = rolecat(world, "init", "--catalog", "roles")
    assert ran.code == 1 and "roles is a symbolic link" in ran.err
    assert sorted(p.name for p in world.repo.iterdir()) == ["roles"]
    untouched(world, before)


def test_a_failed_init_writes_nothing_at_all(world: World) -> None:
    shutil.rmtree(world.catalog)
    (world.repo / "docs").write_text("a file where init's docs/ must go\n", encoding="utf-8")
    before = tree_state(world.repo)
    ran = rolecat(world, "init", "--catalog", "roles")
    assert ran.code == 1 and ran.err.count("\n") == 1
    assert "nothing was written" in ran.err
    assert tree_state(world.repo) == before  # the starter catalog is not left behind either


def test_a_scaffold_writes_through_no_symlinked_bundle_directory(world: World) -> None:
    bundle = world.catalog / "bundles" / "writing"
    shutil.move(bundle, world.outside / "writing")
    bundle.symlink_to(world.outside / "writing", target_is_directory=True)
    before = world.fingerprint()
    ran = rolecat(world, "new", "role", "scribe", "--bundle", "writing", "--catalog", "catalog")
    assert ran.code == 1 and "is a symbolic link" in ran.err
    untouched(world, before)


# --- 5. the cache never weakens a verdict -----------------------------------------------------


@pytest.mark.parametrize("entry", ["never matches", "corrupt", "fifo", "deep"])
def test_nothing_in_the_cache_lets_a_credential_through(world: World, entry: str) -> None:
    folder = world.home / ".cache" / "rolecat"
    folder.mkdir(parents=True)
    for name in ("secret-scan-gate-" + "0" * 32, "secret-scan-gate-" + "f" * 32):
        path = folder / f"{name}.json"
        if entry == "never matches":
            path.write_text(json.dumps({"key": "x", "value": "(?!)"}))
        elif entry == "corrupt":
            path.write_bytes(b"\xff{")
        elif entry == "fifo":
            os.mkfifo(path)
        else:
            path.write_bytes(b"[" * 100_000)
    en = world.catalog / "bundles" / "writing" / "en.json"
    data = json.loads(en.read_text(encoding="utf-8"))
    data["roles"][0]["instructions"] += "\n\nDeploy with AKIAIOSFODNN7EXAMPLF and ghp_" + "a1B2" * 9
    en.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    ran = rolecat(world, "check", "--catalog", "catalog", "--model-tiers")
    assert ran.code == 1
    assert "AWS" in ran.out and "GitHub" in ran.out


# --- 6. generated text is quoted for where it goes --------------------------------------------

HOSTILE_NAMES = [
    "roles$(touch PWNED)",
    "team roles",
    "roles # not a comment",
    "roles: a mapping",
    "'quoted'\"name\"",
    "roles`id`",
    "-roles",
    "true",
]


def workflow_step(workflow: dict[str, object], name: str) -> str:
    jobs = workflow["jobs"]
    assert isinstance(jobs, dict)
    for step in jobs["build"]["steps"]:
        if step.get("name") == name:
            return str(step["run"])
    raise AssertionError(name)


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_init_quotes_every_path_for_yaml_and_for_the_shell(world: World, name: str) -> None:
    shutil.rmtree(world.catalog)
    repo = world.repo.parent / "our: repo # x"
    world.repo.rename(repo)
    world.repo = repo
    ran = rolecat(world, "init", f"--catalog={name}")
    assert ran.code == 0, ran.said
    config = yaml_load((repo / "mkdocs.yml").read_text(encoding="utf-8"))  # as MkDocs reads it
    assert config["site_name"] == "our: repo # x agent roles"
    options = next(p for p in config["plugins"] if isinstance(p, dict) and "roles-catalog" in p)
    assert options["roles-catalog"]["catalog_dir"] == name
    workflow = yaml.safe_load((repo / ".github/workflows/pages.yml").read_text(encoding="utf-8"))
    check = workflow_step(workflow, "Check the catalog")
    assert shlex.split(check)[:4] == ["rolecat", "check", "--catalog", name]
    hooks = yaml.safe_load((repo / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    entry = hooks["repos"][0]["hooks"][0]["entry"]
    assert shlex.split(entry)[:4] == ["rolecat", "check", "--catalog", name]
    # The workflow's commands run in bash with a stand-in rolecat: the name stays one argument.
    bin_dir = world.outside / "bin"
    bin_dir.mkdir()
    (bin_dir / "rolecat").write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$ARGS"\n')
    (bin_dir / "rolecat").chmod(0o755)
    args = world.outside / "args"
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "ARGS": str(args)}
    subprocess.run(["bash", "-c", check], cwd=world.outside, env=env, check=True, timeout=30)
    assert args.read_text().splitlines()[:3] == ["check", "--catalog", name]
    verify = next(
        s["run"]
        for s in workflow["jobs"]["verify"]["steps"]
        if "rolecat verify" in s.get("run", "")
    )
    subprocess.run(
        ["bash", "-c", verify], cwd=world.outside, env={**env, "BASE": "x"}, check=True, timeout=30
    )
    assert args.read_text().splitlines() == ["verify", "x", "--catalog", name]
    assert not (world.outside / "PWNED").exists() and not (repo / "PWNED").exists()


@pytest.mark.parametrize("name", ["roles\nrun: evil", "roles\u202egnp", "roles${{ secrets.T }}"])
def test_init_refuses_a_path_it_cannot_write_safely(world: World, name: str) -> None:
    shutil.rmtree(world.catalog)
    ran = rolecat(world, "init", f"--catalog={name}")
    assert ran.code == 1 and ran.err.count("\n") == 1 and "rename it" in ran.err
    assert list(world.repo.iterdir()) == []


def test_exported_front_matter_escapes_bidirectional_controls(world: World) -> None:
    en = world.catalog / "bundles" / "writing" / "en.json"
    data = json.loads(en.read_text(encoding="utf-8"))
    data["roles"][0]["description"] = "Edits \u202eтxet\u202c text \u2066in\u2069 place"
    en.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    index = json.loads((world.catalog / "index.json").read_text(encoding="utf-8"))
    for bundle in index["bundles"]:
        for entry in bundle["roles"]:
            entry["version"] += entry["slug"] == data["roles"][0]["slug"]
    (world.catalog / "index.json").write_text(json.dumps(index, indent=2) + "\n")
    assert rolecat(world, "check", "--fix", "--catalog", "catalog").code == 0
    project = world.repo / "project"
    project.mkdir()
    ran = rolecat(world, "export", "--to", "copilot", "--catalog", "catalog", str(project))
    assert ran.code == 0, ran.said
    texts = [p.read_text(encoding="utf-8") for p in (project / ".github/agents").iterdir()]
    front = next(t.split("---\n")[1] for t in texts if "Edits" in t)
    assert "\u202e" not in front and "\u2066" not in front
    assert "\\u202E" in front and "\\u2066" in front
    assert yaml.safe_load(front)["description"] == data["roles"][0]["description"]


@pytest.mark.parametrize(
    "url", ['https://x.example/"><script>', "https://x.example/<b>", "https://x.example/'"]
)
def test_a_site_url_that_would_break_a_page_is_refused(world: World, url: str) -> None:
    from tests.support.site_builds import build

    built = build(world.catalog, world.repo / "site", site_url=url)
    assert built.returncode == 1
    assert [line for line in built.output.splitlines() if "site_url:" in line and "percent" in line]
    assert not (world.repo / "site").exists()
