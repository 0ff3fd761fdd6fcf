"""The code stays ruff clean, ruff formatted and mypy clean (part of the test suite, so CI enforces it)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


CODE = ["src", "tests", "benchmarks", "scripts", "examples"]


def test_ruff_clean() -> None:
    result = subprocess.run([sys.executable, "-m", "ruff", "check", *CODE], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_clean() -> None:
    """The package ships py.typed: its types are checked (settings in pyproject.toml)."""
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_formatted() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", *CODE], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, "run `ruff format` over: " + result.stdout + result.stderr


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    command = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert f"\n{command}\n" in readme
