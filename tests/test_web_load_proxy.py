"""The load test through a proxy: web_load.py's trace of each game's connections, the servers named
by their processes, and the report that tells which server each connection went to."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.slow  # a server and a load run: left out by pytest -m "not slow"

ROOT = Path(__file__).parent.parent
LOAD = ROOT / "benchmarks" / "web_load.py"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _proxy_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("web_load_proxy", ROOT / "benchmarks" / "web_load_proxy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_servers_behind_an_address_are_counted_by_their_processes_and_each_games_connections_traced(
    tmp_path: Path,
) -> None:
    port = _free_port()
    limits = {"TRESFUTE_GAMES_PER_MINUTE": "0", "TRESFUTE_SOCKETS_PER_ADDRESS": "0"}
    command = [sys.executable, "-m", "tresfute", "serve", "--port", str(port), "--db", str(tmp_path / "g.sqlite3")]
    server = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **limits}
    )
    try:
        url = f"http://127.0.0.1:{port}"
        _proxy_module().wait_for(url, server, "the server")
        trace = tmp_path / "trace.jsonl"
        load = [sys.executable, str(LOAD), "--url", url, "--server-pids", str(server.pid), "--trace", str(trace)]
        load += ["--games", "2", "--pages", "--think", "0.05", "--duration", "3"]
        result = subprocess.run(load, capture_output=True, text=True, timeout=120)
    finally:
        server.terminate()
        server.wait()
    assert result.returncode == 0, result.stderr
    assert f"servers behind {url}: processes {server.pid}" in result.stdout
    spent = re.search(r"CPU a move: servers (\d+\.\d\d) ms", result.stdout)
    assert spent and float(spent[1]) > 0, result.stdout  # the server's processes were found and counted
    games = [json.loads(line) for line in trace.read_text().splitlines()]
    assert len(games) == 2
    for game in games:
        assert isinstance(game["page"], int) and game["page"] != game["created"]
        assert game["moves"], game
        for connection, sent, lag, revision in game["moves"]:
            assert connection == game["created"]  # the moves went on the connection that created the game
            assert 0 <= sent <= 4 and lag is not None and lag >= 0 and revision >= game["page from"]
        assert game["steady"] > 0


def test_server_pids_without_an_address_are_refused() -> None:
    result = subprocess.run(
        [sys.executable, str(LOAD), "--server-pids", "1"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "--server-pids and --proxy-pid name the processes behind --url" in result.stderr


def test_the_report_tells_which_server_each_connection_went_to_and_what_the_pages_heard(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "proxy.log"
    went = [(1001, 9001), (1002, 9002), (1003, 9001), (1004, 9001), (1005, 9001), (1005, 9002)]
    log.write_text(
        "Serving on 127.0.0.1:9000 by tunnel\n"
        + "".join(f"tunnel 127.0.0.1:{c} -> tunnel 127.0.0.1:{s} -> 127.0.0.1:9001\n" for c, s in went)
    )
    trace = tmp_path / "trace.jsonl"
    games = [
        # created and moved through 9001, its page on 9002: the page hears moves 1 and 3, is sent 3 in place of 2
        # (changes told together), and misses the last
        {
            "created": 1001,
            "page": 1002,
            "page from": 0,
            "steady": 1.0,
            "moves": [[1001, 0.5, 0.25, 1], [1001, 1.5, None, 2], [1001, 1.7, 0.1, 3], [1001, 2.0, None, 4]],
        },
        # all on 9001; its page connected after the first move: it was sent the game at revision 2
        {
            "created": 1003,
            "page": 1004,
            "page from": 2,
            "steady": 1.0,
            "moves": [[1003, 0.5, None, 1], [1003, 2.0, 0.002, 2]],
        },
        {
            "created": 1003,
            "page": 1005,
            "page from": 0,
            "steady": 1.0,
            "moves": [[1003, 2.0, 0.5, 1]],
        },  # 1005 went to both
    ]
    trace.write_text("".join(json.dumps(game) + "\n" for game in games))
    _proxy_module().report(log, trace, [9001, 9002])
    printed = capsys.readouterr().out
    assert "proxy: 6 connections, 4 to the server on port 9001, 2 to the server on port 9002" in printed
    assert "created through one server and their page on the other: 1 of 2 (the others unknown" in printed
    assert (
        "other server than their page's: 4, 2 seen by the page, 1 passed over for a later state, 1 missed;"
        " after the answer by p50 250.0 ms" in printed
    )
    assert "same server as their page's: 1, 1 seen by the page, 0 passed over for a later state, 0 missed;" in printed
    assert "from 1 s on: p50 100.0 ms" in printed  # move 3, sent once every game was under way
    assert "moves made before their page's socket had its first state (then sent the game as it stood): 1" in printed
    assert "the moves missed were sent from 2.0 s on, the last move at 2.0 s" in printed
