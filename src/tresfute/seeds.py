"""Seeds derived from one run's seed: stable across runs and machines.

Below the bots (their training derives its games' seeds here) and the simulations above them
(``simulate.py``), so that no layer imports one above it.
"""

from __future__ import annotations

import hashlib


def derived_seed(seed: int, game_number: int, purpose: str) -> int:
    """A seed for one game (or one bot in it), stable across runs and machines."""
    digest = hashlib.sha256(f"tresfute:{purpose}:{seed}:{game_number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
