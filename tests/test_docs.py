"""What the documentation and the docstrings name exists and works as they say."""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import re
import subprocess
import sys
import tokenize
import warnings
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
    files = [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
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


# --- the code blocks of the README and docs/: each says what it is, and runs as written --------

DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```$", re.S | re.M)
# python: run, and what it prints checked; console: a command after "$ " and what it prints;
# sh: commands only (installs, training, servers: minutes to hours); text: a synopsis, a
# drawing or output; json, nginx: files
LANGUAGES = {"python", "console", "sh", "text", "json", "nginx"}
# the console sessions cheap enough to run here (a few seconds); the others are named with the reason
RUN_COMMANDS = ("tresfute score ", "tresfute replay ")
NOT_RUN = {  # by the session's first command
    "tresfute review game.json": "the review of a game record the reader has, game.json",
    "OPENBLAS_NUM_THREADS=1 .venv-compiled/bin/python benchmarks/review_speed.py": "a benchmark: measured, not checked",
}
# the package a Python block imports or needs, and the extra that brings it
EXTRAS = {
    "gymnasium": "envs",
    "pettingzoo": "envs",
    "sb3_contrib": "rl",
    "torch": "rl",
    "pyspiel": "openspiel",
    "open_spiel": "openspiel",
    "moviepy": "video",
}


class Block:
    """A fenced block of a document: its language (what follows the fence) and its text."""

    def __init__(self, doc: Path, line: int, language: str, code: str) -> None:
        self.doc, self.line, self.language, self.code = doc, line, language, code
        self.id = f"{doc.name}:{line}"

    def needs(self) -> list[str]:
        """The top-level packages it imports (and moviepy for Gymnasium's RecordVideo)."""
        names = {"moviepy"} if "RecordVideo" in self.code else set()
        for node in ast.walk(ast.parse(self.code)):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
        return sorted(names)

    def printed(self) -> list[tuple[int, str | None]]:
        """Each ``print(...)`` of the block (its first line) and the comment on its last line (or
        its first): what it prints, ``...`` standing for any text (None: no comment)."""
        comments = {
            token.start[0]: token.string.removeprefix("#").strip()
            for token in tokenize.generate_tokens(io.StringIO(self.code).readline)
            if token.type == tokenize.COMMENT
        }
        prints = [
            node
            for node in ast.walk(ast.parse(self.code))
            if isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "print"
        ]
        return [
            (node.lineno, comments.get(node.end_lineno or node.lineno) or comments.get(node.lineno))
            for node in sorted(prints, key=lambda node: node.lineno)
        ]


def _blocks() -> list[Block]:
    blocks = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            blocks.append(Block(doc, text.count("\n", 0, m.start()) + 1, m.group(1).strip(), m.group(2)))
    return blocks


BLOCKS = _blocks()
PYTHON = [b for b in BLOCKS if b.language == "python"]
CONSOLE = [b for b in BLOCKS if b.language == "console"]


def _matches(expected: str, got: str) -> bool:
    """``got`` is ``expected``, where each ``...`` of ``expected`` stands for any text."""
    return re.fullmatch(".*".join(re.escape(part) for part in expected.split("...")), got) is not None


def test_matching_reads_an_ellipsis_as_any_text_and_nothing_else() -> None:
    assert _matches("46656 dice w6 ... True", "46656 dice w6 y6 b6 g6 o6 p6 True")
    assert _matches("['a', ..., 'z']", "['a', 'b', 'z']")
    assert not _matches("['a', ..., 'z']", "['a', 'b', 'y']")
    assert not _matches("(2, 144)", "(2, 145)") and not _matches("final", "final score 3")


def test_every_code_block_says_what_it_is() -> None:
    """A reader (and this file) tells Python to run from commands, output and files."""
    assert len(BLOCKS) >= 30 and len(PYTHON) >= 14  # the fences were found
    unknown = [f"{b.id}: {b.language or '(none)'}" for b in BLOCKS if b.language not in LANGUAGES]
    assert not unknown, f"give each block one of {sorted(LANGUAGES)} after its fence: {unknown}"
    prompts = [b.id for b in BLOCKS if b.language in ("sh", "text") and b.code.startswith("$ ")]
    assert not prompts, f"a command with its output is a console block: {prompts}"


def test_every_print_of_the_docs_shows_what_it_prints() -> None:
    """A comment on each print line says what it prints (checked by the test below)."""
    bare = [f"{b.id} + {n}" for b in PYTHON for n, comment in b.printed() if not comment]
    assert not bare, f"these prints have no comment saying what they print: {bare}"


def _slow(block: Block) -> bool:
    """The quick start trains for minutes (50,000 steps), then plays 200 games."""
    return "total_timesteps=50_000" in block.code


# The quick start's minutes are the reader's, not the suite's: here the same calls train on one
# rollout (MaskablePPO's 2,048 steps) and evaluate on 10 games, and the comment says 10.
SHORTENED = {
    "total_timesteps=50_000": "total_timesteps=2_048",
    "range(1000, 1200)": "range(1000, 1010)",
    "over 200 held-out games": "over 10 held-out games",
}


def _as_run(block: Block) -> Block:
    """The block as the test runs it: a slow one shortened by ``SHORTENED``, each change found."""
    if not _slow(block):
        return block
    code = block.code
    for written, run in SHORTENED.items():
        assert written in code, f"{block.id} no longer says {written!r}: update SHORTENED"
        code = code.replace(written, run)
    return Block(block.doc, block.line, block.language, code)


@pytest.mark.parametrize(
    "block", [pytest.param(b, id=b.id, marks=[pytest.mark.slow] if _slow(b) else []) for b in PYTHON]
)
def test_the_python_block_runs_as_written_and_prints_what_its_comments_say(
    block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = [name for name in block.needs() if importlib.util.find_spec(name) is None]
    if missing:
        extras = sorted({EXTRAS.get(name, "?") for name in missing})
        pytest.skip(f"{block.id} needs {', '.join(missing)} (the {', '.join(extras)} extra)")
    monkeypatch.chdir(tmp_path)  # examples write files (agent.zip, videos/)
    block = _as_run(block)
    out = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(out):
        warnings.simplefilter("ignore")
        exec(compile(block.code, block.id, "exec"), {"__name__": "__doc_example__"})
    expected = [comment for _n, comment in block.printed()]
    got = out.getvalue().splitlines()
    assert len(got) == len(expected), f"{block.id} printed {got}, its comments say {expected}"
    wrong = [(e, g) for e, g in zip(expected, got, strict=True) if not _matches(e or "", g)]
    assert not wrong, f"{block.id}: (the comment, what it printed) {wrong}"


@pytest.mark.parametrize("block", CONSOLE, ids=[b.id for b in CONSOLE])
def test_the_console_session_prints_what_the_doc_shows(block: Block, tmp_path: Path) -> None:
    commands = [line.removeprefix("$ ") for line in block.code.splitlines() if line.startswith("$ ")]
    assert commands, f"{block.id}: a console block shows a command after '$ '"
    reason = next((why for command, why in NOT_RUN.items() if commands[0].startswith(command)), None)
    if reason:
        assert not all(c.startswith(RUN_COMMANDS) for c in commands)  # a cheap one is run
        pytest.skip(f"{block.id} is not run: {reason}")
    assert all(c.startswith(RUN_COMMANDS) for c in commands), f"run {block.id} here, or say in NOT_RUN why not"
    shown, outputs = [], []
    for line in block.code.splitlines():
        if line.startswith("$ "):
            shown.append([])
        shown[-1].append(line)
    for session in shown:
        args = session[0].removeprefix("$ ").split()
        assert args[0] == "tresfute"
        result = subprocess.run(
            [sys.executable, "-m", "tresfute", *args[1:]], capture_output=True, text=True, cwd=ROOT, timeout=120
        )
        outputs.append((session[1:], result.stdout.splitlines(), result.stderr))
    for expected, got, stderr in outputs:
        assert got == expected, stderr


# --- pages for people: short, task-shaped; the measurement history lives in docs/notes/ ---------

# The most lines a page may have: a user page says how to use tresfute and what it achieves now.
LINE_LIMITS = {"README.md": 349, "docs/*.md": 400}
LINK = re.compile(r"\]\((?!https?:|mailto:)([^)#\s]*)(?:#([^)\s]*))?\)")


def test_the_user_pages_are_short() -> None:
    """README.md under 350 lines and no docs/*.md over 400: a measurement diary goes to docs/notes/."""
    too_long = [
        f"{path.relative_to(ROOT)}: {lines} lines, at most {limit}"
        for pattern, limit in LINE_LIMITS.items()
        for path in sorted(ROOT.glob(pattern))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > limit
    ]
    assert not too_long, too_long
    assert len(list(ROOT.glob("docs/*.md"))) >= 8 and list(ROOT.glob("docs/notes/*-history.md"))


def _anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_the_anchors_are_github_s() -> None:
    assert _anchor("At a person's pace (issue 35's measure)") == "at-a-persons-pace-issue-35s-measure"
    assert _anchor("Training (`scripts/train_network.py`, `bots/training.py`)") == (
        "training-scriptstrain_networkpy-botstrainingpy"
    )


def test_every_link_between_the_docs_reaches_its_page_and_heading() -> None:
    """A page moved to docs/notes/, or a heading renamed, leaves no link behind it."""
    broken = []
    for doc in DOCS:
        for target, anchor in LINK.findall(doc.read_text(encoding="utf-8")):
            page = (doc.parent / target).resolve() if target else doc
            if not page.exists():
                broken.append(f"{doc.relative_to(ROOT)}: {target}")
            elif anchor and page.suffix == ".md":
                text = FENCE.sub("", page.read_text(encoding="utf-8"))
                headings = {_anchor(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}
                if anchor not in headings:
                    broken.append(f"{doc.relative_to(ROOT)}: {target}#{anchor}")
    assert not broken, broken


def test_every_module_docstring_is_short() -> None:
    """A module's docstring says what it is for in at most 12 lines; how it works at length goes
    to a class's or function's docstring, or to docs/design.md (docs/design-web.md)."""
    long = []
    for path in sorted((ROOT / "src").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstring = ast.get_docstring(tree, clean=False)
        if docstring is not None and (lines := docstring.count("\n") + 1) > 12:
            long.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert not long, long
