"""The layers of ``services/`` (its ``__init__`` docstring): every import points down, and no module
imports one that imports it back, however indirectly. Imports inside functions and under
``TYPE_CHECKING`` count too: a lazy import is still a dependency."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# the lowest layer first; a module may import its own layer's modules and those of lower layers
LAYERS: list[tuple[str, ...]] = [
    ("services.ops",),
    ("services.store",),
    ("services.commands",),
    ("services.projector",),  # the projector itself; its worker process is an entrypoint, below
    ("services.runtime",),
    ("services.projector.worker",),
    ("services.gateway",),  # hosts a worker thread on the embedded default
    ("services.cli",),
]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> int:
    """The layer of the longest prefix that names ``module`` (so projector.worker beats projector)."""
    best, rank = -1, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), index
    if rank < 0:
        raise AssertionError(f"{module} is in no layer: add its package to LAYERS and to services/__init__.py")
    return rank


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The modules of ``services`` that a file imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                # `from services.x import y` depends on the module services.x.y when y is one
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in known else node.module)
    return {name for name in found if name in known}


def graph(package: str = "services") -> dict[str, set[str]]:
    files = {module_name(path): path for path in (ROOT / package).rglob("*.py")}
    known = set(files)
    return {module: imports_of(path, known) - {module} for module, path in files.items()}


def upward(edges: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{module} (layer {layer_of(module)}) imports {target} (layer {layer_of(target)})"
        for module, targets in edges.items()
        for target in targets
        if layer_of(target) > layer_of(module)
    )


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every import cycle, found by depth-first search (each reported once, from its first module)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(edges.get(module, ())):
            if state.get(target) == 1:
                found.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    return found


def test_every_module_of_services_is_in_a_layer() -> None:
    for module in graph():
        if module != "services":
            layer_of(module)


def test_imports_point_down() -> None:
    assert upward(graph()) == []


def test_no_import_cycles() -> None:
    assert cycles(graph()) == []


def test_the_rules_and_projections_import_no_service() -> None:
    for package in ("domain", "projections"):
        for path in (ROOT / package).rglob("*.py"):
            text = ast.parse(path.read_text())
            for node in ast.walk(text):
                if isinstance(node, ast.ImportFrom | ast.Import):
                    names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                    assert not any(name.startswith("services") for name in names), path


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        ({"services.store.keys": {"services.runtime"}, "services.runtime": set()}, 1),
        ({"services.ops.logs": {"services.cli.main"}, "services.cli.main": set()}, 1),
        ({"services.runtime": {"services.ops.logs"}, "services.ops.logs": set()}, 0),
    ],
)
def test_the_check_catches_an_upward_import(edges: dict[str, set[str]], expected: int) -> None:
    assert len(upward(edges)) == expected


def test_the_check_catches_a_cycle() -> None:
    edges = {"services.commands.a": {"services.commands.b"}, "services.commands.b": {"services.commands.a"}}
    assert cycles(edges) == [["services.commands.a", "services.commands.b", "services.commands.a"]]
