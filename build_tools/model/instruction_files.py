"""Instruction files: a role's ``instructionsFile``, read and inlined as the server will see it.

A bundle file may name a text file instead of writing a role's instructions in place; reading
one (the path rules, the catalog's bounds, the final newline) is its own concern, kept apart from
finding and reading the catalog's files in :mod:`build_tools.model.catalog`, which calls it for
every bundle file it reads.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from build_tools.diagnostics import Diagnostic
from build_tools.sources.files import TooLarge, describe
from build_tools.sources.json_reader import MAX_FILE_BYTES, Document, SourceError, decode_utf8

if TYPE_CHECKING:
    from build_tools.model.catalog import CatalogSource

INSTRUCTIONS_FILE = "instructionsFile"


def inline_instruction_files(source: CatalogSource, document: Document) -> list[Diagnostic]:
    """Replace each role's ``instructionsFile`` by the text it names, as the server will see it."""
    problems: list[Diagnostic] = []
    roles = document.data.get("roles")
    for position, role in enumerate(roles if isinstance(roles, list) else []):
        if not isinstance(role, dict) or INSTRUCTIONS_FILE not in role:
            continue
        slug = role.get("slug")
        who = f'role "{slug}"' if isinstance(slug, str) else f"role #{position + 1}"
        if "instructions" in role:
            problems.append(
                document.diagnostic(
                    ("roles", position, "instructions"),
                    f'{who}: give either "instructions" or "{INSTRUCTIONS_FILE}", not both',
                    "instructions-twice",
                )
            )
            del role[INSTRUCTIONS_FILE]  # said once: the schema need not call it unknown
            continue
        name = role[INSTRUCTIONS_FILE]
        try:
            resolved = _read_instruction_file(source, document.path, name)
        except SourceError as error:
            problems += error.diagnostics
            resolved = ("", f"({name})")  # a stand-in, so the schema does not report it again
        except ValueError as error:
            problems.append(
                document.diagnostic(
                    ("roles", position, INSTRUCTIONS_FILE), f"{who}: {error}", "instructions-file"
                )
            )
            resolved = ("", f"({name})")
        if resolved is None:
            continue  # this source has no instruction files; the schema reports the field
        relpath, text = resolved
        document.data["roles"][position] = {
            ("instructions" if key == INSTRUCTIONS_FILE else key): value
            for key, value in {**role, INSTRUCTIONS_FILE: text}.items()
        }
        if relpath:
            document.inlined[relpath] = position
    return problems


def _read_instruction_file(
    source: CatalogSource, naming_file: str, name: object
) -> tuple[str, str] | None:
    """(catalog-relative path, text) of an instruction file; ``ValueError`` says what is wrong.

    The path is relative to the file naming it and must stay inside the catalog; one final newline
    is dropped, as editors add it.
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f'"{INSTRUCTIONS_FILE}" must be a relative path to a text file')
    if "\0" in name:
        raise ValueError(f'"{INSTRUCTIONS_FILE}" "{name}" contains a NUL byte; no path has one')
    if name.startswith("/") or "\\" in name or re.match(r"^[A-Za-z]:", name):
        raise ValueError(f'"{INSTRUCTIONS_FILE}" "{name}" must be a relative path with "/"')
    relpath = posixpath.normpath(posixpath.join(posixpath.dirname(naming_file), name))
    if relpath == ".." or relpath.startswith("../"):
        raise ValueError(f'"{INSTRUCTIONS_FILE}" "{name}" leaves the catalog directory')
    try:
        raw = source.read_inside(relpath)
    except FileNotFoundError:
        raise ValueError(f'instructions file "{relpath}" does not exist') from None
    except PermissionError:
        raise ValueError(
            f'instructions file "{relpath}" resolves outside the catalog directory (a symlink?)'
        ) from None
    except TooLarge as error:
        raise ValueError(
            f'instructions file "{relpath}" {error.message}: inlined, its bundle file would be '
            f"over the {MAX_FILE_BYTES:,} bytes the server accepts"
        ) from None
    except OSError as error:
        raise ValueError(f'instructions file "{relpath}": {describe(error)}') from None
    if raw is None:
        return None
    text = decode_utf8(relpath, raw)
    # One final line break, as editors add it: "\n", or "\r\n" where the file uses those.
    text = text.removesuffix("\r\n") if text.endswith("\r\n") else text.removesuffix("\n")
    if not text.strip():
        raise ValueError(f'instructions file "{relpath}" is empty')
    return relpath, text
