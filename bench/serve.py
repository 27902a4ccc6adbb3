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
TIMINGS = "ROLECAT_TIMINGS"
"""Names the file the plugin appends its marks to (site_plugins/catalog/timings.py)."""
PHASES: tuple[tuple[str, str, str], ...] = (
    ("file polling", "saved", "detected"),
    ("build delay", "detected", "building"),
    ("config load", "building", "config"),
    ("our check (on_config)", "config", "checked"),
    ("MkDocs files", "checked", "files"),
    ("our files and pages", "files", "files_done"),
    ("MkDocs pages and writing", "files_done", "post_build"),
    ("after the build", "post_build", "reloaded"),
    ("reload answered", "reloaded", "answered"),
)
"""Each phase of an edit's reload: its name, and the marks it runs between. "saved" and
"answered" are the bench's own; the others are the plugin's and MkDocs'
(site_plugins/catalog/timings.py).
"""
WITHIN: tuple[tuple[str, str, str, str], ...] = (
    ("of which the history", "our files and pages", "history", "history_done"),
)
"""Parts of a phase: the history is read once per commit and its reading awaited in on_files."""
RELOAD_TIMEOUT = 300.0
LIVERELOAD = re.compile(r"livereload\((\d+), (\d+)\)")


@dataclass
class ServeResult:
    """The reload time of each edit, the first build's time, and what was wrong, if anything."""

    startup: float | None = None
    reloads: list[float] = field(default_factory=list)
    phases: list[dict[str, float]] = field(default_factory=list)
    """Each edit's seconds per phase (:data:`PHASES`), where the marks were found."""
    problems: list[str] = field(default_factory=list)
    log: Path | None = None

    @property
    def correct(self) -> bool:
        return bool(self.reloads) and not self.problems


def breakdown(marks: list[tuple[str, float]], saved: float, answered: float) -> dict[str, float]:
    """Seconds per phase of one edit, from the marks after it was saved, each in its order."""
    moments = {"saved": saved}
    at = saved
    wanted = [end for _name, _start, end in PHASES if end != "answered"]
    for name in wanted:
        found = next((t for mark, t in marks if mark == name and t >= at), None)
        if found is None:
            break
        moments[name] = at = found
    moments["answered"] = answered
    found = {
        name: moments[end] - moments[start]
        for name, start, end in PHASES
        if start in moments and end in moments
    }
    for name, phase, start, end in WITHIN:
        within = next((p for p in PHASES if p[0] == phase), None)
        if within is None or within[1] not in moments or within[2] not in moments:
            continue
        low, high = moments[within[1]], moments[within[2]]
        begun = next((t for mark, t in marks if mark == start and low <= t <= high), None)
        ended = next(
            (t for mark, t in marks if mark == end and begun is not None and t >= begun), None
        )
        if begun is not None and ended is not None and ended <= high:
            found[name] = ended - begun
    return found


def median_phases(result: ServeResult) -> list[tuple[str, float]]:
    """Each phase's median over the edits that recorded it, in the order of :data:`PHASES`."""
    found = []
    names = [name for name, _start, _end in PHASES]
    for name, phase, _start, _end in WITHIN:
        names.insert(names.index(phase) + 1, name)
    for name in names:
        values = sorted(p[name] for p in result.phases if name in p)
        if values:
            middle = len(values) // 2
            found.append(
                (
                    name,
                    values[middle]
                    if len(values) % 2
                    else (values[middle - 1] + values[middle]) / 2,
                )
            )
    return found


def _read_marks(path: Path) -> list[tuple[str, float]]:
    if not path.exists():
        return []
    marks = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            item = json.loads(line)
            marks.append((str(item["mark"]), float(item["t"])))
        except (ValueError, KeyError, TypeError):
            continue
    return marks


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
    catalog: Path,
    work: Path,
    repo: Path,
    edits: int,
    *,
    in_place: bool = False,
    pause: float = 0.0,
) -> ServeResult:
    """Start ``make serve`` on a copy of ``catalog`` (``in_place``: on ``catalog`` itself, a
    throwaway clone); time ``edits`` one-role edits, one by one, ``pause`` seconds apart (a
    person reading the page: the preview's search index is made meanwhile)."""
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
    timings = work / "serve-timings.jsonl"
    timings.unlink(missing_ok=True)
    env = {
        **os.environ,
        "ROLES_CATALOG_DIR": str(copy),
        "NO_MKDOCS_2_WARNING": "1",
        TIMINGS: str(timings),
    }
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
                time.sleep(pause)
                _status, html = _get(base + page)
                sentence = f"Benchmark edit number {number + 1} appended this sentence."
                new = _append_sentence(path, slug, sentence)
                done: dict[str, float] = {}
                poll = threading.Thread(target=_wait_for_build, args=(base, _epoch(html), done))
                poll.start()
                written, saved = time.perf_counter(), time.time()
                path.write_bytes(new)
                poll.join(RELOAD_TIMEOUT + 5)
                if "at" not in done:
                    result.problems.append(f"edit {number + 1}: no rebuild within the timeout")
                    return result
                result.reloads.append(done["at"] - written)
                answered = saved + (done["at"] - written)
                result.phases.append(breakdown(_read_marks(timings), saved, answered))
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
