"""The README's quick start works as written: each command of its code block, run as shown in a
scratch copy of this repository, does what the README says it does.

The copy reuses this repository's ``.venv`` (a symlink, so ``.venv/bin/rolecat`` runs as
written) and make is told not to remake it (``-o``); ``make serve`` gets a free port through
``DEV_ADDR``, the variable the README names. The steps written as comments are done by the test:
it opens the URL, and writes the placeholders as an author would.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from build_tools.rules.across_files import PLACEHOLDER
from build_tools.sources.formats import dump, format_of, parse
from tests.support.manual_pages import README, code_blocks, sections
from tests.support.paths import REPO

VENV = ".venv"
KEPT = ("-o", f"{VENV}/bin/rolecat", "-o", f"{VENV}/.test-installed")
"""What make must not remake in the copy: the shared .venv."""

EXPECTED = ["make site", "make serve", "open", "rolecat new role", "write", "rolecat check"]
"""The quick start's steps, in the order the README promises them."""

WAIT = 180.0


@dataclass(frozen=True)
class Step:
    kind: str
    argv: tuple[str, ...] = ()
    url: str = ""


def quick_start() -> str:
    section = sections(README.read_text(encoding="utf-8"), 2).get("Quick start")
    assert section is not None, "README.md has a '## Quick start' section"
    shells = [body for info, body in code_blocks(section) if info in ("sh", "shell", "bash")]
    assert shells, "the quick start has a shell code block"
    return shells[0]


def steps(block: str) -> list[Step]:
    """Each line of the block: a command (its comment dropped), or a step the reader does."""
    found = []
    for line in filter(str.strip, block.splitlines()):
        text = line.strip()
        if text.startswith("#"):
            opened = re.match(r"#\s*open\s+(https?://\S+)", text)
            if opened:
                found.append(Step("open", url=opened.group(1)))
            elif re.match(r"#\s*write the placeholders", text):
                found.append(Step("write"))
            else:
                pytest.fail(f"a quick-start comment this test does not know: {text!r}")
            continue
        argv = tuple(shlex.split(text, comments=True))
        program = Path(argv[0]).name
        words = 3 if program == "rolecat" and argv[1:2] == ("new",) else 2
        found.append(Step(" ".join([program, *argv[1:words]]), argv))
    return found


def test_the_quick_start_goes_in_the_promised_order() -> None:
    found = steps(quick_start())
    assert [step.kind for step in found] == EXPECTED
    check = found[EXPECTED.index("rolecat check")]
    assert "--fix" in check.argv
    new = found[EXPECTED.index("rolecat new role")]
    assert "--bundle" in new.argv
    for step in found:  # runnable as written from the root: no `rolecat` from nowhere
        if step.argv and Path(step.argv[0]).name == "rolecat":
            assert step.argv[0] == f"{VENV}/bin/rolecat"


def test_the_url_to_open_is_the_one_make_serve_prints_by_default() -> None:
    default = re.search(r"^DEV_ADDR \?= (\S+)$", (REPO / "Makefile").read_text(), re.M)
    assert default is not None, "the Makefile's serve target takes DEV_ADDR"
    [opened] = [step for step in steps(quick_start()) if step.kind == "open"]
    assert opened.url == f"http://{default.group(1)}/"


def scratch_copy(target: Path) -> Path:
    """This working tree's tracked and new files (not ignored ones), with .venv linked in."""
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        capture_output=True,
        check=True,
    ).stdout.decode()
    for relpath in filter(None, listed.split("\0")):
        source = REPO / relpath
        if source.is_file():
            (target / relpath).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / relpath)
    (target / VENV).symlink_to(REPO / VENV, target_is_directory=True)
    return target


