"""Only the optional compiled engine; everything else is in pyproject.toml.

The build backend (``build_backend/tresfute_build.py``) sets ``TRESFUTE_COMPILE=1`` when a
wheel is built on a machine with a C compiler: then these modules, the engine's hot path, are
compiled with mypyc. The plain Python modules are the same code and the fallback.

It also ships the examples (``examples/``: a game record, paper sheets, the training of an
agent) inside the package, as ``tresfute/examples/``: ``importlib.resources.files("tresfute") /
"examples"`` finds them in an installed wheel.
"""

import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

COMPILED = [
    "src/tresfute/rules/codes.py",  # the phases and codes game.py reads as C statics
    "src/tresfute/rules/game.py",
    "src/tresfute/rules/kinds.py",
    "src/tresfute/rules/layout.py",
    "src/tresfute/rules/moves.py",
    "src/tresfute/rules/sheet.py",
    "src/tresfute/bots/value.py",  # the linear evaluation that starts the network's training
    "src/tresfute/bots/network.py",  # the network's inputs, read from every position valued
    "src/tresfute/bots/futures.py",  # the strong player's simulated futures, its search
    "src/tresfute/bots/random_bot.py",  # the benchmarks' and environments' opponent
    "src/tresfute/envs/observation.py",  # the environments' observations, made at every step
    "src/tresfute/envs/actions.py",  # their action masks
    "src/tresfute/envs/episode.py",  # their step: the agent's move, the computer players' moves
]

ext_modules = []
if os.environ.get("TRESFUTE_COMPILE") == "1":
    from mypyc.build import mypycify

    # The build environment holds mypy, not the run-time dependencies (numpy, gymnasium) that
    # modules outside the compiled set import: mypy need not check those imports here.
    ext_modules = mypycify(["--ignore-missing-imports", *COMPILED], opt_level="3", group_name="tresfute_rules")


class BuildWithExamples(build_py):
    """The package's modules and data, and ``examples/`` as ``tresfute/examples/`` (an editable
    install reads them from the checkout's ``examples/``)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "tresfute" / "examples"
        self.mkpath(str(target))
        for path in sorted(Path("examples").iterdir()):
            if path.suffix in (".json", ".py"):
                self.copy_file(str(path), str(target / path.name))


setup(ext_modules=ext_modules, cmdclass={"build_py": BuildWithExamples})
