"""Where a diagnostic points: ``relpath:line:col`` of a needle, a string or a value in a catalog
file, and the one line a check prints."""

from __future__ import annotations

from tests.support.catalogs import Catalog


def at(catalog: Catalog, relpath: str, needle: str, nth: int = 0) -> str:
    """``relpath:line:col`` of the nth occurrence of ``needle`` in the file."""
    text = catalog.path(relpath).read_text(encoding="utf-8")
    offset = -1
    for _ in range(nth + 1):
        offset = text.index(needle, offset + 1)
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"{relpath}:{line}:{col}"


def at_string(
    catalog: Catalog, relpath: str, text: str, nth: int = 0, *, closed: bool = False
) -> str:
    """``relpath:line:col`` of the nth JSON string that starts with ``text`` (of one that is
    exactly ``text``, when ``closed``): where its opening quote stands."""
    return at(catalog, relpath, f'"{text}"' if closed else f'"{text}', nth)


def value(catalog: Catalog, relpath: str, key: str, literal: str, nth: int = 0) -> str:
    """``relpath:line:col`` of the value in the nth ``"key": literal`` of the file."""
    place = at(catalog, relpath, f'"{key}": {literal}', nth)
    file, line, col = place.rsplit(":", 2)
    return f"{file}:{line}:{int(col) + len(key) + 4}"


def only_line(catalog: Catalog) -> str:
    result = catalog.check()
    assert result.code == 1, result.out
    assert len(result.lines) == 1, result.out
    return result.lines[0]
