"""The modules that say they are plain Python import without Django: each alone, in a fresh interpreter
with no settings, so a model imported on the way (a package's __init__ included) fails here rather than
in a notebook, a script or an outside agent that never configured Django."""

import os
import subprocess
import sys

import pytest

from tests.live import ROOT

PLAIN_PACKAGES = ("agents/analysis", "agents/tabular", "agents/sap")
PLAIN_MODULES = ("agents/operations/stats/charts.py", "agents/operations/stats/engine.py")
MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for path in [
        *(file for package in PLAIN_PACKAGES for file in (ROOT / package).glob("*.py")),
        *map(ROOT.joinpath, PLAIN_MODULES),
    ]
)
DJANGO_LOADED = "import sys, {module}; print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"


def test_the_plain_packages_are_all_there():
    assert {"agents.analysis", "agents.analysis.prose", "agents.tabular.reading", "agents.sap.__main__"} <= set(MODULES)
    assert "agents.operations.stats.charts" in MODULES


@pytest.mark.parametrize("module", MODULES)
def test_a_plain_python_module_imports_without_django(module):
    environment = {name: value for name, value in os.environ.items() if name != "DJANGO_SETTINGS_MODULE"}
    code = DJANGO_LOADED.format(module=module)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n", f"{module} imports {done.stdout}"
