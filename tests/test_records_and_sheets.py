"""Records replay games exactly and reject bad ones; paper sheets score like played ones."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from tresfute import paper, records
from tresfute.cli import main
from tresfute.rules import Game
from tresfute.simulate import play_game

from helpers import play_randomly


def finished(players: int = 2, seed: int = 3, game: str = "tres-fute") -> Game:
    return play_game(game, players, "random", seed, 0)


@pytest.mark.parametrize("game_id", ["tres-fute", "vraiment-tres-fute"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_record_replays_to_the_same_sheets_and_scores(players: int, game_id: str) -> None:
    game = finished(players, game=game_id)
    text = records.dumps(records.record_of(game, [f"P{i}" for i in range(players)]))
    again = records.replay(records.loads(text))
    assert [s.areas for s in again.sheets] == [s.areas for s in game.sheets]
    assert again.scores() == game.scores()
    assert json.loads(text)["result"]["winners"] == [w + 1 for w in game.winners()]


@pytest.mark.parametrize("game_id", ["tres-fute", "vraiment-tres-fute"])
def test_a_record_with_dice_from_outside_replays(game_id: str) -> None:
    game = Game(game_id, players=2, dice="external")
    play_randomly(game, random.Random(5))
    record = records.record_of(game)
    assert any(m.startswith("dice ") for m in record.moves)
    assert records.replay(records.loads(records.dumps(record))).scores() == game.scores()


def test_an_unfinished_game_is_saved_and_resumed() -> None:
    game = Game("tres-fute", players=1, seed=9)
    rng = random.Random(1)
    for _ in range(15):
        game.play(rng.choice(game.legal_moves()))
    resumed = records.replay(records.loads(records.dumps(records.record_of(game))))
    assert resumed.view() == game.view()
    assert resumed.legal_moves() == game.legal_moves()


def test_an_illegal_move_is_rejected_with_its_number_and_reason() -> None:
    data = json.loads(records.dumps(records.record_of(finished())))
    data["moves"][4] = "1:reroll" if not data["moves"][4].endswith("reroll") else "1:pass"
    with pytest.raises(records.RecordError, match=r"move 5 \('1:(reroll|pass)'\) is illegal: "):
        records.replay(records.from_data(data))


def test_a_wrong_final_score_is_rejected() -> None:
    data = json.loads(records.dumps(records.record_of(finished())))
    data["result"]["scores"][1]["total"] += 1
    with pytest.raises(records.RecordError, match="final score of player 2 is"):
        records.replay(records.from_data(data))


SOLO = json.loads((Path(__file__).parent.parent / "examples" / "solo-game.json").read_text())


def _stated(change: Callable[[dict], object]) -> str:
    """The solo example with its stated score changed."""
    data = json.loads(json.dumps(SOLO))
    change(data["result"]["scores"][0])
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "french", "english"),
    [
        (
            lambda s: s.update(total=68),
            "le score final du joueur 1 est 67, l’enregistrement dit 68",
            "the final score of player 1 is 67, the record says 68",
        ),
        (
            lambda s: s["areas"].update(y=11, b=6),  # the same total
            "le score en jaune du joueur 1 est 10, l’enregistrement dit 11",
            "the yellow score of player 1 is 10, the record says 11",
        ),
        (
            lambda s: s["areas"].update(zz=s["areas"].pop("p")),
            "les zones comptées pour le joueur 1 sont jaune, bleu, vert, orange, 'zz' dans l’enregistrement, "
            "jaune, bleu, vert, orange, violet dans la partie",
            "the areas scored for player 1 are yellow, blue, green, orange, 'zz' in the record, "
            "yellow, blue, green, orange, purple in the game",
        ),
        (
            lambda s: s.update(foxes=1),
            "le nombre de renards du joueur 1 est 0, l’enregistrement dit 1",
            "the number of foxes of player 1 is 0, the record says 1",
        ),
        (
            lambda s: s.update(fox_value=3),
            "chaque renard du joueur 1 vaut 7, l’enregistrement dit 3",
            "each fox of player 1 is worth 7, the record says 3",
        ),
    ],
)
def test_a_stated_score_that_differs_is_said_in_a_sentence(
    tmp_path: Path, change: Callable[[dict], object], french: str, english: str
) -> None:
    """The total first; when the totals agree, the first area, the foxes or a fox's value that
    differs; never the scores' raw data."""
    path = tmp_path / "record.json"
    path.write_text(_stated(change))
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1 and result.stderr == "Erreur\u00a0: " + french + "\n"
    result = CliRunner().invoke(main, ["replay", str(path), "--lang", "en"])
    assert result.exit_code == 1 and result.stderr == "Error: " + english + "\n"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{", "not valid JSON"),
        ("[]", "not a valid record: the file must hold one JSON object"),
        (
            '{"game": "chess", "players": ["a"], "seed": 1}',
            "game: the game must be one of tres-fute, vraiment-tres-fute",
        ),
        ('{"game": "tres-fute", "players": [], "seed": 1}', "players"),
        ('{"game": "tres-fute", "players": ["a"]}', "needs its seed"),
        ('{"game": "tres-fute", "players": ["a"], "seed": 1, "moves": ["1:q"]}', "move 1 .*cannot read"),
        ('{"game": "tres-fute", "players": ["a"], "seed": 1, "moves": ["y@r1c1"]}', "say whose move"),
        (
            '{"game": "tres-fute", "players": ["a"], "seed": 1, "moves": [], "result": {"scores": [], "winners": []}}',
            "stop before the end",
        ),
    ],
)
def test_corrupt_records_say_what_is_wrong(text: str, reason: str) -> None:
    with pytest.raises(records.RecordError, match=reason):
        records.replay(records.loads(text))


