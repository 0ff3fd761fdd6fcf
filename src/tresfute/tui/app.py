"""``tresfute play``: the game in the terminal (Textual).

Screens: the start screen (game, seats, seed, resume), the game (dice, the sheet drawn as on
paper, the legal moves), hand-over between people at one keyboard, help, save, quit and the
end of the game. Every rule comes from the engine: the screen only lists its legal moves.
"""

from __future__ import annotations

import errno
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.markup import escape
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Checkbox,
    Footer,
    Input,
    Label,
    Markdown,
    OptionList,
    RadioButton,
    RadioSet,
    Select,
    Static,
)
from textual.widgets.option_list import Option

from .. import records
from ..bot_names import TABLE_PLAYER, menu_players
from ..bots import BotError
from ..bots.appraisal import appraise
from ..i18n import N_, _, decimal_comma, localized_text
from ..learn import steps_text
from ..rules import SPECS, Game, Move, MoveKind, Phase, game_rules, parse_move
from ..text import (
    area_name,
    bot_choice,
    describe_move,
    die_name,
    explain,
    game_name,
    rating_label,
    rule_option_label,
    rules_lines,
    situation,
)
from .render import labelled, render_dice, render_sheet, targets_of
from .session import Seat, Session


def bind_keys(screen: Screen, keys: list[tuple[str, str, str]]) -> None:
    """Add key bindings whose labels are translated now, in the language chosen at start.

    (Class-level ``BINDINGS`` would be translated once, when this module is imported.)
    """
    for key, action, label in keys:
        screen._bindings.bind(key, action, _(label))


def decimal(x: float) -> str:
    """One decimal, with a decimal comma in French and German."""
    text = f"{x:.1f}"
    return text.replace(".", ",") if decimal_comma() else text


