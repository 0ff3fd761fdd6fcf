"""docs/environments.md: every name tresfute.envs exports is documented, and every example
block (those starting with ``# example:``) runs as written."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
import warnings
from pathlib import Path
from types import ModuleType

import pytest

import tresfute.envs

DOC = Path(__file__).resolve().parent.parent / "docs" / "environments.md"
EXAMPLES = {
    m.group(1): m.group(0) for m in re.finditer(r"# example: (.+)\n(?:(?!```).*\n)*", DOC.read_text(encoding="utf-8"))
}
NEEDS = {"SB3 MaskablePPO": ["sb3_contrib", "torch"], "OpenSpiel": ["pyspiel"], "video": ["moviepy"]}


def test_the_exported_names_are_the_public_ones_and_each_is_documented() -> None:
    public = {
        name
        for name in dir(tresfute.envs)
        if not name.startswith("_") and not isinstance(getattr(tresfute.envs, name), ModuleType)
    }
    assert public == set(tresfute.envs.__all__)
    text = DOC.read_text(encoding="utf-8")
    assert [name for name in tresfute.envs.__all__ if f"`{name}" not in text] == []
    assert "tresfute.envs.sb3.TresFuteVecEnv" in text and "tresfute.envs.openspiel" in text


def test_there_is_an_example_per_framework() -> None:
    assert set(EXAMPLES) >= {
        "Gymnasium",
        "Gymnasium vector",
        "SB3 MaskablePPO",
        "PettingZoo AEC",
        "PettingZoo parallel",
        "chance",
        "OpenSpiel",
        "video",
    }


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_documentation_example_runs(name: str, tmp_path, monkeypatch) -> None:
    missing = [m for m in NEEDS.get(name, []) if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"the {name} example needs {', '.join(missing)}")
    monkeypatch.chdir(tmp_path)  # the video example writes videos/
    out = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(out):
        warnings.simplefilter("ignore")
        exec(compile(EXAMPLES[name], f"{DOC.name}: {name}", "exec"), {"__name__": "__example__"})
    assert out.getvalue()  # each example prints what it got
