"""requirements.txt pins every package the workbench runs with, indirect ones included, to the version
installed and tested: an unpinned one changes under a deployment (redis-py 8 came in through
channels-redis, and its new timeouts closed sockets). The tools' packages are pinned too, apart."""

import re
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from packaging.requirements import Requirement

REQUIREMENTS = Path(__file__).resolve().parents[2] / "requirements.txt"
TOOLING = "# Tests and tooling"


def key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def sections() -> tuple[list[Requirement], list[Requirement]]:
    """(run time, tests and tooling), each line a requirement."""
    run_time, tooling = REQUIREMENTS.read_text().split(TOOLING, 1)

    def parse(text: str) -> list[Requirement]:
        lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
        return [Requirement(line) for line in lines if line]

    return parse(run_time), parse(tooling)


def needed(roots: list[Requirement]) -> dict[str, str]:
    """Every installed distribution ``roots`` need on this platform, by key: its installed version."""
    found: dict[str, tuple[str, set[str]]] = {}
    pending = [(root.name, set(root.extras)) for root in roots]
    while pending:
        name, extras = pending.pop()
        seen = found.get(key(name))
        if seen is not None and extras <= seen[1]:
            continue
        dist = distribution(name)
        extras |= seen[1] if seen else set()
        found[key(name)] = (dist.version, extras)
        for line in dist.requires or []:
            requirement = Requirement(line)
            marker = requirement.marker
            if marker is None or any(marker.evaluate({"extra": extra}) for extra in extras | {""}):
                pending.append((requirement.name, set(requirement.extras)))
    return {name: version for name, (version, _) in found.items()}


def test_every_requirement_is_pinned_to_the_installed_version():
    run_time, tooling = sections()
    for requirement in run_time + tooling:
        (spec,) = requirement.specifier
        assert spec.operator == "==", f"{requirement} is not pinned with =="
        try:
            installed = distribution(requirement.name).version
        except PackageNotFoundError:
            installed = "not installed"
        assert installed == spec.version, f"{requirement.name}: pinned {spec.version}, installed {installed}"


def test_what_the_workbench_runs_with_is_pinned_in_the_run_time_section():
    run_time, _ = sections()
    pinned = {key(requirement.name) for requirement in run_time}
    assert sorted(set(needed(run_time)) - pinned) == []


def test_what_the_tools_run_with_is_pinned_too():
    run_time, tooling = sections()
    pinned = {key(requirement.name) for requirement in run_time + tooling}
    assert sorted(set(needed(tooling)) - pinned) == []
