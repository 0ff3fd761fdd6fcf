"""The review of a finished game: what each decision of one player cost against the strong player.

How it works, at length: docs/design.md (bots/review.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ..i18n import N_
from ..rules import CHANCE, Game, Move, parse_move
from ..rules.reasons import Reason
from .appraisal import Appraisal, appraise
from .futures import collector_paused
from .greedy import GreedyBot
from .verify import Verified, agrees, combined_se
from .why import THEMES, explain_cost, theme_words, why
from .winning import WinChances

if TYPE_CHECKING:
    from ..records import Record

# A decision's label by its cost in expected points (docs/review.md says why these).
LABELS: tuple[tuple[str, float], ...] = (
    ("best", 0.5),
    ("good", 2.0),
    ("inaccuracy", 5.0),
    ("mistake", 10.0),
    ("blunder", float("inf")),
)
NOISE = 2.0  # a cost is labelled worse than good only when it exceeds NOISE standard errors
TRIVIAL = 0.5  # a decision whose legal moves the analysis values all within this of the best
WHY_FROM = 2.0  # decisions costing this much or more say why
# The error rate's named levels: points lost per decision that mattered, below each bound.
# Calibrated on Très futé's solo games of known strength (benchmarks/review_quality.py): the
# strong player's under 0.25 (seed 3100). The four bounds from casual's to novice's were set
# together on the tuning pairs of random and greedy game k (Très futé 3102, Vraiment très futé
# 3110 and 3112, its strict reading 701 and 702: 160 pairs), each in the middle of the range
# that puts the most of them apart (casual 3.6 to 4.6, apprentice 5.0 to 5.05, novice 6.1 to
# 6.3: 156 of 160); checked on held-out seeds (docs/review.md).
LEVELS: tuple[tuple[str, float], ...] = (
    ("world_class", 0.25),
    ("expert", 0.6),
    ("advanced", 1.2),
    ("intermediate", 2.2),
    ("casual", 4.1),
    ("apprentice", 5.0),
    ("novice", 6.2),
    ("beginner", float("inf")),
)
# Vraiment très futé's own bounds: a decision there has more at stake (its greedy games lost
# 3.4 to 5.9 points a decision on tuning seeds 3110 and 3112, random ones 5.3 to 10.8). Très
# futé's bounds times VTF_FACTOR, the factor that puts the most of those 30 pairs apart (all of
# them at 1.15; 29 at 1.1 and 1.2); every bound is scaled alike (docs/review.md).
VTF_FACTOR = 1.15
VTF_LEVELS: tuple[tuple[str, float], ...] = tuple((name, round(below * VTF_FACTOR, 2)) for name, below in LEVELS)
LEVELS_BY_GAME: dict[str, tuple[tuple[str, float], ...]] = {"tres-fute": LEVELS, "vraiment-tres-fute": VTF_LEVELS}
ACCURACY_HALVING = 4.0  # points lost per decision that halve the accuracy
FORMAT = "tresfute-review/21"  # the JSON form of a review, and its numbers' version (docs/review.md)
COSTLIEST = 3  # the decisions listed first, the costliest


class ReviewError(ValueError):
    """A game that cannot be reviewed (not finished, no such player): ``template`` is the
    English sentence (translated by the front ends through gettext), ``params`` fill it."""

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template.format(**params))
        self.template = template
        self.params = params


def label(cost: float, cost_se: float = 0.0) -> str:
    """The word for a decision that cost ``cost`` expected points (``LABELS``), measured with
    standard error ``cost_se``. *Best* and *good* go by the cost; a worse label is a claim
    that the cost is at least its threshold, so it goes by the cost less NOISE standard
    errors: a cost of 9 ± 3 is certainly above 2, not certainly above 5 (an *inaccuracy*)."""
    low = cost - NOISE * cost_se
    cost = min(cost, LABELS[1][1] - 1e-9) if low < LABELS[1][1] else low
    for name, below in LABELS:
        if cost < below:
            return name
    return LABELS[-1][0]


def levels_of(game_id: str) -> tuple[tuple[str, float], ...]:
    """A game's named levels and their bounds (``LEVELS_BY_GAME``; Très futé's for another)."""
    return LEVELS_BY_GAME.get(game_id, LEVELS)


def level(error_rate: float, game_id: str = "tres-fute") -> str:
    """The named level of an error rate in a game (``levels_of``)."""
    return next(name for name, below in levels_of(game_id) if error_rate < below)


@dataclass(frozen=True)
class Die:
    """One die as it was when the decision was taken."""

    die: str  # its letter (``Game.dice``)
    value: int  # 0 before its first roll
    where: str  # hand, platter or field (``rules.game.Where``)


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed player, valued against the strong player's choice."""

    move_number: int  # the record's move (from 1) played here: ``tresfute analyse --move N``
    round: int  # from 1
    phase: str
    dice: tuple[Die, ...]
    legal_moves: int
    played: Move
    best: Move  # the strong player's choice
    played_value: float  # expected final score after the played move, on the valuation futures
    best_value: float  # and after the strong choice, on the same futures
    cost_se: float = 0.0  # the standard error of best_value - played_value
    verified: Verified | None = None  # the cost by strong rollouts to the end (``bots/verify.py``), if asked
    trivial: bool = False  # a single legal move, or every one within TRIVIAL points of the best (the analysis's)
    reason: Reason | None = None  # why the strong choice is better, when the cost is WHY_FROM or more
    theme: str | None = None  # with a reason: what kind of mistake (``why.THEMES``), for ``Review.themes``
    # at a table: every seat's chance of finishing first after the played move (``bots/winning.py``)
    win_chance: tuple[float, ...] = ()

    @property
    def cost(self) -> float:
        """Expected points lost against the strong choice, estimated without bias: below 0 where
        the valuation futures found the move played better than the choice (the cost is not cut
        at 0, which would bias every close call upwards and the game's total with them)."""
        return self.best_value - self.played_value

    @property
    def cost_error(self) -> float:
        """The standard error shown beside the cost: the futures' (``cost_se``) and the
        valuation's own error (``bots/verify.valuation_error``, fitted against rollouts to the
        end), combined; 0 where the move played is the strong choice."""
        return 0.0 if self.played == self.best else combined_se(self.cost, self.cost_se)

    @property
    def label(self) -> str:
        # by the futures' standard error: the valuation's own error (in ``cost_error``) is the
        # same whichever futures are drawn, and the labels' bounds were set on this caution
        return label(max(0.0, self.cost), self.cost_se)

    @property
    def mattered(self) -> bool:
        """Counted in the error rate: not trivial (a single legal move, or moves all within
        TRIVIAL points of each other, decided nothing)."""
        return not self.trivial


