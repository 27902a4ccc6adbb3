"""What the check computes faster is what it computed before: each shortcut against the slower
form it replaced."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from build_tools.sources import javascript

TRIMMED = re.compile(f"^[{javascript._JS_SPACE}]+|[{javascript._JS_SPACE}]+$")
"""JavaScript's ``trim()`` as the pattern it was, which scanned every long text to its end."""

EDGES = st.sampled_from([*javascript._JS_SPACE_CHARACTERS, "\x1c", "\x1f", "\u200b", "a", "я"])


def test_trim_strips_what_javascripts_whitespace_class_matches() -> None:
    everything = "".join(map(chr, range(0x110000)))
    matched = re.findall(f"[{javascript._JS_SPACE}]", everything)
    assert sorted(javascript._JS_SPACE_CHARACTERS) == sorted(matched)


@given(st.lists(EDGES, max_size=12).map("".join), st.text(max_size=20))
def test_trim_is_the_pattern_it_replaced(edges: str, text: str) -> None:
    for candidate in (edges, edges + text + edges, text + edges[::-1], edges + "\n"):
        assert javascript.trim(candidate) == TRIMMED.sub("", candidate)
