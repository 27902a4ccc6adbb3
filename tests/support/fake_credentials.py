"""Strings shaped like each provider's credentials, made at import from a seeded generator."""

from __future__ import annotations

import random
import string

RNG = random.Random(13)


def _random(alphabet: str, length: int) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(length))


ALNUM = string.ascii_letters + string.digits
# Shaped like each provider's credentials, assembled here so no credential-like literal sits in
# the repository for other scanners to trip over.
SECRETS: dict[str, str] = {
    "GitHub Token": "ghp" + "_" + _random(ALNUM, 36),
    "AWS Access Key": "AKIA" + _random(string.ascii_uppercase + string.digits, 16),
    "Stripe Access Key": "sk" + "_live_" + _random(ALNUM, 24),
    "Slack Token": "xoxb"
    + f"-{_random(string.digits, 12)}-{_random(string.digits, 13)}-"
    + _random(string.ascii_lowercase + string.digits, 24),
    "OpenAI Token": "sk-proj-" + _random(ALNUM, 20) + "T3Blbk" + "FJ" + _random(ALNUM, 20),
    "GitLab Token": "glpat" + "-" + _random(ALNUM, 20),
    "Basic Auth Credentials": "postgres://app:" + _random(ALNUM, 12) + "@db.internal:5432/app",
}
PRIVATE_KEY = (
    "-----BEGIN RSA PRIVATE"
    + " KEY-----\n"
    + "\n".join(_random(ALNUM + "+/", 64) for _ in range(4))
    + "\n-----END RSA PRIVATE KEY-----"
)
JWT_HEADER = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"  # {"alg":"HS256","typ":"JWT"}
JWT = JWT_HEADER + ".eyJzdWIiOiJhZG1pbiJ9." + _random(ALNUM + "-_", 43)
