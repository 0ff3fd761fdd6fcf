"""What a page shows of a table: a seat's (or a spectator's) view, in the language in use, and
a finished game's view after its first entries (a replay, move by move)."""

from __future__ import annotations

import threading
from typing import Any

from .. import fair_dice, records
from ..bots.winning import WinChances
from ..i18n import _, language, ngettext, use_language
from ..rules import CHANCE, Game, Move, MoveKind, Phase, parse_move
from ..rules.game import Stage
from ..text import bonus_name, bot_name, describe_move, die_name, rating_labels, rules_lines, situation, source_name
from .store import StoredGame, StoredSeat
from .table import ROLL, Table, replay_stored


def move_view(game: Game, move: Move) -> dict[str, Any]:
    """A move as the page shows it: its notation, its words in the player's language, its kind
    and where on the sheet it goes (the game's legal moves, a review's played and best moves)."""
    label = _("Roll the dice") if move == ROLL and game.to_move == CHANCE else describe_move(game, move)
    return {
        "move": str(move),
        "label": label,
        "kind": str(move.kind),
        "die": move.die,
        "area": move.area,
        "cell": list(move.cell) if move.cell else None,
        "value": move.value,
    }


def _view(table: Table, seat: int | None, secret_shown: bool = True) -> dict[str, Any]:
    game, stored = table.game, table.stored
    state = game.view()
    movers = [p for p in game.players_to_move if p != CHANCE]
    seats = _seats_view(table)
    view: dict[str, Any] = {
        "id": stored.id,
        "game": stored.game,
        "real_dice": stored.real_dice,
        "revision": stored.revision,
        "seats": seats,
        "you": seat,
        "state": state,
        "over": game.is_over,
        "commitment": fair_dice.commitment(stored.secret) if stored.secret else None,
        "secret": stored.secret if game.is_over and secret_shown else None,
        "challenge": stored.challenge,
        "rules": game.rules,
        "rules_text": rules_lines(game.rules),
        "pending": [
            [{"bonus": bonus_name(p.bonus), "source": source_name(p.source)} for p in pending]
            for pending in game.pending
        ],
        "log": [_log_line(table, e) for e in stored.moves[-12:]],
        "entries": len(stored.moves),
        "status": _status(table, seat),
        # at a table, every seat's chance to finish first (in seat order; the result once over)
        "win_chance": table_win_chances(table),
    }
    if seat is not None:
        view["seq"] = stored.seats[seat].acted
        view["legal"] = [move_view(game, m) for m in table.legal(seat)]
        view["dice_to_roll"] = game.dice_to_roll() if stored.real_dice and table.may_roll(seat) else []
        view["solo_roll"] = game.phase is Phase.SOLO_ROLL
        view["can_undo"] = table.can_undo(seat)
        view["prompt"] = _prompt(game, seat, stored.seats) if seat in movers else ""
    if game.is_over:
        scores = game.scores()
        rating = game.solo_rating()
        view["result"] = {
            "scores": [s.as_dict() for s in scores],
            "winners": game.winners(),
            "rating": None if rating is None else {**rating_labels(rating[0], rating[1]), "stars": rating[2]},
        }
    return view


# A table's win chances follow its game move by move (``bots.winning.WinChances``: one network
# batch per new decision): a follower per table, its last answer kept for the next view (every
# seat's page and every spectator read the same), bounded as the past entries' words are.
_FOLLOWERS_KEPT = 2_000
_followers: dict[str, tuple[WinChances, int, list[float]]] = {}
_followers_lock = threading.Lock()


def table_win_chances(table: Table) -> list[float] | None:
    """Every seat's chance to finish first at ``table`` now (rounded to 4 decimals), or None
    alone. Called with the table's lock held."""
    game = table.game
    if game.n_players == 1:
        return None
    key, moves = table.stored.id, len(game.history)
    with _followers_lock:
        kept = _followers.get(key)
    if kept is not None and kept[1] == moves:
        return kept[2]
    follower = kept[0] if kept is not None else WinChances()
    chances = [round(c, 4) for c in follower(game)]
    with _followers_lock:
        if len(_followers) >= _FOLLOWERS_KEPT:
            _followers.clear()
        _followers[key] = (follower, moves, chances)
    return chances


