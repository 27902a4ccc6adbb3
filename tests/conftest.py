"""What every test shares."""

from __future__ import annotations

import pytest

from build_tools.report import FORMAT_ENV


@pytest.fixture(autouse=True)
def text_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests read rolecat's default output: a ROLECAT_FORMAT set in the shell must not change it."""
    monkeypatch.delenv(FORMAT_ENV, raising=False)
