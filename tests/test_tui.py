"""The terminal game, driven headlessly with Textual's pilot: what is on the screen."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from tresfute.i18n import set_language
from tresfute.rules import Phase
from tresfute.tui.app import EndScreen, GameScreen, HandoverScreen, SetupScreen, TresFuteApp
from tresfute.tui.session import Seat, Session

SIZE = (140, 50)


@pytest.fixture(autouse=True)
def french() -> None:
    set_language("fr")
    yield
    set_language("fr")


def run(scenario: Callable[[TresFuteApp, object], Awaitable[None]], app: TresFuteApp | None = None) -> None:
    app = app or TresFuteApp(bot_delay=0)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(main())


def _visible_text(app: TresFuteApp) -> str:
    """What the screen shows: its labels, texts and the listed moves."""
    from textual.widgets import Label, OptionList, Static

    parts = []
    for widget in app.screen.query("*"):
        if isinstance(widget, OptionList):
            parts.extend(str(widget.get_option_at_index(i).prompt) for i in range(widget.option_count))
        elif isinstance(widget, Label | Static):
            parts.append(str(widget.render()))
    return "\n".join(parts)


async def start(
    app: TresFuteApp, pilot, game: str = "tres-fute", players: int = 1, kinds: tuple[str, ...] = ()
) -> None:
    assert isinstance(app.screen, SetupScreen)
    if game != "tres-fute":
        await pilot.click(f"#{game}")
    if players != 1:
        app.screen.query_one("#players").value = players
        await pilot.pause()
    for i, kind in enumerate(kinds):
        app.screen.query_one(f"#kind{i}").value = kind
    app.screen.query_one("#seed").value = "7"
    await pilot.click("#start")
    await pilot.pause()


async def play_to_the_end(app: TresFuteApp, pilot, limit: int = 400) -> int:
    presses = 0
    while not isinstance(app.screen, EndScreen):
        await pilot.press("enter")  # hand over the keyboard, or play the first listed move
        await pilot.pause()
        presses += 1
        assert presses < limit
    return presses


@pytest.mark.parametrize("game", ["tres-fute", "vraiment-tres-fute"])
def test_a_solo_game_is_played_to_the_end_through_the_screen(game: str) -> None:
    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot, game)
        assert isinstance(app.screen, GameScreen)
        text = _visible_text(app)
        assert "Tour 1/6" in text and ("JAUNE" in text) and "choisissez un dé du lancer" in text
        assert "Tours: " in text or "Tours\u00a0: " in text
        history = len(app.screen.session.game.history)
        await pilot.click("#moves", offset=(4, 1))  # the mouse plays the first listed move too
        await pilot.pause()
        assert len(app.screen.session.game.history) > history
        await play_to_the_end(app, pilot)
        session = app.screen.session
        total = session.game.score(0).total
        end = _visible_text(app)
        assert "Fin de la partie" in end and f"{total}" in end
        assert f"Note en solo\u00a0: {session.game.solo_rating()[0]}" in end

    run(scenario)


def test_two_people_and_a_computer_player_share_the_keyboard() -> None:
    """Hot seat: the keyboard is handed over by name; the computer plays by itself."""
    handovers: list[str] = []

    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot, players=3, kinds=("person", "person", "random"))
        seen_bot_move = False
        while not isinstance(app.screen, EndScreen):
            if isinstance(app.screen, HandoverScreen):
                handovers.append(str(app.screen.query_one("#handover").render()))
            elif "(ordinateur)" in _visible_text(app) or "Joueur 3 a joué" in _visible_text(app):
                seen_bot_move = True
            await pilot.press("enter")
            await pilot.pause()
        game = app.screen.session.game
        assert game.is_over and game.n_players == 3
        assert seen_bot_move
        assert "Vainqueur" in _visible_text(app)

    run(scenario)
    assert "Passez le clavier à Joueur 2" in handovers and "Passez le clavier à Joueur 1" in handovers
    assert not any("Joueur 3" in h for h in handovers)


def test_undo_restores_the_last_decision_until_new_dice_are_rolled() -> None:
    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        while True:  # play until a decision that rolls no new dice (a bonus, a +1, a passive pick...)
            before = json.dumps(screen.session.game.view(), sort_keys=True)
            await pilot.press("enter")
            await pilot.pause()
            if screen.session.can_undo():
                break
        assert json.dumps(screen.session.game.view(), sort_keys=True) != before
        await pilot.press("u")
        await pilot.pause()
        assert json.dumps(screen.session.game.view(), sort_keys=True) == before
        assert "Annulé." in _visible_text(app)
        await pilot.press("u")  # nothing more to undo: the dice were rolled before
        await pilot.pause()
        assert json.dumps(screen.session.game.view(), sort_keys=True) == before
        assert "Rien à annuler" in _visible_text(app)

    run(scenario)


def test_save_then_resume(tmp_path: Path) -> None:
    path = tmp_path / "partie.json"
    views: list[str] = []

    async def save(app: TresFuteApp, pilot) -> None:
        await start(app, pilot, "vraiment-tres-fute", players=2, kinds=("person", "random"))
        for _ in range(6):
            await pilot.press("enter")
            await pilot.pause()
        views.append(json.dumps(app.screen.session.game.view(), sort_keys=True))
        await pilot.press("s")
        await pilot.pause()
        field = app.screen.query_one("#save-path")
        field.value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)

    async def resume(app: TresFuteApp, pilot) -> None:
        assert isinstance(app.screen, GameScreen)
        assert json.dumps(app.screen.session.game.view(), sort_keys=True) == views[0]
        assert app.screen.session.seats[1] == Seat("Joueur 2", "random")
        await play_to_the_end(app, pilot)

    run(save)
    assert json.loads(path.read_text())["bots"] == [None, "random"]
    run(resume, TresFuteApp(resume=path, bot_delay=0))


def test_resuming_a_record_with_an_illegal_move_says_why_in_french(tmp_path: Path) -> None:
    path = tmp_path / "partie.json"
    path.write_text('{"game": "tres-fute", "players": ["Ana"], "seed": 1, "moves": ["1:done"]}')

    async def scenario(app: TresFuteApp, pilot) -> None:
        assert isinstance(app.screen, SetupScreen)
        text = _visible_text(app)
        assert (
            "Impossible de reprendre\u00a0: le coup 1 ('1:done') est illégal\u00a0: 'done' n'est pas possible" in text
        )

    run(scenario, TresFuteApp(resume=path, bot_delay=0))


def test_a_key_that_means_nothing_changes_nothing() -> None:
    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot)
        before = json.dumps(app.screen.session.game.view(), sort_keys=True)
        for key in ("x", "z", "9", "ctrl+w", "escape", "pageup"):
            await pilot.press(key)
            await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert json.dumps(app.screen.session.game.view(), sort_keys=True) == before

    run(scenario)


def test_the_screens_in_english() -> None:
    set_language("en")

    async def scenario(app: TresFuteApp, pilot) -> None:
        assert "New game" in _visible_text(app) and "That's Pretty Clever" in _visible_text(app)
        await start(app, pilot, "vraiment-tres-fute")
        text = _visible_text(app)
        assert "Round 1/6" in text and "SILVER" in text and "choose a die of the roll" in text
        assert "Twice as Clever" in text and "Vraiment" not in text
        await pilot.press("h")
        await pilot.pause()
        assert "Twice as Clever" in _visible_text(app)

    run(scenario)


def test_the_screens_in_french_and_the_help() -> None:
    async def scenario(app: TresFuteApp, pilot) -> None:
        assert "Nouvelle partie" in _visible_text(app)
        await start(app, pilot)
        await pilot.press("h")
        await pilot.pause()
        assert "Très futé — aide" in _visible_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)

    run(scenario)


def test_a_bonus_choice_shows_its_reason(tmp_path: Path) -> None:
    """Bonus choices in a chain are asked one by one, with where they came from."""
    session = Session.new("tres-fute", [Seat("Ana")], seed=1)
    game = session.game
    while not game.pending[0] or len(game.legal_moves()) < 2:
        moves = game.legal_moves()
        session.play(moves[0])
        assert not game.is_over
    path = tmp_path / "bonus.json"
    session.save(path)

    async def scenario(app: TresFuteApp, pilot) -> None:
        text = _visible_text(app)
        assert "placez le bonus" in text and "obtenu par" in text
        assert app.screen.session.game.phase is not Phase.OVER

    run(scenario, TresFuteApp(resume=path, bot_delay=0))


def test_the_hint_names_the_strong_players_move_and_the_cost_of_the_highlighted_one() -> None:
    from tresfute.bots import analyse
    from tresfute.text import describe_move

    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        game = screen.session.game
        before = json.dumps(game.view(), sort_keys=True)
        estimates = analyse(game, 0)
        moves_list = screen.query_one("#moves")
        worst = [str(m) for m in game.legal_moves(0)].index(str(estimates[-1].move))
        moves_list.highlighted = worst
        await pilot.press("c")
        await pilot.pause()
        text = _visible_text(app)
        assert "Conseil\u00a0: " + describe_move(game, estimates[0].move) in text
        cost = estimates[0].value - estimates[-1].value
        assert f"Le coup en surbrillance coûte {cost:.1f} points." in text
        assert json.dumps(game.view(), sort_keys=True) == before, "a hint plays nothing"

    run(scenario)