@dataclass(frozen=True)
class Theme:
    """A review's costly decisions of one kind (``why.THEMES``): how many, what they cost, where."""

    name: str
    decisions: tuple[Decision, ...]

    @property
    def cost(self) -> float:
        return sum(d.cost for d in self.decisions)

    def to_json(self, explain: Callable[[Reason], str] | None = None) -> dict[str, Any]:
        """Its JSON entry: its moves (the practice's positions, by move number) and, with
        ``explain``, its title and tip in the reader's language."""
        data: dict[str, Any] = {
            "theme": self.name,
            "count": len(self.decisions),
            "cost": round(self.cost, 2),
            "moves": [d.move_number for d in self.decisions],
        }
        if explain is not None:
            title, tip = theme_words(self.name)
            data["title"], data["tip"] = explain(title), explain(tip)
        return data


@dataclass
class Review:
    """A player's decisions in one finished game, with what they cost."""

    game: str
    player: int  # from 0
    name: str
    final_score: int
    start_value: float  # the expected final score at the player's first decision
    decisions: list[Decision] = field(default_factory=list)
    # for each decision, whether dice were rolled between it and the player's next decision
    # (or the game's end): its step to the next value is then luck, else the valuation's error
    rolled: list[bool] = field(default_factory=list)
    # at a table: every seat's chance of finishing first after the strong choice at the first
    # decision (where start_value is read), and once the game is over (the rulebook's result)
    start_win_chance: tuple[float, ...] = ()
    final_win_chance: tuple[float, ...] = ()

    @property
    def total_cost(self) -> float:
        return sum(d.cost for d in self.decisions)

    @property
    def mean_cost(self) -> float:
        """Expected points lost per decision."""
        return self.total_cost / len(self.decisions) if self.decisions else 0.0

    @property
    def error_rate(self) -> float:
        """Expected points lost per decision that mattered (``Decision.mattered``), never below 0."""
        counted = [d.cost for d in self.decisions if d.mattered]
        return max(0.0, sum(counted) / len(counted)) if counted else 0.0

    @property
    def level(self) -> str:
        return level(self.error_rate, self.game)

    @property
    def accuracy(self) -> float:
        """The game's headline figure, from 100 % down: 100 × 2^(−error rate / ACCURACY_HALVING),
        so that every ACCURACY_HALVING points lost per decision that mattered halve it
        (docs/review.md says why this rather than a share of the start value)."""
        return 100.0 * 2.0 ** (-self.error_rate / ACCURACY_HALVING)

    def steps(self) -> list[tuple[float, bool]]:
        """For each decision, how the expected final score moved from the played move's value to
        the next decision's start value (the strong choice's there; after the last decision, the
        final score), and whether dice were rolled on the way (``rolled``)."""
        after = [*(d.best_value for d in self.decisions[1:]), float(self.final_score)]
        rolled = self.rolled or [True] * len(self.decisions)
        return [(a - d.played_value, r) for d, a, r in zip(self.decisions, after, rolled, strict=True)]

    @property
    def luck(self) -> float:
        """What the dice gave above (or below) what was expected, in points: at each roll, the
        expected final score after it less the one before it (the played move's value, an
        expectation over the rolls), summed over the game. The rolls before the first decision
        are in the start value. In a game with others, their moves between two of the player's
        decisions count with the dice (the player chose none of it). It averages 0 over games."""
        return sum(step for step, rolled in self.steps() if rolled)

    @property
    def valuation_error(self) -> float:
        """The rest, where no dice fell between two values of the same position (a turn's last
        pick and the +1 decided right after it; the game's end after the last decision): what the
        valuation disagrees with itself by. So that, by construction, final score = start value
        + luck − total cost + valuation error."""
        return sum(step for step, rolled in self.steps() if not rolled)

    def chart(self) -> list[float]:
        """The expected final score through the game: before the first decision, then after
        each decision (the played move's value), ending on the final score (after the last
        decision, in place of its move's value)."""
        return [self.start_value, *(d.played_value for d in self.decisions[:-1]), float(self.final_score)]

    def win_chart(self) -> list[float]:
        """The reviewed seat's chance of finishing first at the chart's points (:meth:`chart`):
        after the strong choice at the first decision, after each decision's played move, ending
        on the game's result (1, 0, or 1/k of a tie). Empty in a solo game."""
        if not self.start_win_chance:
            return []
        me = self.player
        return [
            self.start_win_chance[me],
            *(d.win_chance[me] for d in self.decisions[:-1]),
            self.final_win_chance[me],
        ]

    def costliest(self, count: int = COSTLIEST) -> list[Decision]:
        """The costliest decisions that cost something, costliest first (ties: earliest first)."""
        ranked = sorted((d for d in self.decisions if d.cost > 0), key=lambda d: (-d.cost, d.move_number))
        return ranked[:count]

    def themes(self) -> list[Theme]:
        """The costly decisions (those with a reason) grouped by theme (``why.THEMES``), costliest
        theme first: what kind of mistake costs this player most."""
        found: dict[str, list[Decision]] = {}
        for d in self.decisions:
            if d.theme is not None:
                found.setdefault(d.theme, []).append(d)
        themes = [Theme(name, tuple(found[name])) for name in THEMES if name in found]
        return sorted(themes, key=lambda t: -t.cost)

    def counts(self) -> dict[str, int]:
        """How many decisions got each label."""
        counts = {name: 0 for name, _ in LABELS}
        for d in self.decisions:
            counts[d.label] += 1
        return counts

    def to_json(
        self,
        describe: Callable[[Decision, Move], str] | None = None,
        explain: Callable[[Reason], str] | None = None,
    ) -> dict[str, Any]:
        """The review as plain data (the schema is in ``docs/review.md``). ``describe`` gives a
        move's sentence in the reader's language (``text.describe_move``), ``explain`` a
        reason's (``text.explain``), if wanted."""

        def entry(d: Decision) -> dict[str, Any]:
            data: dict[str, Any] = {
                "move_number": d.move_number,
                "round": d.round,
                "phase": d.phase,
                "dice": [{"die": x.die, "value": x.value, "where": x.where} for x in d.dice],
                "legal_moves": d.legal_moves,
                "played": str(d.played),
                "best": str(d.best),
                "played_expected": round(d.played_value, 2),
                "best_expected": round(d.best_value, 2),
                "cost": round(d.cost, 2),
                "cost_se": round(d.cost_se, 2),
                "cost_error": round(d.cost_error, 2),
                "label": d.label,
                "mattered": d.mattered,
            }
            if d.win_chance:
                data["win_chance"] = [round(c, 4) for c in d.win_chance]
            if d.reason is not None:
                data["why_reason"] = {"template": d.reason.template, "params": _plain(d.reason.params)}
                if explain is not None:
                    data["why"] = explain(d.reason)
            if describe is not None:
                data["played_text"] = describe(d, d.played)
                data["best_text"] = describe(d, d.best)
            if d.verified is not None:
                agreed = agrees(d.cost, d.cost_error, d.verified)
                data["verified"] = {**d.verified.to_json(), "agrees": agreed}
            return data

        at_table: dict[str, Any] = {}
        if self.start_win_chance:  # at a table only: alone, the only seat finishes first
            at_table["win_chart"] = [round(c, 4) for c in self.win_chart()]
        return {
            "format": FORMAT,
            "game": self.game,
            "player": self.player + 1,
            "name": self.name,
            "final_score": self.final_score,
            "start_expected": round(self.start_value, 2),
            "accuracy": round(self.accuracy, 1),
            "error_rate": round(self.error_rate, 2),
            "level": self.level,
            "total_cost": round(self.total_cost, 2),
            "luck": round(self.luck, 2),
            "valuation_error": round(self.valuation_error, 2),
            "mean_cost": round(self.mean_cost, 2),
            "labels": self.counts(),
            "thresholds": {name: below for name, below in LABELS if below != float("inf")},
            "costliest": [d.move_number for d in self.costliest()],
            "themes": [t.to_json(explain) for t in self.themes()],
            "chart": [round(v, 2) for v in self.chart()],
            **at_table,
            "decisions": [entry(d) for d in self.decisions],
        }


