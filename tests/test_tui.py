"""The terminal game, driven headlessly with Textual's pilot: what is on the screen."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
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


@pytest.mark.slow  # a whole game played through the screen: left out by pytest -m "not slow"
@pytest.mark.parametrize("game", ["tres-fute", "vraiment-tres-fute"])
def test_a_solo_game_is_played_to_the_end_through_the_screen(game: str) -> None:
    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot, game)
        assert isinstance(app.screen, GameScreen)
        text = _visible_text(app)
        assert "Tour 1/6" in text and ("JAUNE" in text) and "choisissez un dé du lancer" in text
        assert "Tours\u00a0: " in text  # a non-breaking space before the colon
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


@pytest.mark.slow  # a whole game played through the screen: left out by pytest -m "not slow"
def test_two_people_and_a_computer_player_share_the_keyboard() -> None:
    """Hot seat: the keyboard is handed over by name; the computer plays by itself."""
    handovers: list[str] = []

    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot, players=3, kinds=("person", "person", "random"))
        seen_bot_move = False
        while not isinstance(app.screen, EndScreen):
            if isinstance(app.screen, HandoverScreen):
                handovers.append(str(app.screen.query_one("#handover").render()))
            elif not seen_bot_move and ("(ordinateur)" in (shown := _visible_text(app)) or "Joueur 3 a joué" in shown):
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


@pytest.mark.slow  # a whole game played through the screen: left out by pytest -m "not slow"
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
            "Impossible de reprendre\u00a0: le coup 1 ('1:done') est illégal\u00a0: 'done' n’est pas possible" in text
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
    from tresfute.bots.appraisal import appraise
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
        cost = appraise(game, 0, (estimates[-1].move,)).cost(estimates[-1].move)  # as the review values it
        assert f"Le coup en surbrillance coûte {cost:.1f} points.".replace(".", ",", 1) in text  # a decimal comma
        assert json.dumps(game.view(), sort_keys=True) == before, "a hint plays nothing"

    run(scenario)


# --- small terminals: 80×24 -------------------------------------------------------------------


def _screen_lines(app: TresFuteApp) -> list[str]:
    """The characters on the terminal, line by line, the way Textual's screenshots take them."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, color_system=None)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return [line.rstrip() for line in console.export_text().split("\n")[:height]]


async def _drawn_lines(app: TresFuteApp, pilot, tries: int = 100) -> list[str]:
    """The terminal's lines once the footer has been drawn (a resumed game draws it a frame or more later)."""
    lines = _screen_lines(app)
    for _ in range(tries):
        if lines[-1].strip():
            break
        await pilot.pause(0.02)
        lines = _screen_lines(app)
    return lines


def _fits(app: TresFuteApp, selector: str) -> bool:
    """The widget lies inside the terminal, and its container needs no scrolling."""
    widget = app.screen.query_one(selector)
    inside = app.screen.region.contains_region(widget.region) and widget.region.height > 0
    parent = widget.parent
    return inside and getattr(parent, "max_scroll_x", 0) == 0 and getattr(parent, "max_scroll_y", 0) == 0


def _resumed_in_round(tmp_path: Path, game: str, seats: list[Seat], round_: int) -> TresFuteApp:
    """The app resuming a game played (at random, seeded) up to the start of ``round_``."""
    import random

    session = Session.new(game, seats, seed=7)
    rng = random.Random(7)
    while session.game.round < round_:
        if session.is_bot(session.decider):
            session.play_bot()
        else:
            session.play(rng.choice(session.game.legal_moves(session.decider)))
    path = tmp_path / "partie.json"
    session.save(path)
    return TresFuteApp(resume=path, bot_delay=0)


