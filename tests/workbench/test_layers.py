"""The house's floors, read from the code: the protocol kernel at the bottom, then sessions, agents,
the browser workspace, and the project (settings, URLs, ASGI) on top. A module imports only from its
own floor or below (every import, including those inside functions), and no modules import each
other in a loop.

Imports are not the only way to lean on a floor above, so the same rule holds for what a module reads
without importing it: a model's foreign key (the app it points to; a key to a swappable setting such as
``settings.CHAP_AGENT_MODEL`` is a declared dependency, as ``AUTH_USER_MODEL`` is), an ORM lookup
through a relation into another app's fields (``agent__kind`` in sessions reads the agents' model,
allowed only for the fields of ``sessions.agent_model.AGENT_FIELDS``), a template name (one under
``templates/workspace/`` belongs to the workspace) and a URL namespace (``"workspace:thread"``)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

import networkx as nx
import pytest
from django.apps import apps
from django.conf import settings
from django.db import models

from sessions.agent_model import AGENT_FIELDS

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


# -- what a module reads without importing it --------------------------------------------------

RELATION_FIELDS = {"ForeignKey", "OneToOneField", "ManyToManyField"}
LOOKUP = re.compile(r"[a-z][a-z0-9_]*(?:__[a-z0-9_]+)+")
URL_NAME = re.compile(r"([a-z_]+):[\w-]+")
TEMPLATES = ROOT / "templates"


@dataclass(frozen=True)
class Read:
    source: str
    line: int
    target: str  # the module (or package) read from
    how: str  # "foreign key", "lookup", "template" or "url"
    what: str


def in_project(model: type[models.Model]) -> bool:
    return model.__module__.split(".")[0] in FLOORS


@dataclass(frozen=True)
class Known:
    """What the readers resolve names against, read once: the project's relations (forward keys and
    their reverse query names, each with the models it leads to and their fields), the settings that
    name a model as AUTH_USER_MODEL does, and the URL namespaces with the module that declares each."""

    relations: dict[str, dict[type[models.Model], frozenset[str]]]
    swappable: frozenset[str]
    namespaces: dict[str, str]


@cache
def known() -> Known:
    relations: dict[str, dict[type[models.Model], frozenset[str]]] = {}
    for model in filter(in_project, apps.get_models()):
        for field in model._meta.get_fields():
            target = field.related_model if field.is_relation else None
            if target is not None and in_project(target):
                fields = frozenset(f.name for f in target._meta.get_fields())
                relations.setdefault(field.name, {})[target] = fields
    swappable = frozenset(m._meta.swappable for m in apps.get_models(include_swapped=True) if m._meta.swappable)
    namespaces = {}
    for name, path in project_modules().items():
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "app_name" for t in node.targets):
                namespaces[ast.literal_eval(node.value)] = name
    return Known(relations, swappable, namespaces)


def _strings(tree: ast.AST) -> Iterator[tuple[str, int]]:
    """The string constants of a module and the keyword names of its calls (``filter(agent__kind=…)``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value, node.lineno
        elif isinstance(node, ast.keyword) and node.arg:
            yield node.arg, node.value.lineno


def _foreign_keys(name: str, tree: ast.AST) -> Iterator[Read]:
    for node in ast.walk(tree):
        called = getattr(node, "func", None)
        if (
            not isinstance(node, ast.Call)
            or getattr(called, "attr", getattr(called, "id", None)) not in RELATION_FIELDS
        ):
            continue
        to = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "to"), None)
        if isinstance(to, ast.Attribute) and getattr(to.value, "id", None) == "settings":
            if to.attr in known().swappable:
                continue  # a declared dependency, resolved by the setting
            to = ast.Constant(getattr(settings, to.attr))
        target = apps.get_model(to.value) if isinstance(to, ast.Constant) and "." in to.value else None
        if target is not None and in_project(target):
            yield Read(name, node.lineno, target.__module__, "foreign key", to.value)


def _lookups(name: str, tree: ast.AST) -> Iterator[Read]:
    agent_model = apps.get_model(settings.CHAP_AGENT_MODEL)
    for text, line in _strings(tree):
        if not LOOKUP.fullmatch(text):
            continue
        for step, field in pairwise(text.split("__")):
            for target, fields in known().relations.get(step, {}).items():
                if field not in fields:
                    continue  # a lookup such as __in or __isnull, not a field of the model
                if target is agent_model and field in AGENT_FIELDS:
                    continue  # through the declared contract
                yield Read(name, line, target.__module__, "lookup", text)


def _templates_and_urls(name: str, tree: ast.AST) -> Iterator[Read]:
    for text, line in _strings(tree):
        folder = text.split("/")[0]
        if folder in FLOORS and "/" in text and (TEMPLATES / text).exists():
            yield Read(name, line, folder, "template", text)
        named = URL_NAME.fullmatch(text)
        if named and named[1] in known().namespaces:
            yield Read(name, line, known().namespaces[named[1]], "url", text)


def reads(name: str, source: str) -> list[Read]:
    """What module ``name`` reads of the project's other modules without importing them."""
    tree = ast.parse(source)
    found = [*_templates_and_urls(name, tree)]
    if ".migrations" not in name:  # the migrations are the record of the models as they were
        found += [*_foreign_keys(name, tree), *_lookups(name, tree)]
    return found


@pytest.fixture(scope="module")
def all_reads():
    return [read for name, path in project_modules().items() for read in reads(name, path.read_text())]


def test_the_reads_are_found_in_the_code(all_reads):
    found = {(r.source, r.how, r.what) for r in all_reads}
    assert ("agents.models", "foreign key", "chap_sessions.WorkSession") in found
    assert ("sessions.selectors", "lookup", "memberships__user") in found
    assert ("workspace.views.listing", "url", "workspace:detail") in found
    assert ("workspace.views.session", "template", "workspace/detail.html") in found


def test_no_module_reads_a_floor_above_its_own(all_reads):
    upward = [
        f"{r.source}:{r.line} reads {r.target} ({r.how} {r.what!r})"
        for r in all_reads
        if floor_of(r.target) > floor_of(r.source)
    ]
    assert upward == []


@pytest.mark.parametrize(
    "code",
    [
        'agent = models.ForeignKey("agents.Agent", on_delete=models.CASCADE)',
        'rows = SessionAgent.objects.values_list("agent__description")',
        "rows = SessionAgent.objects.filter(agent__concurrency_limit=1)",
        'html = render_to_string("workspace/detail.html", {})',
        'url = reverse("workspace:detail", args=[1])',
    ],
)
def test_each_kind_of_upward_read_is_seen(code):
    read = reads("sessions.example", code)
    assert [floor_of(r.target) > floor_of("sessions.example") for r in read] == [True]


@pytest.mark.parametrize(
    "code",
    [
        "agent = models.ForeignKey(settings.CHAP_AGENT_MODEL, on_delete=models.CASCADE)",
        'rows = SessionAgent.objects.filter(agent__enabled=True).values_list("agent__name", "agent__roles")',
        "rows = SessionAgent.objects.filter(agent__in=agents, agent__isnull=False)",
    ],
)
def test_the_declared_agent_contract_is_not_an_upward_read(code):
    assert reads("sessions.example", code) == []
