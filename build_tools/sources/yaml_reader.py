"""Read YAML catalog files as the server's later generation does: safe YAML 1.2, core schema.

libyaml (through ruamel.yaml.clib) scans and parses; the values are composed by rolecat
(:mod:`build_tools.sources.yaml_composer`), from its events, without recursion: libyaml's own
composer recurses in C, and a file nested a few ten thousand deep would overflow the stack and kill
the process. Composing in rolecat also lets every rule of the server's parser (``yaml`` 2.x,
``parse(text, {strict: true, maxAliasCount: 100})``) be applied as it reads:

- scalars resolve by the core schema's exact rules (ruamel's resolver follows YAML 1.1 in places:
  ``1_000``, ``0b1``, dates, merge keys), and explicit tags only where that parser honours them;
- aliases are counted as that parser counts them, never expanded: an alias is the same value
  again, so a small file cannot turn into gigabytes of work;
- nesting stops at :data:`~build_tools.sources.MAX_DEPTH`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import Event, StreamEndEvent

from build_tools.diagnostics import Diagnostic
from build_tools.sources.json_reader import (
    MAX_FILE_BYTES,
    Document,
    Position,
    SourceError,
    decode_utf8,
    json_type,
)
from build_tools.sources.yaml_composer import Composer, Mark

TAGS = ("!!str", "!!int", "!!float", "!!bool", "!!null", "!!seq", "!!map", "!")
"""Every tag a file may carry (manual/docs/catalog-format.md lists them): the core schema's
own, and the non-specific ``!``."""

BREAKS_1_1 = re.compile("[\x85\u2028\u2029]")
"""YAML 1.1 parsers break lines at these, YAML 1.2 parsers do not: written raw, they are read
differently by different servers, so they must be written as escapes (``\\N``, ``\\L``, ``\\P``)."""

_SURROGATE_ESCAPE = re.compile(r"\\(?:u|U0000)[dD][89a-fA-F]")
"""libyaml refuses every surrogate escape, even a valid pair such as ``"\\uD83D\\uDEA8"``."""
_DIRECTIVE = re.compile(r"^%.*", re.MULTILINE)

try:
    from ruamel.yaml.cyaml import CParser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - ruamel.yaml.clib is a dependency; this is a fallback
    CParser = None


def _pure(text: str) -> bool:
    """Whether ruamel's pure parser must read the text: libyaml is 50 times faster but refuses
    surrogate pairs written as escapes, which the server's parser accepts."""
    return CParser is None or _SURROGATE_ESCAPE.search(text) is not None


def _events(text: str, pure: bool) -> Iterator[Event]:
    if pure:
        try:
            yield from YAML(typ="safe", pure=True).parse(text)
        except (ValueError, OverflowError):  # its scanner takes \UFFFFFFFF to chr()
            raise YAMLError("an escape names a character that does not exist") from None
        return
    parser = CParser(text)
    try:
        while True:
            event = parser.get_event()
            yield event
            if isinstance(event, StreamEndEvent):
                return
    finally:
        parser.dispose()


def _position(mark: Mark | None) -> Position | None:
    return None if mark is None else Position(mark.line + 1, mark.column + 1)


def parse_yaml(path: str, raw: bytes) -> Document:
    """Parse one YAML file; raise :class:`SourceError` with every problem found."""
    text = decode_utf8(path, raw)
    directive = _DIRECTIVE.search(text) if "%" in text else None
    if directive:
        line = text.count("\n", 0, directive.start()) + 1
        raise SourceError(
            [
                Diagnostic(
                    path,
                    line,
                    1,
                    f'directive "{directive.group().strip()}" is not allowed: files are read as '
                    "YAML 1.2 with the core schema",
                    "yaml-directive",
                )
            ]
        )
    ambiguous = BREAKS_1_1.search(text)
    if ambiguous:
        line = text.count("\n", 0, ambiguous.start()) + 1
        col = ambiguous.start() - text.rfind("\n", 0, ambiguous.start())
        raise SourceError(
            [
                Diagnostic(
                    path,
                    line,
                    col,
                    f"raw U+{ord(ambiguous.group()):04X} is a line break in YAML 1.1 but not in "
                    '1.2; write it as an escape in a double-quoted string ("\\N", "\\L", "\\P")',
                    "yaml-break",
                )
            ]
        )
    pure = _pure(text)
    composer = Composer(path, surrogates=pure)
    try:
        composer.compose(_events(text, pure))
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = error.problem or error.context or "cannot be parsed"
        raise SourceError(
            [Diagnostic(path, line, col, f"invalid YAML: {problem}", "yaml-syntax")]
        ) from None
    except YAMLError as error:
        raise SourceError(
            [Diagnostic(path, 1, 1, f"invalid YAML: {error}", "yaml-syntax")]
        ) from None
    if composer.problems:
        raise SourceError(sorted(composer.problems))
    data = composer.root
    if composer.documents == 0:
        raise SourceError(
            [Diagnostic(path, 1, 1, "the file is empty; it must hold a mapping", "top-level")]
        )
    if not isinstance(data, dict):
        where = _position(composer.root_position) or Position(1, 1)
        raise SourceError(
            [
                Diagnostic(
                    path,
                    where.line,
                    where.col,
                    f"the top-level value must be a mapping, not {json_type(data)}",
                    "top-level",
                )
            ]
        )
    if composer.aliased and composer.root_weight > MAX_FILE_BYTES:
        raise SourceError(
            [
                Diagnostic(
                    path,
                    0,
                    0,
                    f"with its aliases expanded, as JSON has none, this file's values take more "
                    f"than {MAX_FILE_BYTES:,} bytes, which the server refuses; use fewer aliases",
                    "yaml-alias",
                )
            ]
        )
    values, keys = composer.values, composer.keys
    return Document(
        path, data, lambda p: _position(values.get(p)), lambda p: _position(keys.get(p)), raw
    )
