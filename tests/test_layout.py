"""Shared test helpers live in tests/support/: no module under tests/ imports a test module, a
conftest or any other tests module outside that package (fixtures reach tests through conftest)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def foreign_imports(source: str, relpath: str) -> list[str]:
    """The tests modules outside tests.support that the file at ``relpath`` imports."""
    package = relpath.removesuffix(".py").split("/")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *filter(None, [base])])
            # ``from tests import conftest`` is tests.conftest; ``from tests.x import y`` is tests.x
            found += [f"{base}.{alias.name}" if base == "tests" else base for alias in node.names]
    return [
        name
        for name in found
        if (name == "tests" or name.startswith("tests."))
        and not (name == "tests.support" or name.startswith("tests.support."))
    ]


def test_no_test_module_or_conftest_is_imported() -> None:
    found = {}
    for path in sorted(TESTS.rglob("*.py")):
        relpath = path.relative_to(TESTS.parent).as_posix()
        if names := foreign_imports(path.read_text(encoding="utf-8"), relpath):
            found[relpath] = names
    assert found == {}, "move what is shared to tests/support/ (fixtures to a conftest)"


def test_each_kind_of_import_from_outside_tests_support_is_found() -> None:
    source = (
        "from tests.core.test_rules import value\n"
        "from .conftest import git\n"
        "from ..site import helpers\n"
        "import tests.history_repo\n"
        "from tests import conftest, support\n"
        "def f():\n    from tests.site.conftest import SITE_URL\n"
        "from tests.support.cli import run\nfrom tests.support import REPO\nimport pytest\n"
    )
    assert foreign_imports(source, "tests/toolchain/test_x.py") == [
        "tests.core.test_rules",
        "tests.toolchain.conftest",
        "tests.site",
        "tests.history_repo",
        "tests.conftest",
        "tests.site.conftest",
    ]
