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


def test_every_imported_package_is_declared_with_a_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    base = project["dependencies"]
    extras = project["optional-dependencies"]
    # the environments (and their registration, which imports Gymnasium only when it is there)
    # may use the envs extra, and a trained agent's seat the rl extra; the web store may use the
    # postgres extra (it imports psycopg only for a postgresql:// database)
    optional = [r for e in ("envs", "rl", "video", "openspiel") for r in extras[e] if not r.startswith("tresfute")]
    postgres = extras["postgres"]
    assert all(re.search(r">=.*<", r) for r in base + optional + postgres), "each dependency pinned to a range"
    distributions = packages_distributions()
    missing = []
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE)
        may_use_extras = "envs" in relative.parts or relative.name == "registration.py"
        may_use_postgres = relative.parts == ("web", "store.py")
        extra = (optional if may_use_extras else []) + (postgres if may_use_postgres else [])
        declared = {_name(r) for r in base + extra}
        for module in _imported(path):
            names = {d.lower().replace("_", "-") for d in distributions.get(module, [module])}
            if not names & declared:
                missing.append(f"{path.relative_to(ROOT)}: {module}")
    assert not missing, f"imported but not declared in pyproject.toml: {missing}"
