"""Every list is declared once (issue 75): the languages (``tresfute.i18n.LANGUAGE_NAMES``), the
games (``rules.games.SPECS``) with their rules options and the options' words (``RuleOption``),
the computer players with theirs (``bot_names.COMPUTER_PLAYERS``). A language, a computer player
or a rules option added there alone reaches the served list (``/api/choices``), the terminal's
menus and OpenSpiel's parameters; the strong player warns when its network was not trained under
the rules chosen. A new language needs its line in the list and its catalogue alone: a copy of
the package with that one line added speaks it everywhere."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

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


ROOT = Path(__file__).resolve().parent.parent
SOLO = "examples/solo-game.json"


def test_a_language_added_to_the_registry_alone_is_spoken_everywhere(tmp_path: Path) -> None:
    """A copy of the package, its scripts and these tests, with one line added to the languages'
    list (``LANGUAGE_NAMES``) and no other file edited: the translations script makes the new
    language's catalogue (the plural rule Babel gives for it), a translator fills it in, and
    ``speak_the_new_language`` (run in that copy, in a process of its own) finds it everywhere."""
    copy = tmp_path / "tree"
    shutil.copytree(ROOT / "src" / "tresfute", copy / "src" / "tresfute", ignore=shutil.ignore_patterns("__pycache__"))
    for part in ("scripts/translations.py", "scripts/french_typography.py", "tests/test_i18n.py", __file__, SOLO):
        (copy / Path(part).parent.name).mkdir(exist_ok=True)
        shutil.copy(ROOT / part, copy / Path(part).parent.name / Path(part).name)
    code = next(code for code in ("it", "es", "nl", "pt") if code not in i18n.LANGUAGE_NAMES)
    registry = copy / "src" / "tresfute" / "i18n.py"
    text, added = re.subn(
        r"^(LANGUAGE_NAMES = \{.*)\}$", rf'\1, "{code}": "{code}-name"}}', registry.read_text(), count=1, flags=re.M
    )
    assert added == 1
    registry.write_text(text)
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    run = subprocess.run(
        [sys.executable, "-c", f"import test_registry; test_registry.speak_the_new_language({code!r})"],
        cwd=copy / "tests",
        env={**env, "PYTHONPATH": os.pathsep.join([str(copy / "src"), str(copy / "tests")])},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip() == f"{code}: spoken everywhere"


def speak_the_new_language(code: str) -> None:
    """Run in the copy of ``test_a_language_added_to_the_registry_alone_is_spoken_everywhere``:
    ``code`` is in its registry, and nowhere else."""
    import functools
    from importlib import resources

    from babel.messages.plurals import get_plural
    from babel.messages.pofile import write_po
    from click.testing import CliRunner

    import test_i18n
    from tresfute.cli import main

    here = Path(__file__).resolve().parent.parent
    assert Path(i18n.__file__).is_relative_to(here) and code in i18n.TRANSLATED_LANGUAGES  # the copy's registry
    translations, typography = test_i18n.translations, test_i18n.importlib.import_module("french_typography")
    translations.messages_in_code = functools.cache(translations.messages_in_code)  # read once (the same code)
    # the script makes its catalogue, with the plural rule Babel gives for the language
    assert code in translations.LANGUAGES and not translations.po_path(code).exists()
    translations.extract()
    catalog = translations.load_catalog(code)
    assert catalog.plural_forms == str(get_plural(code)) and len(catalog) > 500
    assert translations.missing(code)  # nothing translated yet: the script says so
    # the typography check runs for it: the checks every language shares (no check of its own)
    catalog["Round"].string = "Round {round}"
    assert typography.catalogue_problems(code, catalog) == [f"{code}: Round {{round}} ({{round}} is not filled in)"]
    # a translator fills it in: from French (each plural form), the games' names their own
    french = translations.load_catalog("fr")
    for message in catalog:
        if message.id:
            known = french.get(message.id[0] if isinstance(message.id, tuple) else message.id)
            if isinstance(message.id, tuple):
                forms = known.string if known and all(known.string) else message.id
                message.string = (forms[0], *[forms[1]] * (catalog.num_plurals - 1))
            else:
                message.string = known.string if known and known.string else message.id
            message.user_comments = known.user_comments if known else []
    for name in ("That's Pretty Clever!", "Twice as Clever!"):
        catalog[name].string = f"{name} ({code})"
    with translations.po_path(code).open("wb") as handle:
        write_po(handle, catalog, width=100, omit_header=False, sort_output=False)
    translations.compile_mo()
    # the i18n tests accept it as they stand
    for check in (
        test_i18n.test_every_message_in_the_code_has_a_translation_in_each_catalogue,
        test_i18n.test_the_shipped_catalogue_is_compiled_from_the_po_file,
        test_i18n.test_each_catalogue_follows_its_languages_typography,
        test_i18n.test_every_page_message_reads_in_each_language,
    ):
        check(code)
    test_i18n.test_the_games_keep_their_published_name_in_each_language()
    test_i18n.test_the_languages_are_declared_once_and_each_has_its_catalogue_and_help()
    with i18n.use_language(code):
        assert [i18n.ngettext("{n} point", "{n} points", n) for n in (1, 2)] == ["{n} point", "{n} points"]
        # the terminal game's help: French where the language has none
        help_dir = resources.files("tresfute.tui") / "help"
        assert i18n.localized_text(help_dir, "tres-fute", ".md") == (help_dir / "tres-fute.fr.md").read_text()
    assert i18n.environment_language({"LANG": f"{code}_XX.UTF-8"}) == code
    # the command line
    replay = CliRunner().invoke(main, ["replay", str(here / SOLO), "--lang", code])
    assert replay.exit_code == 0 and f"That's Pretty Clever! ({code}) — " in replay.output, replay.output
    # the web server: its lists, ?lang=, a new game's language, the page
    client = TestClient(create_app(database=":memory:"))
    served = client.get(f"/api/choices?lang={code}").json()
    assert {"code": code, "name": f"{code}-name"} in served["languages"]
    assert [game["name"] for game in served["games"]] == [
        f"{n} ({code})" for n in ("That's Pretty Clever!", "Twice as Clever!")
    ]
    made = client.post(
        f"/api/games?lang={code}", json={"game": "tres-fute", "seats": [{"name": "Ana"}], "language": code}
    )
    assert made.status_code < 300, made.text
    assert f'lang="{code}"' in client.get(f"/?lang={code}").text and f' {code}"' in client.get("/").text
    print(f"{code}: spoken everywhere")
