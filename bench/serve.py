"""Edit-to-reload time of ``make serve``: from saving one role until the browser would reload.

The clock stops where a browser's does: MkDocs 1.6 injects ``livereload(<epoch>, <id>)`` into every
served page, and the page long-polls ``/livereload/<epoch>/<id>``, which answers once a build newer
than ``<epoch>`` is visible. A fast answer only counts if the site it shows is right, so after each
edit the edited role's page must show the new sentence and other roles' pages must be unchanged.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

STARTUP_TIMEOUT = 600.0
RELOAD_TIMEOUT = 300.0
LIVERELOAD = re.compile(r"livereload\((\d+), (\d+)\)")


@dataclass
class ServeResult:
    """The reload time of each edit, the first build's time, and what was wrong, if anything."""

    startup: float | None = None
    reloads: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    log: Path | None = None

    @property
    def correct(self) -> bool:
        return bool(self.reloads) and not self.problems


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(url: str, timeout: float = 30.0) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return int(response.status), response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return int(error.code), ""


def _steady(html: str) -> str:
    """A page without its live-reload epoch, which changes with every build by design."""
    return LIVERELOAD.sub("livereload()", html)


def _epoch(html: str) -> int:
    found = LIVERELOAD.search(html)
    if found is None:
        raise RuntimeError("the served page has no live-reload script")
    return int(found.group(1))


def _role_urls(catalog: Path) -> tuple[tuple[Path, str, str], list[str]]:
    """The role to edit (its file, slug, page) and two others: same file, another bundle."""
    index = json.loads((catalog / "index.json").read_text(encoding="utf-8"))
    first, last = index["bundles"][0], index["bundles"][-1]
    language = first["languages"][0]
    slugs = [r["slug"] for r in first["roles"]]
    edited = (
        catalog / "bundles" / first["id"] / f"{language}.json",
        slugs[0],
        f"{language}/{first['id']}/{slugs[0]}/",
    )
    others = [f"{language}/{first['id']}/{slugs[-1]}/"]
    if last is not first:
        others.append(f"{last['languages'][-1]}/{last['id']}/{last['roles'][-1]['slug']}/")
    return edited, others


def _append_sentence(path: Path, slug: str, sentence: str) -> bytes:
    """The bundle file's new bytes with one sentence appended to one role's instructions."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    for role in data["roles"]:
        if role["slug"] == slug:
            role["instructions"] += " " + sentence
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _wait_for_build(base: str, epoch: int, done: dict[str, float]) -> None:
    """The browser's long poll: returns once a build newer than ``epoch`` is visible."""
    deadline = time.monotonic() + RELOAD_TIMEOUT
    while time.monotonic() < deadline:
        try:
            _status, body = _get(f"{base}livereload/{epoch}/1", timeout=RELOAD_TIMEOUT)
        except OSError:
            time.sleep(0.05)
            continue
        if body.strip().isdigit() and int(body) > epoch:
            done["at"] = time.perf_counter()
            return


def measure(
    catalog: Path, work: Path, repo: Path, edits: int, *, in_place: bool = False
) -> ServeResult:
    """Start ``make serve`` on a copy of ``catalog`` (``in_place``: on ``catalog`` itself, a
    throwaway clone); time ``edits`` one-role edits, one by one."""
    copy = catalog if in_place else work / "serve-catalog"
    if not in_place:
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(catalog, copy)
    port = _free_port()
    base = f"http://127.0.0.1:{port}/"
    result = ServeResult(log=work / "serve.log")
    (path, slug, page), others = _role_urls(copy)
    argv = ["make", "-s", "serve", f"DEV_ADDR=127.0.0.1:{port}", f"ROLES_CATALOG_DIR={copy}"]
    env = {**os.environ, "ROLES_CATALOG_DIR": str(copy), "NO_MKDOCS_2_WARNING": "1"}
    with (work / "serve.log").open("wb") as log:
        server = subprocess.Popen(
            argv, cwd=repo, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            start = time.perf_counter()
            while True:
                if server.poll() is not None:
                    result.problems.append(f"make serve exited with {server.returncode}")
                    return result
                if time.perf_counter() - start > STARTUP_TIMEOUT:
                    result.problems.append("make serve did not serve the home page in time")
                    return result
                try:
                    if _get(base, timeout=5)[0] == 200:
                        break
                except OSError:
                    pass
                time.sleep(0.1)
            result.startup = time.perf_counter() - start
            before = {url: _get(base + url) for url in others}
            for number in range(edits):
                _status, html = _get(base + page)
                sentence = f"Benchmark edit number {number + 1} appended this sentence."
                new = _append_sentence(path, slug, sentence)
                done: dict[str, float] = {}
                poll = threading.Thread(target=_wait_for_build, args=(base, _epoch(html), done))
                poll.start()
                written = time.perf_counter()
                path.write_bytes(new)
                poll.join(RELOAD_TIMEOUT + 5)
                if "at" not in done:
                    result.problems.append(f"edit {number + 1}: no rebuild within the timeout")
                    return result
                result.reloads.append(done["at"] - written)
                status, html = _get(base + page)
                if status != 200 or sentence not in html:
                    result.problems.append(
                        f"edit {number + 1}: the edited role's page does not show the new "
                        f"sentence (HTTP {status}"
                        + (", a problems page)" if "The catalog has problems" in html else ")")
                    )
                for url, (old_status, old_html) in before.items():
                    status, now = _get(base + url)
                    if status != 200 or _steady(now) != _steady(old_html) or old_status != 200:
                        result.problems.append(
                            f"edit {number + 1}: /{url} changed or is not served (HTTP {status})"
                        )
        finally:
            _stop(server)
    return result


def _stop(server: subprocess.Popen[bytes]) -> None:
    """End the server's process group (make and the mkdocs it started), politely first."""
    for sig, wait in ((signal.SIGINT, 10.0), (signal.SIGKILL, 10.0)):
        if server.poll() is not None:
            return
        try:
            os.killpg(server.pid, sig)
        except ProcessLookupError:
            return
        try:
            server.wait(wait)
        except subprocess.TimeoutExpired:
            continue