# --- paper sheets ------------------------------------------------------------------


def test_a_played_sheet_scores_the_same_on_paper() -> None:
    """Writing a played sheet down as marks gives the same breakdown."""
    game = finished(1, seed=12)
    sheet = game.sheets[0]
    yellow, blue = game.spec.areas["y"], game.spec.areas["b"]
    marks = {
        "game": "tres-fute",
        "areas": {
            "yellow": [f"r{c.row}c{c.col}" for c, lv in zip(yellow.cells, sheet.areas["y"], strict=True) if lv],
            "blue": [f"r{c.row}c{c.col}" for c, lv in zip(blue.cells, sheet.areas["b"], strict=True) if lv],
            "green": len(sheet.areas["g"]),
            "orange": sheet.areas["o"],
            "purple": sheet.areas["p"],
        },
        "foxes": len(sheet.foxes),
    }
    spec, paper_sheet = paper.sheet_from_data(marks)
    assert paper.breakdown(spec, paper_sheet)["total"] == game.score(0).total


def test_known_values_from_the_sheet_reference() -> None:
    spec, sheet = paper.sheet_from_data(
        {
            "game": "tres-fute",
            "areas": {
                "yellow": ["r1c1", "r2c1", "r3c1", "r1c3", "r3c3", "r4c2", "r4c3", "r2c4", "r3c4", "r4c4"],
                "blue": ["r1c2", "r1c3", "r1c4", "r2c1"],
                "green": 5,
                "orange": [5, 2, 3, 12],
                "purple": [2, 5, 6, 3],
            },
        }
    )
    result = paper.breakdown(spec, sheet)
    assert result["areas"] == {"yellow": 46, "blue": 7, "green": 15, "orange": 22, "purple": 16}
    assert result["foxes"] == 1 and result["fox_sources"] == ["yellow row 4"]
    assert result["total"] == 46 + 7 + 15 + 22 + 16 + 7


@pytest.mark.parametrize(
    ("areas", "reason"),
    [
        ({"orange": [5, 2, 3, 7]}, "orange box 4: 7 cannot be written there"),
        ({"purple": [2, 5, 4]}, "purple box 3: purple needs a number higher than 5"),
        ({"green": 12}, "green: the number of crossed boxes, 0 to 11"),
        ({"yellow": ["r1c4"]}, "'r1c4' is not a markable cell"),
        ({"yellow": ["r1c1", "r1c1"]}, "r1c1 is given twice"),
        ({"silver": []}, "no 'silver' area"),
        ({"orange": "5 2 3"}, "the numbers written"),
    ],
)
def test_a_wrong_sheet_says_what_is_wrong(areas: dict, reason: str) -> None:
    with pytest.raises(paper.SheetError, match=reason):
        paper.sheet_from_data({"game": "tres-fute", "areas": areas})


def test_a_wrong_fox_count_is_reported() -> None:
    with pytest.raises(paper.SheetError, match="the marks give 0 foxes"):
        paper.sheet_from_data({"game": "tres-fute", "areas": {}, "foxes": 2})