def _plain(params: dict[str, object]) -> dict[str, Any]:
    """A reason's parameters as JSON data (a named word as its kind and key, a list as a list)."""
    from ..rules.reasons import Listing, Named, Plural

    def plain(value: object) -> Any:
        if isinstance(value, Plural):
            return {"singular": value.singular, "plural": value.plural, "n": value.n}
        if isinstance(value, Named):
            return {"kind": value.kind, "key": str(value.key), "english": value.english}
        if isinstance(value, Reason):
            return {"template": value.template, "params": _plain(value.params)}
        if isinstance(value, Listing):
            return [plain(v) for v in value.items]
        return value

    return {k: plain(v) for k, v in params.items()}


def reason_from_json(data: dict[str, Any]) -> Reason:
    """A reason as ``Review.to_json`` wrote it (``why_reason``), to be written in a language."""
    from ..rules.reasons import Listing, Named, Plural

    def value(item: Any) -> object:
        if isinstance(item, dict) and "template" in item:
            return reason_from_json(item)
        if isinstance(item, dict) and "kind" in item:
            return Named(item["kind"], item["key"], item["english"])
        if isinstance(item, dict) and "singular" in item:
            return Plural(str(item["singular"]), str(item["plural"]), int(item["n"]))
        if isinstance(item, list):
            return Listing(tuple(value(v) for v in item))
        return item

    return Reason(str(data["template"]), **{k: value(v) for k, v in dict(data["params"]).items()})


