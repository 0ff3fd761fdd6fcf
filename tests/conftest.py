import itertools
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


_databases = itertools.count()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """One throwaway PostgreSQL cluster for the whole run (see ``tests/postgres.py``)."""
    from postgres import cluster

    with cluster() as url:
        yield url


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A fresh, empty database of the session's cluster."""
    from postgres import fresh_database

    return fresh_database(postgres_server, f"test_{next(_databases)}")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One headless Chromium (Debian's, see ``tests/browser.py``) for every browser test."""
    from playwright.sync_api import sync_playwright

    from browser import CHROMIUM

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
        yield chromium
        chromium.close()
