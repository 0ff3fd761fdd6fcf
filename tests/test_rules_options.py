"""Vraiment très futé's rules option ``reprise_with_no_die_left`` (docs/rules-decisions.md) goes
with the game everywhere: records, the command line, the web API and the environments.

The rulebook's sentence that reads two ways: « Ce n'est qu'une fois que le joueur actif a posé 3
dés sur sa feuille de jeu ou qu'il ne peut plus lancer de dés parce que tous les dés restants se
trouvent sur le plateau d'argent que les autres joueurs commencent à jouer ».
"""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from tresfute import records
from tresfute.cli import main
from tresfute.rules import Game, RulesError
from tresfute.simulate import play_game
from tresfute.web.app import create_app

VTF = "vraiment-tres-fute"
STRICT = {"reprise_with_no_die_left": False}
DEFAULT = {"reprise_with_no_die_left": True}


def strict_record() -> records.Record:
    return records.record_of(play_game(VTF, 1, "greedy", 4, 0, rules=STRICT), ["Ana"])


# --- records ----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [STRICT, DEFAULT], ids=["turn-ends", "reprise-rolls"])
def test_a_record_keeps_its_rules_and_replays_under_them(rules: dict[str, bool]) -> None:
    game = play_game(VTF, 2, "greedy", 4, 0, rules=rules)
    text = records.dumps(records.record_of(game, ["Ana", "Bo"]))
    # only the options off their default are written: the default reading writes none
    assert json.loads(text).get("rules") == (None if rules == DEFAULT else rules)
    again = records.replay(records.loads(text))
    assert again.rules == rules
    assert again.scores() == game.scores()


@pytest.mark.parametrize("rules", [STRICT, DEFAULT], ids=["turn-ends", "reprise-rolls"])
def test_an_older_record_that_writes_every_option_still_replays_the_same(rules: dict[str, bool]) -> None:
    """Records written before only the options off their default were kept state every option,
    the default ones too: they read and replay as before, to the same scores."""
    game = play_game(VTF, 2, "greedy", 4, 0, rules=rules)
    data = json.loads(records.dumps(records.record_of(game, ["Ana", "Bo"])))
    data["rules"] = dict(rules)  # as an older record wrote it: every option
    again = records.replay(records.from_data(data))
    assert again.rules == rules
    assert again.scores() == game.scores()
    assert records.replay(records.from_data(data), rules=rules).rules == rules  # under its own rules
    # written again, only what differs from the default is kept
    assert json.loads(records.dumps(records.record_of(again))).get("rules") == (None if rules == DEFAULT else rules)


def test_a_record_without_rules_is_played_under_the_default_reading() -> None:
    data = json.loads(records.dumps(records.record_of(play_game(VTF, 1, "greedy", 4, 0), ["Ana"])))
    assert "rules" not in data  # the default reading: nothing written
    assert records.replay(records.from_data(data)).rules == DEFAULT
    # Très futé has no rules options: nothing is written
    assert "rules" not in json.loads(records.dumps(records.record_of(play_game("tres-fute", 1, "greedy", 4, 0))))


@pytest.mark.parametrize(
    ("wanted", "message"),
    [
        (
            DEFAULT,
            "the record was played under the rules reprise_with_no_die_left=false, not reprise_with_no_die_left=true",
        ),
        ({"reprise": True}, "Twice as Clever! has no rule 'reprise'"),
    ],
)
def test_a_record_refuses_to_replay_under_other_rules(wanted: dict[str, bool], message: str) -> None:
    with pytest.raises(records.RecordError, match=message.replace("!", ".")):
        records.replay(strict_record(), rules=wanted)
    assert records.replay(strict_record(), rules=STRICT).rules == STRICT  # its own: replayed


def test_the_readings_differ_so_a_record_read_under_the_other_breaks() -> None:
    """Under the default reading, some game's active player takes a die back with no die left;
    read under the strict one, the turn had ended there: the record's next move is illegal."""
    broken = 0
    for seed in range(12):
        data = json.loads(records.dumps(records.record_of(play_game(VTF, 1, "greedy", seed, 0), ["Ana"])))
        data["rules"] = STRICT
        try:
            records.replay(records.from_data(data))
        except records.RecordError:
            broken += 1
    assert broken > 0


@pytest.mark.parametrize(
    ("rules", "reason"),
    [
        ({"reprise_with_no_die_left": "no"}, "rules: the rule reprise_with_no_die_left is true or false, not 'no'"),
        ({"reprise_again": True}, "rules: Twice as Clever! has no rule 'reprise_again'"),
    ],
)
def test_a_record_with_rules_its_game_lacks_is_refused(rules: dict[str, object], reason: str) -> None:
    data = json.loads(records.dumps(strict_record()))
    data["rules"] = rules
    with pytest.raises(records.RecordError, match=reason.replace("!", ".")):
        records.from_data(data)
    data["game"] = "tres-fute"
    data["rules"] = STRICT
    with pytest.raises(records.RecordError, match="is a rule of Twice as Clever!, not of That's Pretty Clever"):
        records.from_data(data)


