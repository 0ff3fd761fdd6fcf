"""Game records: a game saved as JSON (game, players, seed or dice, moves, final scores).

A record replays: :func:`replay` plays every move through the engine and checks the final
scores it states. The format is in ``docs/records.md``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from . import inputs
from .bot_names import BUILT_IN, FILE_KINDS
from .rules import (
    CHANCE,
    Game,
    IllegalMoveError,
    Move,
    MoveKind,
    MoveSyntaxError,
    Phase,
    RulesError,
    Where,
    game_rules,
    parse_move,
)
from .rules.game import Stage
from .rules.kinds import AREA_NAMES, N_
from .rules.moves import PASS
from .rules.reasons import Listing, Named, Reason, ReasonError
from .rules.sheet import Score

FORMAT: Literal["tresfute-record/1"] = "tresfute-record/1"
MAX_BYTES = 1 << 20  # a 4-player game's record is about 10 KB
MAX_MOVES = 5000  # a game has a few hundred decisions and rolls
_ENTRY = re.compile(r"(?:([0-9]+):)?([^:]+)", re.ASCII)  # "<seat>:<move>", or a dice move alone

Name = Annotated[str, StringConstraints(max_length=1000)]  # a person's
Entry = Annotated[str, StringConstraints(max_length=100)]


class RecordError(ReasonError):
    """A record that cannot be read or replayed; says where and why (translatable:
    ``tresfute.text.explain``)."""


class ScoreModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    areas: dict[str, int]
    foxes: int
    fox_value: int
    total: int


class ResultModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    scores: list[ScoreModel] = Field(max_length=4)
    winners: list[int] = Field(max_length=4, description="1-based seats")


class Record(BaseModel):
    """A saved game. ``moves`` holds ``"<seat>:<move>"`` for decisions (seat from 1) and
    ``"dice ..."`` for dice given from outside; forced moves are not stored."""

    model_config = ConfigDict(extra="forbid", strict=True)
    format: Literal["tresfute-record/1"] = FORMAT
    game: str
    players: list[Name] = Field(min_length=1, max_length=4)
    bots: list[Name | None] | None = None  # per seat: a built-in computer player, "ppo", or null for a person
    dice: Literal["seeded", "external"] = "seeded"
    seed: int | None = Field(default=None, ge=-(1 << 64), le=1 << 64)
    # The game's rules options (``Game.rules``) that differ from their default (``changed_rules``);
    # an option left out, or no field, is its default.
    rules: dict[Annotated[str, StringConstraints(max_length=100)], Any] | None = Field(default=None, max_length=16)
    moves: list[Entry] = Field(default=[], max_length=MAX_MOVES)
    result: ResultModel | None = None

    @field_validator("game")
    @classmethod
    def _known_game(cls, game: str) -> str:
        return inputs.known_game(game, RecordError)

    @field_validator("bots")
    @classmethod
    def _built_in_bots(cls, bots: list[str | None] | None) -> list[str | None] | None:
        """A record names computer players, never code or a file: a built-in player, or the
        kind of a trained agent alone (``"ppo"``), whose file is given when the game is
        resumed (``tresfute play --resume FILE --bot ppo:AGENT.zip``)."""
        for bot in bots or []:
            if bot is not None and bot not in BUILT_IN and bot not in FILE_KINDS:
                raise RecordError(
                    Reason(
                        "{name} is not a computer player: a record names one of {known}, never a file",
                        name=repr(bot),
                        known=Listing(tuple(repr(b) for b in (*BUILT_IN, *FILE_KINDS))),
                    )
                )
        return bots

    @model_validator(mode="after")
    def _seed_matches_dice(self) -> Record:
        if self.dice == "seeded" and self.seed is None:
            raise RecordError(Reason("a seeded game needs its seed"))
        if self.dice == "external" and self.seed is not None:
            raise RecordError(Reason("a game with dice from outside has no seed"))
        if self.bots is not None and len(self.bots) != len(self.players):
            raise RecordError(Reason("'bots' gives one entry per player"))
        try:
            game_rules(self.game, self.rules)
        except RulesError as exc:
            raise RecordError(Reason("rules: {reason}", reason=exc.reason)) from None
        return self


def rules_of(record: Record) -> dict[str, bool]:
    """The rules the record's game was played under: every option of its game, those it does not
    state at their default."""
    return game_rules(record.game, record.rules)


def rules_text(rules: dict[str, bool]) -> str:
    """Rules options as written on the command line: ``reprise_with_no_die_left=false``."""
    return ", ".join(f"{name}={str(value).lower()}" for name, value in rules.items())


def changed_rules(game: Game) -> dict[str, bool]:
    """The game's rules options that differ from their default: all a record writes, so that a
    new option changes no record (one that states every option, as older ones do, reads the same)."""
    return {
        option.name: game.rules[option.name]
        for option in game.spec.rule_options
        if game.rules[option.name] != option.default
    }


def record_of(game: Game, names: list[str] | None = None, bots: list[str | None] | None = None) -> Record:
    """The record of ``game`` as played so far (with its result once it is over). ``bots``:
    each seat's computer player; a trained agent (``"ppo:agent.zip"``) is written as its kind
    alone (``"ppo"``): a record never names a file."""
    names = names or [f"Player {i + 1}" for i in range(game.n_players)]
    if bots is not None:
        bots = [None if bot is None else bot.partition(":")[0] for bot in bots]
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
        rules=changed_rules(game) or None,
        moves=moves,
        result=result,
    )


def dumps(record: Record) -> str:
    return record.model_dump_json(indent=2, exclude_none=True)


def loads(text: str | bytes) -> Record:
    """Read a record; raises :class:`RecordError` with what is wrong."""
    return _checked(inputs.read_json(Record, text, MAX_BYTES, RecordError, _invalid))


def load(path: Path) -> Record:
    """Read the record file at ``path``: its size is bounded before it is read
    (:func:`tresfute.inputs.read_file`); raises :class:`RecordError` with what is wrong."""
    return loads(inputs.read_file(path, MAX_BYTES, RecordError, _invalid))


def from_data(data: Any) -> Record:
    """A record from parsed JSON (dicts, lists, numbers, text), read as strictly as :func:`loads`."""
    return _checked(inputs.read_data(Record, data, RecordError, _invalid))


def _invalid(problem: Reason) -> Reason:
    return Reason("not a valid record: {problem}", problem=problem)


def _checked(record: Record) -> Record:
    """The record, once every entry of ``moves`` reads as a seat and a move."""
    for number, entry in enumerate(record.moves, start=1):
        split_entry(entry, len(record.players), number)
    return record


def split_entry(entry: str, players: int = 4, number: int | None = None) -> tuple[int | None, str]:
    """A record's move entry "seat:move" as (player index, move text); no seat for dice.

    Strict: the seat is an ASCII number from 1 to ``players``, a decision has one and dice
    have none; no space around the entry, and one ASCII space between its words (a Unicode
    line break or space is not one). Raises :class:`RecordError` (naming move ``number`` if
    given) otherwise.
    """
    m = _ENTRY.fullmatch(entry)
    try:
        if m is None:
            raise RecordError(Reason("write a move as '<seat>:<move>', as in '1:y@r2c3', or dice alone"))
        seat, text = m.groups()
        if " ".join(text.split()) != text:  # "1: y@r2c3"
            raise RecordError(Reason("write the move with no space around it, and one plain space between words"))
        move = parse_move(text)
        if seat is None:
            if move.kind is not MoveKind.DICE:
                raise RecordError(Reason("say whose move it is, as in '1:{move}'", move=str(move)))
            return None, text
        if move.kind is MoveKind.DICE:
            raise RecordError(Reason("dice are written without a seat, as in 'dice w3 y5 ...'"))
        if not 1 <= int(seat) <= players:
            raise RecordError(Reason("the seat must be a number from 1 to {most}", most=players))
        return int(seat) - 1, text
    except (RecordError, MoveSyntaxError) as exc:
        if number is None:
            raise RecordError(exc.reason) from None
        raise RecordError(
            Reason("move {number} ({entry}): {reason}", number=number, entry=repr(entry), reason=exc.reason)
        ) from None


def replay(record: Record, stop: int | None = None, rules: dict[str, Any] | None = None) -> Game:
    """Play the record's moves; check its result if it has one.

    ``stop``: play only the moves before move ``stop`` (numbered from 1), to see the position
    in which it was played; the result is then not checked. ``rules``: the rules the caller
    expects; a record played under others is refused (a game replays under its own rules).
    Raises :class:`RecordError` naming the move (numbered from 1) and the reason.
    """
    played_under = rules_of(record)
    if rules is not None:
        try:
            expected = game_rules(record.game, rules)
        except RulesError as exc:
            raise RecordError(exc.reason) from None
        if expected != played_under:
            raise RecordError(
                Reason(
                    "the record was played under the rules {recorded}, not {expected}",
                    recorded=rules_text(played_under),
                    expected=rules_text(expected),
                )
            )
    game = Game(record.game, players=len(record.players), seed=record.seed, dice=record.dice, rules=played_under)
    if stop is not None and not 1 <= stop <= len(record.moves) + 1:
        raise RecordError(Reason("the record has {count} moves: no move {stop}", count=len(record.moves), stop=stop))
    for number, entry in enumerate(record.moves, start=1):
        if number == stop:
            return game
        player, text = split_entry(entry, len(record.players), number)
        try:
            _play_entry(game, parse_move(text), CHANCE if player is None else player)
        except IllegalMoveError as exc:
            raise RecordError(
                Reason(
                    "move {number} ({entry}) is illegal: {reason}", number=number, entry=repr(entry), reason=exc.reason
                )
            ) from None
    if record.result is not None:
        while not game.is_over and _play_formerly_forced(game):
            pass
        if not game.is_over:
            raise RecordError(
                Reason("the record states a result, but its {count} moves stop before the end", count=len(record.moves))
            )
        for seat, (stated, actual) in enumerate(zip(record.result.scores, game.scores(), strict=False), start=1):
            mismatch = _score_mismatch(seat, stated, actual)
            if mismatch is not None:
                raise RecordError(mismatch)
        if len(record.result.scores) != game.n_players:
            raise RecordError(
                Reason(
                    "the result gives {count} scores for {players} players",
                    count=len(record.result.scores),
                    players=game.n_players,
                )
            )
        winners = [w + 1 for w in game.winners()]
        if sorted(record.result.winners) != winners:
            raise RecordError(
                Reason(
                    "the winners are {actual}, the record says {stated}", actual=winners, stated=record.result.winners
                )
            )
    return game


def _score_mismatch(seat: int, stated: ScoreModel, actual: Score) -> Reason | None:
    """How a score the record states differs from the replayed game's, as one sentence: the
    total first, then the first area, the foxes or a fox's value that differs; None if equal."""
    if stated.total != actual.total:
        return Reason(
            "the final score of player {seat} is {actual}, the record says {stated}",
            seat=seat,
            actual=actual.total,
            stated=stated.total,
        )
    if set(stated.areas) != set(actual.areas):
        return Reason(
            "the areas scored for player {seat} are {stated} in the record, {actual} in the game",
            seat=seat,
            stated=_areas(list(stated.areas)),
            actual=_areas(list(actual.areas)),
        )
    for area, points in actual.areas.items():
        if stated.areas[area] != points:
            return Reason(
                "the {area} score of player {seat} is {actual}, the record says {stated}",
                seat=seat,
                area=Named("area", area, AREA_NAMES[area]),
                actual=points,
                stated=stated.areas[area],
            )
    for template, stated_foxes, actual_foxes in (
        (N_("the number of foxes of player {seat} is {actual}, the record says {stated}"), stated.foxes, actual.foxes),
        (
            N_("each fox of player {seat} is worth {actual}, the record says {stated}"),
            stated.fox_value,
            actual.fox_value,
        ),
    ):
        if stated_foxes != actual_foxes:
            return Reason(template, seat=seat, actual=actual_foxes, stated=stated_foxes)
    return None


