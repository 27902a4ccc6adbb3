"""The rule ids the code can emit, read from the code itself (no catalog needs to trigger them).

A rule id is what a problem's ``rule`` holds (``build_tools.diagnostics.Diagnostic``). It reaches
a ``Diagnostic`` through many hands: ``Diagnostic(...)`` itself (its 5th field), helpers with a
``rule`` parameter (``Document.diagnostic``, the YAML composer's ``problem``, ``FetchError``,
``remote.Problem``, a local ``refuse``), a local ``rule = "..."``, a module constant, a default
value, a tuple appended to a list or yielded and unpacked into ``rule`` later, or an f-string
(``f"schema-{error.validator}"``). This module follows each of those in the syntax tree.

Whatever it meets in a rule's place that it cannot follow is reported as *unresolved*, so a new
way of passing a rule id makes the docs test fail until this module learns it, rather than
letting an undocumented id through.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.support import REPO

SOURCES = (REPO / "build_tools", REPO / "site_plugins")
RULE = "rule"


@dataclass
class Found:
    ids: set[str] = field(default_factory=set)
    """Every literal rule id."""
    prefixes: set[str] = field(default_factory=set)
    """The fixed start of every rule id made by an f-string (``schema-``)."""
    unresolved: list[str] = field(default_factory=list)
    """``file:line: expression`` for each rule expression this module cannot follow."""


@dataclass(frozen=True)
class _Scope:
    module: Path
    function: ast.FunctionDef | ast.AsyncFunctionDef | None


Function = ast.FunctionDef | ast.AsyncFunctionDef


def _modules(roots: tuple[Path, ...]) -> dict[Path, ast.Module]:
    return {
        path: ast.parse(path.read_text(encoding="utf-8"), str(path))
        for root in roots
        for path in sorted(root.rglob("*.py"))
    }


def _is_dataclass(node: ast.ClassDef) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name == "dataclass":
            return True
    return False


def _positional(function: Function, method: bool) -> list[ast.arg]:
    params = [*function.args.posonlyargs, *function.args.args]
    return params[1:] if method and params and params[0].arg in ("self", "cls") else params


def _defaults(function: Function) -> dict[str, ast.expr]:
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    found = {
        p.arg: d
        for p, d in zip(
            positional[len(positional) - len(args.defaults) :], args.defaults, strict=True
        )
    }
    found.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d})
    return found


class _Code:
    def __init__(self, roots: tuple[Path, ...]) -> None:
        self.modules = _modules(roots)
        self.found = Found()
        self.constants: dict[str, list[tuple[_Scope, ast.expr]]] = {}
        self.functions: dict[str, list[tuple[Path, Function, bool]]] = {}
        self.takers: dict[str, set[int]] = {}  # callable name -> positions of its rule argument
        self.enclosing: dict[ast.AST, _Scope] = {}
        self._seen: set[tuple[int, str]] = set()
        for path, module in self.modules.items():
            self._index(path, module)
        self._unresolved_defaults = list(self.found.unresolved)

    def _index(self, path: Path, module: ast.Module) -> None:
        for statement in module.body:
            if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
                targets = (
                    statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                )
                for target in targets:
                    if isinstance(target, ast.Name):
                        scope = _Scope(path, None)
                        self.constants.setdefault(target.id, []).append((scope, statement.value))
        self._walk(path, module, None, in_class=None)

    def _walk(
        self, path: Path, node: ast.AST, function: Function | None, in_class: ast.ClassDef | None
    ) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                method = in_class is not None and function is None
                self.functions.setdefault(child.name, []).append((path, child, method))
                positions = [i for i, p in enumerate(_positional(child, method)) if p.arg == RULE]
                if positions or any(p.arg == RULE for p in child.args.kwonlyargs):
                    name = (
                        in_class.name
                        if method and child.name == "__init__" and in_class
                        else child.name
                    )
                    self.takers.setdefault(name, set()).update(positions)
                default = _defaults(child).get(RULE)
                if default is not None:
                    self.rule_expression(default, _Scope(path, function))
                self._walk(path, child, child, None)
            elif isinstance(child, ast.ClassDef):
                if _is_dataclass(child):
                    fields = [
                        s
                        for s in child.body
                        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
                    ]
                    for position, statement in enumerate(fields):
                        assert isinstance(statement.target, ast.Name)
                        if statement.target.id == RULE:
                            self.takers.setdefault(child.name, set()).add(position)
                            if statement.value is not None:
                                self.rule_expression(statement.value, _Scope(path, function))
                self._walk(path, child, function, child)
            else:
                self.enclosing[child] = _Scope(path, function)
                self._walk(path, child, function, in_class)

    # --- the calls that take a rule -----------------------------------------------------------

    def calls(self) -> Iterator[tuple[ast.Call, _Scope]]:
        for node, scope in self.enclosing.items():
            if isinstance(node, ast.Call):
                yield node, scope

    def collect(self) -> Found:
        before = -1
        while before != sum(map(len, self.takers.values())):  # until no new rule-taking helper
            before = sum(map(len, self.takers.values()))
            self._seen.clear()
            self.found = Found(self.found.ids, self.found.prefixes, [*self._unresolved_defaults])
            for call, scope in self.calls():
                func = call.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                for keyword in call.keywords:
                    if keyword.arg == RULE:
                        self.rule_expression(keyword.value, scope)
                for position in self.takers.get(name or "", ()):
                    args = self._spread(call, scope)
                    if args is None:
                        self._unresolved(call, scope)
                    elif position < len(args):
                        self.rule_expression(args[position], scope)
        return self.found

    def _spread(self, call: ast.Call, scope: _Scope) -> list[ast.expr] | None:
        """The call's positional arguments, a ``*f(...)`` spread into as many as ``f``'s
        ``tuple[...]`` return annotation says; ``None`` for a spread of unknown length."""
        args: list[ast.expr] = []
        for arg in call.args:
            if not isinstance(arg, ast.Starred):
                args.append(arg)
                continue
            length = self._length(arg.value, scope)
            if length is None:
                return None
            args += [arg] * length
        return args

    def _length(self, node: ast.expr, scope: _Scope) -> int | None:
        if isinstance(node, ast.Tuple):
            return len(node.elts)
        if not isinstance(node, ast.Call):
            return None
        lengths = set()
        for _path, function, _method in self._defined(node, scope):
            returns = function.returns
            if (
                isinstance(returns, ast.Subscript)
                and isinstance(returns.value, ast.Name)
                and returns.value.id == "tuple"
                and isinstance(returns.slice, ast.Tuple)
                and not any(isinstance(e, ast.Constant) for e in returns.slice.elts)  # no ...
            ):
                lengths.add(len(returns.slice.elts))
            else:
                return None
        return lengths.pop() if len(lengths) == 1 else None

    def _defined(self, call: ast.Call, scope: _Scope) -> list[tuple[Path, Function, bool]]:
        """The functions a call may run, by name: those of the caller's module if it has any."""
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        candidates = self.functions.get(name, [])
        here = [c for c in candidates if c[0] == scope.module]
        return here or candidates

    # --- what an expression in a rule's place can hold ---------------------------------------

    def rule_expression(self, node: ast.expr, scope: _Scope) -> None:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                if node.value:  # "" is Diagnostic's default: no rule
                    self.found.ids.add(node.value)
            elif node.value is not None:
                self._unresolved(node, scope)
        elif isinstance(node, ast.JoinedStr):
            prefix = ""
            for part in node.values:
                if not isinstance(part, ast.Constant):
                    break
                prefix += str(part.value)
            self.found.prefixes.add(prefix)
        elif isinstance(node, ast.IfExp):
            self.rule_expression(node.body, scope)
            self.rule_expression(node.orelse, scope)
        elif isinstance(node, ast.BoolOp):
            for value in node.values:
                self.rule_expression(value, scope)
        elif _is_field(node):  # a dataclass field's default: ``field(default="...")``
            assert isinstance(node, ast.Call)
            for keyword in node.keywords:
                if keyword.arg == "default":
                    self.rule_expression(keyword.value, scope)
        elif isinstance(node, ast.Attribute) and node.attr == RULE:
            pass  # a rule handed on (``self.rule``, ``failure.rule``): set where it was made
        elif isinstance(node, ast.Name):
            self._name(node, scope)
        else:
            self._unresolved(node, scope)

    def _name(self, node: ast.Name, scope: _Scope) -> None:
        key = (id(scope.function), node.id)
        if key in self._seen:
            return
        self._seen.add(key)
        function = scope.function
        if function is not None:
            params = [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]
            if any(p.arg == node.id for p in params):
                self._parameter(function, node.id, scope)
                return
            local = list(self._local(function, node.id, scope))
            if local:
                for value, where in local:
                    if value is not None:
                        self.rule_expression(value, where)
                return
        constants = self.constants.get(node.id)
        if not constants:
            self._unresolved(node, scope)
        for where, value in constants or ():
            self.rule_expression(value, where)

    def _parameter(self, function: Function, name: str, scope: _Scope) -> None:
        """A parameter in a rule's place: its function takes a rule there (and its default)."""
        default = _defaults(function).get(name)
        if default is not None:
            self.rule_expression(default, scope)
        for _path, defined, method in self.functions.get(function.name, []):
            if defined is function:
                params = _positional(function, method)
                positions = [i for i, p in enumerate(params) if p.arg == name]
                self.takers.setdefault(function.name, set()).update(positions)

    def _local(
        self, function: Function, name: str, scope: _Scope
    ) -> Iterator[tuple[ast.expr | None, _Scope]]:
        """Every value bound to ``name`` in ``function`` (assignments and loop targets)."""
        for node in ast.walk(function):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id == name:
                        yield node.value, scope
                    elif isinstance(target, ast.Tuple) and _holds(target, name):
                        yield from self._unpacked(node.value, _index(target, name), scope)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                if node.target.id == name:
                    yield node.value, scope
            elif isinstance(node, ast.For | ast.comprehension) and _holds(node.target, name):
                if isinstance(node.target, ast.Name):
                    yield from self._elements(node.iter, scope)
                else:
                    assert isinstance(node.target, ast.Tuple)
                    yield from self._unpacked(node.iter, _index(node.target, name), scope)

    def _elements(
        self, iterable: ast.expr, scope: _Scope
    ) -> Iterator[tuple[ast.expr | None, _Scope]]:
        if isinstance(iterable, ast.Tuple | ast.List | ast.Set):
            for element in iterable.elts:
                yield element, scope
        else:
            yield iterable, scope  # followed, or reported unresolved, as a rule expression

    def _unpacked(
        self, source: ast.expr, position: int, scope: _Scope
    ) -> Iterator[tuple[ast.expr | None, _Scope]]:
        """Element ``position`` of every tuple ``source`` yields: a function's yields, or what is
        appended to a list attribute (``self.problems.append((...))``)."""
        tuples: list[tuple[ast.expr, _Scope]] = []
        if isinstance(source, ast.Call):
            for path, function, _method in self._defined(source, scope):
                where = _Scope(path, function)
                for node in ast.walk(function):
                    if isinstance(node, ast.Yield | ast.Return) and node.value is not None:
                        tuples.append((node.value, where))
        elif isinstance(source, ast.Attribute):  # appended to in the same module
            for call, where in self.calls():
                func = call.func
                if (
                    where.module == scope.module
                    and isinstance(func, ast.Attribute)
                    and func.attr == "append"
                    and isinstance(func.value, ast.Attribute)
                    and func.value.attr == source.attr
                    and call.args
                ):
                    tuples.append((call.args[0], where))
        if not tuples:
            self._unresolved(source, scope)
        for value, where in tuples:
            if isinstance(value, ast.Tuple) and position < len(value.elts):
                yield value.elts[position], where
            else:
                self._unresolved(value, where)

    def _unresolved(self, node: ast.AST, scope: _Scope) -> None:
        line = getattr(node, "lineno", 0)
        where = (
            scope.module.relative_to(REPO) if scope.module.is_relative_to(REPO) else scope.module
        )
        self.found.unresolved.append(f"{where}:{line}: {ast.unparse(node)}")


def _is_field(node: ast.expr) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) == "field"


def _holds(target: ast.expr, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(target))


def _index(target: ast.Tuple, name: str) -> int:
    for position, element in enumerate(target.elts):
        if isinstance(element, ast.Name) and element.id == name:
            return position
    return -1


def rule_ids(roots: tuple[Path, ...] = SOURCES) -> Found:
    """Every rule id the code under ``roots`` can put in a ``Diagnostic``."""
    return _Code(roots).collect()