def environment() -> dict[str, str]:
    """The shell of someone who just cloned: none of our variables that change what runs."""
    dropped = (
        "ROLES_CATALOG_DIR",
        "ROLES_CATALOG_SITE_URL",
        "ROLECAT_FORMAT",
        "MAKEFLAGS",
        "MAKELEVEL",
        "MFLAGS",
        "SOURCE_DATE_EPOCH",
    )
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    return {**env, "NO_MKDOCS_2_WARNING": "1"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def answers(url: str) -> int | None:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def wait_for(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if answers(url) == 200:
            return
        if server.poll() is not None:
            pytest.fail(f"make serve ended ({server.returncode}):\n{log.read_text()}")
        time.sleep(0.5)
    pytest.fail(f"{url} did not answer 200 within {WAIT:g} s:\n{log.read_text()}")


def written(value: Any, relpath: str, key: str = "") -> Any:
    """What the author writes for each placeholder (names unique per language, as the server
    wants them)."""
    if isinstance(value, dict):
        return {k: written(v, relpath, k) for k, v in value.items()}
    if isinstance(value, list):
        return [written(v, relpath, key) for v in value]
    if isinstance(value, str) and PLACEHOLDER in value:
        return "🖍" if key == "emoji" else f"The proofreader's {key}, written by hand ({relpath})."
    return value


def write_the_placeholders(catalog: Path) -> list[str]:
    """Every placeholder in the catalog replaced, each file in its own format; the files."""
    changed = []
    for path in sorted(catalog.rglob("*")):
        relpath = path.relative_to(catalog).as_posix()
        if path.suffix in (".json", ".yaml", ".yml") and PLACEHOLDER in path.read_text("utf-8"):
            data = written(parse(relpath, path.read_bytes()), relpath)
            path.write_bytes(dump(data, format_of(relpath)))
            changed.append(relpath)
    return changed


@pytest.fixture
def serving() -> Iterator[list[subprocess.Popen[bytes]]]:
    """The ``make serve`` processes started, each stopped with its process group at the end."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for server in started:
        with contextlib.suppress(ProcessLookupError):  # the group may be gone already
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=20)


@pytest.mark.timeout(900)
def test_the_quick_start_runs_as_written(
    tmp_path: Path, serving: list[subprocess.Popen[bytes]]
) -> None:
    walk = steps(quick_start())
    assert [step.kind for step in walk] == EXPECTED  # each step below needs the one before
    root = scratch_copy(tmp_path / "rolecat")
    env = environment()
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    log = tmp_path / "serve.log"
    slug = bundle = ""

    def run(argv: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            list(argv), cwd=root, env=env, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, f"{shlex.join(argv)} failed:\n{done.stdout}{done.stderr}"
        return done

    for step in walk:
        if step.kind == "make serve":
            argv = (step.argv[0], *KEPT, *step.argv[1:], f"DEV_ADDR=127.0.0.1:{port}")
            with log.open("wb") as out:
                server = subprocess.Popen(
                    argv,
                    cwd=root,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            serving.append(server)
        elif step.kind == "open":
            wait_for(urlsplit(step.url)._replace(netloc=f"127.0.0.1:{port}").geturl(), server, log)
            assert f"Serving on {base}" in log.read_text()
        elif step.kind == "write":
            listed = subprocess.run(
                [f"{VENV}/bin/rolecat", "check"],
                cwd=root,
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert listed.returncode == 1 and "is still a placeholder" in listed.stdout
            changed = write_the_placeholders(root / "catalog")
            assert f"bundles/{bundle}/en.json" in changed
        elif step.argv[0] == "make":
            run((step.argv[0], *KEPT, *step.argv[1:]))
            if step.kind == "make site":
                assert (root / "site" / "index.html").is_file()
                assert (root / "site" / "index.json").is_file()
        else:
            done = run(step.argv)
            if step.kind == "rolecat new role":
                slug, bundle = step.argv[3], step.argv[step.argv.index("--bundle") + 1]
                assert f'role "{slug}" added to bundle "{bundle}" at version 1' in done.stdout
            elif step.kind == "rolecat check":
                assert f"recorded {slug} at version 1" in done.stdout + done.stderr

    # What the README promises at the end: the preview shows the new role, and the check passes.
    wait_for(f"{base}en/{bundle}/{slug}/", server, log)
    final = run((f"{VENV}/bin/rolecat", "check", "--model-tiers"))
    assert final.stdout == "OK\n"
