"""The win chances' calibration benchmark fits each table's scales (``--fit-tables``)."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent.parent / "benchmarks" / "win_calibration.py"


def _benchmark():
    spec = importlib.util.spec_from_file_location("win_calibration", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _lines(true_scale: float, decisions: int = 600) -> list[dict]:
    """Positions of a table of three whose final scores spread ``true_scale`` times wider about
    the forecasts than the calibrated spread says; each one's result drawn from that."""
    rng = random.Random(7)
    lines = []
    for n in range(decisions):
        means = [rng.gauss(250.0, 25.0) for _ in range(3)]
        finals = [m + rng.gauss(0.0, 20.0 * true_scale) for m in means]
        winner = max(range(3), key=lambda p: finals[p])
        lines.append(
            {
                "game": "tres-fute",
                "players": 3,
                "rules": {},
                "n": n,
                "predicted": [[means, [0.0, 0.0, 0.0], 10, 20.0]],
                "result": [1.0 if p == winner else 0.0 for p in range(3)],
            }
        )
    return lines


def test_each_table_s_spread_scale_is_fitted_where_the_forecasts_are_too_sure() -> None:
    """Forecasts made too sure (finals spread 1.4 times the calibrated spread) are found so: the
    fitted scale of the table comes out wide of 1, and scores better than no scale at all."""
    benchmark = _benchmark()
    lines = _lines(1.4)
    scales = {"tres-fute": (1.0, 1.0)}
    fitted = benchmark.fit_tables(lines, scales)
    assert list(fitted) == [3]
    spread, _ = fitted[3]
    assert 1.2 <= spread <= 1.6
    assert benchmark.brier(lines, scales) > sum(
        sum((c - won) ** 2 for c, won in zip(chances, line["result"], strict=True))
        for line in lines
        for chances in benchmark.chances_of(line, scales, fitted)
    ) / (3 * len(lines))


def test_a_fit_of_two_readings_at_once_is_refused() -> None:
    """Each reading has its own network, so its own scales: one run fits one."""
    benchmark = _benchmark()
    lines = _lines(1.0, decisions=4)
    lines[0] = {**lines[0], "game": "vraiment-tres-fute"}
    with pytest.raises(ValueError, match="one game under one reading"):
        benchmark.fit_tables(lines, {"tres-fute": (1.0, 1.0), "vraiment-tres-fute": (1.0, 1.0)})
