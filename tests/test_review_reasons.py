"""The review's reasons (issue 74 items 1 and 5): each names the cause that makes most of a costly
decision's cost, measured on the position, with its size and what the played move did earn; the
costly decisions grouped by theme. Each kind of reason is found in positions played through the
public API (a roll given from outside, seeded games) and its words checked in each language."""

from __future__ import annotations

import pytest

from tresfute import records
from tresfute.bots.network import valuation_network
from tresfute.bots.review import review_game
from tresfute.bots.strong import evaluate_moves
from tresfute.bots.why import THEMES, Explained, explain_cost, theme_words
from tresfute.i18n import use_language
from tresfute.review_text import review_json, theme_lines
from tresfute.rules import CHANCE, Game, Move, MoveKind, parse_move
from tresfute.simulate import play_game
from tresfute.text import explain


def rolled(game_id: str = "tres-fute", **faces: int) -> Game:
    """A solo game's first roll, its faces given from outside."""
    game = Game(game_id, 1, dice="external")
    game.play(Move(MoveKind.DICE, dice=tuple((d, faces[d]) for d in game.dice_to_roll())), CHANCE)
    return game


def said(reason: object, language: str = "en") -> str:
    with use_language(language):
        return explain(reason)  # type: ignore[arg-type]


def explained(game: Game, best: str, played: str, cost: float = 20.0, final: Game | None = None) -> Explained:
    return explain_cost(game, 0, parse_move(best), parse_move(played), cost, final)


# --- the example: a high die that sends every other die to the platter --------------


def test_a_pick_that_sends_every_other_die_to_the_platter_and_ends_the_turn_says_so() -> None:
    """Blue 6 taken where White 1 was best (issue 74): every other die of the roll goes to the
    silver platter and the turn's picks end there. The old reason looked at the platter once the
    turn was over (empty again) and said "the best move takes the white die rather than the blue";
    the platter is now the largest cause, said with its dice and its size."""
    game = rolled(y=1, b=6, w=1, g=2, o=3, p=2)
    found = explained(game, "w>y@r2c2", "b@r2c3", cost=52.0)
    assert found.named[0] == "platter" and found.theme == "platter"
    platter = next(c for c in found.causes if c.name == "platter")
    assert platter.size > 0.5 * 52.0
    english = said(found.reason)
    assert "sends 5 dice to the silver platter" in english and "ends your turn's picks" in english
    assert "white 1" in english and "white die rather than the blue" not in english
    assert "about" in english and "points" in english
    assert "envoie 5 dés sur le plateau d’argent" in said(found.reason, "fr")
    assert "Silbertablett" in said(found.reason, "de")


def test_dice_sent_to_the_platter_with_picks_left_cost_the_next_picks() -> None:
    """Green 2 taken over Yellow 1: white 1 and yellow 1 go to the platter, picks are left: "fewer
    dice left for your next picks", and the played move's gain (a point more at once) said too."""
    game = rolled(y=1, b=6, w=1, g=2, o=3, p=2)
    found = explained(game, "y@r2c2", "g", cost=5.0)
    assert found.named[0] == "platter"
    english = said(found.reason)
    assert "sends 2 dice to the silver platter (white 1, yellow 1)" in english
    assert "next picks" in english and "ends your turn" not in english
    assert "yours scores 1 point more at once" in english


# --- every other kind, found in seeded games --------------------------------------------------