def _areas(letters: list[str]) -> Listing:
    """Areas named by their letters (a letter the game does not know, as it is written)."""
    return Listing(tuple(Named("area", a, AREA_NAMES.get(a, repr(a))) for a in letters))


def _play_entry(game: Game, move: Move, player: int) -> None:
    """Play a record's entry, and before it any decision an older record leaves out."""
    while True:
        try:
            game.play(move, player)
            return
        except IllegalMoveError:
            if not _play_formerly_forced(game):
                raise


def _play_formerly_forced(game: Game) -> bool:
    """Play a decision that records written before the Très futé passive fallback became a
    choice (« il peut », docs/rules-decisions.md) leave out: a passive player whose only usable
    die was one of the active player's took it, as a forced move, which records do not store.
    Now the player may also pass; such a record, read as written, goes on as if the die was
    taken. Returns whether such a decision was waiting (and is now played)."""
    if game.spec.passive_may_refuse or game.phase is not Phase.PASSIVE:
        return False
    for p in game.players_to_move:
        moves = game.legal_moves(p)
        picks = [m for m in moves if m.kind is MoveKind.PICK]
        only_field_die = len(picks) == 1 and game.where[game.dice.index(picks[0].die or "")] is Where.FIELD
        if game.stage[p] is Stage.PICK and len(moves) == 2 and PASS in moves and only_field_die:
            game.play(picks[0], p)
            return True
    return False
