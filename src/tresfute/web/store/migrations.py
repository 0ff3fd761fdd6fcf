"""The schema's migrations: each takes a database from version i to i + 1, applied in order
when a store opens an older database; a newer one is refused (:class:`SchemaError`)."""

from __future__ import annotations

# Each migration takes the schema from version i to i + 1; ``{real}`` is the dialect's float.
MIGRATIONS: list[str] = [
    # 1: games, seats, moves (the layout of the first release, which had no schema_version)
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        real_dice INTEGER NOT NULL,
        secret TEXT,
        language TEXT NOT NULL,
        created {real} NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE seats (
        game_id TEXT NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        bot TEXT,
        token_hash TEXT UNIQUE,
        acted INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id),
        number INTEGER NOT NULL,
        entry TEXT NOT NULL,
        PRIMARY KEY (game_id, number)
    );
    """,
    # 2: the daily challenge
    """
    ALTER TABLE games ADD COLUMN challenge TEXT;
    CREATE TABLE challenges (
        day TEXT NOT NULL,
        game TEXT NOT NULL,
        secret TEXT NOT NULL,
        strong_score INTEGER,
        PRIMARY KEY (day, game)
    );
    CREATE TABLE challenge_names (
        day TEXT NOT NULL,
        name_key TEXT NOT NULL,
        name TEXT NOT NULL,
        player_hash TEXT NOT NULL,
        PRIMARY KEY (day, name_key)
    );
    CREATE TABLE challenge_entries (
        day TEXT NOT NULL,
        game TEXT NOT NULL,
        name_key TEXT NOT NULL,
        game_id TEXT NOT NULL UNIQUE REFERENCES games(id),
        score INTEGER,
        PRIMARY KEY (day, game, name_key)
    );
    CREATE INDEX challenge_names_player ON challenge_names (player_hash);
    """,
    # 3: open tables
    """
    ALTER TABLE games ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN free INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX seats_free ON seats (free, game_id);
    """,
    # 4: the record's length kept with the game, so that a write's guard need not count the moves
    """
    ALTER TABLE games ADD COLUMN move_count INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET move_count = (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id);
    """,
    # 5: when a game ended, so that finished games can be forgotten after a while (those that
    # ended before this version have none: they are kept)
    """
    ALTER TABLE games ADD COLUMN finished {real};
    CREATE INDEX games_finished ON games (finished);
    """,
    # 6: game reviews, computed once per seat of a finished game (``reviewed``); ``version`` is
    # the review's format, so that a later release's review is computed anew, not misread
    """
    CREATE TABLE reviews (
        game_id TEXT NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        version TEXT NOT NULL,
        review TEXT NOT NULL,
        PRIMARY KEY (game_id, seat, version)
    );
    """,
    # 7: players (a secret kept by the browser, known by its SHA-256, with a name) and the seats
    # they play; a finished game's scores, kept once computed for the player's progress page. The
    # players of the daily challenge so far become players, with the name they took last.
    """
    CREATE TABLE players (
        player_hash TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created {real} NOT NULL
    );
    INSERT INTO players (player_hash, name, created)
        SELECT n.player_hash, (SELECT m.name FROM challenge_names m WHERE m.player_hash = n.player_hash
            ORDER BY m.day DESC LIMIT 1), 0
        FROM challenge_names n GROUP BY n.player_hash;
    ALTER TABLE seats ADD COLUMN player_hash TEXT;
    ALTER TABLE seats ADD COLUMN score INTEGER;
    CREATE INDEX seats_player ON seats (player_hash);
    """,
    # 8: one entry per player, day and game, whatever the name (a player who took two names could
    # enter twice, the second time knowing the dice); the entries made so far count, one each
    """
    CREATE TABLE challenge_players (
        day TEXT NOT NULL,
        game TEXT NOT NULL,
        player_hash TEXT NOT NULL,
        PRIMARY KEY (day, game, player_hash)
    );
    INSERT INTO challenge_players (day, game, player_hash)
        SELECT DISTINCT e.day, e.game, n.player_hash FROM challenge_entries e
        JOIN challenge_names n ON n.day = e.day AND n.name_key = e.name_key;
    """,
    # 9: the rules options a game was created with (JSON, as ``Game.rules``; NULL: the defaults)
    """
    ALTER TABLE games ADD COLUMN rules TEXT;
    """,
    # 10: the practice positions a player solved (a reviewed seat's costly decision, by its move
    # number). No reference to the game: what a player solved stays theirs once the game is forgotten.
    """
    CREATE TABLE practice_solved (
        player_hash TEXT NOT NULL,
        game_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        move_number INTEGER NOT NULL,
        solved {real} NOT NULL,
        PRIMARY KEY (player_hash, game_id, seat, move_number)
    );
    """,
    # 11: when a game last changed (a move, an undo, a seat taken or handed to a computer player),
    # so that a seat an open table waits on for too long can be handed to a computer player and a
    # game abandoned for long forgotten. The games of before count as changed at the upgrade.
    """
    ALTER TABLE games ADD COLUMN moved {real};
    UPDATE games SET moved = {now};
    CREATE INDEX games_moved ON games (moved);
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


class SchemaError(RuntimeError):
    """The database was written by a newer tresfute (a schema this one does not know)."""


class ForeignDatabaseError(RuntimeError):
    """An SQLite file that holds another program's tables (and none of tresfute's): left alone."""


def _statements(script: str, real: str, now: str = "NULL") -> list[str]:
    """A migration's statements; ``{real}`` is the dialect's float, ``{now}`` its expression of
    the present moment in seconds since 1970."""
    return [s.strip() for s in script.format(real=real, now=now).split(";") if s.strip()]
