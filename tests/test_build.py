"""The compiled engine is an optimisation: the build compiles it only where it can, an editable
install never does, and the plain modules are always there as the fallback."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

import tresfute.rules

ROOT = Path(__file__).parent.parent


def backend():
    spec = importlib.util.spec_from_file_location("tresfute_build", ROOT / "build_backend" / "tresfute_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_source_checkout_runs_the_plain_modules_never_stale_compiled_ones() -> None:
    rules = Path(tresfute.rules.__file__).parent
    if not rules.is_relative_to(ROOT / "src"):
        pytest.skip("tresfute is installed from a wheel here (the compiled build's CI run)")
    assert not tresfute.rules.COMPILED
    assert not [p.name for p in rules.iterdir() if p.suffix in (".so", ".pyd")], "no compiled module beside the source"


def test_the_wheel_compiles_only_with_a_compiler_and_never_when_told_not_to(monkeypatch) -> None:
    build = backend()
    monkeypatch.setattr(build.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.delenv("TRESFUTE_PURE", raising=False)
    assert build._can_compile() == (sys.implementation.name == "cpython")
    monkeypatch.setenv("TRESFUTE_PURE", "1")
    assert not build._can_compile()
    monkeypatch.delenv("TRESFUTE_PURE")
    monkeypatch.setattr(build.shutil, "which", lambda name: None)
    assert not build._can_compile(), "no C compiler: the plain Python wheel"


def test_an_editable_install_needs_no_compiler_toolchain(monkeypatch) -> None:
    # setuptools' own hooks are stubbed: the one installed beside the tests may be older than the
    # one the build asks for (pip builds in an isolated environment of its own)
    build = backend()
    monkeypatch.setattr(build._setuptools, "get_requires_for_build_wheel", lambda config_settings=None: ["wheel"])
    monkeypatch.setattr(build.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.delenv("TRESFUTE_PURE", raising=False)
    if sys.implementation.name == "cpython":
        assert build.get_requires_for_build_wheel() == ["wheel", build.MYPY], "a wheel compiles where it can"
    assert build.get_requires_for_build_editable is build._setuptools.get_requires_for_build_editable, (
        "an editable install asks setuptools alone: no mypy, no compiling"
    )
    monkeypatch.setattr(build.shutil, "which", lambda name: None)
    assert build.get_requires_for_build_wheel() == ["wheel"], "no C compiler: nothing more to install"


def test_a_compiler_that_fails_gives_the_plain_wheel_with_a_message_not_a_failure(
    monkeypatch, tmp_path, capsys
) -> None:
    build = backend()
    monkeypatch.setattr(build, "_can_compile", lambda: True)
    monkeypatch.chdir(tmp_path)
    tries = []

    def setuptools_build_wheel(directory, config_settings=None, metadata_directory=None):
        tries.append(build.os.environ.get("TRESFUTE_COMPILE"))
        if build.os.environ.get("TRESFUTE_COMPILE") == "1":
            raise SystemExit("error: command 'cc' failed: No such file or directory")
        return "tresfute-0.1.0-py3-none-any.whl"

    monkeypatch.setattr(build._setuptools, "build_wheel", setuptools_build_wheel)
    assert build.build_wheel(str(tmp_path)) == "tresfute-0.1.0-py3-none-any.whl"
    assert tries == ["1", None], "tried compiled, then built the plain modules"
    assert "compiling the engine failed" in capsys.readouterr().err
    assert "TRESFUTE_COMPILE" not in build.os.environ


def test_a_failed_compile_is_said_on_the_terminal_without_pip_v(monkeypatch, tmp_path, capsys) -> None:
    """pip keeps a build's output to itself unless -v: the warning that the plain engine is being
    installed is also written on the terminal (here a file standing for it)."""
    build = backend()
    terminal = tmp_path / "tty"
    terminal.touch()
    monkeypatch.setattr(build, "TTY", str(terminal))
    monkeypatch.setattr(build, "_can_compile", lambda: True)
    monkeypatch.chdir(tmp_path)

    def setuptools_build_wheel(directory, config_settings=None, metadata_directory=None):
        if build.os.environ.get("TRESFUTE_COMPILE") == "1":
            raise SystemExit("error: command 'cc' failed")
        return "tresfute-0.1.0-py3-none-any.whl"

    monkeypatch.setattr(build._setuptools, "build_wheel", setuptools_build_wheel)
    build.build_wheel(str(tmp_path))
    said = terminal.read_text()
    assert said.startswith("tresfute: WARNING: compiling the engine failed (error: command 'cc' failed); ")
    assert "installing the plain Python engine" in said and said.count("\n") == 1
    assert said.strip() in capsys.readouterr().err, "and in the build's output"
    monkeypatch.setattr(build, "_can_compile", lambda: False)
    terminal.write_text("")
    build.build_wheel(str(tmp_path))
    assert terminal.read_text().startswith("tresfute: WARNING: no C compiler found"), "without a compiler too"


def test_the_compiler_is_pinned_so_that_a_wheel_is_the_same_code() -> None:
    """mypyc's output changes from one version to the next: the build asks for one exact mypy."""
    import re

    assert re.fullmatch(r"mypy==[0-9]+\.[0-9]+\.[0-9]+", backend().MYPY)


