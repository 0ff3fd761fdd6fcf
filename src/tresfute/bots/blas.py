"""How many threads the network's arithmetic may use: one, unless told otherwise.

The network multiplies small matrices (a few hundred rows at most). NumPy's BLAS (OpenBLAS)
would start a thread per core for them, and on a busy machine the threads wait for each other:
with two cores shared with other work, a Vraiment très futé game took 150 to 260 times longer
than with one thread. So every decision of the strong and value-only players, and every
training step, runs inside :func:`blas_threads`, which sets BLAS to ``TRESFUTE_BLAS_THREADS``
threads (default 1; 0 leaves BLAS as it is) for the time of the call and then puts back what
was there: the rest of the process is not changed. Before the first, one small
double-precision product wakes BLAS up (:func:`_blas_libraries` says why).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

from ..i18n import _
from ..settings import SettingError

VARIABLE = "TRESFUTE_BLAS_THREADS"
DEFAULT = 1


def wanted_threads() -> int:
    """The BLAS threads asked for by ``TRESFUTE_BLAS_THREADS`` (0: BLAS's own choice)."""
    text = os.environ.get(VARIABLE, "").strip()
    if not text:
        return DEFAULT
    try:
        threads = int(text)
    except ValueError:
        threads = -1
    if threads < 0:
        raise SettingError(
            _("{variable} must be a whole number of threads (0: BLAS's own choice), not {value}").format(
                variable=VARIABLE, value=repr(text)
            )
        )
    return threads


@cache
def _blas_libraries() -> tuple[Any, ...]:
    """The BLAS libraries loaded in this process (NumPy's among them), found once."""
    import numpy

    # On the AMD EPYC machines that measure tresfute (OpenBLAS 0.3.31's Haswell kernels, as NumPy
    # ships them), single-precision products of the network's sizes ran three times slower until a
    # double-precision one had run in the process ((37 x 256) @ (256 x 256): 460 against 140 µs,
    # whatever the threads; the cause, inside OpenBLAS, was not found): a Très futé game's review
    # took 1.36 s without this, 1.06 s with it. Elsewhere it costs a tenth of a millisecond, once.
    numpy.ones((8, 256)) @ numpy.ones((256, 256))
    return tuple(ThreadpoolController().select(user_api="blas").lib_controllers)


@contextmanager
def blas_threads() -> Iterator[None]:
    """BLAS limited to :func:`wanted_threads` threads inside the block.

    Each library's count is read, and set and put back only where it differs (threadpoolctl's
    own ``limit`` gathers every library's full description on each call: a tenth of a
    millisecond, paid at every decision)."""
    threads = wanted_threads()
    libraries = _blas_libraries()
    if threads == 0:
        yield
        return
    changed: list[tuple[Any, int]] = []
    for library in libraries:
        before = library.get_num_threads()
        if before != threads:
            library.set_num_threads(threads)
            changed.append((library, before))
    try:
        yield
    finally:
        for library, before in changed:
            library.set_num_threads(before)
