"""Why one move is worth more than another, in one sentence, from causes measured on the position.

How it works, at length: docs/design.md (bots/why.py).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..rules import CHANCE, Game, Move, MoveKind
from ..rules.game import DIE_NAMES, Phase, Where
from ..rules.kinds import ActionKind, area_word
from ..rules.moves import DIE_LETTERS
from ..rules.reasons import Listing, Named, Plural, Reason

_ACTION_WORDS = {"reroll": "reroll", "plus_one": "extra die (+1)", "reprise": "reprise"}
_ACTION_MOVES = {MoveKind.REROLL: "reroll", MoveKind.EXTRA: "plus_one", MoveKind.REPRISE: "reprise"}
_LOOK_AHEAD = 5000  # moves played at most to see whether a player decides again
_CHAIN = 12  # bonuses placed at most while resolving a chain
_LINE = 3  # the strong player's next moves shown at most
DOMINANT = 0.5  # a cause that makes this share of the causes in the best move's favour is named alone
ALSO = 0.3  # a second cause in the best move's favour that makes this share is named after the first
SMALL = 1.0  # points: a cause below this is not worth saying
SEEN = 0.25  # points: a gap the valuation must see between the two moves to say where it comes from
RATIO = (0.5, 1.5)  # the causes are scaled by the cost over the gap, kept within these
FUTURES = 16  # futures per position where the network's values alone see no gap
FUTURE_SEEDS = 2_000_000  # their seeds, apart from the appraisal's
CAUSES = ("points", "bonus", "platter", "actions", "fox", "position")
COUNTED = ("points", "bonus")  # causes read off the sheets, not valued: exact, never scaled
# The themes a review groups its costly decisions by (docs/review.md): the decision's kind first
# (a bonus placed, a reroll or a reprise, a +1 used or not), else its largest cause.
THEMES = ("platter", "actions", "bonus", "fox", "reroll_reprise", "entries")


@dataclass(frozen=True)
class Cause:
    """One cause of the gap between the best move and the move played: how many points of the
    cost it accounts for (below 0: the played move's gain there)."""

    name: str  # one of CAUSES
    size: float


@dataclass(frozen=True)
class Explained:
    """A decision's reason, its theme and the causes measured (largest in the best move's favour first)."""

    reason: Reason
    theme: str
    causes: tuple[Cause, ...]
    named: tuple[str, ...]  # the causes the reason names as what the cost comes from (none: template)


def _die(letter: str) -> Named:
    return Named("die", letter, DIE_NAMES.get(letter, letter))


def _action(name: str) -> Named:
    return Named("action", name, _ACTION_WORDS[name])


def _points(n: float) -> Plural:
    k = max(1, round(abs(n)))
    return Plural("{n} point", "{n} points", k)


def _after(game: Game, player: int, move: Move) -> Game:
    after = game.copy(dice="external", history=False)
    after.play(move, player)
    return after


def _sent(game: Game, move: Move) -> list[int]:
    """The dice of the roll that ``move`` sends to the silver platter (by index): those in hand
    lower than the die it takes, read from the rule, not from the position after it, where a
    turn that ends has already put them back in hand for the next roll."""
    if move.kind is not MoveKind.PICK or game.phase is not Phase.CHOOSE or move.die not in game.dice:
        return []
    face = game.values[game.dice.index(move.die or "")]
    return [k for k in range(len(game.dice)) if game.where[k] is Where.HAND and 0 < game.values[k] < face]


def _sent_to_platter(game: Game, move: Move) -> list[tuple[str, int]]:
    """The dice that ``move`` sends to the silver platter, with their faces."""
    return [(game.dice[k], game.values[k]) for k in _sent(game, move)]


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


def _network(game: Game):  # type: ignore[no-untyped-def]
    from .network import valuation_network  # numpy: only where a cost is explained

    return valuation_network(game)


def _best_own(game: Game, player: int, network: object) -> Move:
    """The move the network prefers for ``player`` in ``game`` (one look ahead)."""
    pairs = game.afterstates(player, False)
    values = network.values([after for _, after in pairs], player)  # type: ignore[attr-defined]
    return pairs[max(range(len(pairs)), key=values.__getitem__)][0]


def _resolved(after: Game, player: int, network: object) -> tuple[Game, list[Move]]:
    """The position once ``player``'s waiting bonuses are placed (as the network places them),
    before any die falls, and the bonus moves played."""
    game, placed = after, []
    for _ in range(_CHAIN):
        if game.is_over or game.players_to_move != (player,) or not game.pending[player]:
            break
        move = _best_own(game, player, network)
        game = _after(game, player, move)
        placed.append(move)
    return game, placed


def _kept(game: Game, player: int, move: Move, after: Game) -> Game | None:
    """The position after ``move`` with the dice it sends to the platter kept in hand (each given
    the face of the die taken, so that none goes): None where that changes the entry itself (the
    white die in Très futé's blue sum is then left as it is) or no pick would be left anyway."""
    sent = _sent(game, move)
    face = game.values[game.dice.index(move.die or "")] if sent else 0
    for keep in (sent, [k for k in sent if game.dice[k] != "w"]):
        if not keep:
            continue
        variant = game.copy(dice="external", history=False)
        variant.values = [face if k in keep else v for k, v in enumerate(game.values)]
        variant.set_sheet(player, variant.sheets[player])  # the legal moves worked out anew
        try:
            variant.play(move, player)
        except ValueError:
            continue
        if variant.sheets[player].areas == after.sheets[player].areas and _picks_left(variant, player):
            return variant
    return None


def _with_counts(game: Game, player: int, like: Game, actions: bool, foxes: bool) -> Game:
    """``game`` with ``player``'s actions (earned and used) and/or foxes as in ``like``."""
    variant = game.copy(dice="external", history=False)
    sheet = variant.sheets[player].copy()
    model = like.sheets[player]
    if actions:
        sheet.earned = dict(model.earned)
        sheet.used = dict(model.used)
    if foxes:
        sheet.foxes = list(model.foxes)
    variant.set_sheet(player, sheet)
    return variant


def _area_points(game: Game, player: int) -> int:
    return sum(game.score(player).areas.values())


@dataclass(frozen=True)
class _Positions:
    best: Game  # right after the best move
    played: Game
    best_resolved: Game  # its bonuses placed
    played_resolved: Game
    best_kept: Game | None  # its platter dice kept in hand
    played_kept: Game | None
    best_chain: list[Move]


def _positions(game: Game, player: int, best: Move, played: Move, network: object) -> _Positions:
    best_after, played_after = _after(game, player, best), _after(game, player, played)
    best_resolved, chain = _resolved(best_after, player, network)
    played_resolved, _ = _resolved(played_after, player, network)
    return _Positions(
        best_after,
        played_after,
        best_resolved,
        played_resolved,
        _kept(game, player, best, best_after),
        _kept(game, player, played, played_after),
        chain,
    )


def measure(game: Game, player: int, best: Move, played: Move, value: object = None) -> tuple[list[Cause], float]:
    """Each cause's points in the best move's favour and the whole gap, unscaled: ``value`` values
    a list of positions for ``player`` (the valuation network's ``values`` by default; the
    benchmark passes the futures' mean)."""
    network = _network(game)
    found, gap = _measure(game, player, _positions(game, player, best, played, network), value or network.values)
    return found, gap


def _measure(game: Game, player: int, p: _Positions, value: object) -> tuple[list[Cause], float]:
    with_actions = _with_counts(p.played_resolved, player, p.best_resolved, actions=True, foxes=False)
    with_foxes = _with_counts(p.played_resolved, player, p.best_resolved, actions=True, foxes=True)
    games = [p.best_resolved, p.played_resolved, with_actions, with_foxes]
    kept = [k for k in (p.best_kept, p.played_kept) if k is not None]
    games += [*kept, p.best, p.played]
    values = value(games, player)  # type: ignore[operator]  # one batch
    v_best, v_played, v_actions, v_foxes = values[:4]
    found = dict(zip((id(k) for k in kept), values[4 : 4 + len(kept)], strict=True))
    v_best_after, v_played_after = values[-2:]
    loss_best = found[id(p.best_kept)] - v_best_after if p.best_kept is not None else 0.0
    loss_played = found[id(p.played_kept)] - v_played_after if p.played_kept is not None else 0.0
    gap = v_best - v_played
    points = _area_points(p.best, player) - _area_points(p.played, player)
    chain = (_area_points(p.best_resolved, player) - _area_points(p.best, player)) - (
        _area_points(p.played_resolved, player) - _area_points(p.played, player)
    )
    found_causes = {
        "points": float(points),
        "bonus": float(chain),
        "platter": loss_played - loss_best,
        "actions": v_actions - v_played,
        "fox": v_foxes - v_actions,
    }
    found_causes["position"] = gap - sum(found_causes.values())
    return [Cause(name, found_causes[name]) for name in CAUSES], gap


def _scaled(found: list[Cause], gap: float, cost: float) -> tuple[list[Cause], bool]:
    """The causes scaled towards the cost, the futures' measure, from the valuation's gap. The
    counted ones (``COUNTED``: points scored, bonuses completed, read off the two sheets) are
    exact and kept; the valued ones take the rest of the cost, where the valuation sees some of
    it (near the game's end the network's view of the position can be far off the futures')."""
    seen = gap > SEEN and cost > 0
    if seen:
        counted = sum(c.size for c in found if c.name in COUNTED)
        keep = gap - counted > SEEN  # else the valuation sees nothing beyond them: all are scaled
        kept = counted if keep else 0.0
        # towards the cost, not all the way where the two disagree much (each says a size)
        ratio = min(RATIO[1], max(RATIO[0], (cost - kept) / (gap - kept)))
        # Where the cost is well beyond what the valuation sees, the rest of it is what the futures
        # see of the rest of the game: the position's share (the residual of the gap already).
        unseen = (cost - kept) - (gap - kept) * ratio
        found = [
            c if keep and c.name in COUNTED else Cause(c.name, c.size * ratio + (unseen if c.name == "position" else 0))
            for c in found
        ]
    return sorted(found, key=lambda c: -c.size), seen


def _only_position(found: list[Cause]) -> bool:
    """Whether the two moves differ in nothing measured but the position (no points, bonus,
    platter, action or fox between them): then the position is the whole cost, whatever its sign."""
    return all(abs(c.size) < 0.01 for c in found if c.name != "position")


def _favour(name: str) -> Reason:
    """A cause in the best move's favour in a few words, without a size (the futures' reason)."""
    words = {
        "points": Reason("the points it scores at once"),
        "bonus": Reason("the bonuses it completes"),
        "platter": Reason("the dice it keeps off the silver platter"),
        "actions": Reason("the actions it earns or keeps"),
        "fox": Reason("the foxes it earns"),
        "position": Reason("what its cells leave for the rest of the game"),
    }
    return words[name]


def _on_futures(game: Game, network: object) -> object:
    """The positions' values as the mean of a few short futures (aligned dice, the network's
    moves): where the network's value of the positions alone sees no gap (a reroll's, mostly)."""
    from .futures import future_values

    seeds = [hash((game.round, game.turn, game.dice_rolled, FUTURE_SEEDS + i)) for i in range(FUTURES)]

    def value(games: list[Game], player: int) -> list[float]:
        rows = future_values(games, seeds, player, network, aligned=True)  # type: ignore[arg-type]
        return [sum(row) / len(row) for row in rows]

    return value


def _move_words(game: Game, player: int, move: Move) -> Reason:
    """A move of the strong player's line in a few words."""
    if move.kind in (MoveKind.PICK, MoveKind.EXTRA, MoveKind.SWEEP) and move.die is not None:
        value = game.values[game.dice.index(move.die)]
        if move.area is not None and move.area != move.die:
            return Reason("{die} {value} in {area}", die=_die(move.die), value=value, area=area_word(move.area))
        return Reason("{die} {value}", die=_die(move.die), value=value)
    if move.kind is MoveKind.BONUS and move.area is not None:
        return Reason("a bonus entry in {area}", area=area_word(move.area))
    if move.kind is MoveKind.REROLL:
        return Reason("a reroll")
    if move.kind is MoveKind.REPRISE and move.die is not None:
        return Reason("the {die} die taken back from the platter", die=_die(move.die))
    if move.kind is MoveKind.ROLL:
        return Reason("roll again")
    if move.kind is MoveKind.DONE:
        return Reason("no more +1")
    return Reason("no die taken")


def line(game: Game, player: int, best: Move) -> Listing:
    """The strong player's line: its move, then its next moves before any die falls (the bonuses
    it places, a +1), as the network plays them; at most ``_LINE`` + 1 moves."""
    network = _network(game)
    words, now, move = [], game, best
    for _ in range(_LINE + 1):
        words.append(_move_words(now, player, move))
        now = _after(now, player, move)
        if now.is_over or now.players_to_move != (player,):
            break
        move = _best_own(now, player, network)
    return Listing(tuple(words))


def _theme(best: Move, played: Move, main: str | None) -> str:
    kinds = {best.kind, played.kind}
    if MoveKind.BONUS in kinds:
        return "bonus"
    if kinds & {MoveKind.REROLL, MoveKind.REPRISE}:
        return "reroll_reprise"
    if MoveKind.EXTRA in kinds and best.kind is not played.kind:
        return "actions"
    return {"platter": "platter", "fox": "fox", "actions": "actions"}.get(main or "", "entries")


def _action_gained(a: Game, b: Game, player: int) -> str | None:
    """An action whose count left to use is higher in ``a`` than in ``b``."""
    sa, sb = a.sheets[player], b.sheets[player]
    return next((str(k) for k in sa.earned if sa.available(k) > sb.available(k)), None)


def _earned_more(a: Game, b: Game, player: int) -> str | None:
    sa, sb = a.sheets[player], b.sheets[player]
    return next((str(k) for k in sa.earned if sa.earned[k] > sb.earned[k]), None)


class _Words:
    """What one cause says, for the best move (``main``) or as the played move's gain (``gain``)."""

    def __init__(self, game: Game, player: int, best: Move, played: Move, p: _Positions, final: Game | None) -> None:
        self.game, self.player, self.best, self.played, self.p, self.final = game, player, best, played, p, final

    def main(self, name: str, size: float) -> Reason:
        game, player, p = self.game, self.player, self.p
        n = _points(size)
        if name == "platter":
            sent_best, sent_played = _sent_to_platter(game, self.best), _sent_to_platter(game, self.played)
            dice = _dice_list(sent_played)
            count = Plural("{n} die", "{n} dice", len(sent_played))
            if not _picks_left(p.played, player):
                return Reason(
                    "your move sends {n} to the silver platter ({dice}), which ends your turn's picks: "
                    "that costs about {size}",
                    n=count,
                    dice=dice,
                    size=n,
                )
            return Reason(
                "your move sends {n} to the silver platter ({dice}), the best move {m}: fewer dice left "
                "for your next picks, which costs about {size}",
                n=count,
                dice=dice,
                m=len(sent_best),
                size=n,
            )
        if name == "points":
            return Reason(
                "the best move scores {best} points at once, yours {played}",
                best=_area_points(p.best, player) - _area_points(game, player),
                played=_area_points(p.played, player) - _area_points(game, player),
            )
        if name == "bonus":
            return Reason(
                "the best move completes a bonus whose entries score {n} more at once; yours does not",
                n=_points(self._chain(p.best_resolved, p.best) - self._chain(p.played_resolved, p.played)),
            )
        if name == "fox":
            if self.final is None:
                return Reason("the best move earns a fox at once; yours does not (about {size})", size=n)
            fox_earned = Counter(p.best_resolved.sheets[player].foxes) - Counter(p.played_resolved.sheets[player].foxes)
            if fox_earned and fox_earned <= Counter(self.final.sheets[player].foxes) - Counter(
                p.played_resolved.sheets[player].foxes
            ):
                return Reason(
                    "the best move earns a fox now; yours postpones it (you earn it later in the game): "
                    "about {size} of the cost",
                    size=n,
                )
            return Reason(
                "the best move earns a fox, which yours gives up (you do not earn it later in the game): about {size}",
                size=n,
            )
        if name == "actions":
            spent = _ACTION_MOVES.get(self.played.kind)
            if spent and spent != _ACTION_MOVES.get(self.best.kind):
                return Reason(
                    "your move spends an action ({action}), which the best move keeps for later: about {size}",
                    action=_action(spent),
                    size=n,
                )
            action = _earned_more(p.best_resolved, p.played_resolved, player) or _action_gained(
                p.best_resolved, p.played_resolved, player
            )
            if action is not None:
                final = self.final
                if (
                    final is not None
                    and final.sheets[player].earned[ActionKind(action)]
                    > (p.played_resolved.sheets[player].earned[ActionKind(action)])
                ):
                    return Reason(
                        "the best move earns an action ({action}) now; yours postpones it (you earn it later "
                        "in the game): about {size}",
                        action=_action(action),
                        size=n,
                    )
                return Reason(
                    "the best move earns an action ({action}) at once; yours does not: about {size}",
                    action=_action(action),
                    size=n,
                )
            return Reason("the actions each move leaves you account for about {size}", size=n)
        return self._position(size)

    def _chain(self, resolved: Game, after: Game) -> int:
        """The area points the bonuses waiting after a move score once placed."""
        return _area_points(resolved, self.player) - _area_points(after, self.player)

    def _position(self, size: float) -> Reason:
        best, played, n = self.best, self.played, _points(size)
        if played.kind is MoveKind.REROLL and best.area is not None:
            return Reason(
                "the best move's entry in {area} is worth about {size} more than what your reroll may bring",
                area=area_word(best.area),
                size=n,
            )
        if best.kind is MoveKind.REROLL and played.area is not None:
            return Reason(
                "what the best move's reroll may bring is worth about {size} more than your entry in {area}",
                area=area_word(played.area),
                size=n,
            )
        if played.kind is MoveKind.REROLL and best.kind is not MoveKind.REROLL:
            return Reason(
                "the best move ({move}) is worth about {size} more than what your reroll may bring",
                move=_move_words(self.game, self.player, best),
                size=n,
            )
        if best.kind is MoveKind.REROLL and played.kind is not MoveKind.REROLL:
            return Reason(
                "what the best move's reroll may bring is worth about {size} more than your move ({move})",
                move=_move_words(self.game, self.player, played),
                size=n,
            )
        spent = _ACTION_MOVES.get(best.kind)
        if spent and spent != _ACTION_MOVES.get(played.kind):
            return Reason(
                "the best move uses an action ({action}) now, where its entry leaves more for the rest of the "
                "game: about {size}",
                action=_action(spent),
                size=n,
            )
        if best.area is not None and played.area is not None and best.area != played.area:
            return Reason(
                "the best move's entry in {best_area} leaves more to score over the rest of the game than "
                "yours in {played_area}: about {size}",
                best_area=area_word(best.area),
                played_area=area_word(played.area),
                size=n,
            )
        if best.area is not None and best.area == played.area and best.cell != played.cell:
            return Reason(
                "the best move's cell in {area} leaves better cells open for the rest of the game: about {size}",
                area=area_word(best.area),
                size=n,
            )
        if best.area is not None and best.area == played.area and best.value is not None and played.value is not None:
            return Reason(
                "the best move enters {best_value} in {area} rather than your {played_value}, which leaves more "
                "to score over the rest of the game: about {size}",
                best_value=best.value,
                played_value=played.value,
                area=area_word(best.area),
                size=n,
            )
        if best.die is not None and played.die is not None and best.die != played.die:
            return Reason(
                "the best move takes the {best_die} die rather than the {played_die}, which leaves more for "
                "the rest of the game: about {size}",
                best_die=_die(best.die),
                played_die=_die(played.die),
                size=n,
            )
        return Reason("the best move leaves a position worth about {size} more for the rest of the game", size=n)

    def lost(self) -> Reason | None:
        """Where the best move uses an action that the played move keeps, and the player decides
        nothing more after the played move: the action is lost with the game's end."""
        kept = _ACTION_MOVES.get(self.best.kind)
        if not kept or kept == _ACTION_MOVES.get(self.played.kind) or _decides_again(self.p.played, self.player):
            return None
        left = self.p.played.sheets[self.player].available(ActionKind(kept))
        return Reason(
            "yours leaves {left} unused, and an action unused at the end of the game is lost",
            left=Plural("{n} action", "{n} actions", left),
        )

    def gain(self, name: str, size: float) -> Reason | None:
        """The played move's gain on cause ``name`` (``size`` below 0), or None if not worth saying."""
        player, p, n = self.player, self.p, _points(-size)
        if name == "actions":
            kept = _action_gained(p.played_resolved, p.best_resolved, player)
            if kept is not None and _ACTION_MOVES.get(self.best.kind) == kept:
                lost = self.lost()
                if lost is not None:
                    return lost
                return Reason(
                    "yours keeps an action ({action}) for later, worth about {size}: less than that",
                    action=_action(kept),
                    size=n,
                )
            if kept is not None:
                return Reason(
                    "yours earns an action ({action}), worth about {size}: less than that", action=_action(kept), size=n
                )
        if -size < SMALL:
            return None
        if name == "points":
            return Reason(
                "yours scores {n} more at once, which is worth less",
                n=_points(_area_points(p.played, player) - _area_points(p.best, player)),
            )
        if name == "bonus":
            return Reason(
                "yours completes a bonus whose entries score {n} more at once, which is worth less",
                n=_points(self._chain(p.played_resolved, p.played) - self._chain(p.best_resolved, p.best)),
            )
        if name == "platter":
            return Reason("yours keeps more dice off the silver platter, worth about {size}: less than that", size=n)
        if name == "fox":
            return Reason("yours earns a fox, worth about {size}: less than that", size=n)
        if name == "position" and self.played.area is not None:
            return Reason(
                "yours leaves more to score later in {area}, worth about {size}: less than that",
                area=area_word(self.played.area),
                size=n,
            )
        return None


def _short(name: str, size: float) -> Reason:
    """A cause and its size in a few words, for a reason that names two."""
    n = _points(size)
    words = {
        "points": Reason("{size} from the points scored at once", size=n),
        "bonus": Reason("{size} from the bonuses completed", size=n),
        "platter": Reason("{size} from the dice sent to the silver platter", size=n),
        "actions": Reason("{size} from the actions (reroll, +1, reprise)", size=n),
        "fox": Reason("{size} from the foxes", size=n),
        "position": Reason("{size} from what the cells marked leave for the rest of the game", size=n),
    }
    return words[name]


def explain_cost(
    game: Game, player: int, best: Move, played: Move, cost: float, final: Game | None = None
) -> Explained:
    """What separated ``played`` from ``best`` in ``game`` (before either), its theme and its
    measured causes. ``final``: the game at its end where ``played`` is what was played (a
    review), to tell a fox or an action postponed from one given up."""
    network = _network(game)
    p = _positions(game, player, best, played, network)
    found, seen = _scaled(*_measure(game, player, p, network.values), cost)
    if not seen and cost > 0:
        found, seen = _scaled(*_measure(game, player, p, _on_futures(game, network)), cost)
    words = _Words(game, player, best, played, p, final)
    if not seen and cost > 0 and _only_position(found):  # the cells are all that differs: the whole cost
        found = sorted((Cause(c.name, cost if c.name == "position" else c.size) for c in found), key=lambda c: -c.size)
        return Explained(words.main("position", cost), _theme(best, played, "position"), tuple(found), ("position",))
    if not seen:
        favour = [c for c in found if c.size > 0]
        main = favour[0] if favour else None
        if main is not None and main.size >= SMALL and main.size >= DOMINANT * sum(c.size for c in favour):
            reason = Reason(
                "the strong player's simulated futures find the best move worth {cost} points more, which its "
                "valuation of the position alone does not show; in its favour mostly {cause}; its line: {line}",
                cost=round(cost, 1),
                cause=_favour(main.name),
                line=line(game, player, best),
            )
            return Explained(reason, _theme(best, played, main.name), tuple(found), (main.name,))
        reason = Reason(
            "the strong player's simulated futures find the best move worth {cost} points more, which its "
            "valuation of the position alone does not show; its line: {line}",
            cost=round(cost, 1),
            line=line(game, player, best),
        )
        return Explained(reason, _theme(best, played, None), tuple(found), ())
    favour = [c for c in found if c.size > 0]
    main = found[0]
    against = min(found, key=lambda c: c.size)
    if main.size >= DOMINANT * sum(c.size for c in favour) or len(favour) < 2:
        said = words.main(main.name, main.size)
        named: tuple[str, ...] = (main.name,)
        if len(favour) > 1 and favour[1].size >= ALSO * sum(c.size for c in favour) and favour[1].size >= SMALL:
            also = favour[1]
            said = Reason("{cause}; and {also}", cause=said, also=words.main(also.name, also.size))
            named = (main.name, also.name)
        gain = words.gain(against.name, against.size) if against.size < 0 else None
        gain = gain or words.lost()
        reason = said if gain is None else Reason("{cause}; {gain}", cause=said, gain=gain)
        return Explained(reason, _theme(best, played, main.name), tuple(found), named)
    second = favour[1]
    reason = Reason(
        "no single cause: {first} and {second}; the strong player plays {line}",
        first=_short(main.name, main.size),
        second=_short(second.name, second.size),
        line=line(game, player, best),
    )
    return Explained(reason, _theme(best, played, main.name), tuple(found), (main.name, second.name))


def why(game: Game, player: int, best: Move, played: Move, cost: float, final: Game | None = None) -> Reason:
    """What separated ``played`` from ``best`` in ``game`` (before either), as one sentence
    (:func:`explain_cost`)."""
    return explain_cost(game, player, best, played, cost, final).reason


def theme_words(theme: str) -> tuple[Reason, Reason]:
    """A theme's title and its short tip (``THEMES``)."""
    words = {
        "platter": (
            Reason("Dice sent to the silver platter"),
            Reason(
                "Before taking a high die, count the dice lower than it: they go to the silver platter and "
                "your turn loses them"
            ),
        ),
        "actions": (
            Reason("Actions left unused"),
            Reason("A +1 kept to the end is lost: use it at the end of a turn where a die on the platter scores"),
        ),
        "bonus": (
            Reason("Where a bonus is placed"),
            Reason("A bonus entry is free: place it where it completes a row or starts a chain, not the first cell"),
        ),
        "fox": (
            Reason("Foxes"),
            Reason("A fox is worth your lowest area: take the entries that earn one and keep your areas level"),
        ),
        "reroll_reprise": (
            Reason("Rerolls and reprises"),
            Reason("Reroll only when no die of the roll is worth taking; take a die back before rolling when it helps"),
        ),
        "entries": (
            Reason("Where entries go"),
            Reason("Prefer the entry that keeps the most of the area open over the one that scores a little more now"),
        ),
    }
    return words[theme]


__all__ = ["CAUSES", "THEMES", "Cause", "Explained", "explain_cost", "line", "measure", "theme_words", "why"]
