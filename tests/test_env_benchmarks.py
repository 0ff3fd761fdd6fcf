"""The environments' benchmark scripts run and print each of their figures (not timed)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the benchmark scripts run: left out by pytest -m "not slow"

ROOT = Path(__file__).resolve().parent.parent


def test_env_features_prints_steps_frames_and_chance_outcomes() -> None:
    script = str(ROOT / "benchmarks" / "env_features.py")
    command = [sys.executable, script, "--seconds", "0.05", "--repeats", "1", "--games", "2"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert len(re.findall(r"BatchedTresFuteEnv +[1-9][\d,]*$", out, re.M)) == 2
    assert len(re.findall(r"SB3 TresFuteVecEnv +([1-9][\d,]*|\(stable-baselines3 is not installed\))$", out, re.M)) == 2
    assert len(re.findall(r"player\(s\) 600x\d+ +[1-9][\d,]*$", out, re.M)) == 4
    assert re.search(r"6 dice +46,656 outcomes +[1-9][\d,]* /s", out)
    assert re.search(r"3 dice +216 outcomes", out) and re.search(r"solo passive roll +77,700 outcomes", out)
    refused = subprocess.run([*command, "--what", "steps,speed"], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "unknown measure(s): speed" in refused.stderr
