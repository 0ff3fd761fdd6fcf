"""The stores that keep the web server's games, SQLite and PostgreSQL, held to the same rules.

Every test runs on both: an SQLite file and a real PostgreSQL database (a throwaway cluster,
see ``tests/postgres.py``; skipped with the reason where PostgreSQL is not installed, required
in CI).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from tresfute.web.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    AlreadySeatedError,
    EntryRefusedError,
    MoveConflictError,
    PostgresStore,
    SchemaError,
    SQLiteStore,
    Store,
    StoredGame,
    StoredSeat,
    UnknownDatabaseError,
    _statements,
    name_key,
    open_store,
    token_hash,
)

DICE = "dice w1 y2 b3 g4 o5 p6"


def a_game(game_id: str = "g1", token: str = "t" * 32) -> StoredGame:
    return StoredGame(
        game_id,
        "tres-fute",
        True,
        None,
        [StoredSeat("Ana", None, token_hash(token)), StoredSeat("Bot", "greedy", None)],
    )


def test_a_game_is_kept_with_its_seats_and_moves(store: Store) -> None:
    game = a_game()
    game.created = 1234.5
    store.create(game)
    store.append_moves("g1", 0, [DICE, "1:y@r1c1"], 0)
    loaded = store.load("g1")
    assert loaded is not None
    assert loaded.moves == [DICE, "1:y@r1c1"] and loaded.revision == 1 and loaded.created == 1234.5
    assert [(s.name, s.bot, s.acted) for s in loaded.seats] == [("Ana", None, 1), ("Bot", "greedy", 0)]
    assert store.revision("g1") == 1 and store.revision("nope") is None and store.load("nope") is None
    assert store.seat_of("t" * 32) == ("g1", 0) and store.seat_of("u" * 32) is None


def test_a_second_move_n_is_refused_and_changes_nothing(store: Store) -> None:
    store.create(a_game())
    store.append_moves("g1", 0, [DICE], None)
    with pytest.raises(MoveConflictError):
        store.append_moves("g1", 0, [DICE], None)
    with pytest.raises(MoveConflictError):
        store.append_moves("g1", 1, ["1:y@r1c1"], 0, revision=0)  # written on a stale copy
    loaded = store.load("g1")
    assert loaded is not None and loaded.moves == [DICE] and loaded.revision == 1 and loaded.seats[0].acted == 0


def test_an_undo_truncates_the_record_and_counts_as_an_action(store: Store) -> None:
    store.create(a_game())
    store.append_moves("g1", 0, [DICE, "1:y@r1c1"], 0)
    store.truncate("g1", 1, 0, revision=1)
    with pytest.raises(MoveConflictError):
        store.truncate("g1", 0, 0, revision=1)
    loaded = store.load("g1")
    assert loaded is not None and loaded.moves == [DICE] and loaded.revision == 2 and loaded.seats[0].acted == 2
    with pytest.raises(MoveConflictError):  # the record is one move long again
        store.append_moves("g1", 2, ["1:g@1"], 0, revision=2)
    store.append_moves("g1", 1, ["1:g@1"], 0, revision=2)


def test_concurrent_writers_of_the_same_move_exactly_one_wins(store: Store) -> None:
    store.create(a_game())
    results: list[str] = []
    barrier = threading.Barrier(8)

    def write(i: int) -> None:
        barrier.wait()
        try:
            store.append_moves("g1", 0, [f"dice w{i % 6 + 1} y1 b1 g1 o1 p1"], None, revision=0)
            results.append("won")
        except MoveConflictError:
            results.append("refused")

    threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["refused"] * 7 + ["won"]
    loaded = store.load("g1")
    assert loaded is not None and len(loaded.moves) == 1 and loaded.revision == 1


def test_the_schema_is_versioned(store: Store) -> None:
    assert store.schema_version() == SCHEMA_VERSION  # type: ignore[attr-defined]


def test_an_sqlite_file_of_the_first_release_is_migrated_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        """
        CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, real_dice INTEGER NOT NULL, secret TEXT,
            language TEXT NOT NULL, created REAL NOT NULL, revision INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE seats (game_id TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL, name TEXT NOT NULL,
            bot TEXT, token_hash TEXT UNIQUE, acted INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (game_id, seat));
        CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id), number INTEGER NOT NULL,
            entry TEXT NOT NULL, PRIMARY KEY (game_id, number));
        INSERT INTO games VALUES ('old', 'tres-fute', 1, NULL, 'fr', 1.0, 3);
        INSERT INTO seats VALUES ('old', 0, 'Ana', NULL, 'h', 2);
        INSERT INTO moves VALUES ('old', 0, 'dice w1 y2 b3 g4 o5 p6');
        """
    )
    old.commit()
    old.close()
    store = SQLiteStore(path)
    assert store.schema_version() == SCHEMA_VERSION
    loaded = store.load("old")
    assert loaded is not None and loaded.moves == [DICE] and loaded.revision == 3 and loaded.seats[0].acted == 2
    with pytest.raises(MoveConflictError):  # the migration counted the old game's moves
        store.append_moves("old", 0, [DICE], None)
    store.append_moves("old", 1, ["1:y@r1c1"], 0, revision=3)
    store.close()
    reopened = SQLiteStore(path)  # opening again migrates nothing
    assert reopened.schema_version() == SCHEMA_VERSION
    reopened.close()


def test_a_postgresql_database_of_schema_3_is_migrated_and_its_games_go_on(postgres_url: str) -> None:
    import psycopg

    from tresfute.web.store import MIGRATIONS, _statements

    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (3)")
        for script in MIGRATIONS[:3]:
            for statement in _statements(script, PostgresStore._real):
                db.execute(statement)
        db.execute(
            "INSERT INTO games (id, game, real_dice, language, created, revision)"
            " VALUES ('old', 'tres-fute', 1, 'fr', 1, 2)"
        )
        db.execute("INSERT INTO moves VALUES ('old', 0, %s), ('old', 1, '1:y@r1c1')", (DICE,))
    store = PostgresStore(postgres_url)
    assert store.schema_version() == SCHEMA_VERSION
    assert store.purge_finished(None, abandoned_before=time.time() - 60) == 0, "changed at the upgrade: kept"
    with pytest.raises(MoveConflictError):  # the migration counted the old game's two moves
        store.append_moves("old", 1, ["1:g@1"], None, revision=2)
    store.append_moves("old", 2, ["1:g@1"], None, revision=2)
    loaded = store.load("old")
    assert loaded is not None and loaded.moves == [DICE, "1:y@r1c1", "1:g@1"] and loaded.revision == 3
    store.close()


def test_a_database_from_a_newer_release_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    SQLiteStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(SchemaError, match="upgrade"):
        SQLiteStore(path)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema_version").fetchone() == (SCHEMA_VERSION + 1,)


CONNECTIONS = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"


def test_a_postgresql_database_from_a_newer_release_is_refused_untouched(postgres_url: str) -> None:
    import psycopg

    PostgresStore(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION + 1,))
        tables = db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1").fetchall()
    with pytest.raises(SchemaError, match="upgrade"):
        PostgresStore(postgres_url)
    with psycopg.connect(postgres_url, autocommit=True) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION + 1,)]
        assert db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1").fetchall() == tables
        # the refused store let go of its connections: only this one is left (once they have ended)
        deadline = time.monotonic() + 10
        while (count := db.execute(CONNECTIONS).fetchone()) != (1,) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert count == (1,)


def test_a_database_url_of_an_unknown_kind_is_refused_not_taken_for_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UnknownDatabaseError, match="mysql://"):
        open_store("mysql://user@host/db")
    assert list(tmp_path.iterdir()) == []
    store = open_store(tmp_path / "here.sqlite3")
    assert isinstance(store, SQLiteStore)
    store.close()


def test_servers_starting_together_on_a_new_postgresql_database_migrate_it_once(postgres_url: str) -> None:
    stores: list[PostgresStore] = []
    barrier = threading.Barrier(4)

    def open_one() -> None:
        barrier.wait()
        stores.append(PostgresStore(postgres_url))

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [s.schema_version() for s in stores] == [SCHEMA_VERSION] * 4
    for s in stores:
        s.close()


def test_serve_refuses_a_database_url_it_does_not_know(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from tresfute.cli import main
    from tresfute.i18n import language, set_language

    monkeypatch.chdir(tmp_path)
    before = language()
    try:
        result = CliRunner().invoke(main, ["serve", "--lang", "en", "--db", "mysql://user@host/db"])
        assert result.exit_code == 2 and "mysql://user@host/db is neither a postgresql:// URL" in result.output
        result = CliRunner().invoke(main, ["serve", "--lang", "en", "--workers", "2", "--db", "games.sqlite3"])
    finally:
        set_language(before)
    assert result.exit_code == 2 and "several workers need a postgresql:// database" in result.output
    assert [p.name for p in tmp_path.iterdir()] in ([], ["games.sqlite3"])


def test_two_people_taking_the_last_free_seat_at_once_only_one_gets_it(store: Store) -> None:
    game = a_game()
    game.listed = True
    game.seats.append(StoredSeat("Player 3", None, None, free=True))
    store.create(game)
    won: list[int | None] = []
    barrier = threading.Barrier(6)

    def take(i: int) -> None:
        barrier.wait()
        won.append(store.take_seat("g1", f"P{i}", token_hash(f"{i}" * 32)))

    threads = [threading.Thread(target=take, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(won, key=lambda s: s is None) == [2, None, None, None, None, None]
    loaded = store.load("g1")
    assert loaded is not None and not loaded.seats[2].free and loaded.revision == 1
    assert store.open_games(10) == []


def test_a_seat_taken_on_a_stale_copy_is_refused_and_stays_free(store: Store) -> None:
    game = a_game()
    game.listed = True
    game.seats.append(StoredSeat("Player 3", None, None, free=True))
    store.create(game)
    store.append_moves("g1", 0, [DICE], None)
    with pytest.raises(MoveConflictError):
        store.take_seat("g1", "Eve", token_hash("e" * 32), revision=0)
    loaded = store.load("g1")
    assert loaded is not None and loaded.seats[2].free and loaded.revision == 1
    assert store.take_seat("g1", "Eve", token_hash("e" * 32), revision=1) == 2


def test_the_move_that_ends_a_challenge_entry_writes_its_score_with_it_or_neither(store: Store) -> None:
    day, player = "2026-11-23", "p" * 64
    assert store.challenge(day, "tres-fute") is None, "reading a day makes nothing"
    secret, _ = store.challenge_secret(day, "tres-fute", "s" * 64)
    assert store.challenge(day, "tres-fute") == (secret, None)
    store.set_strong_score(day, "tres-fute", 200)
    assert store.challenge(day, "tres-fute") == (secret, 200)
    entry = a_game()
    entry.challenge = day
    store.enter(entry, "Ana", player)
    store.append_moves("g1", 0, [DICE], 0)
    with pytest.raises(MoveConflictError):
        store.append_moves("g1", 1, ["1:y@r1c1"], 0, revision=0, score=42)  # a stale copy: neither lands
    assert [e.score for e in store.history(player)] == [None] and store.ranking(day, "tres-fute") == []
    store.append_moves("g1", 1, ["1:y@r1c1"], 0, revision=1, score=42)
    loaded = store.load("g1")
    assert loaded is not None and loaded.moves == [DICE, "1:y@r1c1"]
    assert [(e.name, e.score) for e in store.ranking(day, "tres-fute")] == [("Ana", 42)]


def test_a_record_entry_of_two_lines_is_refused_by_postgresql_and_nothing_is_written(postgres_url: str) -> None:
    store = PostgresStore(postgres_url)
    store.create(a_game())
    with pytest.raises(ValueError, match="one line"):
        store.append_moves("g1", 0, [f"{DICE}\n1:y@r1c1"], 0)
    loaded = store.load("g1")
    assert loaded is not None and loaded.moves == [] and loaded.revision == 0
    store.close()


def test_finished_games_are_forgotten_once_old_enough_challenge_entries_and_others_kept(store: Store) -> None:
    """A game's end is written with its last move; ``purge_finished`` forgets the games ended
    before a moment, with their seats and moves (a daily challenge entry stays on its board)."""
    for game_id, ended in (("old", 100.0), ("new", 300.0), ("open", None)):
        store.create(a_game(game_id, token=game_id * 16))
        store.append_moves(game_id, 0, [DICE], None, finished=ended)
    entry = a_game("entry", token="e" * 32)
    store.challenge_secret("1970-01-01", "tres-fute", "s" * 64)
    entry.challenge = "1970-01-01"
    store.enter(entry, "Ana", "p" * 64)
    store.append_moves("entry", 0, [DICE], None, finished=50.0, score=10)
    assert store.purge_finished(200.0) == 1
    assert store.load("old") is None and store.seat_of("old" * 16) is None
    assert [store.load(g) is not None for g in ("new", "open", "entry")] == [True, True, True]
    assert [e.score for e in store.ranking("1970-01-01", "tres-fute")] == [10]
    assert store.purge_finished(200.0) == 0


def an_entry(game_id: str, day: str = "2026-11-23", game: str = "tres-fute") -> StoredGame:
    entry = a_game(game_id, token=game_id * 16)
    entry.game, entry.challenge = game, day
    return entry


def test_a_player_enters_each_game_of_the_day_once_whatever_the_name(store: Store) -> None:
    """The same player's secret under a second name is refused (it would replay dice it has
    seen); nothing is written: the name stays free, no game is made."""
    ana = "a" * 64
    store.enter(an_entry("g1"), "Ana", ana)
    with pytest.raises(EntryRefusedError) as refused:
        store.enter(an_entry("g2"), "Anabelle", ana)
    assert refused.value.reason == "played" and store.load("g2") is None
    store.enter(an_entry("g3"), "Anabelle", "b" * 64)  # the name was not kept for Ana
    store.enter(an_entry("g4", game="vraiment-tres-fute"), "Ana", ana)  # another game: its own entry
    store.enter(an_entry("g5", day="2026-11-24"), "Ana", ana)  # another day
    assert sorted(e.game_id for e in store.history(ana)) == ["g1", "g4", "g5"]


@pytest.mark.parametrize(
    "other",
    [
        "Dup\u200b1",  # a zero-width space
        "dup1",  # case
        "  Dup1 ",  # spaces around
        "\uff24\uff55\uff50\uff11",  # full-width letters and digit
        "D\u200dup\u20601",  # a joiner, a word joiner
        "\u202eDup1",  # a direction override
        "Dup\ufe0f1",  # a variation selector
        "Dup\u034f1",  # the combining grapheme joiner
    ],
)
def test_names_are_the_same_name_once_normalised(store: Store, other: str) -> None:
    """Names are compared as NFKC, without invisible characters, case folded: another player
    cannot take "Dup1" under a name that looks the same."""
    assert name_key(other) == name_key("Dup1") == "dup1"
    store.enter(an_entry("g1"), "Dup1", "a" * 64)
    with pytest.raises(EntryRefusedError) as refused:
        store.enter(an_entry("g2"), other, "b" * 64)
    assert refused.value.reason == "name" and store.load("g2") is None


def test_letters_of_another_script_that_look_alike_are_another_name(store: Store) -> None:
    """Documented choice (docs/web.md): confusables are other letters, not folded."""
    cyrillic = "\u0410na"  # Cyrillic capital A, then Latin "na"
    assert name_key(cyrillic) != name_key("Ana")
    store.enter(an_entry("g1"), "Ana", "a" * 64)
    store.enter(an_entry("g2"), cyrillic, "b" * 64)
    assert [e.name for e in store.history("b" * 64)] == [cyrillic]


def test_a_database_whose_player_entered_twice_is_migrated_and_refuses_a_third(tmp_path: Path) -> None:
    """Schema 7 let a player enter one game twice under two names: both entries are kept
    (their ranking stands), the next one is refused."""
    path = tmp_path / "seven.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (7)")
        for script in MIGRATIONS[:7]:
            for statement in _statements(script, "REAL"):
                db.execute(statement)
        for game_id, name in (("g1", "Ana"), ("g2", "Anna")):
            db.execute(
                "INSERT INTO games (id, game, real_dice, language, created) VALUES (?, 'tres-fute', 0, 'fr', 1)",
                (game_id,),
            )
            db.execute("INSERT INTO challenge_names VALUES ('2026-11-23', ?, ?, 'p')", (name.lower(), name))
            db.execute(
                "INSERT INTO challenge_entries VALUES ('2026-11-23', 'tres-fute', ?, ?, 10)", (name.lower(), game_id)
            )
    store = SQLiteStore(path)
    assert store.schema_version() == SCHEMA_VERSION
    assert sorted(e.name for e in store.ranking("2026-11-23", "tres-fute")) == ["Ana", "Anna"]
    with pytest.raises(EntryRefusedError, match="played"):
        store.enter(an_entry("g3"), "Anouk", "p")
    store.close()


def open_game(game_id: str = "g1") -> StoredGame:
    game = a_game(game_id, token=game_id * 32)
    game.listed = True
    game.seats.append(StoredSeat("Player 3", None, None, free=True))
    return game


def test_a_player_who_has_a_seat_at_a_table_cannot_take_another(store: Store) -> None:
    game = open_game()
    game.seats[0].player_hash = "a" * 64
    game.seats.append(StoredSeat("Player 4", None, None, free=True))
    store.create(game)
    assert store.take_seat("g1", "Zed", token_hash("z" * 32), player_hash="z" * 64) == 2
    for again in ("z" * 64, "a" * 64):
        with pytest.raises(AlreadySeatedError):
            store.take_seat("g1", "Again", token_hash(again[:32]), revision=1, player_hash=again)
    loaded = store.load("g1")
    assert loaded is not None and loaded.seats[3].free and loaded.revision == 1, "nothing written"
    assert store.take_seat("g1", "Eve", token_hash("e" * 32), revision=1, player_hash="e" * 64) == 3


def test_an_idle_open_table_is_found_and_its_seat_handed_to_a_computer_player(store: Store) -> None:
    """``idle_tables`` lists the open tables under way last changed between two moments (the
    most recent first); ``replace_seats`` hands seats to a computer player, guarded by the revision, and the
    seat's link plays no more."""
    for game_id, created in (("old", 100.0), ("new", 200.0), ("now", 900.0)):
        game = open_game(game_id)
        game.created = created
        store.create(game)
    store.take_seat("old", "Zed", token_hash("z" * 32), player_hash="z" * 64, at=300.0)  # changed at 300
    private = a_game("private", token="p" * 32)
    private.created = 100.0
    store.create(private)
    assert store.idle_tables(0.0, 500.0, 10) == [("old", 1), ("new", 0)]
    assert store.idle_tables(0.0, 500.0, 1) == [("old", 1)]
    assert store.idle_tables(250.0, 500.0, 10) == [("old", 1)], "unchanged since before 250: not looked at"
    with pytest.raises(MoveConflictError):
        store.replace_seats("old", [2], "greedy", revision=0, at=600.0)  # found idle on a stale copy
    store.replace_seats("old", [2], "greedy", revision=1, at=600.0)
    loaded = store.load("old")
    assert loaded is not None and loaded.revision == 2
    assert (loaded.seats[2].bot, loaded.seats[2].token_hash, loaded.seats[2].player_hash) == ("greedy", None, None)
    assert store.seat_of("z" * 32) is None
    assert store.idle_tables(0.0, 500.0, 10) == [("new", 0)], "changed at 600"
    assert store.idle_tables(0.0, 700.0, 10) == [("old", 2), ("new", 0)]