def seat_kinds(extra: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Who may sit: a person, a computer player (``bot_names``, the strongest first), or one given
    by ``tresfute play --bot``."""
    bots = [player.name for player in menu_players()]
    return [(_("Person"), "person")] + [
        (bot_choice(name), name) for name in [*bots, *(b for b in extra if b not in bots)]
    ]


def rule_box_id(game_id: str, option: str) -> str:
    """The setup's box of a game's rules option."""
    return f"rule-{game_id}-{option}"


class SetupScreen(Screen[None]):
    """Game, seats (a person's name or a computer player), seed; or resume a saved game."""

    def __init__(self, error: str = "") -> None:
        super().__init__()
        self.error = error  # why a game given on the command line could not be resumed

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="setup"):
            yield Label(_("New game"), id="setup-title")
            yield Label(_("Game"))
            with RadioSet(id="game"):
                for number, spec in enumerate(SPECS.values()):
                    yield RadioButton(game_name(spec), value=number == 0, id=spec.id)
            yield Label(_("Players"))
            yield Select(
                [(_("1 (solo game)"), 1), ("2", 2), ("3", 3), ("4", 4)], value=1, allow_blank=False, id="players"
            )
            for i in range(4):
                with Horizontal(classes="seat", id=f"seat{i}"):
                    yield Input(value=_("Player {n}").format(n=i + 1), id=f"name{i}")
                    kinds = seat_kinds(self.app.extra_bots)  # type: ignore[attr-defined]
                    # a computer seat at a table plays to win (strong, the score-maximiser, by name)
                    yield Select(kinds, value="person" if i == 0 else TABLE_PLAYER, allow_blank=False, id=f"kind{i}")
            rules: dict[str, bool] = self.app.rules  # type: ignore[attr-defined]
            for spec in SPECS.values():  # each game's rules options, in their words (shown for the chosen game)
                for option in spec.rule_options:
                    box = Checkbox(
                        rule_option_label(option),
                        value=rules.get(option.name, option.default),
                        id=rule_box_id(spec.id, option.name),
                        classes=f"rule-option rules-{spec.id}",
                    )
                    box.styles.width = "1fr"  # a long label is cut at the screen's edge, not scrolled sideways
                    yield box
            yield Label(_("Seed (empty: random)"))
            yield Input(placeholder="", id="seed")
            with Horizontal(classes="buttons"):
                yield Button(_("Start"), variant="primary", id="start")
                yield Button(_("Help"), id="help")
                yield Button(_("Quit"), id="quit")
            yield Label(_("Resume a saved game"))
            with Horizontal(classes="buttons"):
                yield Input(placeholder=_("file.json"), id="resume-path")
                yield Button(_("Resume"), id="resume")
            yield Static(self.error, id="setup-error")

    def on_mount(self) -> None:
        self._show_seats(1)
        self._show_rules()
        self._fit()
        self.query_one("#start", Button).focus()  # Enter starts a solo game at once

    def on_resize(self, _event: Resize) -> None:
        self._fit()

    def _fit(self) -> None:
        """Below 40 lines, fields without borders: four seats, Start and Quit fit in 80×24."""
        small = self.app.size.height < 40
        self.set_class(small, "compact")
        for widget in self.query("Input, Select, Button, RadioSet, Checkbox"):
            widget.compact = small  # type: ignore[attr-defined]

    @on(Select.Changed, "#players")
    def _players_changed(self, event: Select.Changed) -> None:
        self._show_seats(int(event.value))  # type: ignore[arg-type, call-overload]

    def _show_seats(self, n: int) -> None:
        for i in range(4):
            self.query_one(f"#seat{i}").display = i < n

    def _game_id(self) -> str:
        """The game chosen."""
        pressed = self.query_one("#game", RadioSet).pressed_button
        return pressed.id if pressed is not None and pressed.id else next(iter(SPECS))

    @on(RadioSet.Changed, "#game")
    def _show_rules(self) -> None:
        """Only the chosen game's rules options are shown."""
        chosen = self._game_id()
        for box in self.query(".rule-option"):
            box.display = box.has_class(f"rules-{chosen}")

    @on(Button.Pressed, "#start")
    @on(Input.Submitted, "#seed, .seat Input")
    def start(self) -> None:
        game_id = self._game_id()
        n = int(self.query_one("#players", Select).value)  # type: ignore[arg-type]
        seats = []
        for i in range(n):
            name = self.query_one(f"#name{i}", Input).value.strip() or _("Player {n}").format(n=i + 1)
            kind = self.query_one(f"#kind{i}", Select).value
            seats.append(Seat(name, None if kind == "person" else str(kind)))
        seed_text = self.query_one("#seed", Input).value.strip()
        if seed_text and not seed_text.isdigit():
            self.query_one("#setup-error", Static).update(_("The seed is a whole number."))
            return
        try:
            rules = {
                option.name: self.query_one(f"#{rule_box_id(game_id, option.name)}", Checkbox).value
                for option in SPECS[game_id].rule_options
            }
            session = Session.new(game_id, seats, int(seed_text) if seed_text else None, rules)
        except BotError as exc:
            self.query_one("#setup-error", Static).update(escape(str(exc)))
            return
        self.app.switch_screen(GameScreen(session))  # type: ignore[arg-type]

    @on(Button.Pressed, "#resume")
    @on(Input.Submitted, "#resume-path")
    def resume(self) -> None:
        path = Path(self.query_one("#resume-path", Input).value.strip())
        try:
            session = Session.load(path, self.app.extra_bots)  # type: ignore[attr-defined]
        except (records.RecordError, BotError) as exc:
            reason = escape(explain(exc))  # it may quote a record's text: never read as markup
            self.query_one("#setup-error", Static).update(_("Cannot resume: {reason}").format(reason=reason))
            return
        self.app.switch_screen(GameScreen(session))  # type: ignore[arg-type]

    @on(Button.Pressed, "#help")
    def help(self) -> None:
        self.app.push_screen(HelpScreen(self._game_id()))

    @on(Button.Pressed, "#quit")
    def quit(self) -> None:
        self.app.exit()


SIDE = 52  # the side panel (prompt, legal moves, messages) beside the full sheet
NARROW_SIDE = 40  # beside the compact sheet: below this, the panel goes under the sheet


def text_size(text: Text) -> tuple[int, int]:
    lines = text.plain.split("\n")
    return max(cell_len(line) for line in lines), len(lines)


class GameScreen(Screen[None]):
    """The game: status line, dice, the sheet, the legal moves, the keys in the footer.

    The sheet is drawn in full where it fits beside the side panel; otherwise compact (the
    whole sheet in 80×24), with the side panel beside it or, on a narrow screen, under it.
    """

    def __init__(self, session: Session) -> None:
        super().__init__()
        bind_keys(
            self,
            [
                ("u", "undo", N_("Undo")),
                ("c", "hint", N_("Hint")),
                ("s", "save", N_("Save")),
                ("v", "next_sheet", N_("Other sheets")),
                ("h", "help", N_("Help")),
                ("q", "quit", N_("Quit")),
            ],
        )
        self.session = session
        self.viewed: int | None = None  # a sheet picked with "v"; None: the one deciding
        self.focus_target: tuple[str, tuple[int, int] | None] | None = None
        self.shown_person: int | None = None  # the person the keyboard was last handed to
        self.waiting_handover = False
        self.moves_said: list[str] = []  # the game log: every move and roll, the computer's too
        self.log_rows = 5

    def compose(self) -> ComposeResult:
        yield Static("", id="status")
        yield Static("", id="dice")
        with Horizontal(id="table"):
            with VerticalScroll(id="sheet-pane"):
                yield Static("", id="sheet")
            with Vertical(id="side"):
                yield Static("", id="prompt")
                yield OptionList(id="moves")
                yield Static("", id="message")
                yield Static("", id="log")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.refresh_view()

    def on_resize(self, _event: Resize) -> None:
        decider = self.session.decider
        if self.is_mounted:
            mine = decider is not None and not self.session.is_bot(decider) and not self.waiting_handover
            self._draw(decider, self.game.legal_moves(decider) if mine else [])

    @property
    def game(self) -> Game:
        return self.session.game

    def refresh_view(self) -> None:
        session, game = self.session, self.game
        decider = session.decider
        moves_list = self.query_one("#moves", OptionList)
        if decider is None:
            self._draw(None, [])
            moves_list.clear_options()
            self.app.push_screen(EndScreen(session))
            return
        if session.is_bot(decider):
            moves_list.clear_options()
            self._draw(decider, [])
            self.query_one("#prompt", Static).update(
                _("{name} (computer) is playing…").format(name=escape(session.seats[decider].shown))
            )
            delay = self.app.bot_delay  # type: ignore[attr-defined]
            if delay > 0:
                self.set_timer(delay, self.bot_step)
            else:  # (a zero-second timer is not allowed)
                self.call_later(self.bot_step)
            return
        people = session.people()
        if len(people) > 1 and decider != self.shown_person:
            self.shown_person = decider
            self.waiting_handover = True
            moves_list.clear_options()
            self._draw(None, [])
            self.app.push_screen(HandoverScreen(session.seats[decider].shown), self._handed_over)
            return
        self.shown_person = decider
        moves = game.legal_moves(decider)
        moves_list.clear_options()
        moves_list.add_options([Option(describe_move(game, m), id=str(m)) for m in moves])
        moves_list.highlighted = 0
        moves_list.focus()
        self.focus_target = (moves[0].area, moves[0].cell) if moves and moves[0].area else None
        self._draw(decider, moves)
        self.query_one("#prompt", Static).update(self._prompt(decider))

    def _handed_over(self, _result: object) -> None:
        self.waiting_handover = False
        self.refresh_view()

    def bot_step(self) -> None:
        decider = self.session.decider
        if self.session.is_bot(decider):
            assert decider is not None
            move = self.session.bots[decider].choose(self.game, decider)
            played = describe_move(self.game, move)
            rolls = self.game.dice_rolled
            self.session.play_bot(move)
            said = _("{name} played: {move}").format(name=escape(self.session.seats[decider].shown), move=played)
            self.query_one("#message", Static).update(said)
            self._say(said, rolls)
        self.refresh_view()

    def _say(self, line: str, rolls: int) -> None:
        """A move in the game log, then the roll it was followed by (``rolls``: the dice rolled
        before it): a computer player's whole turn stays readable however fast it plays."""
        self.moves_said.append(line)
        game = self.game
        if game.dice_rolled != rolls and not game.is_over:
            where = "platter" if game.phase is Phase.PASSIVE and game.n_players == 1 else "hand"
            dice = ", ".join(
                f"{die_name(d['die'])} {d['value']}" for d in game.view()["dice"] if d["where"] == where and d["value"]
            )
            roller = escape(self.session.seats[game.active].shown)
            self.moves_said.append(_("{name} rolls: {dice}").format(name=roller, dice=dice))
        del self.moves_said[:-50]
        self._show_log()

    def _show_log(self) -> None:
        self.query_one("#log", Static).update("\n".join(self.moves_said[-self.log_rows :]))

    def _draw(self, decider: int | None, moves: list[Move]) -> None:
        game = self.game
        player = self.viewed if self.viewed is not None else (decider if decider is not None else game.active)
        seat = self.session.seats[player]
        shown = moves if player == decider else []
        focus = self.focus_target if player == decider else None
        sheet = render_sheet(game, player, targets_of(shown), focus)
        width, height = self.app.size
        sheet_width, sheet_height = text_size(sheet)
        compact = width < sheet_width + SIDE + 3 or height < sheet_height + 3  # status, dice, footer
        stacked = False
        if compact:
            sheet = render_sheet(game, player, targets_of(shown), focus, compact=True)
            sheet_width = text_size(sheet)[0]
            stacked = width < sheet_width + 3 + NARROW_SIDE
        self.set_class(compact, "compact")
        self.set_class(stacked, "stacked")
        rows = 1 if stacked else 2 if compact else 5
        if rows != self.log_rows:
            self.log_rows = rows
            self._show_log()
        self.query_one("#sheet-pane").styles.width = "100%" if stacked else sheet_width + 1 if compact else "1fr"
        gap = " · " if compact else "  ·  "
        status = Text()
        status.append(_("Round {round}/{rounds}").format(round=game.round, rounds=game.rounds))
        active = self.session.seats[game.active].shown
        if game.n_players == 1:
            turn = _("passive turn") if game.solo_passive else _("active turn")
            status.append(gap + turn)
        else:
            status.append(gap + _("active player: {name}").format(name=active))
        status.append(gap + _("sheet of {name}").format(name=seat.shown), style="bold")
        if game.rules != game_rules(game.spec):  # a reading other than the default is said
            status.append(gap + " · ".join(rules_lines(game.rules)))
        title = Text(f" {game_name(game.spec)} ", style="bold reverse")
        if not compact or title.cell_len + 2 + status.cell_len <= width:  # long names: the game's goes
            status = Text.assemble(title, "  ", status)
        self.query_one("#status", Static).update(status)
        self.query_one("#dice", Static).update(render_dice(game, compact=compact))
        self.query_one("#sheet", Static).update(sheet)

    def _prompt(self, player: int) -> Text:
        text = Text(labelled(self.session.seats[player].shown) + " ", style="bold")
        text.append(situation(self.game, player))
        return text

    @on(OptionList.OptionHighlighted, "#moves")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        move = parse_move(event.option.id or "")
        self.focus_target = (move.area, move.cell) if move.area and move.kind is not MoveKind.REPRISE else None
        decider = self.session.decider
        if decider is not None and not self.session.is_bot(decider):
            self._draw(decider, self.game.legal_moves(decider))

    @on(OptionList.OptionSelected, "#moves")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        decider = self.session.decider
        if decider is None or self.session.is_bot(decider) or self.waiting_handover:
            return
        move = parse_move(event.option.id or "")
        played = describe_move(self.game, move)
        rolls = self.game.dice_rolled
        self.session.play(move)  # listed moves are legal
        self.query_one("#message", Static).update(_("Played: {move}").format(move=played))
        self._say(_("{name}: {move}").format(name=escape(self.session.seats[decider].shown), move=played), rolls)
        self.viewed = None
        self.refresh_view()

    def action_undo(self) -> None:
        if self.session.can_undo():
            self.session.undo()
            self.query_one("#message", Static).update(_("Undone."))
            self.refresh_view()
        else:
            self.query_one("#message", Static).update(
                _("Nothing to undo: new dice have been rolled, or someone else has played since.")
            )

    def action_hint(self) -> None:
        """The strong player's move, and what the highlighted move costs against it."""
        decider = self.session.decider
        if decider is None or self.session.is_bot(decider) or self.waiting_handover:
            return
        moves_list = self.query_one("#moves", OptionList)
        index = moves_list.highlighted
        chosen = None if index is None else parse_move(moves_list.get_option_at_index(index).id or "")
        appraisal = appraise(self.game, decider, () if chosen is None else (chosen,))  # as the review values them
        text = _("Hint: {move} (expected final score {value:.0f}).").format(
            move=describe_move(self.game, appraisal.choice), value=appraisal.best.expected
        )
        if chosen is not None and chosen != appraisal.choice:
            text += "\n" + _("The highlighted move costs {cost} points.").format(
                cost=decimal(max(0.0, appraisal.cost(chosen)))
            )
        self.query_one("#message", Static).update(text)

    def action_next_sheet(self) -> None:
        n = self.game.n_players
        current = self.viewed if self.viewed is not None else (self.session.decider or 0)
        self.viewed = (current + 1) % n
        decider = self.session.decider
        self._draw(decider, self.game.legal_moves(decider) if decider is not None else [])

    def action_save(self) -> None:
        save_then(self, self.session, lambda path: self.query_one("#message", Static).update(saved_message(path)))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.game.spec.id))

    def action_quit(self) -> None:
        self.app.push_screen(QuitScreen(self.session))


