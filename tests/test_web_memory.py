"""A server's memory stays flat however many games it hosts: finished tables leave at once,
idle ones after a while, and either comes back from its record when asked for."""

from __future__ import annotations

import random

import pytest

from tresfute.web.store import SQLiteStore
from tresfute.web.tables import Host, SeatRequest


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.slow
def test_thousands_of_abandoned_games_do_not_pile_up_in_memory() -> None:
    clock = Clock()
    host = Host(SQLiteStore(":memory:"), idle_seconds=600, clock=clock)
    first, _tokens = host.create("tres-fute", [SeatRequest("Ana")])
    for _ in range(3000):
        host.create("tres-fute", [SeatRequest("Ana")])
        clock.now += 1.0
        assert host.in_memory() <= 601
    assert host.in_memory() == 600
    again = host.table(first.id)  # long gone from memory: replayed from its record
    assert again.stored.revision == first.stored.revision and not again.game.is_over


def test_a_finished_game_leaves_memory_and_still_answers() -> None:
    host = Host(SQLiteStore(":memory:"))
    rng = random.Random(3)
    for _ in range(3):
        table, tokens = host.create("tres-fute", [SeatRequest("Ana"), SeatRequest("Robot", "greedy")])
        token = tokens[0]
        assert token is not None
        while not table.game.is_over:
            assert host.in_memory() == 1
            seq = table.stored.seats[0].acted
            table, _seat = host.act(table.id, token, str(rng.choice(table.legal(0))), seq)
        assert host.in_memory() == 0
        view = host.view(host.table(table.id), 0, "en")
        assert view["over"] and view["result"]["winners"]
        assert host.in_memory() == 0


def test_beyond_max_tables_the_least_recently_used_leave_memory_and_come_back_from_their_record() -> None:
    """docs/web.md: beyond ``max_tables`` (10,000 by default) the least recently used tables
    leave memory, however recently they were used; any of them is replayed when asked for."""
    clock = Clock()
    host = Host(SQLiteStore(":memory:"), idle_seconds=3600, max_tables=3, clock=clock)
    tables = []
    for _ in range(5):
        table, _tokens = host.create("tres-fute", [SeatRequest("Ana")])
        tables.append(table)
        clock.now += 1.0  # none of them idle
        assert host.in_memory() <= 3
    host.table(tables[2].id)  # used again: now the most recent
    host.create("tres-fute", [SeatRequest("Ana")])
    assert host.in_memory() == 3
    kept = {t.id for t in tables if host.kept(t.id) is not None}
    assert kept == {tables[2].id, tables[4].id}, "the least recently used left first"
    again = host.table(tables[0].id)  # gone from memory: replayed from its record
    assert again is not tables[0] and again.stored.revision == tables[0].stored.revision
    assert host.in_memory() == 3
