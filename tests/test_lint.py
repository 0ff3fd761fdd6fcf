"""The code stays ruff clean, ruff formatted and mypy clean (part of the test suite, so CI enforces it)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


# the whole tree, as `ruff check` and `ruff format --check` at the root see it: the build backend,
# setup.py and the Python examples in the Markdown files too
CODE: list[str] = []


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
    test_command = readme.split("one installs and runs every test:\n\n```sh\n", 1)[1].split("\n```", 1)[0]
    assert test_command.endswith('pip install ".[test]" && pytest')
    assert test_command in (ROOT / ".ci" / "run").read_text().splitlines(), ".ci/run runs it as written"
