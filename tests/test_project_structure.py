"""The project's structure: no import cycle, the layers of docs/architecture.md, module sizes.

The graph is read from the source with :mod:`ast` (nothing is imported), from every
first-party module: ``config``, ``judging``, ``evaluation``, ``embedded``, ``scripts``,
``benchmarks`` and the tests. An edge ``a → b`` is any ``import`` in ``a`` that loads
``b`` — at the top, inside a function or a class alike (a cycle through an in-function
import is still a cycle); only ``if TYPE_CHECKING:`` blocks, which never run, are left
out. ``from p import x`` is an edge to the module ``p.x`` when there is one, else to
``p`` (its ``__init__``), as grimp/import-linter count them.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRST_PARTY = (
    "config", "common", "people", "work", "catalog", "listening", "ingest", "relevance", "crowd", "demo", "judging", "evaluation", "embedded", "scripts", "benchmarks", "tests",
)  # fmt: skip
FRAMEWORKS = ("django", "rest_framework", "drf_spectacular", "celery")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    found = {}
    for top in FIRST_PARTY:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" not in path.parts:
                found[module_name(path)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST):
    """Every Import/ImportFrom node that can run (not under ``if TYPE_CHECKING:``)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


@cache
def imported_names(module: str) -> tuple[str, ...]:
    """Every dotted name ``module`` imports (first-party or not), resolved."""
    path = modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = []
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        for alias in node.names:
            candidate = f"{base}.{alias.name}"
            names.append(candidate if candidate in modules() else base)
    return tuple(names)


@cache
def graph() -> dict[str, set[str]]:
    return {m: {n for n in imported_names(m) if n in modules()} for m in modules()}


def cycles() -> list[list[str]]:
    """The strongly connected components with more than one module (or a self-import)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:  # Tarjan's algorithm (the graph is small: recursion is fine)
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph()[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph()[v]:
                found.append(sorted(component))

    for v in sorted(graph()):
        if v not in index:
            visit(v)
    return found


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_graph_sees_the_whole_project():
    # A walk that found nothing would pass every rule below: check that it sees the
    # modules and edges every reader knows are there.
    assert {"config.settings", "catalog.models", "evaluation.core.significance"} <= set(graph())
    assert "evaluation.core._validation" in graph()["evaluation.core.significance"]
    assert "work.handoff" in graph()["crowd.services.answers"]


def test_no_module_imports_itself_through_others():
    assert cycles() == []


CORE_TESTS_MAY_USE = ("tests.helpers.shared_data",)
"""Django-free helpers the core's own tests share with the Django-side tests."""


def test_the_numerical_core_imports_no_django_and_nothing_above_it():
    def wrong(module: str, name: str) -> bool:
        if any(_under(name, f) for f in FRAMEWORKS):
            return True
        if _under(name, "evaluation.core") or not any(_under(name, p) for p in FIRST_PARTY):
            return False
        return not (_under(module, "evaluation.core.tests") and name in CORE_TESTS_MAY_USE)

    found = {
        module: sorted(name for name in imported_names(module) if wrong(module, name))
        for module in modules()
        if _under(module, "evaluation.core")
    }
    assert {m: names for m, names in found.items() if names} == {}


def test_judging_hands_over_to_evaluation_by_task_name_and_never_imports_it():
    # ARCHITECTURE: judging may call the core; the evaluation Django layer sits above it.
    wrong = {
        module: sorted(
            name
            for name in imported_names(module)
            if _under(name, "evaluation") and not _under(name, "evaluation.core")
        )
        for module in modules()
        if module.split(".")[0]
        in (
            "common",
            "people",
            "work",
            "catalog",
            "listening",
            "ingest",
            "relevance",
            "crowd",
            "judging",
        )
    }
    assert {m: names for m, names in wrong.items() if names} == {}


def test_background_work_is_shared_by_both_apps_and_imports_neither():
    # ARCHITECTURE: work/ sits below judging and evaluation, beside the core.
    wrong = {
        module: sorted(
            name
            for name in imported_names(module)
            if any(_under(name, top) for top in FIRST_PARTY if top != "work")
        )
        for module in modules()
        if module
        in (
            "work",
            "work.limits",
            "work.queues",
            "work.runs",
            "work.send",
            "work.state",
            "work.sweep",
            "work.models.work",
        )
    }
    assert {m: names for m, names in wrong.items() if names} == {}


MAX_LINES = 450
LONG_BECAUSE = "This module is long because"


def test_a_module_over_450_lines_says_at_its_top_why_it_is_long():
    # docs/architecture.md: a module that outgrows a screenful of responsibilities
    # becomes a package; one that stays long says why in its docstring.
    unexplained = []
    for module, path in modules().items():
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MAX_LINES:
            docstring = ast.get_docstring(ast.parse(text)) or ""
            if LONG_BECAUSE not in docstring:
                unexplained.append(f"{module} ({text.count(chr(10))} lines)")
    assert unexplained == []