# --- the command line -----------------------------------------------------------------


def test_simulate_and_bench_play_under_the_rule_given() -> None:
    runner = CliRunner()
    base = ["--game", VTF, "--bot", "greedy", "--games", "2", "--json"]
    strict = json.loads(runner.invoke(main, ["simulate", *base, "--rule", "reprise_with_no_die_left=false"]).stdout)
    default = json.loads(runner.invoke(main, ["simulate", *base]).stdout)
    assert strict["rules"] == STRICT and default["rules"] == DEFAULT
    bench = runner.invoke(main, ["bench", *base, "--rule", "reprise_with_no_die_left=False"])
    assert bench.exit_code == 0, bench.output
    assert json.loads(bench.stdout)["rules"] == STRICT
    # the figures are those of games played under that rule
    expected = [play_game(VTF, 1, "greedy", 1000, n, rules=STRICT).scores()[0].total for n in range(2)]
    assert [g[0] for g in json.loads(bench.stdout)["scores"]] == expected
    shown = runner.invoke(main, ["bench", *base[:-1], "--rule", "reprise_with_no_die_left=false"])
    assert "Plus aucun dé à lancer\u00a0: le tour s’arrête, reprise ou non" in shown.output  # in French


def test_a_results_file_belongs_to_the_rules_of_its_run(tmp_path: Path) -> None:
    runner = CliRunner()
    results = tmp_path / "run.jsonl"
    base = ["bench", "--game", VTF, "--bot", "greedy", "--games", "1", "--results", str(results), "--lang", "en"]
    assert runner.invoke(main, [*base, "--rule", "reprise_with_no_die_left=false"]).exit_code == 0
    other = runner.invoke(main, base)  # the default reading: another run
    assert other.exit_code == 1
    assert "--rule reprise_with_no_die_left=false), not of this one" in other.output
    again = runner.invoke(main, [*base, "--rule", "reprise_with_no_die_left=false", "--json"])
    assert again.exit_code == 0, again.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", VTF, "--rule", "reprise_with_no_die_left"], "write a rule as NAME=true or NAME=false"),
        (["--game", VTF, "--rule", "reprise_with_no_die_left=maybe"], "write a rule as NAME=true or NAME=false"),
        (["--game", VTF, "--rule", "sweep=false"], "Twice as Clever! has no rule 'sweep'"),
        (["--game", "tres-fute", "--rule", "reprise_with_no_die_left=false"], "is a rule of Twice as Clever!"),
    ],
)
def test_a_rule_the_game_lacks_is_refused_on_the_command_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["simulate", "--games", "1", "--lang", "en", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_play_refuses_a_rule_it_does_not_know_and_a_record_of_other_rules(tmp_path: Path) -> None:
    refused = CliRunner().invoke(main, ["play", "--lang", "en", "--rule", "sweep=true"])
    assert refused.exit_code == 2 and "Twice as Clever! has no rule 'sweep'" in refused.output
    path = tmp_path / "game.json"
    path.write_text(records.dumps(records.record_of(Game(VTF, seed=3, rules=STRICT), ["Ana"], [None])))
    resumed = CliRunner().invoke(
        main, ["play", "--lang", "en", "--resume", str(path), "--rule", "reprise_with_no_die_left=true"]
    )
    assert resumed.exit_code == 1
    assert "Cannot resume: the record was played under the rules reprise_with_no_die_left=false" in resumed.output


def test_analyse_reads_the_rules_from_the_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(records.dumps(strict_record()))
    replayed = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert replayed.exit_code == 0, replayed.output
    analysed = CliRunner().invoke(main, ["analyse", str(path), "--move", "3", "--json"])
    assert analysed.exit_code == 0, analysed.output


# --- the web API ----------------------------------------------------------------------


def test_a_web_game_is_created_with_its_rules_and_keeps_them(tmp_path: Path) -> None:
    client = TestClient(create_app(database=tmp_path / "games.sqlite3"))
    body = {"game": VTF, "seats": [{"name": "Ana"}], "rules": STRICT, "language": "en"}
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["seats"][0]["token"]
    view = client.get(f"/api/games/{game_id}?lang=en", headers={"X-Seat-Token": token}).json()
    assert view["rules"] == STRICT
    assert view["rules_text"] == ["No die left to roll: the turn ends, reprise or not"]
    record = client.get(f"/api/games/{game_id}/record", headers={"X-Seat-Token": token})
    assert record.status_code == 200, record.text
    assert record.json()["rules"] == STRICT
    # read again from the store by a new server: the same rules
    again = TestClient(create_app(database=tmp_path / "games.sqlite3"))
    assert again.get(f"/api/games/{game_id}").json()["rules"] == STRICT
    default = client.post("/api/games", json={"game": VTF, "seats": [{"name": "Ana"}]}).json()
    assert client.get(f"/api/games/{default['id']}").json()["rules"] == DEFAULT


@pytest.mark.parametrize(
    ("game", "rules"),
    [("tres-fute", STRICT), (VTF, {"reprise": False}), (VTF, {"reprise_with_no_die_left": "false"})],
)
def test_the_web_api_refuses_rules_the_game_lacks(tmp_path: Path, game: str, rules: dict[str, object]) -> None:
    client = TestClient(create_app(database=tmp_path / "games.sqlite3"))
    response = client.post("/api/games", json={"game": game, "seats": [{"name": "Ana"}], "rules": rules})
    assert response.status_code == 422, response.text


# --- the environments -----------------------------------------------------------------


def test_the_environments_play_under_the_rules_given() -> None:
    from tresfute.envs.gym_env import TresFuteEnv
    from tresfute.envs.pz_env import env, parallel_env
    from tresfute.envs.vector import BatchedTresFuteEnv

    gym_env = TresFuteEnv(game=VTF, rules=STRICT)
    gym_env.reset(seed=1)
    assert gym_env.game.rules == STRICT
    assert TresFuteEnv(game=VTF).episode.game.rules == DEFAULT
    aec = env(VTF, 2, rules=STRICT)
    aec.reset(seed=1)
    assert aec.unwrapped.game.rules == STRICT
    parallel = parallel_env(VTF, 2, rules=STRICT)
    parallel.reset(seed=1)
    assert parallel.game.rules == STRICT
    vector = BatchedTresFuteEnv(2, game=VTF, rules=STRICT)
    vector.reset(seed=1)
    assert all(e.game.rules == STRICT for e in vector.episodes)
    with pytest.raises(RulesError, match="is a rule of Twice as Clever!"):
        TresFuteEnv(game="tres-fute", rules=STRICT)
    # a record of the other reading is refused
    with pytest.raises(records.RecordError, match="played under the rules reprise_with_no_die_left=false"):
        TresFuteEnv(game=VTF).reset(options={"record": records.dumps(strict_record())})


def test_openspiel_plays_under_the_rules_given() -> None:
    import pyspiel

    from tresfute.envs.openspiel import TresFuteGame

    assert TresFuteGame({"game": VTF}, rules=STRICT).new_initial_state().game.rules == STRICT
    loaded = pyspiel.load_game("python_tresfute", {"game": VTF, "reprise_with_no_die_left": False})
    assert loaded.new_initial_state().game.rules == STRICT
    assert TresFuteGame({"game": VTF}).new_initial_state().game.rules == DEFAULT
    assert TresFuteGame({"game": "tres-fute"}).new_initial_state().game.rules == {}
    assert pyspiel.load_game("python_tresfute", {"game": "tres-fute"}).new_initial_state().game.rules == {}
    with pytest.raises(RulesError):
        TresFuteGame({"game": "tres-fute"}, rules=STRICT)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("reprise_with_no_die_left=false", ("reprise_with_no_die_left", False)),
        (" reprise_with_no_die_left = TRUE ", ("reprise_with_no_die_left", True)),
        ("sweep=False", ("sweep", False)),
        ("reprise_with_no_die_left", None),
        ("reprise_with_no_die_left=maybe", None),
        ("=", None),
    ],
)
def test_the_command_line_and_the_scripts_read_a_rule_alike(text: str, read: tuple[str, bool] | None) -> None:
    """One reading of ``--rule NAME=true|false`` (``inputs.rule_setting``) for ``tresfute`` and
    for the scripts' argparse (``simulate.rule_argument``); each refuses the rest in its words."""
    import argparse

    from tresfute.cli import _read_rules
    from tresfute.inputs import rule_setting
    from tresfute.simulate import rule_argument

    assert rule_setting(text) == read
    if read is None:
        with pytest.raises(argparse.ArgumentTypeError, match="write NAME=true or NAME=false"):
            rule_argument(text)
        with pytest.raises(click.BadParameter):
            _read_rules(None, None, (text,))  # type: ignore[arg-type]
    else:
        assert rule_argument(text) == read
        assert _read_rules(None, None, (text,)) == dict([read])  # type: ignore[arg-type]


def test_simulate_and_bench_declare_their_shared_options_once() -> None:
    """The game, the players, the computer player, the games and the seed: the same options,
    each described, in both commands; only their defaults differ."""
    commands = {name: main.commands[name] for name in ("simulate", "bench")}
    shared = ("game_id", "players", "bot", "games", "seed", "rules", "as_json", "lang")
    for command in commands.values():
        options = {p.name: p for p in command.params}
        assert set(shared) <= set(options)
        assert all(isinstance(p, click.Option) and p.help for p in command.params), command.name
    simulate, bench = ({p.name: p for p in c.params} for c in commands.values())
    for name in shared:
        assert simulate[name].opts == bench[name].opts and type(simulate[name].type) is type(bench[name].type)
    assert (simulate["bot"].default, bench["bot"].default) == ("random", "greedy")
    assert (simulate["games"].default, bench["games"].default, simulate["seed"].default, bench["seed"].default) == (
        100,
        1000,
        1,
        1000,
    )
