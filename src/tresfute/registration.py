"""Gymnasium ids for the environments, registered when ``tresfute`` is imported.

Registration costs nothing when Gymnasium is absent or not yet imported: the ids point to
the environment classes by name (nothing of ``tresfute.envs`` is imported), and when
Gymnasium is installed but not imported yet, a one-shot import hook registers them right
after Gymnasium's own import. So ``import tresfute`` stays light for the command line, and
both ``import gymnasium, tresfute`` and ``import tresfute, gymnasium`` give
``gym.make("tresfute/TresFute-v0")``. ``gym.make("tresfute.envs:tresfute/TresFute-v0")``
works without any prior import (Gymnasium imports ``tresfute.envs``, which registers).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType

GYM_IDS = {"tres-fute": "tresfute/TresFute-v0", "vraiment-tres-fute": "tresfute/VraimentTresFute-v0"}
ENTRY_POINT = "tresfute.envs.gym_env:TresFuteEnv"
VECTOR_ENTRY_POINT = "tresfute.envs.vector:BatchedTresFuteEnv"


def register_envs() -> None:
    """Register the ids with Gymnasium (imports it); does nothing for ids already there."""
    import gymnasium as gym

    for game, env_id in GYM_IDS.items():
        if env_id not in gym.registry:
            gym.register(
                id=env_id, entry_point=ENTRY_POINT, vector_entry_point=VECTOR_ENTRY_POINT, kwargs={"game": game}
            )


class _RegisterAfterGymnasium(importlib.abc.MetaPathFinder):
    """Finds nothing itself: when Gymnasium is first imported, wraps its loader so that the
    ids are registered once Gymnasium's own import has finished, then removes itself. A mere
    look-up (``importlib.util.find_spec("gymnasium")``, as code checking for an optional
    package does) loads nothing, so the finder stays until the import itself."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)  # where Gymnasium is, past this finder
        loader = spec.loader if spec is not None else None
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        exec_module = loader.exec_module

        def exec_then_register(module: ModuleType) -> None:
            if self in sys.meta_path:
                sys.meta_path.remove(self)
            exec_module(module)
            register_envs()

        loader.exec_module = exec_then_register  # type: ignore[method-assign]
        return spec


def register_when_possible() -> None:
    """Called by ``import tresfute``: register now if Gymnasium is loaded, later if it is
    installed, never if it is not."""
    if "gymnasium" in sys.modules:
        register_envs()
    elif importlib.util.find_spec("gymnasium") is not None and not any(
        isinstance(f, _RegisterAfterGymnasium) for f in sys.meta_path
    ):
        sys.meta_path.insert(0, _RegisterAfterGymnasium())
