"""rolecat's JSON report read back: one document, valid against the shipped schema."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import jsonschema

from tests.support.cli import Run


def report_schema() -> dict[str, Any]:
    text = resources.files("build_tools.schemas").joinpath("report.schema.json").read_text()
    schema: dict[str, Any] = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def json_report(result: Run) -> dict[str, Any]:
    """stdout is exactly one JSON document, valid against the shipped schema."""
    document: dict[str, Any] = json.loads(result.out)
    jsonschema.validate(document, report_schema())
    assert document["ok"] is (result.code == 0)
    return document
