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

MYPY = "mypy>=1.10,<3"  # mypyc comes with mypy


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
    if not _can_compile():
        _say("no C compiler found (or TRESFUTE_PURE=1): building the plain Python wheel (py3-none-any)")
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    os.environ["TRESFUTE_COMPILE"] = "1"
    try:
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    except (Exception, SystemExit) as error:  # no working compiler after all: the plain modules
        _say(f"compiling the engine failed ({error}); building the plain Python wheel (py3-none-any) instead")
    finally:
        os.environ.pop("TRESFUTE_COMPILE", None)
    shutil.rmtree("build", ignore_errors=True)
    return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)


def _say(message: str) -> None:
    """A line in the build's output (``pip install -v`` shows it; ``tresfute --version`` tells
    which engine was installed in any case)."""
    print(f"tresfute: {message}", file=sys.stderr, flush=True)