class HandoverScreen(ModalScreen[None]):
    def __init__(self, name: str) -> None:
        super().__init__()
        bind_keys(self, [("enter", "ok", N_("OK"))])
        self.person = escape(name)  # shown in markup

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(_("Pass the keyboard to {name}").format(name=self.person), id="handover")
            yield Button(_("I am {name}: continue").format(name=self.person), variant="primary", id="ok")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#ok", Button).focus()

    @on(Button.Pressed, "#ok")
    def action_ok(self) -> None:
        self.dismiss(None)


class SessionDialog(ModalScreen[Path | None]):
    """A dialog about the session, closed by Escape."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        bind_keys(self, [("escape", "cancel", N_("Cancel"))])
        self.session = session

    def action_cancel(self) -> None:
        self.dismiss(None)


def saved_message(path: Path) -> str:
    return _("Game saved to {path}").format(path=path)


def save_then(screen: Screen, session: Session, then: Callable[[Path], object]) -> None:
    """Ask where to save ``session`` (:class:`SaveScreen`), then ``then(path)`` once it is saved;
    a cancelled save does nothing more."""

    def saved(path: Path | None) -> None:
        if path is not None:
            then(path)

    screen.app.push_screen(SaveScreen(session), saved)


def why_not_saved(exc: OSError, path: Path) -> str:
    """Why a file could not be written, in the player's language."""
    if exc.errno == errno.ENOENT:
        return _("the folder {folder} does not exist").format(folder=path.parent)
    if exc.errno in (errno.EACCES, errno.EPERM):
        return _("no permission to write {path}").format(path=path)
    if exc.errno == errno.EISDIR:
        return _("{path} is a folder").format(path=path)
    if exc.errno == errno.ENOTDIR:
        return _("a part of {path} is not a folder").format(path=path)
    if exc.errno == errno.ENOSPC:
        return _("the disk is full")
    if exc.errno == errno.EROFS:
        return _("the disk is read-only")
    return exc.strerror or str(exc)


