"""The build backend: setuptools, plus the rules engine compiled with mypyc when it can be.

A wheel (``pip install .``) compiles the engine's modules (``setup.py`` lists them) into C
extensions with mypyc when a C compiler is found, unless ``TRESFUTE_PURE=1``; without a
compiler, or if compiling fails, the wheel holds the plain Python modules, which are the same
code, and is tagged ``py3-none-any`` (``TRESFUTE_PURE=1 python -m build --wheel`` builds that one
on purpose). An editable install (``pip install -e .``) is always plain Python, so that it can never
serve compiled modules older than the source. ``tresfute.rules.COMPILED`` says which one runs.
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the backend's other hooks, unchanged)

# Exact: the compiled engine is mypyc's output, which changes from one version to the next, so
# that a wheel built from the same source is the same code. mypyc comes with mypy.
MYPY = "mypy==2.4.1"
# Where a warning is also written so that the person installing sees it: pip shows a build's own
# output only with -v. None where there is no such device.
TTY: str | None = None if sys.platform == "win32" else "/dev/tty"


def _can_compile() -> bool:
    if os.environ.get("TRESFUTE_PURE") == "1" or sys.implementation.name != "cpython":
        return False
    if sys.platform == "win32":  # setuptools finds MSVC itself; a failed compile still falls back
        return True
    return shutil.which(os.environ.get("CC", "cc")) is not None or shutil.which("gcc") is not None


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    extra = [MYPY] if _can_compile() else []
    return _setuptools.get_requires_for_build_wheel(config_settings) + extra


def build_wheel(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    if os.environ.get("TRESFUTE_PURE") == "1":
        _say("TRESFUTE_PURE=1: building the plain Python wheel (py3-none-any)")
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    if not _can_compile():
        _warn("no C compiler found (or not CPython): installing the plain Python engine (py3-none-any), slower")
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    os.environ["TRESFUTE_COMPILE"] = "1"
    try:
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    except (Exception, SystemExit) as error:  # no working compiler after all: the plain modules
        _warn(
            f"compiling the engine failed ({error}); installing the plain Python engine (py3-none-any) "
            "instead, several times slower"
        )
    finally:
        os.environ.pop("TRESFUTE_COMPILE", None)
    shutil.rmtree("build", ignore_errors=True)
    return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)


def _say(message: str) -> None:
    """A line in the build's output (``python -m build`` and ``pip install -v`` show it;
    ``tresfute --version`` tells which engine was installed in any case)."""
    print(f"tresfute: {message}", file=sys.stderr, flush=True)


def _warn(message: str) -> None:
    """A warning in the build's output, and on the terminal itself where the output is not
    it (pip keeps a build's output to itself unless -v): the plain engine is being installed."""
    line = f"tresfute: WARNING: {message} (tresfute --version says which engine runs)"
    print(line, file=sys.stderr, flush=True)
    if TTY is None or sys.stderr.isatty():
        return
    try:
        with open(TTY, "w", encoding="utf-8") as terminal:
            terminal.write(line + "\n")
    except OSError:  # no terminal (a CI job): the build's output is its log
        pass
