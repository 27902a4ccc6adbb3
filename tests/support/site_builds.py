"""Build real sites with the real mkdocs.yml, from any catalog, into a temporary directory.

Shared by the site-build tests and the browser tests. Each build is a ``mkdocs`` subprocess, as a
user runs it: MkDocs keeps plugin instances across builds in one process, and the exit code and
log lines are part of what is tested.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from build_tools.check import update_lock
from tests.support.catalog_files import lock_as_is, write_json
from tests.support.paths import REPO

# Fixed, so two builds on either side of midnight still match (the sitemap carries dates).
SOURCE_DATE_EPOCH = "1700000000"

SITE_URL = "https://roles.example.test/team/catalog/"
"""The site URL the session's site of our catalog is built with."""

MOUNT = "/team/roles/"
"""Where the browser tests' static host serves a site: under a sub-path, as on a project's
GitHub Pages."""

PUBLISHED_AT = f"https://roles.example.test{MOUNT}"
"""The site_url of the browser tests' published site: its path is where the static host serves
it, so the 404 page's links (absolute from site_url's path) work at any depth."""


@dataclass
class Build:
    returncode: int
    output: str
    site: Path


def site_env(catalog: Path, site_url: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        ROLES_CATALOG_DIR=str(catalog),
        ROLES_CATALOG_SITE_URL=site_url or "",
        NO_MKDOCS_2_WARNING="1",
        SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH,
    )
    return env


def build(
    catalog: Path, site: Path, *, site_url: str | None = None, engine: str | None = None
) -> Build:
    """``mkdocs build`` (or another engine's executable) of our mkdocs.yml into ``site``."""
    command = [engine] if engine else [sys.executable, "-m", "mkdocs"]
    result = subprocess.run(
        [*command, "build", "--strict", "-f", str(REPO / "mkdocs.yml"), "-d", str(site)],
        env=site_env(catalog, site_url),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return Build(result.returncode, result.stdout + result.stderr, site)


def our_config(directory: Path, *changes: tuple[str, str], templates: Path | None = None) -> Path:
    """Our mkdocs.yml in ``directory``, its paths made absolute, each ``(old, new)`` of
    ``changes`` replaced in its text (another option, another setting), ``templates`` as its
    ``page_templates`` (else the shipped templates, as in any repository without its own)."""
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("docs_dir: docs", f"docs_dir: {REPO / 'docs'}")
    if templates is not None:
        option = "catalog_dir: !ENV [ROLES_CATALOG_DIR, catalog]\n"
        assert option in text
        text = text.replace(option, f"{option}      page_templates: {templates}\n")
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new)
    config = directory / "mkdocs.yml"
    config.write_text(text, encoding="utf-8")
    return config


def config_with(directory: Path, option: str) -> Path:
    """Our mkdocs.yml in ``directory`` with one more plugin option (``"formats: [json]"``)."""
    return our_config(directory, ("      catalog_dir:", f"      {option}\n      catalog_dir:"))


def mkdocs_build(
    config: Path, catalog: Path, site: Path, *options: str, env: dict[str, str] | None = None
) -> Build:
    """``mkdocs build -f config`` of ``catalog`` into ``site``, from the config's directory."""
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-f", str(config), "-d", str(site), *options],
        env=env or site_env(catalog),
        cwd=config.parent,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return Build(done.returncode, done.stdout + done.stderr, site)


