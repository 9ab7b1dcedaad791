"""The house's floors, read from the code's own imports (every import, including those inside
functions): the protocol kernel at the bottom, then sessions, agents, the browser workspace, and the
project (settings, URLs, ASGI) on top. A module imports only from its own floor or below, and no
modules import each other in a loop."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[2]
# Each top-level package is a floor: the kernel, the CHAP app, the agents, the browser workspace, the project.
FLOORS = {
    "protocol": 0,
    "sessions": 1,
    "agents": 2,
    "workspace": 3,
    "workbench": 4,
}


def floor_of(module: str) -> int:
    prefix = max((p for p in FLOORS if module == p or module.startswith(p + ".")), key=len)
    return FLOORS[prefix]


def project_modules() -> dict[str, Path]:
    found = {}
    for package in ("protocol", "sessions", "agents", "workspace", "workbench"):
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_graph() -> nx.DiGraph:
    modules = project_modules()

    def module_for(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                named = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                named = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            else:
                continue
            for target in filter(None, map(module_for, named)):
                if target != name and not name.startswith(target + "."):  # a package's own __init__
                    graph.add_edge(name, target, line=node.lineno)
    return graph


@pytest.fixture(scope="module")
def graph():
    return import_graph()


def test_the_graph_is_read_from_the_code(graph):
    assert graph.has_edge("agents.sap_service", "sessions.log")
    assert graph.has_edge("workspace.views.conversation", "agents.gates")
    assert graph.has_edge("sessions.chap.schemas", "protocol.validation")


def test_no_module_imports_from_a_floor_above_its_own(graph):
    upward = [
        f"{source}:{data['line']} imports {target}"
        for source, target, data in graph.edges(data=True)
        if floor_of(target) > floor_of(source)
    ]
    assert upward == []


def test_no_modules_import_each_other_in_a_loop(graph):
    assert list(nx.simple_cycles(graph)) == []


def test_the_kernel_stands_on_nothing_of_the_project(graph):
    kernel = [m for m in graph if floor_of(m) == 0]
    assert kernel and all(floor_of(target) == 0 for m in kernel for target in graph.successors(m))
