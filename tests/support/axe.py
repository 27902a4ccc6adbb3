"""axe-core in the browser tests: the accessibility rules the web's tools (Lighthouse among them)
judge a page by, run on the page a Playwright test has open.

axe-core comes from the npm cache of ``tests/support/node_tools.py`` at its pinned version, so a
machine without it skips (and CI, ``CI=true``, fails) like every test that needs it.

    assert_no_serious_violations(page, "the role page /en/writing/translator/")
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from playwright.sync_api import Page

from tests.support.node_tools import node_package_file, pinned_version

IMPACTS = ("serious", "critical")
"""What fails a page: axe's two highest impacts (``minor`` and ``moderate`` are below them)."""
SNIPPET = 120
"""Characters of a node's HTML a line shows."""

SETTLED = "() => document.getAnimations().every(a => a.playState !== 'running')"
"""No CSS transition or animation under way (an infinite one would time the wait out)."""

# Only what a line needs crosses back from the page.
RUN = """async () => {
  const results = await axe.run(document, { resultTypes: ["violations"] });
  return results.violations.map(v => ({
    id: v.id,
    help: v.help,
    nodes: v.nodes.map(n => ({ impact: n.impact || v.impact, target: n.target, html: n.html })),
  }));
}"""


def axe_violations(page: Page, impacts: Iterable[str] = IMPACTS) -> list[str]:
    """One line per node that violates an axe rule with one of ``impacts``, on the page ``page``
    has open: ``rule (impact): help: at selector: <html snippet>``. axe-core is injected first
    (once per document)."""
    # axe reads the colours of the moment: mid-transition (a result fading in, a hovered one
    # taking its background) they are neither the old nor the new ones a reader sees.
    page.wait_for_function(SETTLED)
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=node_package_file("axe-core", "axe.min.js"))
    wanted = set(impacts)
    found: list[dict[str, Any]] = page.evaluate(RUN)
    return [
        f"{rule['id']} ({node['impact']}): {rule['help']}: at {_selector(node['target'])}: "
        f"{_snippet(node['html'])}"
        for rule in found
        for node in rule["nodes"]
        if node["impact"] in wanted
    ]


def assert_no_serious_violations(page: Page, where: str) -> None:
    """Fail with every serious or critical violation on the page ``page`` has open, one a line;
    ``where`` names the page in the message."""
    lines = axe_violations(page)
    assert not lines, (
        f"{where}: {len(lines)} serious or critical accessibility violation(s) found by axe-core "
        f"{pinned_version('axe-core')}:\n" + "\n".join(f"  {line}" for line in lines)
    )


def _selector(target: Any) -> str:
    """axe's target: a list of CSS selectors, one per frame or shadow root it goes through (each
    itself a list inside a shadow root)."""
    if isinstance(target, list):
        return " >>> ".join(_selector(part) for part in target)
    return str(target)


def _snippet(html: str) -> str:
    """The node's HTML on one line, cut to :data:`SNIPPET` characters."""
    flat = re.sub(r"\s+", " ", html).strip()
    return flat if len(flat) <= SNIPPET else flat[: SNIPPET - 1] + "…"
