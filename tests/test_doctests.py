"""The examples in the rules engine's docstrings run as written (doctest).

They are read from the source files' text, not from the imported modules: a compiled engine
(mypyc) may keep no docstrings, and the examples then run on it all the same."""

from __future__ import annotations

import ast
import doctest
from pathlib import Path

import pytest

import tresfute.rules

RULES = Path(__file__).parent.parent / "src" / "tresfute" / "rules"


def _examples(path: Path) -> list[doctest.DocTest]:
    """Every docstring of ``path`` (module, classes, functions, methods) with examples in it."""
    parser = doctest.DocTestParser()
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            text = ast.get_docstring(node)
            if text and ">>>" in text:
                name = f"{path.stem}.{getattr(node, 'name', '<module>')}"
                line = node.body[0].lineno if node.body else 0
                found.append(parser.get_doctest(text, {}, name, str(path), line))
    return found


def test_the_game_class_shows_its_use_by_example() -> None:
    names = [test.name for test in _examples(RULES / "game.py")]
    assert "game.Game" in names


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_the_rules_docstrings_examples_run(path: Path) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in _examples(path):
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} of {runner.tries} examples failed (output above)"


def test_a_wrong_example_fails() -> None:
    """The runner above does catch an example whose output is not the engine's."""
    wrong = doctest.DocTestParser().get_doctest(
        '>>> Game("tres-fute", players=1, dice="external").to_move\n0\n', {"Game": tresfute.rules.Game}, "x", None, 0
    )
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(wrong, out=lambda _: None)
    assert runner.failures == 1
