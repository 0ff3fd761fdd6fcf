"""A throwaway PostgreSQL cluster for the tests, from Debian's ``postgresql`` package.

The cluster lives in a temporary folder and listens on a free loopback port; each test gets
its own fresh database in it. ``initdb`` refuses to run as root (as CI does), so as root the
server runs as the ``postgres`` user the package creates (or ``nobody``). Without the binaries
the tests that need it are skipped, with the reason; ``TRESFUTE_POSTGRES_TESTS=required`` (set
by ``.ci/run``) turns that skip into a failure.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest


def postgres_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl`` (``TRESFUTE_POSTGRES_BIN``, or Debian's newest)."""
    if os.environ.get("TRESFUTE_POSTGRES_BIN"):
        chosen = Path(os.environ["TRESFUTE_POSTGRES_BIN"])
        return chosen if (chosen / "initdb").exists() else None
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    return Path(found[-1]).parent if found else None


def skip_or_fail(reason: str) -> None:
    if os.environ.get("TRESFUTE_POSTGRES_TESTS") == "required":
        pytest.fail(f"PostgreSQL tests are required but {reason}", pytrace=False)
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def cluster() -> Iterator[str]:
    """Start a cluster; yield the URL of its ``postgres`` database; stop and remove it."""
    binaries = postgres_bin()
    if binaries is None:
        skip_or_fail("PostgreSQL is not installed (apt-get install postgresql)")
        raise AssertionError  # not reached
    user = None
    if os.geteuid() == 0:
        for name in ("postgres", "nobody"):
            try:
                user = pwd.getpwnam(name)
                break
            except KeyError:
                continue
        if user is None:
            skip_or_fail("running as root and there is no unprivileged user to run PostgreSQL")
    folder = Path(tempfile.mkdtemp(prefix="tresfute-pg-"))
    if user is not None:
        os.chown(folder, user.pw_uid, user.pw_gid)
    run_as = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []} if user is not None else {}
    data = folder / "data"
    try:
        subprocess.run(
            [binaries / "initdb", "-D", data, "-U", "tresfute", "-A", "trust", "-E", "UTF8", "--no-sync"],
            check=True,
            capture_output=True,
            cwd=folder,
            **run_as,  # type: ignore[arg-type]
        )
        # PostgreSQL binds the port it is given, not one the system picks: a free port is looked
        # up, and looked up again if another program took it before the server bound it
        for attempt in range(5):
            before = (folder / "log").read_text() if (folder / "log").exists() else ""
            port = _free_port()
            options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
            try:
                subprocess.run(
                    [binaries / "pg_ctl", "-D", data, "-l", folder / "log", "-o", options, "-w", "-t", "60", "start"],
                    check=True,
                    capture_output=True,
                    cwd=folder,
                    **run_as,  # type: ignore[arg-type]
                )
                break
            except subprocess.CalledProcessError:
                log = (folder / "log").read_text() if (folder / "log").exists() else ""
                if attempt == 4 or "could not bind" not in log[len(before) :]:
                    raise
    except subprocess.CalledProcessError as exc:
        log = (folder / "log").read_text() if (folder / "log").exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start: {exc.stderr.decode()}{log}") from None
    url = f"postgresql://tresfute@127.0.0.1:{port}/postgres"
    _controls[port] = (binaries, data, folder, options, run_as)
    try:
        yield url
    finally:
        _controls.pop(port, None)
        subprocess.run(
            [binaries / "pg_ctl", "-D", data, "-m", "immediate", "stop"],
            capture_output=True,
            cwd=folder,
            **run_as,  # type: ignore[arg-type]
        )
        shutil.rmtree(folder, ignore_errors=True)


def fresh_database(server_url: str, name: str) -> str:
    """A new empty database in the cluster; its URL."""
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    return server_url.rsplit("/", 1)[0] + f"/{name}"


# how to stop and start each running cluster again, by port (for the database fault tests)
_controls: dict[int, tuple[Path, Path, Path, str, dict[str, Any]]] = {}


def stop(url: str) -> None:
    """Stop the cluster of ``url`` at once, as a crash or a restart does (its clients' connections break)."""
    _pg_ctl(url, "-m", "fast", "stop")


def start(url: str) -> None:
    """Start the cluster of ``url`` again, on the same port."""
    _binaries, _data, folder, options, _run_as = _controls[_port(url)]
    _pg_ctl(url, "-l", str(folder / "log"), "-o", options, "-w", "-t", "60", "start")


def _port(url: str) -> int:
    from urllib.parse import urlsplit

    port = urlsplit(url).port
    assert port is not None
    return port


def _pg_ctl(url: str, *arguments: str) -> None:
    binaries, data, folder, _options, run_as = _controls[_port(url)]
    subprocess.run([binaries / "pg_ctl", "-D", data, *arguments], check=True, capture_output=True, cwd=folder, **run_as)
