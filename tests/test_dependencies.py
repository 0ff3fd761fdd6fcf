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
    "sheet_text.py": ("tui",),  # the sheets drawn in text (Rich): the terminal game's, the environments' ansi picture
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


def _tresfute_imports(path: Path) -> set[str]:
    """The tresfute modules ``path`` imports when it is imported (its top-level statements; an
    import inside a function, or under ``if TYPE_CHECKING``, runs later or never)."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("tresfute")}
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            if node.level and node.module is None:  # from . import x: the modules x
                found |= {f"{base}.{alias.name}" for alias in node.names}
            elif node.level:
                found.add(f"{base}.{node.module}")
            elif (node.module or "").startswith("tresfute"):
                found.add(node.module or "")
    return found


# The modules below the front ends, each with what it may import: the rules nothing but
# themselves; the bots the rules and the few helpers that import nothing of tresfute's.
HELPERS = ("tresfute.float32", "tresfute.i18n", "tresfute.settings", "tresfute.seeds")
LAYERS = {
    "rules": ("tresfute.rules",),
    "bots": ("tresfute.rules", "tresfute.bots", *HELPERS),
}


def test_no_module_imports_one_from_a_layer_above_it() -> None:
    """rules <- bots <- front ends: ``simulate`` sits above the bots, so the bots' training takes
    its seeds from ``seeds.py``, not from ``simulate``."""
    wrong = []
    for layer, allowed in LAYERS.items():
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            for target in _tresfute_imports(path):
                if not any(target == a or target.startswith(f"{a}.") for a in allowed):
                    wrong.append(f"{path.relative_to(ROOT)} imports {target}")
    for helper in HELPERS:
        path = PACKAGE / f"{helper.split('.')[1]}.py"
        wrong += [f"{path.relative_to(ROOT)} imports {t}" for t in _tresfute_imports(path)]
    assert not wrong, wrong


def test_the_web_server_s_modules_import_no_circle() -> None:
    """Each module of ``web/`` can be read after those it imports (the store's backends, its
    migrations and its interface, the host and its tables' views, the routes)."""
    web = PACKAGE / "web"
    names = {}
    for path in web.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names[".".join(parts[:-1] if path.name == "__init__.py" else parts)] = path
    graph = {name: {t for t in _tresfute_imports(path) if t in names} for name, path in names.items()}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"an import circle: {' -> '.join((*path[path.index(name) :], name))}"
        if name in done:
            return
        for target in sorted(graph[name]):
            visit(target, (*path, name))
        done.add(name)

    for name in sorted(graph):
        visit(name, ())
