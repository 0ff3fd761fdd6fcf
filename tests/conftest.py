import itertools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))
ROOT = Path(__file__).parent.parent

# Hypothesis in CI: the same examples at every run (a red run is red again when run again, and
# a green one does not turn red by chance on an unrelated change), no example database kept
# between runs, and a failure printed with the blob that reproduces it (@reproduce_failure).
# CI is told by ``CI`` (set by hosted CI services) or by ``.ci/run``'s ``TRESFUTE_*_TESTS=required``;
# ``HYPOTHESIS_PROFILE=ci`` asks for it anywhere.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes") or any(
    os.environ.get(f"TRESFUTE_{part}_TESTS") == "required" for part in ("BROWSER", "POSTGRES", "COMPILED")
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "default"))


@contextmanager
def _held(lock: Path) -> Iterator[None]:
    """The lock file held by this process alone: the workers of one run take turns. Where the
    system has no ``fcntl`` (not POSIX) nothing is locked, and two workers building at once could
    meet in the tree's build folder; the suite's browser and database tests need Debian's
    packages anyway."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def plain_wheel(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The py3-none-any wheel, built from this tree as pip builds it: once a run, shared by the
    run's workers (pip builds in the tree's own ``build`` folder, which two builds at once would
    share)."""
    here = tmp_path_factory.getbasetemp()
    shared = here if worker_id == "master" else here.parent  # the run's own folder, above its workers'
    out = shared / "plain-wheel"
    with _held(shared / "plain-wheel.lock"):
        if not list(out.glob("*.whl")):
            subprocess.run(
                [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                env={**os.environ, "TRESFUTE_PURE": "1"},
                check=True,
                capture_output=True,
                timeout=300,
            )
            shutil.rmtree(ROOT / "build", ignore_errors=True)
    (wheel,) = out.glob("*.whl")
    return wheel


@pytest.fixture(autouse=True)
def _french_again() -> Iterator[None]:
    """A command run with ``--lang en`` sets the process's language: the next test starts in
    French, the default, whatever ran before it."""
    yield
    from tresfute.i18n import DEFAULT_LANGUAGE, set_language

    set_language(DEFAULT_LANGUAGE)


@pytest.fixture(autouse=True)
def _french_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command follows the locale (LANG and the rest); the tests run it in French, whatever
    the machine's locale, unless a test says otherwise."""
    monkeypatch.setattr("tresfute.cli._locale_language", lambda: "fr")


@pytest.fixture(scope="session", autouse=True)
def _sb3_logs_in_pytests_folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Stable-Baselines3 makes a folder for its logs at every ``learn`` (``/tmp/SB3-<time>``,
    left behind): the tests' (and their commands') go under pytest's own temporary folders."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SB3_LOGDIR", str(tmp_path_factory.getbasetemp() / "sb3-logs"))
        yield


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


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[object]:
    """An empty games store of each kind, closed after the test: SQLite, then PostgreSQL (a fresh
    database of the session's cluster)."""
    from tresfute.web.store import PostgresStore, SQLiteStore, Store

    if request.param == "sqlite":
        opened: Store = SQLiteStore(tmp_path / "games.sqlite3")
    else:
        opened = PostgresStore(request.getfixturevalue("postgres_url"))
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """A headless Chromium (Debian's, see ``tests/browser.py``) for a module's browser tests: one
    per module, as Playwright's synchronous API holds an event loop in the main thread while it
    runs, where other tests call ``asyncio.run``."""
    from playwright.sync_api import sync_playwright

    from browser import ARGS, CHROMIUM

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A live server (``tests/browser.py``'s ``LiveServer``) for a module's browser tests: its address."""
    from browser import LiveServer

    live = LiveServer(tmp_path_factory.mktemp("web") / "games.sqlite3")
    live.start()
    yield live.url
    live.stop()
