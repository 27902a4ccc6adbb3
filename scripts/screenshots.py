"""Screenshots of a built site at a desktop and a phone width, for reviews and notes.

    .venv/bin/python scripts/screenshots.py site/ build/screenshots / en/engineering/code-reviewer/

Serves the site on 127.0.0.1 (a free port) and saves ``<page>-<width>.png`` for each page given,
with the system Chromium ($CHROMIUM, else /usr/bin/chromium).
"""

from __future__ import annotations

import functools
import os
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import sync_playwright

WIDTHS = {1280: 800, 390: 844}
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main(site: Path, out: Path, pages: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    handler = functools.partial(_Quiet, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    executable = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
            for width, height in WIDTHS.items():
                page = browser.new_page(viewport={"width": width, "height": height})
                for path in pages:
                    page.goto(base + path.lstrip("/"))
                    name = path.strip("/").replace("/", "_") or "start"
                    target = out / f"{name}-{width}.png"
                    page.screenshot(path=str(target), full_page=True)
                    print(target)
                page.close()
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:] or ["/"])
