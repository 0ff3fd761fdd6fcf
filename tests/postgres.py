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
    port = _free_port()
    try:
        subprocess.run(
            [binaries / "initdb", "-D", data, "-U", "tresfute", "-A", "trust", "-E", "UTF8", "--no-sync"],
            check=True,
            capture_output=True,
            cwd=folder,
            **run_as,  # type: ignore[arg-type]
        )
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        subprocess.run(
            [binaries / "pg_ctl", "-D", data, "-l", folder / "log", "-o", options, "-w", "-t", "60", "start"],
            check=True,
            capture_output=True,
            cwd=folder,
            **run_as,  # type: ignore[arg-type]
        )
    except subprocess.CalledProcessError as exc:
        log = (folder / "log").read_text() if (folder / "log").exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start: {exc.stderr.decode()}{log}") from None
    try:
        yield f"postgresql://tresfute@127.0.0.1:{port}/postgres"
    finally:
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
