"""The floor of one role page: rendering the same page with Jinja2 alone, and writing it.

``python -m bench.page_floor CATALOG_DIR SITE_DIR OUT_DIR`` prints one JSON line,
``{"pages": <role pages>, "seconds": <wall seconds>, "bytes": <bytes written>}``.

What it times, for every role page of the catalog: its content rendered from our page templates
(Jinja2, as the plugin renders it), then the whole page rendered from one Jinja2 template (the
built site's first role page, with its title and its article made the template's two variables),
and the page written to ``OUT_DIR``. What it leaves out is what a build does beyond that: MkDocs'
files, navigation and per-page context, Material's templates with their includes, the raw files,
the search index and the start of the process. The catalog is checked and loaded before the clock
starts; the built page only gives the shell its shape, so every page written is a whole page.
"""

from __future__ import annotations

import html
import json
import sys
import time
from pathlib import Path

import jinja2
from markupsafe import Markup

from bench import plain
from build_tools.check import check_catalog
from build_tools.wire import site_paths
from site_plugins.pages import site

REPO = Path(__file__).resolve().parent.parent
ARTICLE = '<article class="md-content__inner md-typeset">'


SHELL = "{{ head }}{{ title }}{{ middle }}{{ body }}{{ tail }}"


def shell(page: str, title: str) -> tuple[jinja2.Template, dict[str, Markup]]:
    """One built page as a template: its ``<title>`` (``title``, the page's own, then what the
    site adds) and its article's content the variables, the rest of the page the fixed parts."""
    start = page.index(ARTICLE) + len(ARTICLE)
    end = page.index("</article>", start)
    title_start = page.index("<title>") + len("<title>")
    title_end = page.index(html.escape(title, quote=False), title_start) + len(
        html.escape(title, quote=False)
    )
    parts = {
        "head": Markup(page[:title_start]),
        "middle": Markup(page[title_end:start]),
        "tail": Markup(page[end:]),
    }
    return jinja2.Environment(autoescape=True).from_string(SHELL), parts


def main(argv: list[str]) -> int:
    catalog_dir, built, out = Path(argv[1]), Path(argv[2]), Path(argv[3])
    build = plain.stand_in(REPO, catalog_dir)  # the renderer the plugin's build renders with
    result = check_catalog(catalog_dir, model_tiers=build.options.model_tiers)
    if not result.ok or result.catalog is None:
        print(f"page_floor: {catalog_dir} fails its check", file=sys.stderr)
        return 1
    catalog = result.catalog
    history = plain.history_of(build, catalog)
    roles = {
        site_paths.role_page(language, bundle.id, slug)
        for bundle in catalog.bundles
        for language in bundle.languages
        if language in bundle.files
        for _pointer, slug, _version in bundle.roles
    }
    role_pages = [
        p for p in site.catalog_pages(catalog, build.renderer, history) if p.src_uri in roles
    ]
    first = role_pages[0].src_uri.removesuffix(".md") + ".html"
    template, parts = shell((built / first).read_text(encoding="utf-8"), role_pages[0].title)
    written = 0
    started = time.perf_counter()
    for page in role_pages:
        text = template.render(title=page.title, body=Markup(page.html), **parts)
        target = out / (page.src_uri.removesuffix(".md") + ".html")
        target.parent.mkdir(parents=True, exist_ok=True)
        written += target.write_bytes(text.encode("utf-8"))
    seconds = time.perf_counter() - started
    print(json.dumps({"pages": len(role_pages), "seconds": seconds, "bytes": written}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