def copy_catalog(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target


PAYLOADS = [
    "<script>window.__pwned = 1</script>",
    '<img src=x onerror="window.__pwned = 2">',
    "{{ 7*7 }}",
    "{% raw %}",
    "{% endraw %}",
    "{# comment #}",
    "```",
    "</code></pre><script>window.__pwned = 3</script>",
    "</script><script>window.__pwned = 4</script>",
    "<!-- open comment",
    "[link](javascript:window.__pwned=5)",
    '<a href="javascript:window.__pwned=6">x</a>',
    '&amp; &lt;b&gt; data-search-exclude="x"',
    "**bold** _em_ # heading",
]
PAYLOAD = " ".join(PAYLOADS)
NAME_PAYLOAD = " ".join(PAYLOADS[:5])
"""As much of the payload as a name holds: the server's admin API saves 200 characters."""
# A leading newline and a carriage return: a <pre>'s text would lose both; the copy must not.
PAYLOAD_INSTRUCTIONS = "\nquokka " + "\n".join(PAYLOADS) + "\r\nend\n"


def payload_role(slug: str, language: str) -> dict[str, Any]:
    return {
        "slug": slug,
        "emoji": "<b>",
        "name": f"{slug} {NAME_PAYLOAD}",
        "description": PAYLOAD,
        "instructions": PAYLOAD_INSTRUCTIONS + language,
        "autoStart": True,
        "launchMessage": PAYLOAD,
        # A driver the server knows (it drops any other): the payload goes in the model's name.
        "modelConfig": {
            "driver": "openai",
            "chatModel": "{{ 7*7 }} <script>window.__pwned = 7</script>",
        },
    }


def write_catalog(root: Path, bundles: dict[str, list[str]]) -> Path:
    """A small valid catalog: each bundle id with its languages and two plain roles."""
    index = []
    for bundle_id, languages in bundles.items():
        slugs = [f"{bundle_id}-first", f"{bundle_id}-second"]
        index.append(
            {
                "id": bundle_id,
                "name": {lang: f"{bundle_id} ({lang})" for lang in languages},
                "description": {lang: f"About {bundle_id}." for lang in languages},
                "languages": languages,
                "roles": [{"slug": slug, "version": 1} for slug in slugs],
            }
        )
        for language in languages:
            write_json(
                root / "bundles" / bundle_id / f"{language}.json",
                {
                    "schemaVersion": 1,
                    "language": language,
                    "roles": [
                        {"slug": slug, "name": f"{slug} {language}", "instructions": f"Be {slug}."}
                        for slug in slugs
                    ],
                },
            )
    write_json(root / "index.json", {"schemaVersion": 1, "bundles": index})
    lock_as_is(root)
    return root


def write_payload_catalog(root: Path) -> Path:
    """A valid catalog whose every text field is markup, Markdown or template syntax."""
    languages = ["en", "ru"]
    write_json(
        root / "index.json",
        {
            "schemaVersion": 1,
            "bundles": [
                {
                    "id": "payload",
                    "name": {lang: f"Bundle {PAYLOAD}" for lang in languages},
                    "description": {lang: PAYLOAD for lang in languages},
                    "languages": languages,
                    "roles": [{"slug": "injector", "version": 1}, {"slug": "index", "version": 2}],
                }
            ],
        },
    )
    for language in languages:
        write_json(
            root / "bundles" / "payload" / f"{language}.json",
            {
                "schemaVersion": 1,
                "language": language,
                "roles": [payload_role("injector", language), payload_role("index", language)],
            },
        )
    update = update_lock(root)
    assert not update.diagnostics, update.diagnostics
    return root


def free_port() -> int:
    """A port free right now on loopback (``mkdocs serve`` cannot report the one it got for 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Served:
    """A running ``mkdocs serve`` (or ``make serve``), with its log read as it comes."""

    def __init__(self, process: subprocess.Popen[str], url: str) -> None:
        self.process = process
        self.url = url
        self.lines: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def wait_for(self, text: str, timeout: float = 120) -> str:
        """Block until a log line contains ``text``; fail if the server exits or time runs out."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {text!r} in the log:\n" + "\n".join(self.lines)) from None
            if line is None:
                raise AssertionError("the server exited:\n" + "\n".join(self.lines))
            self.lines.append(line)
            if text in line:
                return line

    def stop(self) -> None:
        if self.process.poll() is None:
            # Its own process group: `make serve` runs mkdocs as a child, which must stop too.
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._reader.join(timeout=20)
        if self.process.stdout is not None:
            self.process.stdout.close()


@contextlib.contextmanager
def serve(catalog: Path, *, make: bool = False) -> Iterator[Served]:
    """``mkdocs serve --livereload`` (or ``make serve``) of ``catalog`` on a free loopback port."""
    port = free_port()
    address = f"127.0.0.1:{port}"
    if make:
        command = ["make", "--no-print-directory", "serve", f"DEV_ADDR={address}"]
    else:
        command = [sys.executable, "-m", "mkdocs", "serve", "--livereload", "--dev-addr", address]
        command += ["-f", str(REPO / "mkdocs.yml")]
    process = subprocess.Popen(
        command,
        cwd=REPO,
        env=site_env(catalog),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    served = Served(process, f"http://{address}/")
    try:
        served.wait_for("Serving on")
        yield served
    finally:
        served.stop()