def _examples() -> dict[str, tuple[Game, Move, Move, Explained]]:
    """The first position of seeded games of the random player (whose sheets get every kind of
    mark, bonus and action) where a move the network finds 2 points or more below its best gets
    each kind of reason; the best is the network's."""
    found: dict[str, tuple[Game, Move, Move, Explained]] = {}
    wanted = {"points", "bonus", "actions", "fox", "position", "spent", "single", "gain", "reroll", "line"}
    for seed in range(6):
        game = Game("tres-fute", 1, seed=seed)
        from tresfute.bots import RandomBot

        bot = RandomBot(seed)
        while not game.is_over and not wanted <= found.keys():
            ranked = evaluate_moves(game, 0, valuation_network(game))
            best_value, best = ranked[0]
            for value, move in ranked[1:]:
                if best_value - value < 2.0:
                    continue
                e = explain_cost(game, 0, best, move, best_value - value)
                keys = set()
                if e.named:
                    keys.add(e.named[0])
                if e.named and move.kind in (MoveKind.REROLL, MoveKind.EXTRA) and e.named[0] == "actions":
                    keys.add("spent")
                if len(e.named) == 2 and e.reason.template.startswith("no single cause"):
                    keys.add("line")
                if e.reason.template == "{cause}; {gain}":
                    keys.add("gain")
                if move.kind is MoveKind.REROLL and e.named and e.named[0] == "position":
                    keys.add("reroll")
                if len(e.named) == 1:
                    keys.add("single")
                for key in keys - found.keys():
                    found[key] = (game.copy(), best, move, e)
            game.play(bot.choose(game, 0), 0)
        if wanted <= found.keys():
            break
    return found


@pytest.fixture(scope="module")
def examples() -> dict[str, tuple[Game, Move, Move, Explained]]:
    return _examples()


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("points", "points at once, yours"),
        ("bonus", "completes a bonus whose entries score"),
        ("fox", "fox"),
        ("position", "the rest of the game"),
        ("spent", "spends an action"),
        ("reroll", "reroll may bring"),
        ("gain", "; yours"),
        ("line", "no single cause"),
    ],
)
def test_each_kind_of_reason_names_its_cause_in_each_language(
    examples: dict[str, tuple[Game, Move, Move, Explained]], kind: str, words: str
) -> None:
    assert kind in examples, f"no {kind} reason in the seeded games"
    found = examples[kind][3]
    english = said(found.reason)
    assert words in english, english
    assert found.theme in THEMES
    for language in ("fr", "de"):
        text = said(found.reason, language)
        assert text and text != english and "{" not in text, (language, text)
    assert "simulated futures" not in english  # a cause, not the template
    if kind == "line":  # the two largest causes with their sizes, and the strong player's move first
        assert " from " in english and "the strong player plays" in english
        assert found.named[0] != found.named[1]


def test_the_largest_cause_is_named_with_its_size(examples: dict[str, tuple[Game, Move, Move, Explained]]) -> None:
    found = examples["single"][3]
    top = found.causes[0]
    assert found.named[0] == top.name and top.size == max(c.size for c in found.causes)
    assert sum(c.size for c in found.causes if c.size > 0) > 0
    english = said(found.reason)
    assert "point" in english


def test_an_action_earned_later_is_postponed_not_missed(
    examples: dict[str, tuple[Game, Move, Move, Explained]],
) -> None:
    """An action the best move earns at once: where the game's end shows the player earned it
    later anyway, the played move postpones it; else it does not earn it."""
    game, best, played, found = examples["actions"]
    if played.kind in (MoveKind.REROLL, MoveKind.EXTRA, MoveKind.REPRISE):
        assert "spends an action" in said(found.reason)
        return
    later = game.copy(dice="external", history=False)
    later.play(best, 0)
    never = game.copy(dice="external", history=False)
    never.play(played, 0)
    cost = sum(c.size for c in found.causes) or 10.0
    postponed = explain_cost(game, 0, best, played, cost, final=later)
    missed = explain_cost(game, 0, best, played, cost, final=never)
    assert postponed.named[0] == missed.named[0] == "actions"  # the end known changes no cause
    assert "postpones it (you earn it later in the game)" in said(postponed.reason)
    assert "postpones" not in said(missed.reason) and "at once; yours does not" in said(missed.reason)


