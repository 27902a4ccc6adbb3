"""Fields named like credentials: the catalog is published on a public site, so none may exist.

A role (or its ``modelConfig``) with an ``apiKey`` would publish the key with the next build. The
schema already refuses unknown fields; for these it says what to do instead.
"""

from __future__ import annotations

import itertools
import re

_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
"""Words of a field name: ``apiKey``, ``api_key``, ``API-KEY``, ``X-Api-Key`` all hold api, key."""

CREDENTIAL_WORDS = frozenset(
    {
        "token",
        "secret",
        "secrets",
        "password",
        "passwd",
        "passphrase",
        "credential",
        "credentials",
        "apikey",
        "accesskey",
        "privatekey",
        "secretkey",
        "authkey",
        "authtoken",
        "accesstoken",
        "bearer",
        "authorization",
    }
)
"""A word, or two adjacent words run together, that marks a credential. ``tokens`` is not one:
``maxTokens`` is a count."""

ADVICE = "never put credentials in the catalog (it is published); reference it from the server's "
ADVICE += "environment instead"


def is_credential_name(name: str) -> bool:
    """Whether a field name says it holds a credential, in any case and with any separator."""
    words = [word.lower() for word in _WORDS.findall(name)]
    if name.lower() == "key":
        return True
    pairs = (a + b for a, b in itertools.pairwise(words))
    return any(word in CREDENTIAL_WORDS for word in (*words, *pairs))
