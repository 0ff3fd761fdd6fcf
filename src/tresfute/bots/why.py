"""Why one move is worth more than another, in one sentence, from the engine's own data.

The review and the practice say what separated the move played from the strong choice. The two
positions right after each move are compared, in this order, and the first difference found is
the reason: an action (reroll, +1, reprise) used by one move and kept by the other; a bonus, an
action or a fox earned by one move only; dice sent to the silver platter (those of the roll
lower than the die taken, lost to the player's next picks, where the turn has any left); points
scored at once; and else the area or the cell chosen, with what the strong player's simulated
futures found it worth. Where the game's end is known (a review: ``final``), a fox the best move
earns that the player earns later anyway is postponed, not given up, and an action kept by a
move after which the player decides nothing more is lost. Each reason is a
:class:`~tresfute.rules.reasons.Reason`, written in the reader's language by ``text.explain``.
"""

from __future__ import annotations

from collections import Counter

from ..rules import CHANCE, Game, Move, MoveKind
from ..rules.game import DIE_NAMES, Phase, Where
from ..rules.kinds import ActionKind, area_word
from ..rules.moves import DIE_LETTERS
from ..rules.reasons import Listing, Named, Plural, Reason

_ACTION_WORDS = {"reroll": "reroll", "plus_one": "extra die (+1)", "reprise": "reprise"}
_ACTION_MOVES = {MoveKind.REROLL: "reroll", MoveKind.EXTRA: "plus_one", MoveKind.REPRISE: "reprise"}
_LOOK_AHEAD = 5000  # moves played at most to see whether a player decides again


def _die(letter: str) -> Named:
    return Named("die", letter, DIE_NAMES.get(letter, letter))


def _action(name: str) -> Named:
    return Named("action", name, _ACTION_WORDS[name])


def _after(game: Game, player: int, move: Move) -> Game:
    after = game.copy(dice="external", history=False)
    after.play(move, player)
    return after


def _sent_to_platter(before: Game, after: Game) -> list[tuple[str, int]]:
    """The dice that were in the hand and are on the platter after the move, with their faces."""
    return [
        (die, before.values[k])
        for k, die in enumerate(before.dice)
        if before.where[k] is Where.HAND and after.where[k] is Where.PLATTER and before.values[k] > 0
    ]


def _gains(before: Game, after: Game, player: int) -> tuple[dict[str, int], int, int]:
    """Actions earned (by name), foxes earned and bonuses waiting, from ``before`` to ``after``."""
    was, now = before.sheets[player], after.sheets[player]
    earned = {str(a): now.earned[a] - was.earned[a] for a in now.earned if now.earned[a] > was.earned[a]}
    return earned, len(now.foxes) - len(was.foxes), len(after.pending[player]) - len(before.pending[player])


def _picks_left(after: Game, player: int) -> bool:
    """Whether ``player`` may still pick a die of this turn's roll after the move (the active part
    goes on: fewer than three picks and rolls, dice left to roll)."""
    return (
        after.active == player
        and after.phase in (Phase.ROLL, Phase.BEFORE_ROLL, Phase.CHOOSE, Phase.SWEEP, Phase.NEXT_ROLL)
        and after.picks < 3
        and after.rolls < 3
        and any(w is Where.HAND for w in after.where)
    )


def _decides_again(after: Game, player: int) -> bool:
    """Whether ``player`` takes any decision after this position, whatever the dice: the game is
    played on by taking each time the first legal move, with dice of fixed faces."""
    game = after.copy(dice="external", history=False)
    for _ in range(_LOOK_AHEAD):
        if game.is_over:
            return False
        movers = game.players_to_move
        if player in movers:
            return True
        mover = movers[0]
        if mover == CHANCE:
            faces = {d: 1 + k % 6 for k, d in enumerate(DIE_LETTERS)}  # distinct: no tie at the platter
            game.play(Move(MoveKind.DICE, dice=tuple((d, faces[d]) for d in game.dice_to_roll())), CHANCE)
        else:
            game.play(game.legal_moves(mover)[0], mover)
    return True  # (a game longer than any: taken as going on)


def _dice_list(dice: list[tuple[str, int]]) -> Listing:
    return Listing(tuple(Reason("{die} {value}", die=_die(d), value=v) for d, v in dice))


