"""docs/environments.md (and its reference half, environments-details.md): every name tresfute.envs
exports is documented, with an example per framework (the blocks starting with ``# example:``;
tests/test_docs.py runs every Python block of the docs and checks what it prints)."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import tresfute.envs

DOCS = Path(__file__).resolve().parent.parent / "docs"
# docs/environments.md and its reference half, docs/environments-details.md, read as one text
TEXT = "\n".join((DOCS / name).read_text(encoding="utf-8") for name in ("environments.md", "environments-details.md"))
EXAMPLES = {m.group(1): m.group(0) for m in re.finditer(r"# example: (.+)\n(?:(?!```).*\n)*", TEXT)}


def test_the_exported_names_are_the_public_ones_and_each_is_documented() -> None:
    public = {
        name
        for name in dir(tresfute.envs)
        if not name.startswith("_") and not isinstance(getattr(tresfute.envs, name), ModuleType)
    }
    assert public == set(tresfute.envs.__all__)
    text = TEXT
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