class SaveScreen(SessionDialog):
    """Asks where to save (a full path, in the current folder by default); dismissed with the
    full path of the saved file, or None if cancelled."""

    def compose(self) -> ComposeResult:
        default = Path.cwd() / f"tresfute-{time.strftime('%Y%m%d-%H%M%S')}.json"
        with Vertical(classes="dialog"):
            yield Label(_("Save the game to:"))
            yield Input(value=str(default), id="save-path")
            yield Static("", id="save-error")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#save-path", Input).focus()

    @on(Input.Submitted, "#save-path")
    def save(self, event: Input.Submitted) -> None:
        error = self.query_one("#save-error", Static)
        text = event.value.strip()
        if not text:
            error.update(_("Cannot save: {reason}").format(reason=_("give a file name")))
            return
        path = Path(text).expanduser().absolute()
        try:
            self.session.save(path)
        except OSError as exc:
            error.update(_("Cannot save: {reason}").format(reason=why_not_saved(exc, path)))
            return
        self.dismiss(path)


class QuitScreen(SessionDialog):
    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(_("Quit the game?"))
            with Horizontal(classes="buttons"):
                yield Button(_("Save and quit"), variant="primary", id="save-quit")
                yield Button(_("Quit without saving"), variant="error", id="quit")
                yield Button(_("Cancel"), id="cancel")
        yield Footer(show_command_palette=False)

    @on(Button.Pressed, "#save-quit")
    def save_quit(self) -> None:
        """Quit once saved, and say where in the terminal; a cancelled save quits nothing."""
        save_then(self, self.session, lambda path: self.app.exit(message=saved_message(path)))

    @on(Button.Pressed, "#quit")
    def quit(self) -> None:
        self.app.exit()

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class EndScreen(ModalScreen[None]):
    """The breakdown of every sheet, the winner(s), the solo rating."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        bind_keys(self, [("q", "quit", N_("Quit")), ("s", "save", N_("Save"))])
        self.session = session

    def compose(self) -> ComposeResult:
        game = self.session.game
        table = Text()
        names = [s.shown for s in self.session.seats]
        width = max(10, *(len(n) + 2 for n in names))
        table.append(" " * 12 + "".join(f"{n:>{width}}" for n in names) + "\n", style="bold")
        scores = game.scores()
        for a in game.spec.areas:
            table.append(f"{area_name(a).capitalize():<12}" + "".join(f"{s.areas[a]:>{width}}" for s in scores) + "\n")
        fox_cells = "".join(f"{f'{s.foxes} × {s.fox_value}':>{width}}" for s in scores)
        foxes, total = _("Foxes"), _("Total")
        table.append(f"{foxes:<12}" + fox_cells + "\n")
        table.append(f"{total:<12}" + "".join(f"{s.total:>{width}}" for s in scores) + "\n", style="bold")
        with Vertical(classes="dialog", id="end"):
            yield Label(_("End of the game"), id="end-title")
            yield Static(table, id="breakdown")
            if game.n_players > 1:
                winners = ", ".join(names[w] for w in game.winners())
                yield Label(_("Winner: {names}").format(names=escape(winners)), id="winner")
            rating = game.solo_rating()
            if rating is not None:
                label = rating_label(rating[0], rating[1])
                stars = "" if rating[2] is None else "  " + "★" * rating[2] + "☆" * (5 - rating[2])
                yield Label(_("Solo rating: {label}").format(label=label) + stars, id="rating")
            yield Static("", id="saved")
            with Horizontal(classes="buttons"):
                yield Button(_("Save the record"), id="save")
                yield Button(_("Quit"), variant="primary", id="quit")
        yield Footer(show_command_palette=False)

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        save_then(self, self.session, self._saved)

    def _saved(self, path: Path) -> None:
        saved = self.query_one("#saved", Static)
        saved.update(saved_message(path))
        saved.display = True

    @on(Button.Pressed, "#quit")
    def action_quit(self) -> None:
        self.app.exit()


class HelpScreen(ModalScreen[None]):
    def __init__(self, game_id: str) -> None:
        super().__init__()
        bind_keys(self, [("escape,h", "close", N_("Close"))])
        self.game_id = game_id

    def compose(self) -> ComposeResult:
        text = localized_text(resources.files("tresfute.tui") / "help", self.game_id, ".md")  # French if missing
        rules, keys_title, keys = text.partition("\n## ")  # the steps of a first game, before the keys
        text = f"{rules}\n{steps_text()}{keys_title}{keys}"
        with VerticalScroll(classes="dialog", id="help-dialog"):
            yield Markdown(text)
            yield Button(_("Close"), id="close")
        yield Footer(show_command_palette=False)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)


class TresFuteApp(App[None]):
    TITLE = "tresfute"
    CSS_PATH = "app.tcss"

    def __init__(
        self,
        resume: Path | None = None,
        bot_delay: float = 0.6,
        extra_bots: tuple[str, ...] = (),
        rules: dict[str, bool] | None = None,
    ) -> None:
        super().__init__()
        self.resume = resume
        self.bot_delay = bot_delay
        self.extra_bots = extra_bots  # offered in the seats, e.g. a trained agent "ppo:agent.zip"
        self.rules = rules or {}  # the rules options new games start with (tresfute play --rule)

    def on_mount(self) -> None:
        if self.resume is not None:
            try:
                session = Session.load(self.resume, self.extra_bots, self.rules or None)
            except (records.RecordError, BotError) as exc:
                reason = escape(explain(exc))  # it may quote a record's text: never read as markup
                self.push_screen(SetupScreen(_("Cannot resume: {reason}").format(reason=reason)))
                return
            self.push_screen(GameScreen(session))
        else:
            self.push_screen(SetupScreen())