def _dice(game: Game) -> tuple[Die, ...]:
    return tuple(Die(d, v, str(w)) for d, v, w in zip(game.dice, game.values, game.where, strict=True))


def decision_of(game: Game, player: int, move: Move, number: int, seed: int = 0, final: Game | None = None) -> Decision:
    """The decision of ``player`` to play ``move`` in ``game``, appraised (``bots/appraisal.py``);
    ``final``: the game at its end, where ``move`` was played (a review: its reasons then know
    what came later)."""
    appraisal = appraise(game, player, (move,), seed)
    return _decision(game, appraisal, move, number, final)


def _decision(game: Game, appraisal: Appraisal, move: Move, number: int, final: Game | None = None) -> Decision:
    best = appraisal.choice
    played = appraisal.values[move]
    cost = appraisal.best.expected - played.expected
    ranked = appraisal.ranked
    # trivial: nothing to decide (one legal move), or nothing at stake (the analysis's values,
    # searched or not, all within TRIVIAL of its choice's)
    values = [e.value for e in ranked]
    trivial = len(ranked) == 1 or max(values) - min(values) < TRIVIAL
    costly = cost >= WHY_FROM and move != best
    explained = explain_cost(game, appraisal.player, best, move, cost, final) if costly else None
    return Decision(
        move_number=number,
        round=game.round,
        phase=str(game.phase),
        dice=_dice(game),
        legal_moves=len(ranked),
        played=move,
        best=best,
        played_value=played.expected,
        best_value=appraisal.best.expected,
        cost_se=played.difference_se,
        trivial=trivial,
        reason=explained.reason if explained is not None else None,
        theme=explained.theme if explained is not None else None,
    )