def test_told_not_to_compile_the_build_says_it_builds_the_plain_wheel(monkeypatch, tmp_path, capsys) -> None:
    build = backend()
    monkeypatch.setenv("TRESFUTE_PURE", "1")
    seen = []
    monkeypatch.setattr(
        build._setuptools,
        "build_wheel",
        lambda directory, config_settings=None, metadata_directory=None: (
            seen.append(build.os.environ.get("TRESFUTE_COMPILE")) or "tresfute-0.1.0-py3-none-any.whl"
        ),
    )
    assert build.build_wheel(str(tmp_path)).endswith("py3-none-any.whl")
    assert seen == [None]
    assert "plain Python wheel" in capsys.readouterr().err


def test_the_compiled_engine_runs_where_ci_requires_it() -> None:
    """``.ci/run`` installs from the sdist with a C compiler and sets TRESFUTE_COMPILED_TESTS=required:
    there the whole suite must have run on the compiled engine."""
    if os.environ.get("TRESFUTE_COMPILED_TESTS") != "required":
        pytest.skip("TRESFUTE_COMPILED_TESTS=required is not set (CI sets it)")
    assert tresfute.rules.COMPILED, "the engine was not compiled: is there a C compiler?"


def test_the_metadata_names_the_pythons_the_wheels_are_built_for_and_no_placeholder() -> None:
    """Each CPython that cibuildwheel builds a wheel for is in the classifiers; no project URL
    points at a host that does not exist."""
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    built = re.findall(r"cp3([0-9]+)-\*", project["tool"]["cibuildwheel"]["build"])
    assert built == ["11", "12", "13"]
    classifiers = project["project"]["classifiers"]
    for minor in built:
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers
    for url in project["project"].get("urls", {}).values():
        assert ".invalid" not in url and "example." not in url, url


def test_the_codes_game_reads_as_c_statics_are_compiled_with_it() -> None:
    """``rules/game.py``'s hot path reads the phases and move kinds as final constants of
    ``rules/codes.py``: compiled in the same group they are C statics, from a plain module
    a dictionary lookup each. So every engine module it takes such constants from is compiled."""
    import ast

    compiled = next(
        ast.literal_eval(node.value)
        for node in ast.parse((ROOT / "setup.py").read_text(encoding="utf-8")).body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "COMPILED"
    )
    game = ast.parse((ROOT / "src" / "tresfute" / "rules" / "game.py").read_text(encoding="utf-8"))
    sources = {
        f"src/tresfute/rules/{node.module}.py"
        for node in game.body
        if isinstance(node, ast.ImportFrom) and node.level == 1 and any(a.name.startswith("_") for a in node.names)
    }
    assert "src/tresfute/rules/codes.py" in sources
    assert sources <= set(compiled), sources - set(compiled)
    assert not any(isinstance(node, ast.ClassDef) and node.name == "Phase" for node in game.body)  # in codes.py