def hint_view(game: Game, ranked: list[tuple[Move, float, bool]]) -> list[dict[str, Any]]:
    """A seat's legal moves with their expected final scores, the strong choice first
    (``Appraisal.expected``), as the page shows them: ``searched`` where the move was valued on
    the valuation futures."""
    best = ranked[0][1]
    return [
        {
            "move": str(move),
            "label": describe_move(game, move),
            "value": round(value, 1),
            "cost": round(best - value, 1),
            "searched": valued,
        }
        for move, value, valued in ranked
    ]


def open_table_view(stored: StoredGame) -> dict[str, Any]:
    """An open table as the home page lists it: its seats, free or taken."""
    return {
        "id": stored.id,
        "game": stored.game,
        "real_dice": stored.real_dice,
        "seats": [{"name": s.name, "bot": s.bot, "free": s.free} for s in stored.seats],
    }


def past_view(table: Table, step: int, secret_shown: bool) -> dict[str, Any]:
    """A spectator's view of ``table`` after its first ``step`` record entries (called with the
    table's lock held; ``step`` within the record)."""
    stored = table.stored
    past = StoredGame(
        stored.id,
        stored.game,
        stored.real_dice,
        stored.secret,
        stored.seats,
        stored.language,
        stored.created,
        stored.moves[:step],
        stored.revision,
        stored.challenge,
        rules=stored.rules,
    )
    at = Table(past, replay_stored(past, past.moves), {})
    view = _view(at, None, secret_shown)
    # the last moves as the game's log says them (one wording an event, the dice's values kept)
    view["log"] = [s["text"] for s in steps_view(at, step - LOG_SHOWN, language())["steps"]]
    return view


def _log_line(table: Table, entry: str) -> str:
    player, said = _past_entry(table.game, entry)
    return said if player is None else _("{name}: {move}").format(name=table.stored.seats[player].name, move=said)


# A past entry's words depend only on the game, the language and the entry: every view shows the
# last twelve, so each is read and said once (a bounded memo, emptied when full).
_PAST_ENTRIES_KEPT = 20_000
_past_entries: dict[tuple[str, str, str], tuple[int | None, str]] = {}


def _past_entry(game: Game, entry: str) -> tuple[int | None, str]:
    """A stored entry's player (None for dice) and its words."""
    key = (game.spec.id, language(), entry)
    known = _past_entries.get(key)
    if known is None:
        player, text = records.split_entry(entry)
        move = parse_move(text)
        if player is None:
            said = _("Dice: {dice}").format(dice=", ".join(f"{die_name(d)} {v}" for d, v in move.dice))
        else:
            said = describe_move(game, move, dice_values=False)
        if len(_past_entries) >= _PAST_ENTRIES_KEPT:
            _past_entries.clear()
        known = _past_entries[key] = (player, said)
    return known


def _status(table: Table, seat: int | None) -> str:
    game = table.game
    if game.is_over:
        return _("The game is over.")
    roller = table.roller()
    names = table.stored.seats
    if roller is not None:
        if roller == seat or (seat is not None and table.may_roll(seat)):
            return _("Type the dice rolled.") if table.stored.real_dice else _("Your turn to roll the dice.")
        return _("Waiting for {name} to roll the dice.").format(name=names[roller].name)
    movers = [p for p in game.players_to_move if p != CHANCE]
    if seat is not None and seat in movers and seat != game.active and game.n_players > 1:  # a passive pick, or +1
        return _("{name}'s turn.").format(name=names[game.active].name)
    if seat in movers:
        return _("Your move.")
    waiting = ", ".join(names[p].name for p in movers)
    return _("Waiting for {names}.").format(names=waiting)


LOG_SHOWN = 12  # a replay's "Last moves"
STEPS_SHOWN = 80  # a round of four players is about 60 entries


