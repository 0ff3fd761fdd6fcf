"""Every package the code imports is declared in pyproject.toml, with a version range."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "src" / "tresfute"


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _imported(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module.split(".")[0])
    return {m for m in modules if m not in sys.stdlib_module_names and m != "tresfute"}


# Which extras each part of the package may use, beyond the core's dependencies.
EXTRAS_OF = {
    "web": ("web", "postgres"),  # the store imports psycopg only for a postgresql:// database
    "tui": ("tui",),
    # sb3 for an agent's seat, pygame and moviepy to show a game, pyspiel: each imported when used
    "envs": ("envs", "rl", "video", "openspiel"),
    "registration.py": ("envs",),  # registers the ids with Gymnasium when it is there
    "review_text.py": ("tui",),  # the review's table (Rich) when printed, not its JSON
    "cli.py": ("web", "postgres", "tui"),  # inside the commands that need them, with the extra named
}


def _requirements(extras: dict[str, list[str]], names: tuple[str, ...]) -> list[str]:
    return [r for name in names for r in extras[name] if not r.startswith("tresfute")]


def test_every_imported_package_is_declared_with_a_range_and_the_core_needs_no_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    base = project["dependencies"]
    extras = project["optional-dependencies"]
    every = _requirements(extras, ("web", "tui", "postgres", "envs", "rl", "video", "openspiel"))
    assert all(re.search(r">=.*<", r) for r in base + every), "each dependency pinned to a range"
    distributions = packages_distributions()
    missing = []
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE)
        declared = {_name(r) for r in base + _requirements(extras, EXTRAS_OF.get(relative.parts[0], ()))}
        for module in _imported(path):
            names = {d.lower().replace("_", "-") for d in distributions.get(module, [module])}
            if not names & declared:
                missing.append(f"{path.relative_to(ROOT)}: {module}")
    assert not missing, f"imported but not declared in pyproject.toml (or in an extra its part may not use): {missing}"


def test_all_holds_every_extra_but_rl_and_the_tests_install_all() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert extras["all"] == ["tresfute[web,tui,postgres,envs,video,openspiel]"]
    assert "tresfute[all]" in extras["test"]
