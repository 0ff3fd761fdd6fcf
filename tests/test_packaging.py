"""What is shipped: the sdist holds every file of the repository, the wheel what the installed
program reads, and the core alone (no extra) plays, scores and replays, and says which extra a
front end needs. These build and install, in a fresh virtual environment: slow tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "src" / "tresfute"
EXAMPLES = ROOT / "examples"

pytestmark = pytest.mark.slow


def test_the_plain_wheel_is_for_every_platform_and_holds_what_the_program_reads(plain_wheel: Path) -> None:
    assert plain_wheel.name.endswith("-py3-none-any.whl")
    names = set(zipfile.ZipFile(plain_wheel).namelist())
    shipped = {n for n in names if not n.startswith("tresfute-")}  # the .dist-info aside
    source = {
        "tresfute/" + p.relative_to(PACKAGE).as_posix()
        for p in PACKAGE.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".po", ".pyc")
    }
    examples = {"tresfute/examples/" + p.name for p in EXAMPLES.iterdir() if p.suffix in (".json", ".py")}
    assert examples >= {"tresfute/examples/solo-game.json", "tresfute/examples/train_maskable_ppo.py"}
    assert shipped == source | examples, "the package's files, the compiled catalogue, data, pages, examples; no more"
    assert "tresfute/locale/fr/LC_MESSAGES/tresfute.mo" in shipped
    assert "tresfute/bots/data/network-tres-fute.npz" in shipped
    assert "tresfute/web/static/index.html" in shipped


def _run(python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    return subprocess.run(
        [str(python), "-m", "tresfute", *args], capture_output=True, text=True, timeout=300, env={**env, "LANG": "C"}
    )


def test_the_core_alone_scores_simulates_and_replays_and_serve_names_its_extra(
    plain_wheel: Path, tmp_path: Path
) -> None:
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", str(plain_wheel)], check=True, timeout=300)
    listed = subprocess.run([python, "-m", "pip", "list"], capture_output=True, text=True, check=True).stdout.lower()
    assert not any(name in listed for name in ("fastapi", "uvicorn", "textual", "gymnasium", "psycopg"))
    score = _run(python, "score", str(EXAMPLES / "tres-fute-sheet.json"))
    assert score.returncode == 0 and "Total" in score.stdout, score.stderr
    simulate = _run(python, "simulate", "--games", "3", "--bot", "greedy")
    assert simulate.returncode == 0 and "3 games" in simulate.stdout, simulate.stderr
    assert simulate.stderr.count("plain Python engine") == 1
    replay = _run(python, "replay", str(EXAMPLES / "solo-game.json"))
    assert replay.returncode == 0 and "Valid game" in replay.stdout, replay.stderr
    assert "plain Python engine" in _run(python, "--version").stdout
    for command, extra in ((["serve"], "web"), (["play"], "tui")):
        refused = _run(python, *command)
        assert refused.returncode == 1
        assert refused.stderr.endswith(f'pip install "tresfute[{extra}]"\n') and refused.stderr.count("\n") == 1


def test_the_sdist_holds_every_file_of_the_repository() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist): nothing to compare with")
    if shutil.which("git") is None:
        pytest.skip("no git")
    result = subprocess.run(
        [sys.executable, "-m", "check_manifest", str(ROOT)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