def steps_view(table: Table, since: int, language: str) -> dict[str, Any]:
    """The record's entries from ``since`` on (at most :data:`STEPS_SHOWN`, the last ones),
    each in words with the state after it: what a page shows, one step at a time, of the
    moves others made (a computer player's turn is played at once on the server). Only the
    past is told, as every page already saw it or could: the dice of entries played."""
    with table.lock:
        stored = table.stored
        moves = list(stored.moves)
        seats = [StoredSeat(s.name, s.bot, None, free=s.free) for s in stored.seats]
        real_dice = stored.real_dice
    since = max(0, len(moves) - STEPS_SHOWN, min(since, len(moves)))
    past = StoredGame(
        stored.id,
        stored.game,
        real_dice,
        None,
        seats,
        stored.language,
        stored.created,
        moves[:since],
        rules=stored.rules,
    )
    game = replay_stored(past, past.moves)
    shown: list[dict[str, Any]] = []
    with use_language(language):
        for i in range(since, len(moves)):
            player, text = records.split_entry(moves[i])
            actor = player if player is not None else (0 if game.phase is Phase.SOLO_ROLL else game.active)
            before = game.copy()
            game.play(text, player)
            past.moves.append(moves[i])
            step_table = Table(past, game, {})
            said = _step_said(before, game, text, player)
            shown.append(
                {
                    "entry": i,
                    "player": player,
                    "actor": actor,
                    "text": _step_words(said, player, seats[actor].name),
                    # the same words without the actor's name, and whose turn it was: the actor's
                    # own page says them to "you" ("You roll: …", "Bob plays during your turn.")
                    "said": said,
                    "active": before.active,
                    "state": game.view(),
                    "status": _acting(before.active, actor, seats),
                    "deciding": [s["deciding"] for s in _seats_view(step_table)],
                }
            )
    return {"entries": len(moves), "steps": shown}


def _acting(active: int, actor: int, seats: list[StoredSeat]) -> str:
    """Who acts in a step shown to the others: the active player, or another during their turn."""
    if actor == active:
        return _("{name}'s turn.").format(name=seats[actor].name)
    return _("{name} plays during {active}'s turn.").format(name=seats[actor].name, active=seats[active].name)


def _seats_view(table: Table) -> list[dict[str, Any]]:
    movers = [p for p in table.game.players_to_move if p != CHANCE]
    roller = table.roller()
    return [
        {
            "name": s.name,
            "bot": s.bot,
            "bot_label": bot_name(s.bot) if s.bot else None,
            "deciding": i in movers or roller == i,
            "free": s.free,
        }
        for i, s in enumerate(table.stored.seats)
    ]


def _picks_from_another(game: Game, seat: int) -> bool:
    """Whether ``seat`` picks now from another player's platter (a passive pick at a table)."""
    return (
        game.phase is Phase.PASSIVE
        and game.n_players > 1
        and seat != game.active
        and not game.pending[seat]
        and game.stage[seat] is not Stage.EXTRA
    )


def _prompt(game: Game, seat: int, seats: list[StoredSeat]) -> str:
    """What the seat must do; a passive pick names whose platter it is."""
    if _picks_from_another(game, seat):
        return _("choose a die from {name}'s silver platter").format(name=seats[game.active].name)
    return situation(game, seat)


def _step_words(said: str, player: int | None, name: str) -> str:
    """One entry of the record as the game log says it (``said``: :func:`_step_said`'s words):
    who rolled what, or who took which die where (the dice's values as they were), and how many
    dice an active pick left on the silver platter."""
    if player is None:
        return _("{name} rolls: {dice}").format(name=name, dice=said)
    return _("{name}: {move}").format(name=name, move=said)


def _step_said(before: Game, after: Game, text: str, player: int | None) -> str:
    """An entry's words without who made it: the dice rolled, or the move (the die's value as it
    was) and, after an active pick, how many dice lie on the silver platter."""
    move = parse_move(text)
    if player is None:
        return ", ".join(f"{die_name(d)} {v}" for d, v in move.dice)
    said = describe_move(before, move)
    if move.kind is MoveKind.PICK and before.phase is Phase.CHOOSE:
        platter = sum(1 for w in after.where if str(w) == "platter")
        said = ngettext(
            "{text}; {n} die on the silver platter", "{text}; {n} dice on the silver platter", platter
        ).format(text=said, n=platter)
    return said
