"""The YAML 1.2 core schema's resolution of plain scalars: what the reader resolves by and what
the writer must quote. A module of its own, without ruamel.yaml, so writing YAML loads no parser."""

from __future__ import annotations

import re

TAG = "tag:yaml.org,2002:"
NULL, BOOL, INT, FLOAT, STR = (f"{TAG}{t}" for t in ("null", "bool", "int", "float", "str"))
MAP, SEQ = f"{TAG}map", f"{TAG}seq"

# YAML 1.2.2, 10.3.2: the core schema's tag resolution of plain scalars, and nothing else.
PLAIN = [
    (NULL, re.compile(r"(?:null|Null|NULL|~|)\Z")),
    (BOOL, re.compile(r"(?:true|True|TRUE|false|False|FALSE)\Z")),
    (INT, re.compile(r"(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\Z")),
    (
        FLOAT,
        re.compile(
            r"(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z"
        ),
    ),
]

PLAIN_FIRST = frozenset("-+.0123456789nNtTfF~")
"""How every plain scalar the core schema reads as other than a string begins."""

CORE_PATTERNS = tuple(pattern for _tag, pattern in PLAIN)
"""Plain scalars the core schema reads as something other than a string."""