@pytest.mark.parametrize("game", ["tres-fute", "vraiment-tres-fute"])
@pytest.mark.parametrize(("players", "round_"), [(1, 1), (1, 4), (2, 1), (3, 3)])
def test_at_80_by_24_the_whole_sheet_the_dice_the_moves_and_every_key_are_on_the_screen(
    tmp_path: Path, game: str, players: int, round_: int
) -> None:
    """Solo and with computer players, at the start of the game and in its middle."""
    from tresfute.rules import SPECS
    from tresfute.text import area_name

    seats = [Seat("Joueur 1")] + [Seat(f"Joueur {i + 1}", "greedy") for i in range(1, players)]

    async def scenario(app: TresFuteApp, pilot) -> None:
        if round_ == 1:
            await start(app, pilot, game, players=players, kinds=tuple(s.bot or "person" for s in seats))
        while app.screen.session.is_bot(app.screen.session.decider):
            await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.has_class("compact")
        lines = await _drawn_lines(app, pilot)
        assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
        shown = "\n".join(lines)
        sheet = str(screen.query_one("#sheet").render()).split("\n")
        assert _fits(app, "#sheet") and len(sheet) >= 14
        for line in sheet:  # every line of the drawn sheet, whole, on the terminal
            assert line.rstrip() in lines or any(line.rstrip() in s for s in lines), line
        for a in SPECS[game].areas:
            assert area_name(a).upper() in shown
        assert "Renards" in shown and "Total" in shown and "Tours\u00a0:" in shown
        dice = str(screen.query_one("#dice").render())
        assert (
            _fits(app, "#dice") and dice.strip() in lines and ("Lancer\u00a0:" in dice or "Autres dés\u00a0:" in dice)
        )
        moves = screen.query_one("#moves")
        assert app.screen.region.contains_region(moves.region) and moves.region.height >= 2
        first = str(moves.get_option_at_index(0).prompt)
        assert first[:60] in shown
        footer = lines[-1]
        for key, label in [("u", "Annuler"), ("c", "Conseil"), ("s", "Sauvegarder"), ("v", "Autres feuilles")]:
            assert f"{key} {label}" in footer
        assert "h Aide" in footer and "q Quitter" in footer

    run_at(scenario, (80, 24), None if round_ == 1 else _resumed_in_round(tmp_path, game, seats, round_))


def run_at(scenario: Callable[[TresFuteApp, object], Awaitable[None]], size: tuple[int, int], app=None) -> None:
    app = app or TresFuteApp(bot_delay=0)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(app, pilot)

    asyncio.run(main())


def test_at_80_by_24_q_asks_then_quits() -> None:
    from tresfute.tui.app import QuitScreen

    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot, "vraiment-tres-fute")
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        lines = await _drawn_lines(app, pilot)
        assert any("Quitter sans sauvegarder" in line for line in lines) and "esc Annuler" in lines[-1]
        await pilot.press("escape")  # cancelled: back to the game
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("q")
        await pilot.pause()
        await pilot.click("#quit")
        await pilot.pause()
        assert app.return_code == 0

    run_at(scenario, (80, 24))


@pytest.mark.parametrize(("language", "said"), [("fr", "Partie sauvegardée dans "), ("en", "Game saved to ")])
def test_saving_says_the_game_was_saved_and_its_full_path(
    tmp_path: Path, monkeypatch, language: str, said: str
) -> None:
    set_language(language)
    monkeypatch.chdir(tmp_path)

    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot)
        await pilot.press("s")
        await pilot.pause()
        field = app.screen.query_one("#save-path")
        assert field.value.startswith(str(tmp_path) + "/tresfute-")  # the full path, offered
        field.value = "partie.json"  # a relative name: saved in the current folder
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        message = str(app.screen.query_one("#message").render())
        assert message == said + str(tmp_path / "partie.json")
        assert _fits(app, "#message")
        assert said.strip() in "\n".join(_screen_lines(app))

    run_at(scenario, (80, 24))
    assert json.loads((tmp_path / "partie.json").read_text())["game"] == "tres-fute"


def test_a_failed_save_says_why_and_keeps_the_dialog_open(tmp_path: Path) -> None:
    from tresfute.tui.app import SaveScreen

    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot)
        before = json.dumps(app.screen.session.game.view(), sort_keys=True)
        await pilot.press("s")
        await pilot.pause()
        field = app.screen.query_one("#save-path")
        missing = tmp_path / "nulle-part"
        for value, reason in [
            (str(missing / "partie.json"), f"le dossier {missing} n’existe pas"),
            (str(tmp_path), f"{tmp_path} est un dossier"),
            ("  ", "donnez un nom de fichier"),
        ]:
            field.value = value
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, SaveScreen)
            assert str(app.screen.query_one("#save-error").render()) == f"Impossible de sauvegarder\u00a0: {reason}"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert json.dumps(app.screen.session.game.view(), sort_keys=True) == before
        assert "sauvegardée" not in str(app.screen.query_one("#message").render())

    run_at(scenario, (80, 24))
    assert not (tmp_path / "nulle-part").exists()


def test_save_and_quit_saves_then_quits(tmp_path: Path) -> None:
    path = tmp_path / "partie.json"

    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot, "vraiment-tres-fute")
        await pilot.press("q")
        await pilot.pause()
        await pilot.click("#save-quit")
        await pilot.pause()
        app.screen.query_one("#save-path").value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        assert app.return_code == 0

    run_at(scenario, (80, 24))
    assert json.loads(path.read_text())["game"] == "vraiment-tres-fute"