def test_abandoned_games_are_forgotten_and_those_played_kept(store: Store) -> None:
    """``purge_finished`` forgets, with the finished games, the unfinished ones unchanged since a
    moment (a game under way is kept, and so is a daily challenge entry)."""
    for game_id, created in (("abandoned", 100.0), ("played", 100.0), ("fresh", 400.0)):
        game = a_game(game_id, token=game_id * 8)
        game.created = created
        store.create(game)
    store.append_moves("abandoned", 0, [DICE], None, at=150.0)
    store.append_moves("played", 0, [DICE], None, at=350.0)
    entry = a_game("entry", token="e" * 32)
    entry.created = 100.0
    store.challenge_secret("1970-01-01", "tres-fute", "s" * 64)
    entry.challenge = "1970-01-01"
    store.enter(entry, "Ana", "p" * 64)
    assert store.purge_finished(None, abandoned_before=300.0) == 1
    assert store.load("abandoned") is None and store.seat_of("abandoned" * 8) is None
    assert [store.load(g) is not None for g in ("played", "fresh", "entry")] == [True, True, True]
    assert store.purge_finished(None) == 0, "None: none of that kind"


def test_the_games_of_before_the_last_change_was_kept_count_as_changed_at_the_upgrade(tmp_path: Path) -> None:
    """A database of schema 10 (no time of last change) keeps its games under way for the full
    time after the upgrade, however old they are."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        old.execute("INSERT INTO schema_version VALUES (10)")
        for script in MIGRATIONS[:10]:
            for statement in _statements(script, "REAL"):
                old.execute(statement)
        old.execute(
            "INSERT INTO games (id, game, real_dice, language, created) VALUES ('old', 'tres-fute', 1, 'fr', 1)"
        )
    store = SQLiteStore(path)
    assert store.purge_finished(None, abandoned_before=time.time() - 60) == 0
    assert store.load("old") is not None
    assert store.purge_finished(None, abandoned_before=time.time() + 60) == 1
    store.close()