def test_where_neither_the_network_nor_the_futures_see_a_gap_the_reason_gives_the_line() -> None:
    """The one template left: the move "played" is the network's best and the "best" one whose
    measured causes are none in its favour: the futures' figure and the line."""
    game = rolled(y=1, b=6, w=1, g=2, o=3, p=2)
    found = explained(game, "w>y@r2c2", "w>b@r2c3", cost=3.0)
    assert found.named == ()
    english = said(found.reason)
    assert "simulated futures" in english and "its line: white 1 in yellow" in english
    assert "{" not in said(found.reason, "fr") and "{" not in said(found.reason, "de")


def test_where_the_futures_see_no_gap_a_cause_in_the_best_moves_favour_is_still_named() -> None:
    """Blue 6 "best" over the network's White 1 in yellow: the valuation and the futures find the
    played move better (30 points of dice sent to the platter against it), but the one cause in
    the best move's favour, the points at once, is named beside the futures' figure and the line
    (it was the template, naming nothing)."""
    game = rolled(y=1, b=6, w=1, g=2, o=3, p=2)
    found = explained(game, "b@r2c3", "w>y@r2c2", cost=3.0)
    assert found.named == ("points",)
    english = said(found.reason)
    assert "simulated futures" in english and "its line: blue 6" in english
    assert "in its favour mostly the points it scores at once" in english
    assert "zu seinen Gunsten" in said(found.reason, "de")
    assert "en sa faveur" in said(found.reason, "fr")


def test_where_the_futures_see_no_gap_and_only_the_cells_differ_the_position_is_the_whole_cost() -> None:
    """Yellow 1 in row 3 "best" over row 2: no points, bonus, platter, action or fox between them,
    so the cost can only come from what the cells leave for later: named with the cost's size,
    though the valuation prefers the other cell."""
    game = rolled(y=1, b=6, w=1, g=2, o=3, p=2)
    found = explained(game, "y@r3c1", "y@r2c2", cost=3.0)
    assert found.named == ("position",) and found.theme == "entries"
    assert found.causes[0].name == "position" and found.causes[0].size == 3.0
    english = said(found.reason)
    assert english == "the best move's cell in yellow leaves better cells open for the rest of the game: about 3 points"
    for language in ("fr", "de"):
        assert said(found.reason, language) != english


def test_a_cost_well_beyond_the_valuations_gap_is_the_positions_share() -> None:
    """Purple 2 over a reroll: the valuation's gap is mostly the reroll spent (the actions); a cost
    far beyond 1.5 times that gap is what the futures see of the rest of the game: the position's
    share, named first, and the causes add up to the cost (they stopped at 1.5 times the gap)."""
    game = rolled(y=1, b=6, w=1, g=2, o=3, p=2)
    near = explained(game, "p", "reroll", cost=10.0)
    assert near.named[0] == "actions"
    far = explained(game, "p", "reroll", cost=60.0)
    assert far.named[0] == "position"
    assert sum(c.size for c in far.causes) == pytest.approx(60.0)
    sizes = {c.name: c.size for c in far.causes}
    assert sizes["position"] > sizes["actions"] > 0
    assert "reroll may bring" in said(far.reason)


def _replayed(game_id: str, seed: int, moves: int) -> Game:
    """A seeded game of the random player after ``moves`` moves."""
    from tresfute.bots import RandomBot

    game, bot = Game(game_id, 1, seed=seed), RandomBot(seed)
    for _ in range(moves):
        game.play(bot.choose(game, 0), 0)
    return game


def test_a_bonus_value_entered_says_the_two_values() -> None:
    """A bonus that enters a value in Vraiment très futé's blue (12 rather than 10): the two values
    and the area, not "a position worth more" (a template)."""
    game = _replayed("vraiment-tres-fute", 0, 3)
    found = explained(game, "!b=12", "!b=10", cost=8.0)
    assert found.named == ("position",) and found.theme == "bonus"
    english = said(found.reason)
    assert english.startswith("the best move enters 12 in blue rather than your 10, which leaves more to score")
    assert "12" in said(found.reason, "fr") and "10" in said(found.reason, "de")
    assert "{" not in said(found.reason, "fr") + said(found.reason, "de")