def test_a_vraiment_tres_fute_sheet() -> None:
    """Silver rows, yellow circles and crosses, blue, green pairs, pink: the example sheet."""
    from pathlib import Path

    text = (Path(__file__).parent.parent / "examples" / "vraiment-tres-fute-sheet.json").read_text()
    spec, sheet = paper.load_sheet(text)
    result = paper.breakdown(spec, sheet)
    # silver: row 1 has 4 crosses (11), rows 2-4 one each (2 + 2 + 2); column 3 complete: fox
    assert result["areas"] == {"silver": 17, "yellow": 10, "blue": 15, "green": 13, "pink": 13}
    assert result["fox_sources"] == ["silver column 3"] and result["fox_value"] == 10
    assert result["total"] == 17 + 10 + 15 + 13 + 13 + 10


def test_a_paper_sheet_with_an_area_at_0_and_a_negative_green_values_its_fox_at_0() -> None:
    sheet = {
        "game": "vraiment-tres-fute",
        "areas": {
            "silver": ["r1c1", "r1c2", "r1c3", "r2c3", "r2c4", "r3c3", "r4c3"],
            "blue": [12, 10],
            "green": [2, 12, 2, 5, 3, 6],
            "pink": [2],
        },
        "foxes": 1,
    }
    result = paper.breakdown(*paper.sheet_from_data(sheet))
    assert result["areas"] == {"silver": 15, "yellow": 0, "blue": 3, "green": -16, "pink": 2}
    assert result["fox_value"] == 0 and result["total"] == 4


@pytest.mark.parametrize(
    ("areas", "reason"),
    [
        ({"blue": [5, 7]}, "blue box 2: blue needs a number at most 5"),
        ({"green": [3]}, "green box 1: 3 cannot be written there"),
        ({"pink": [7]}, "pink box 1: 7 cannot be written there"),
        ({"yellow": ["r1c2"]}, "circled"),
        ({"yellow": {"circled": ["r1c1"]}}, "'r1c1' is not a markable cell"),
        ({"orange": []}, "no 'orange' area"),
    ],
)
def test_a_wrong_vraiment_tres_fute_sheet_says_what_is_wrong(areas: dict, reason: str) -> None:
    with pytest.raises(paper.SheetError, match=reason):
        paper.sheet_from_data({"game": "vraiment-tres-fute", "areas": areas})


def test_history_entries_and_scores_are_values_that_survive_a_copy_and_pickling() -> None:
    """A game's history and scores compare by value and pickle (worker processes carry them);
    their attributes are Final, so a type checker refuses to change them in place."""
    import pickle

    game = play_game("vraiment-tres-fute", 2, "random", 3, 0)
    copy = pickle.loads(pickle.dumps(game.history))
    assert copy == game.history and [h.move for h in copy] == [h.move for h in game.history]
    assert pickle.loads(pickle.dumps(game.scores())) == game.scores()
    first = game.history[0]
    assert "Played(player=" in repr(first) and "Score(areas=" in repr(game.score(0))
    assert first != game.history[1] and first != (first.player, first.move)


def test_a_record_from_before_the_passive_fallback_became_a_choice_still_replays() -> None:
    """Before « il peut » was read as a choice, a passive player whose only usable die was one
    of the active player's took it by force, and records left that move out. Such a record
    replays as it was played; written again, it holds that decision."""
    from tresfute.bots import make_bot
    from tresfute.rules import Where

    game = Game("tres-fute", players=2, seed=19)
    bots = [make_bot("greedy", p) for p in range(2)]
    forced_at = None
    while not game.is_over:
        p = game.to_move
        assert p is not None
        moves = game.legal_moves(p)
        picks = [m for m in moves if m.kind == "pick"]
        only_field_die = len(picks) == 1 and game.where[game.dice.index(picks[0].die or "")] is Where.FIELD
        if forced_at is None and game.phase == "passive" and len(moves) == 2 and only_field_die:
            forced_at = len(game.moves_played())  # its moves: that die, or pass
            game.play(picks[0], p)
            continue
        game.play(bots[p].choose(game, p), p)
    assert forced_at is not None, "the seed gives the situation"
    record = records.record_of(game)
    old = record.model_copy(update={"moves": record.moves[:forced_at] + record.moves[forced_at + 1 :]})
    replayed = records.replay(records.from_data(json.loads(records.dumps(old))))
    assert replayed.view() == game.view()
    assert records.record_of(replayed).moves == record.moves
