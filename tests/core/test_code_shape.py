"""The shape the code keeps, so a new contributor can read it: modules of at most 450 lines,
functions of at most 6 positional parameters, and nothing that changes the process rolecat runs
in (no ``.pth`` file, no write to ``os.environ``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.support.paths import REPO

PACKAGES = ("build_tools", "site_plugins")
MOST_LINES = 450
MOST_POSITIONAL = 6


def modules() -> Iterator[Path]:
    for package in PACKAGES:
        yield from sorted((REPO / package).rglob("*.py"))


def test_no_module_is_longer_than_450_lines() -> None:
    long = {
        path.relative_to(REPO).as_posix(): lines
        for path in modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}


def positional(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    arguments = [*function.args.posonlyargs, *function.args.args]
    return [a.arg for a in arguments if a.arg not in ("self", "cls")]


def test_no_function_takes_more_than_6_positional_parameters() -> None:
    many = [
        f"{path.relative_to(REPO).as_posix()}:{node.lineno} {node.name}"
        for path in modules()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and len(positional(node)) > MOST_POSITIONAL
    ]
    assert many == []


def writes_environment(tree: ast.AST) -> Iterator[int]:
    """Lines that assign, delete or update an item of ``os.environ``, or call ``os.putenv``."""
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = ast.unparse(node.func.value)
            if (owner == "os.environ" and node.func.attr in ("update", "setdefault", "pop")) or (
                owner == "os" and node.func.attr in ("putenv", "unsetenv")
            ):
                yield node.lineno
        for target in targets:
            if isinstance(target, ast.Subscript) and ast.unparse(target.value) == "os.environ":
                yield node.lineno


def test_nothing_writes_the_environment_of_the_process() -> None:
    writes = [
        f"{path.relative_to(REPO).as_posix()}:{line}"
        for path in modules()
        for line in writes_environment(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert writes == []


def test_the_environment_check_finds_each_kind_of_write() -> None:
    source = (
        'os.environ["A"] = "1"\nos.environ.setdefault("B", "1")\n'
        'os.putenv("C", "1")\ndel os.environ["D"]\nos.environ.get("E")\n'
    )
    assert sorted(writes_environment(ast.parse(source))) == [1, 2, 3, 4]


def test_no_file_runs_at_the_start_of_every_python_process() -> None:
    found = [*REPO.glob("*.pth"), *(p for pkg in PACKAGES for p in (REPO / pkg).rglob("*.pth"))]
    assert found == []
