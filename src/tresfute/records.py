"""Game records: a game saved as JSON (game, players, seed or dice, moves, final scores).

A record replays: :func:`replay` plays every move through the engine and checks the final
scores it states. The format is in ``docs/records.md``.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .rules import CHANCE, Game, IllegalMoveError, MoveSyntaxError, parse_move
from .rules.game import get_spec
from .rules.reasons import Reason, ReasonError

FORMAT: Literal["tresfute-record/1"] = "tresfute-record/1"


class RecordError(ReasonError):
    """A record that cannot be read or replayed; says where and why (an illegal move's reason
    translatable: ``tresfute.text.explain``)."""


class ScoreModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    areas: dict[str, int]
    foxes: int
    fox_value: int
    total: int


class ResultModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scores: list[ScoreModel]
    winners: list[int] = Field(description="1-based seats")


class Record(BaseModel):
    """A saved game. ``moves`` holds ``"<seat>:<move>"`` for decisions (seat from 1) and
    ``"dice ..."`` for dice given from outside; forced moves are not stored."""

    model_config = ConfigDict(extra="forbid")
    format: Literal["tresfute-record/1"] = FORMAT
    game: str
    players: list[str] = Field(min_length=1, max_length=4)
    bots: list[str | None] | None = None  # per seat: a computer player's name, or null for a person
    dice: Literal["seeded", "external"] = "seeded"
    seed: int | None = None
    moves: list[str] = []
    result: ResultModel | None = None

    @model_validator(mode="after")
    def _seed_matches_dice(self) -> Record:
        get_spec(self.game)
        if self.dice == "seeded" and self.seed is None:
            raise ValueError("a seeded game needs its seed")
        if self.dice == "external" and self.seed is not None:
            raise ValueError("a game with dice from outside has no seed")
        if self.bots is not None and len(self.bots) != len(self.players):
            raise ValueError("'bots' gives one entry per player")
        return self


def record_of(game: Game, names: list[str] | None = None, bots: list[str | None] | None = None) -> Record:
    """The record of ``game`` as played so far (with its result once it is over)."""
    names = names or [f"Player {i + 1}" for i in range(game.n_players)]
    moves = [str(h.move) if h.player == CHANCE else f"{h.player + 1}:{h.move}" for h in game.moves_played()]
    result = None
    if game.is_over:
        result = ResultModel(
            scores=[ScoreModel(**s.as_dict()) for s in game.scores()],
            winners=[w + 1 for w in game.winners()],
        )
    return Record(
        game=game.spec.id,
        players=names,
        bots=bots if bots is not None and any(bots) else None,
        dice="external" if game.external_dice else "seeded",
        seed=game.seed,
        moves=moves,
        result=result,
    )


def dumps(record: Record) -> str:
    return record.model_dump_json(indent=2, exclude_none=True)


def loads(text: str | bytes) -> Record:
    """Read a record; raises :class:`RecordError` with what is wrong."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"not JSON: {exc}") from None
    return from_data(data)


def from_data(data: Any) -> Record:
    try:
        return Record.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'record'}: {e['msg']}" for e in exc.errors())
        raise RecordError(f"not a valid record: {problems}") from None


def split_entry(entry: str) -> tuple[int | None, str]:
    """A record's move entry "seat:move" as (player index, move text); no seat for dice."""
    seat, sep, rest = entry.partition(":")
    if sep and seat.strip().isdigit():
        return int(seat) - 1, rest
    return None, entry


def replay(record: Record, stop: int | None = None) -> Game:
    """Play the record's moves; check its result if it has one.

    ``stop``: play only the moves before move ``stop`` (numbered from 1), to see the position
    in which it was played; the result is then not checked.
    Raises :class:`RecordError` naming the move (numbered from 1) and the reason.
    """
    game = Game(record.game, players=len(record.players), seed=record.seed, dice=record.dice)
    if stop is not None and not 1 <= stop <= len(record.moves) + 1:
        raise RecordError(f"the record has {len(record.moves)} moves: no move {stop}")
    for number, entry in enumerate(record.moves, start=1):
        if number == stop:
            return game
        player, text = split_entry(entry)
        try:
            move = parse_move(text)
            if player is None and move.kind != "dice":
                raise RecordError(f"move {number} ({entry!r}): say whose move it is, as in '1:{text.strip()}'")
            game.play(move, player)
        except (IllegalMoveError, MoveSyntaxError) as exc:
            raise RecordError(
                Reason(
                    "move {number} ({entry}) is illegal: {reason}", number=number, entry=repr(entry), reason=exc.reason
                )
            ) from None
    if record.result is not None:
        if not game.is_over:
            raise RecordError(f"the record states a result, but its {len(record.moves)} moves stop before the end")
        for seat, (stated, actual) in enumerate(zip(record.result.scores, game.scores(), strict=False), start=1):
            if stated.model_dump() != actual.as_dict():
                raise RecordError(
                    f"the final score of player {seat} is {actual.total} {actual.as_dict()}, "
                    f"the record says {stated.total} {stated.model_dump()}"
                )
        if len(record.result.scores) != game.n_players:
            raise RecordError(f"the result gives {len(record.result.scores)} scores for {game.n_players} players")
        winners = [w + 1 for w in game.winners()]
        if sorted(record.result.winners) != winners:
            raise RecordError(f"the winners are {winners}, the record says {record.result.winners}")
    return game
