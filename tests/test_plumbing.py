"""The tests' own plumbing: tests share their people and helpers through conftest fixtures and plain
helper modules (tests/people.py, tests/sockets.py, ...), never by importing another test module, so
no fixture is imported under a name a test then shadows (and no F811 waiver is needed to hide that)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
WAIVER = re.compile(r"noqa:[^\n]*\bF811\b")


def is_test_module(module: str) -> bool:
    """``tests.x.test_y`` or ``tests.x.conftest``: modules pytest collects or loads itself."""
    last = module.rsplit(".", 1)[-1]
    return module.split(".")[0] == "tests" and (last.startswith("test_") or last == "conftest")


def imported_test_modules(source: str, package: str) -> list[str]:
    """The test modules ``source`` (a module of ``package``) imports, at any depth of its code."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if is_test_module(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]) if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            candidates = [module] + [f"{module}.{alias.name}" for alias in node.names]
            found += [name for name in candidates if is_test_module(name)]
    return found


def modules_of_tests():
    for path in sorted(TESTS.rglob("*.py")):
        yield path, ".".join(path.relative_to(TESTS.parent).parent.parts)


def test_the_reader_finds_every_way_of_importing_a_test_module():
    sources = [
        "from tests.sessions.test_consumer import cookie_headers",
        "from tests.agents import test_builtin_agents",
        "import tests.e2e.test_servers",
        "from tests.e2e.conftest import requires_scale",
        "from .test_graph import build",
        "def later():\n    from ..test_api import api_as",
    ]
    assert all(imported_test_modules(source, "tests.sessions.chap") for source in sources)
    assert not imported_test_modules("from tests.sockets import run\nfrom tests import people", "tests.sessions")


def test_no_test_module_imports_another():
    imports = {
        str(path.relative_to(TESTS.parent)): found
        for path, package in modules_of_tests()
        if (found := imported_test_modules(path.read_text(), package))
    }
    assert imports == {}


def test_no_test_waives_a_redefined_name():
    waived = [
        f"{path.relative_to(TESTS.parent)}:{number}"
        for path, _ in modules_of_tests()
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if WAIVER.search(line)
    ]
    assert waived == []
