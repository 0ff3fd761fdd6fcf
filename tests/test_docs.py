"""What the documentation and the docstrings name exists and works as they say."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
STATIC = ROOT / "src" / "tresfute" / "web" / "static"
# A path into the repository: scripts/x.py, benchmarks/x.py, examples/x.json, docs/x.md.
PATH = re.compile(r"\b((?:scripts|benchmarks|examples|docs)/[\w.-]+\.(?:py|json|md))\b")
# a script named on its own (one in an address, /docs/start.js, or made from parts is served by a route)
SCRIPT = re.compile(r"(?<![/}\w.-])([\w-]+(?:\.[\w-]+)*\.js)\b")


def _texts() -> list[Path]:
    folders = ["src", "docs", "scripts", "benchmarks", "examples"]
    files = [ROOT / "README.md"]
    for folder in folders:
        files += [p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md") and p.is_file()]
    return files


def test_every_file_the_docs_and_docstrings_name_exists() -> None:
    missing = []
    for path in _texts():
        text = path.read_text(encoding="utf-8")
        missing += [f"{path.relative_to(ROOT)}: {m}" for m in PATH.findall(text) if not (ROOT / m).exists()]
        missing += [
            f"{path.relative_to(ROOT)}: {m}"
            for m in SCRIPT.findall(text)
            if not any((STATIC / folder / m).exists() for folder in (".", "js", "vendor"))
        ]
    assert not missing, missing


def test_gymnasium_finds_the_environments_as_the_docs_say() -> None:
    """Gymnasium 1.x loads no plugins: ``module:id`` imports the module that registers the ids."""
    pytest.importorskip("gymnasium")
    code = "import gymnasium as gym; print(gym.make('tresfute.envs:tresfute/VraimentTresFute-v0').spec.id)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "tresfute/VraimentTresFute-v0", result.stderr