def test_larger_terminals_keep_the_full_sheet_and_the_moves_beside_it() -> None:
    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot, "vraiment-tres-fute")
        screen = app.screen
        assert not screen.has_class("compact")
        assert "c1   c2" in str(screen.query_one("#sheet").render())  # the full drawing
        assert screen.query_one("#moves").region.x >= screen.query_one("#sheet").region.right
        await pilot.resize_terminal(120, 40)  # the full sheet no longer fits: the compact one, moves beside
        await pilot.pause()
        assert screen.has_class("compact") and not screen.has_class("stacked")
        assert _fits(app, "#sheet")
        assert screen.query_one("#moves").region.x >= screen.query_one("#sheet").region.right

    run_at(scenario, (160, 50))


def test_at_80_by_24_the_mouse_plays_a_listed_move() -> None:
    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot, "vraiment-tres-fute")
        history = len(app.screen.session.game.history)
        await pilot.click("#moves", offset=(4, 0))
        await pilot.pause()
        assert len(app.screen.session.game.history) == history + 1
        assert "Joué\u00a0: " in str(app.screen.query_one("#message").render())

    run_at(scenario, (80, 24))


def test_the_end_screen_says_where_the_record_was_saved(tmp_path: Path) -> None:
    session = Session.new("vraiment-tres-fute", [Seat("Ana")], seed=3)
    while not session.game.is_over:
        session.play(session.game.legal_moves(0)[0])
    finished = tmp_path / "finie.json"
    session.save(finished)
    # a full path of 70 characters (the message takes two lines), wherever the tests run: pytest's
    # own folders are longer on some runs than on others (those of parallel workers)
    short = Path(tempfile.mkdtemp())
    folder = short / ("parties-" + "x" * max(1, 70 - len(f"{short}//parties-record.json")))
    folder.mkdir()
    record = folder / "record.json"

    async def scenario(app: TresFuteApp, pilot) -> None:
        assert isinstance(app.screen, EndScreen)
        await pilot.press("s")
        await pilot.pause()
        app.screen.query_one("#save-path").value = str(record)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        assert str(app.screen.query_one("#saved").render()) == f"Partie sauvegardée dans {record}"
        assert _fits(app, "#saved") and "q Quitter" in (await _drawn_lines(app, pilot))[-1]

    try:
        run_at(scenario, (80, 24), TresFuteApp(resume=finished, bot_delay=0))
        assert json.loads(record.read_text()) == json.loads(finished.read_text())
    finally:
        shutil.rmtree(short)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_help_explains_each_step_of_a_first_game(lang: str) -> None:
    """The help (`h`) says in words what the browser's guided game explains: the roll, choosing
    a die, the platter, a bonus chain, the passive pick (and the solo one), reroll, +1, the fox."""
    from tresfute.i18n import _
    from tresfute.learn import STEPS

    set_language(lang)

    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot, "vraiment-tres-fute")
        await pilot.press("h")
        await pilot.pause()
        text = " ".join(_visible_text(app).split())
        assert _("Your first game, step by step") in text
        for _key, title, explanation in STEPS:
            assert _(title) in text and " ".join(_(explanation).split()) in text
        assert ("Touches" if lang == "fr" else "Keys") in text  # the keys still follow

    run(scenario)


def test_a_computer_seat_plays_to_win_and_vraiment_tres_fute_starts_under_the_rule_chosen() -> None:
    """A computer seat at a table is ``strong-win`` unless chosen otherwise; the setup's option
    (and ``tresfute play --rule``) gives the reading of the reprise with no die left to roll,
    which the status line then says."""

    async def scenario(app: TresFuteApp, pilot) -> None:
        app.screen.query_one("#players").value = 2
        await pilot.pause()
        assert app.screen.query_one("#kind1").value == "strong-win"
        box = app.screen.query_one("#rule-vraiment-tres-fute-reprise_with_no_die_left")
        assert box.value is False  # from the command line
        await start(app, pilot, game="vraiment-tres-fute", players=2, kinds=("person", "random"))
        game = app.screen.session.game
        assert game.rules == {"reprise_with_no_die_left": False}
        assert "le tour s’arrête, reprise ou non" in str(app.screen.query_one("#status").render())

    run(scenario, TresFuteApp(bot_delay=0, rules={"reprise_with_no_die_left": False}))


def test_with_no_delay_the_computers_turn_stays_readable_in_the_game_log() -> None:
    """``--bot-delay 0``: the computer plays at once, and its rolls and moves are in the log."""

    async def scenario(app: TresFuteApp, pilot) -> None:
        await start(app, pilot, "tres-fute", players=2, kinds=("random", "person"))
        for _ in range(3):  # the computer's active turn came first; Ana picks from its platter
            await pilot.press("enter")
            await pilot.pause()
        said = app.screen.moves_said
        assert any(line.startswith("Joueur 1 lance\u00a0: ") for line in said), said
        assert any(line.startswith("Joueur 1 a joué\u00a0: ") for line in said), said
        shown = str(app.screen.query_one("#log").render())
        assert shown and shown.splitlines()[-1] == said[-1]

    run(scenario)
