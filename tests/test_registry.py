"""Every list is declared once (issue 75): the languages (``tresfute.i18n.LANGUAGE_NAMES``), the
games (``rules.games.SPECS``) with their rules options and the options' words (``RuleOption``),
the computer players with theirs (``bot_names.COMPUTER_PLAYERS``). A language, a computer player
or a rules option added there alone reaches the served list (``/api/choices``), the terminal's
menus and OpenSpiel's parameters; the strong player warns when its network was not trained under
the rules chosen."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import warnings
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tresfute import bot_names, i18n, records
from tresfute.bot_names import ComputerPlayer
from tresfute.bots import StrongBot
from tresfute.bots.network import UntrainedRulesWarning, trained_under
from tresfute.rules import Game, game_rules
from tresfute.rules import game as game_module
from tresfute.rules.games import SPECS, rule_option_defaults
from tresfute.rules.kinds import RuleOption
from tresfute.text import rules_lines
from tresfute.web.app import create_app
from tresfute.web.strings import choices

VTF = "vraiment-tres-fute"
FAKE_OPTION = RuleOption(
    "fake_rule",
    True,
    label="A fake rule, checked by default",
    when_true="The fake rule holds",
    when_false="The fake rule is off",
)
FAKE_PLAYER = ComputerPlayer("careful", "tresfute.bots.greedy:GreedyBot", "careful", "Computer (careful)")


@pytest.fixture
def fake_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An Italian, a careful computer player and a fake rules option of Vraiment très futé, each
    added to its one list only."""
    add_fakes(monkeypatch)
    yield


def add_fakes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(i18n.LANGUAGE_NAMES, "it", "Italiano")
    monkeypatch.setattr(bot_names, "COMPUTER_PLAYERS", (*bot_names.COMPUTER_PLAYERS, FAKE_PLAYER))
    spec = dataclasses.replace(SPECS[VTF], rule_options=(*SPECS[VTF].rule_options, FAKE_OPTION))
    monkeypatch.setitem(SPECS, VTF, spec)
    monkeypatch.setitem(game_module._KNOWN_SPECS, VTF, spec)  # get_spec's cache


def test_the_served_lists_come_from_the_registry(fake_registry: None) -> None:
    served = TestClient(create_app(database=":memory:")).get("/api/choices?lang=en").json()
    assert served == choices("en")
    assert {"code": "it", "name": "Italiano"} in served["languages"]
    assert [language["code"] for language in served["languages"]] == ["fr", "en", "de", "it"]
    assert {"name": "careful", "label": "Computer (careful)", "network": False} in served["players"]
    assert served["players"][0]["name"] == "careful"  # the strongest first: added last, shown first
    assert served["table_player"] == "strong-win"
    (vtf,) = [game for game in served["games"] if game["id"] == VTF]
    assert vtf["name"] == "Twice as Clever!"
    assert vtf["rules"][-1] == {"name": "fake_rule", "default": True, "label": "A fake rule, checked by default"}
    # no network was trained under the fake rule: only the shipped readings are listed
    assert vtf["trained"] == [{}, {"reprise_with_no_die_left": False}]
    page = TestClient(create_app(database=":memory:")).get("/")
    assert 'data-languages="fr en de it"' in page.text


def test_the_served_lists_say_each_option_and_player_in_the_asked_language() -> None:
    served = choices("fr")
    (vtf,) = [game for game in served["games"] if game["id"] == VTF]
    assert vtf["name"] == "Vraiment très futé"
    (option,) = vtf["rules"]
    assert option["name"] == "reprise_with_no_die_left" and option["default"] is True
    assert option["label"].startswith("Plus aucun dé à lancer")  # the French words of RuleOption.label
    assert "reprise" not in option["label"].lower()  # plain words (issue 73)
    assert [p["name"] for p in served["players"]] == ["strong-win", "strong", "greedy", "random"]
    assert served["players"][2] == {"name": "greedy", "label": "Ordinateur (glouton)", "network": False}


def test_a_rules_option_carries_its_words_for_every_front_end(fake_registry: None) -> None:
    assert rule_option_defaults() == {"reprise_with_no_die_left": True, "fake_rule": True}
    game = Game(VTF, seed=3, rules={"fake_rule": False})
    assert game.rules == {"reprise_with_no_die_left": True, "fake_rule": False}
    with i18n.use_language("en"):
        assert rules_lines(game.rules) == [
            "No die left to roll: a reprise may take one back and roll it",
            "The fake rule is off",
        ]


def test_a_record_writes_only_the_options_off_their_default(fake_registry: None) -> None:
    game = Game(VTF, 2, seed=3, rules={"fake_rule": False})
    text = records.dumps(records.record_of(game))
    assert json.loads(text)["rules"] == {"fake_rule": False}
    assert records.replay(records.loads(text)).rules == game.rules
    default = Game(VTF, 2, seed=3)
    assert "rules" not in json.loads(records.dumps(records.record_of(default)))
    assert records.replay(records.record_of(default)).rules == game_rules(VTF)


def test_the_terminal_offers_what_the_registry_declares(fake_registry: None) -> None:
    from textual.widgets import Checkbox, Select

    from tresfute.tui.app import SetupScreen, TresFuteApp, seat_kinds

    i18n.set_language("en")
    assert seat_kinds()[:2] == [("Person", "person"), ("Computer (careful)", "careful")]

    async def main() -> None:
        app = TresFuteApp(bot_delay=0)
        async with app.run_test(size=(140, 50)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            kinds = app.screen.query_one("#kind1", Select)
            assert ("Computer (careful)", "careful") in kinds._options  # type: ignore[attr-defined]
            fake = app.screen.query_one("#rule-vraiment-tres-fute-fake_rule", Checkbox)
            assert str(fake.label) == FAKE_OPTION.label and fake.value is True
            assert not fake.display  # Très futé chosen: only its options (none) show
            await pilot.click("#vraiment-tres-fute")
            await pilot.pause()
            assert fake.display
            fake.value = False
            app.screen.query_one("#seed").value = "7"
            await pilot.click("#start")
            await pilot.pause()
            assert app.screen.session.game.rules == {"reprise_with_no_die_left": True, "fake_rule": False}

    try:
        asyncio.run(main())
    finally:
        i18n.set_language("fr")


def test_openspiel_takes_every_declared_option_as_a_parameter(monkeypatch: pytest.MonkeyPatch) -> None:
    # imported (and so registered with pyspiel, for the whole process) before the fake option is added
    openspiel = pytest.importorskip("tresfute.envs.openspiel")
    add_fakes(monkeypatch)
    assert openspiel._game_type().parameter_specification == {
        "game": "tres-fute",
        "players": 2,
        "reprise_with_no_die_left": True,
        "fake_rule": True,
    }
    # (no game is made here: pyspiel keeps the parameters of a game type it has seen, for the whole process)


def test_the_strong_player_warns_under_rules_its_network_was_not_trained_for(fake_registry: None) -> None:
    assert not trained_under(VTF, (("fake_rule", False),))
    game = Game(VTF, seed=3, rules={"fake_rule": False})
    with pytest.warns(UntrainedRulesWarning, match="fake_rule=false of vraiment-tres-fute"):
        move = StrongBot(0).choose(game, 0)
    assert move in game.legal_moves(0)  # it plays all the same
    for rules in ({}, {"reprise_with_no_die_left": False}):  # the shipped readings: no warning
        trained = Game(VTF, seed=3, rules=rules)
        with warnings.catch_warnings():
            warnings.simplefilter("error", UntrainedRulesWarning)
            StrongBot(0).choose(trained, 0)
