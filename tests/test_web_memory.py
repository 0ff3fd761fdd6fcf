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