def review_game(
    record: Record,
    player: int = 0,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review ``player``'s decisions (from 0) in a finished game record (``records.Record``).

    Raises ``records.RecordError`` for a record that does not replay, :class:`ReviewError` for
    a game not finished or a player not in it. ``progress(done, total)`` is told after each
    decision reviewed.
    """
    from .. import records  # the record's reading and checks (an adapter above the bots)

    final = records.replay(record)
    if not 0 <= player < final.n_players:
        raise ReviewError(N_("there is no player {n} in this game of {players}"), n=player + 1, players=final.n_players)
    if not final.is_over:
        raise ReviewError(N_("the game is not finished: only a finished game is reviewed"))
    entries = [records.split_entry(entry) for entry in record.moves]
    rolls: list[int] = []  # the dice rolled so far, at each of the player's decisions
    total = sum(1 for seat, _ in entries if seat == player)
    game = Game(record.game, players=len(record.players), seed=record.seed, dice=record.dice, rules=final.rules)
    review = Review(record.game, player, record.players[player], final.score(player).total, 0.0)
    chances = WinChances() if final.n_players > 1 else None  # follows the game, decision after decision

    # The collector paused for the whole review, not decision by decision: each appraisal makes
    # positions by the thousand and no cycles, and a collection at the end of each went through
    # the networks' kept states again (about 5 % of a review's time).
    with collector_paused():
        for number, (seat, text) in enumerate(entries, start=1):
            move = parse_move(text)
            if seat == player:
                decision = decision_of(game, player, move, number, seed, final)
                if chances is not None:
                    if not review.decisions:  # after the strong choice first: the played move then follows on
                        review.start_win_chance = tuple(chances(_after(game, player, decision.best)))
                    decision = replace(decision, win_chance=tuple(chances(_after(game, player, move))))
                if not review.decisions:
                    review.start_value = decision.best_value
                review.decisions.append(decision)
                rolls.append(game.dice_rolled)
                if progress is not None:
                    progress(len(review.decisions), total)
            game.play(move, seat)
    rolls.append(game.dice_rolled)
    review.rolled = [after > before for before, after in pairwise(rolls)]
    if chances is not None:
        review.final_win_chance = tuple(chances(final))
    return review


def _after(game: Game, player: int, move: Move) -> Game:
    """The position right after ``player`` plays ``move`` (its history kept, so that the win
    chances follow the game without replaying it)."""
    after = game.copy()
    after.play(move, player)
    return after


PRACTICE_MARGIN = 0.5  # an answer within this many expected points of the best is right


@dataclass(frozen=True)
class Answer:
    """A practice answer: the move tried in a position of a review, against the strong choice."""

    move: Move
    best: Move
    expected: float  # the move's expected final score, on the valuation futures
    best_expected: float
    cost: float
    cost_se: float
    reason: Reason | None  # why the best is better, when the answer is not right

    @property
    def right(self) -> bool:
        return self.cost <= PRACTICE_MARGIN


def judge(game: Game, player: int, move: Move, seed: int = 0) -> Answer:
    """How good ``move`` is in ``game`` (a legal move of ``player``) next to the strong choice,
    valued as the review values a decision: the practice's answer."""
    decision = decision_of(game, player, move, 0, seed)
    reason = decision.reason
    if reason is None and decision.cost > PRACTICE_MARGIN:
        reason = why(game, player, decision.best, move, decision.cost)
    return Answer(
        move, decision.best, decision.played_value, decision.best_value, decision.cost, decision.cost_se, reason
    )


@dataclass(frozen=True)
class Choice:
    """What a computer player would play, and its expected final score on the valuation futures."""

    bot: str
    move: Move
    expected: float


def computer_choices(game: Game, player: int | None = None, seed: int = 0) -> list[Choice]:
    """What the greedy and the strong players would play now, both valued as the hint and the
    review value them (``bots/appraisal.py``): the panel "what would each computer player play"."""
    if player is None:
        player = game.to_move
    if player is None or player == CHANCE or player not in game.players_to_move:
        raise ReviewError(N_("no player decides now"))
    greedy = GreedyBot(seed).choose(game, player)
    appraisal = appraise(game, player, (greedy,), seed, searched=True)
    return [
        Choice("greedy", greedy, appraisal.values[greedy].expected),
        Choice("strong", appraisal.choice, appraisal.best.expected),
    ]


__all__ = [
    "COSTLIEST",
    "FORMAT",
    "LABELS",
    "LEVELS",
    "LEVELS_BY_GAME",
    "PRACTICE_MARGIN",
    "VTF_LEVELS",
    "Answer",
    "Choice",
    "Decision",
    "Die",
    "Review",
    "ReviewError",
    "Theme",
    "computer_choices",
    "decision_of",
    "judge",
    "label",
    "level",
    "levels_of",
    "reason_from_json",
    "review_game",
]
