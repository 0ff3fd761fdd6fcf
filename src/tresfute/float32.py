"""Float32 numbers as bytes NumPy reads as they are.

The environments' observations (``envs/observation.py``) and the value network's inputs
(``bots/network.py``) are joined from such pieces, each packed once, so that a position makes
no Python float list for NumPy to convert.
"""

from __future__ import annotations

from struct import Struct
from typing import Final

FLOAT32: Final = Struct("f")  # one float32 in the machine's order, as NumPy's float32 reads it


def packed(*values: float) -> bytes:
    """``values`` as consecutive float32 (rounded as NumPy rounds them)."""
    return b"".join([FLOAT32.pack(v) for v in values])


def one_hot(size: int, hot: int) -> bytes:
    """``size`` float32 zeros but a 1 at index ``hot`` (none where ``hot`` is outside)."""
    return packed(*[1.0 if k == hot else 0.0 for k in range(size)])