def why(game: Game, player: int, best: Move, played: Move, cost: float, final: Game | None = None) -> Reason:
    """What separated ``played`` from ``best`` in ``game`` (before either), as one sentence.
    ``final``: the game at its end where ``played`` is what was played (a review), to tell a fox
    postponed from a fox given up."""
    best_after, played_after = _after(game, player, best), _after(game, player, played)
    # 1. an action used by one move only
    spent_best, spent_played = _ACTION_MOVES.get(best.kind), _ACTION_MOVES.get(played.kind)
    if spent_played and spent_played != spent_best:
        return Reason(
            "your move spends an action ({action}), which the best move keeps for later",
            action=_action(spent_played),
        )
    if spent_best and spent_best != spent_played:
        if not _decides_again(played_after, player):
            left = played_after.sheets[player].available(ActionKind(spent_best))
            return Reason(
                "the best move uses an action ({action}) now; yours leaves {left} unused, and an action "
                "unused at the end of the game is lost",
                action=_action(spent_best),
                left=Plural("{n} action", "{n} actions", left),
            )
        return Reason(
            "the best move uses an action ({action}) now, where it is worth more than kept",
            action=_action(spent_best),
        )
    # 2. something earned by one move only
    earned_best, foxes_best, bonuses_best = _gains(game, best_after, player)
    earned_played, foxes_played, bonuses_played = _gains(game, played_after, player)
    if foxes_best > foxes_played:
        if final is None:
            return Reason("the best move earns a fox at once; yours does not")
        earned = Counter(best_after.sheets[player].foxes) - Counter(played_after.sheets[player].foxes)
        if earned <= Counter(final.sheets[player].foxes) - Counter(played_after.sheets[player].foxes):
            return Reason("the best move earns a fox now; yours postpones it (you earn it later in the game)")
        return Reason("the best move earns a fox, which yours gives up (you do not earn it later in the game)")
    for action, n in earned_best.items():
        if n > earned_played.get(action, 0):
            return Reason("the best move earns an action ({action}) at once; yours does not", action=_action(action))
    if bonuses_best > bonuses_played:
        return Reason("the best move completes a bonus (a free entry) at once; yours does not")
    # 3. dice lost to the platter
    sent_best, sent_played = _sent_to_platter(game, best_after), _sent_to_platter(game, played_after)
    if len(sent_played) > len(sent_best) and _picks_left(played_after, player):
        if sent_best:
            return Reason(
                "your move sends {n} to the silver platter ({dice}), the best move only {m}: "
                "fewer dice left for your next picks",
                n=Plural("{n} die", "{n} dice", len(sent_played)),
                dice=_dice_list(sent_played),
                m=len(sent_best),
            )
        return Reason(
            "your move sends {n} to the silver platter ({dice}), the best move none: "
            "fewer dice left for your next picks",
            n=Plural("{n} die", "{n} dice", len(sent_played)),
            dice=_dice_list(sent_played),
        )
    # 4. points at once
    points_best, points_played = best_after.score(player).total, played_after.score(player).total
    if points_best - points_played >= 2:
        return Reason(
            "the best move scores {best} points at once, yours {played}",
            best=points_best - game.score(player).total,
            played=points_played - game.score(player).total,
        )
    # 5. the area or the cell, by what the futures found
    cost_text = round(cost, 1)  # a number: the reader's language writes its decimal point (text.explain)
    if best.area is not None and played.area is not None and best.area != played.area:
        return Reason(
            "the best move plays in {best_area} rather than in {played_area}: over the rest of the game "
            "the strong player's simulated futures find it worth {cost} points more",
            best_area=area_word(best.area),
            played_area=area_word(played.area),
            cost=cost_text,
        )
    if best.die is not None and played.die is not None and best.die != played.die:
        return Reason(
            "the best move takes the {best_die} die rather than the {played_die}: over the rest of the game "
            "the strong player's simulated futures find it worth {cost} points more",
            best_die=_die(best.die),
            played_die=_die(played.die),
            cost=cost_text,
        )
    if best.cell is not None and played.cell is not None and best.cell != played.cell:
        return Reason(
            "the best move marks another cell of the same area, which leaves better cells open: "
            "{cost} points more over the rest of the game",
            cost=cost_text,
        )
    return Reason(
        "over the rest of the game the strong player's simulated futures find the best move worth {cost} points more",
        cost=cost_text,
    )


__all__ = ["why"]
