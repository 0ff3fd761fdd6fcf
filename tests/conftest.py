import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def _french_again() -> Iterator[None]:
    """A command run with ``--lang en`` sets the process's language: the next test starts in
    French, the default, whatever ran before it."""
    yield
    from tresfute.i18n import DEFAULT_LANGUAGE, set_language

    set_language(DEFAULT_LANGUAGE)