def test_a_reroll_against_no_die_taken_says_both_moves() -> None:
    """A reroll where the best move takes no die, and the other way round: the move and the
    reroll, not "a position worth more" (a template)."""
    game = _replayed("vraiment-tres-fute", 1, 29)
    found = explained(game, "pass", "reroll", cost=10.0)
    assert found.named == ("position",) and found.theme == "reroll_reprise"
    assert said(found.reason).startswith("the best move (no die taken) is worth about")
    assert said(found.reason).endswith("more than what your reroll may bring")
    other = explained(_replayed("vraiment-tres-fute", 0, 35), "reroll", "pass", cost=10.0)
    assert said(other.reason).startswith("what the best move's reroll may bring is worth about")
    assert said(other.reason).endswith("more than your move (no die taken)")
    for reason in (found.reason, other.reason):
        for language in ("fr", "de"):
            assert said(reason, language) != said(reason) and "{" not in said(reason, language)


# --- themes -----------------------------------------------------------------------------------


def test_a_review_groups_its_costly_decisions_by_theme_with_count_cost_moves_and_tip() -> None:
    """Every decision with a reason is in exactly one theme; each theme's count, cost and moves
    (the practice's positions) add up; its title and tip are in the reader's language, in the
    JSON (``themes``) and in the terminal's lines."""
    record = records.record_of(play_game("tres-fute", 1, "greedy", 4, 0))
    review = review_game(record)
    costly = [d for d in review.decisions if d.reason is not None]
    assert costly and all(d.theme in THEMES for d in costly)
    themes = review.themes()
    assert sorted(m for t in themes for m in (d.move_number for d in t.decisions)) == sorted(
        d.move_number for d in costly
    )
    assert [t.cost for t in themes] == sorted((t.cost for t in themes), reverse=True)
    data = review.to_json()
    assert [t["theme"] for t in data["themes"]] == [t.name for t in themes]
    for entry, theme in zip(data["themes"], themes, strict=True):
        assert entry["count"] == len(entry["moves"]) == len(theme.decisions)
        assert entry["cost"] == round(sum(d.cost for d in theme.decisions), 2)
        assert "tip" not in entry  # words only where a language is asked for
    for language in ("en", "fr", "de"):
        with use_language(language):
            words = review_json(record, review)["themes"]
            lines = theme_lines(review)
        for entry in words:
            title, tip = theme_words(entry["theme"])
            assert entry["title"] == said(title, language) and entry["tip"] == said(tip, language)
        assert len(lines) == 1 + 2 * len(themes)
        assert words[0]["title"] in lines[1]
    assert said(theme_words("platter")[0], "fr") != said(theme_words("platter")[0], "en")


def test_every_theme_has_a_title_and_a_tip_in_each_language() -> None:
    for theme in THEMES:
        title, tip = theme_words(theme)
        for language in ("fr", "de"):
            assert said(title, language) != title.template and said(tip, language) != tip.template


def test_the_progress_page_adds_each_theme_up_over_the_players_games() -> None:
    """Over a player's reviewed games (``web.players.themes_over``): each theme's decisions and
    points added up, in how many games, costliest first, with its title and tip in the language."""
    from tresfute.web.players import themes_over

    games = [
        {"themes": [{"theme": "platter", "count": 2, "cost": 14.5}, {"theme": "bonus", "count": 1, "cost": 3.0}]},
        {"themes": []},  # reviewed, nothing costly
        {"themes": [{"theme": "bonus", "count": 3, "cost": 20.25}]},
    ]
    with use_language("de"):
        found = themes_over(games)
    assert [(t["theme"], t["count"], t["cost"], t["games"]) for t in found] == [
        ("bonus", 4, 23.25, 2),
        ("platter", 2, 14.5, 1),
    ]
    assert found[1]["title"] == said(theme_words("platter")[0], "de") == "Würfel auf dem Silbertablett"
    assert themes_over([]) == []
