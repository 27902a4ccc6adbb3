"""How the secret scan's findings are told: one diagnostic per credential, and no message that
shows one.

:mod:`build_tools.rules.secret_scan` decides what is a credential and which string of the catalog
holds it; this module places each one in its source text (its line and column, found verbatim
inside the string's source) and words the diagnostic, and redacts every other message that
would quote a credential.
"""

from __future__ import annotations

import bisect
import contextlib
import re
from dataclasses import replace
from json.decoder import scanstring  # type: ignore[attr-defined]

from build_tools.diagnostics import Diagnostic
from build_tools.model.credentials import ADVICE
from build_tools.rules.secret_scan import Hit, line_col, scan_text

HIDDEN = "<a credential, not shown>"


def redact(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics with every credential their messages quote (a rule that shows the value it
    is about) replaced by :data:`HIDDEN`: a message is printed, logged and annotated."""
    redacted = []
    for diagnostic in diagnostics:
        message = diagnostic.message
        for finding in reversed(scan_text(message)):
            message = message[: finding.start] + HIDDEN + message[finding.end :]
        redacted.append(
            diagnostic if message == diagnostic.message else replace(diagnostic, message=message)
        )
    return redacted


def diagnose(hit: Hit, allowlist_file: str) -> Diagnostic:
    """The finding as one line: file, line and column of the credential, whose string, the kind
    of credential and what to do; never the credential."""
    finding = hit.finding
    if hit.slug is None:
        fix = "a bundle's texts cannot be allowed: reword it"
    else:
        entry = f'"{hit.slug}": {{"{finding.digest}": "<why>"}}'
        fix = f"if it is not a credential, allow it in {allowlist_file}: {entry}"
    where = hit.where
    if hit.instructions_file is None:
        path = hit.document.path
        line, col = _locate(hit)
    else:
        path = hit.instructions_file
        line, col = line_col(hit.text, finding.start)
        where = f'role "{hit.slug}": its instructions file (named in {hit.document.path})'
    message = f"{where} holds a credential ({finding.kind}); {ADVICE}; {fix}"
    return Diagnostic(path, line, col, message, "secret", hit.pointer)


def _locate(hit: Hit) -> tuple[int, int]:
    """Where the credential stands in the source: found verbatim inside the string's source text
    (up to a JSON string's closing quote, or to the next role); else where the string starts."""
    document, finding = hit.document, hit.finding
    source = document.raw.decode("utf-8")
    starts = [0, *(match.end() for match in re.finditer("\n", source))]
    value = document.position(hit.pointer)
    begin = starts[value.line - 1] + value.col - 1
    end = len(source)
    if len(hit.pointer) > 1 and isinstance(hit.pointer[1], int):
        following = document.position((hit.pointer[0], hit.pointer[1] + 1))
        next_role = starts[following.line - 1] + following.col - 1
        end = next_role if next_role > begin else end
    if source.startswith('"', begin):
        # A YAML double-quoted string may not read as JSON: then up to the next role.
        with contextlib.suppress(ValueError):
            end = min(end, scanstring(source, begin + 1)[1])
    matched = hit.text[finding.start : finding.end]
    at = begin - 1
    for _ in range(hit.text.count(matched, 0, finding.start) + 1):
        at = source.find(matched, at + 1, end)
        if at < 0:
            return value.line, value.col
    line = bisect.bisect_right(starts, at)
    return line, at - starts[line - 1] + 1
