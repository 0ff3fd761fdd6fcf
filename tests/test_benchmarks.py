"""The benchmark scripts run and clean up after themselves."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_web_load_benchmark_removes_its_temporary_database(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "web_load.py"), "--games", "1", "--port", str(_free_port())],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "moves/s" in result.stdout
    assert list(tmp_path.iterdir()) == [], "the temporary database is left behind"
