"""Player-facing descriptions of dice, areas, bonuses and moves (no rules: only words).

Shared by the front ends; everything goes through :mod:`tresfute.i18n`.
"""

from __future__ import annotations

import re

from .bot_names import computer_player
from .i18n import LANGUAGES, N_, _, decimal_comma, language, ngettext, use_language
from .rules import Game, Move, MoveKind, Phase
from .rules.game import Stage
from .rules.games import SPECS
from .rules.kinds import ActionBonus, ActionKind, Bonus, ChoiceBonus, EntryBonus, FoxBonus, GameSpec, Grid, RuleOption
from .rules.reasons import Listing, Named, OneOf, Plural, Reason

_DIE_NAMES = {
    "w": N_("white"),
    "s": N_("silver"),
    "y": N_("yellow"),
    "b": N_("blue"),
    "g": N_("green"),
    "o": N_("orange"),
    "p": N_("purple"),
    "k": N_("pink"),
}


# What a terminal acts on rather than shows: C0 controls (ESC starts a sequence that clears the
# screen or sets the window's title), DEL, C1 controls (CSI, OSC), the Unicode line and paragraph
# separators, and the bidirectional overrides and isolates (which reorder what follows them).
_BEYOND_C0 = "\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_CONTROLS = re.compile(f"[\x00-\x1f{_BEYOND_C0}]")
_JSON_CONTROLS = re.compile(f"[{_BEYOND_C0}]")  # JSON escapes C0 itself


def terminal_safe(text: str) -> str:
    """``text`` from outside (a player's name in a record) as it may be printed on a terminal:
    each control character written as its escape (``\\x1b``), never sent as it is."""
    return _CONTROLS.sub(lambda m: ascii(m[0])[1:-1], text)


def terminal_safe_json(text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) as it may be printed: the control
    characters JSON may hold as they are written as ``\\u`` escapes (the same JSON)."""
    return _JSON_CONTROLS.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def game_name(spec: GameSpec) -> str:
    """The game's published name in the current language (Très futé / That's Pretty Clever! /
    Ganz schön clever)."""
    return spec.name_fr if language() == "fr" else _(spec.name_en)


# The solo rating's sentences, printed in French and English on the rules (RatingBand); the
# catalogue gives them in the other languages.
_RATING_LABELS = (
    N_("Super clever!"),
    N_("Is your name Albert Einstein, by any chance?"),
    N_("What a genius!"),
    N_("Impressive!"),
    N_("Hats off to you!"),
    N_("A very good result!"),
    N_("That's already good."),
    N_("Not bad, but you'll do better next time."),
    N_("Plenty of room to improve!"),
    N_("Twice as clever!"),
    N_("Your score matches your IQ!"),
    N_("Respect!"),
    N_("That can't be down to luck!"),
    N_("Well, look at that!"),
    N_("Pretty clever!"),
    N_("Somebody has been practising!"),
    N_("You can be pleased with yourself!"),
    N_("On the right track."),
    N_("Let's turn a blind eye this time."),
    N_("Moderately clever."),
)


def rating_label(label_fr: str, label_en: str) -> str:
    """A solo rating's sentence in the current language (in French the rulebook's own words, as
    the catalogue prints them)."""
    said = _(label_en)
    return label_fr if said == label_en and language() == "fr" else said


def rating_labels(label_fr: str, label_en: str) -> dict[str, str]:
    """A solo rating's sentence in every language, by language code (the page picks its own)."""
    labels = {}
    for code in LANGUAGES:
        with use_language(code):
            labels[code] = rating_label(label_fr, label_en)
    return labels


def die_name(letter: str) -> str:
    return _(_DIE_NAMES[letter])


def area_name(letter: str) -> str:
    return die_name(letter)


def bot_name(name: str) -> str:
    """A computer player's name for players to read (``bot_names.COMPUTER_PLAYERS``)."""
    player = computer_player(name)
    return _(player.name_said) if player is not None else name


def bot_choice(name: str) -> str:
    """A computer player as a menu offers it ("Computer (greedy)")."""
    player = computer_player(name)
    return _(player.choice) if player is not None else _("Computer: {name}").format(name=name)


def rule_option_label(option: RuleOption) -> str:
    """What choosing a rules option means, beside its box in a form."""
    return _(option.label)


def rules_lines(rules: dict[str, bool]) -> list[str]:
    """A game's rules options (``Game.rules``), one line each, for players to read: each in the
    words its option carries (``RuleOption``); an option no game has, as ``name=value``."""
    options = {option.name: option for spec in SPECS.values() for option in spec.rule_options}
    return [
        _(options[name].said(value)) if name in options else f"{name}={str(value).lower()}"
        for name, value in rules.items()
    ]


def action_name(action: ActionKind | str) -> str:
    return {"reroll": _("reroll"), "plus_one": _("extra die (+1)"), "reprise": _("reprise")}[str(action)]


def short_area(letter: str) -> str:
    """Two letters, distinct in each language: ja/ye/ge, bl, ve/gr, or, vi/pu/li, ar/si, ro/pi."""
    return area_name(letter)[:2].lower()


def bonus_label(bonus: Bonus | None) -> str:
    """At most 4 characters: ↻ reroll, +1, ↺ reprise, REN/FOX, "X bl", "4 or", "? ve"."""
    if bonus is None:
        return ""
    if isinstance(bonus, ActionBonus):
        return {ActionKind.REROLL: "↻", ActionKind.PLUS_ONE: "+1", ActionKind.REPRISE: "↺"}[bonus.action]
    if isinstance(bonus, FoxBonus):
        return _("FOX")  # the fox's label on a sheet, at most 4 letters (REN, FCHS)
    if isinstance(bonus, ChoiceBonus):
        return "■X/6" if "6" in bonus.name else "■ ?"
    assert isinstance(bonus, EntryBonus)
    return f"{bonus.mark if bonus.value is None else bonus.value} {short_area(bonus.area)}"


def bonus_name(bonus: Bonus) -> str:
    if isinstance(bonus, ActionBonus):
        return action_name(bonus.action)
    if isinstance(bonus, FoxBonus):
        return _("fox")
    if isinstance(bonus, ChoiceBonus):
        return _("black X or 6") if bonus.name == "black X or 6" else _("black ? (any area)")
    assert isinstance(bonus, EntryBonus)
    if bonus.value is not None:
        return f"{area_name(bonus.area)} {bonus.value}"
    return f"{area_name(bonus.area)} {bonus.mark}"


def placing(bonus: Bonus) -> str:
    """What a waiting bonus asks, as a player reads it: "place the silver bonus", not the printed
    sign in the sentence ("place the bonus silver ?"); a fixed number keeps its name ("orange 4")."""
    if isinstance(bonus, EntryBonus) and bonus.value is None:
        area = area_name(bonus.area)
        if bonus.mark == "?":
            return _("place the {area} bonus").format(area=area)
        return _("place the {area} X bonus").format(area=area)
    if isinstance(bonus, ChoiceBonus):
        if bonus.name == "black X or 6":
            return _("place the black bonus: an X or a 6 in an area of your choice")
        return _("place the black bonus in an area of your choice")
    return _("place the bonus {bonus}").format(bonus=bonus_name(bonus))


_SOURCE = re.compile(r"^(silver|yellow|blue|green|orange|purple|pink) (row|column|box) (\d+)$")
_AREA_LETTER = {"silver": "s", "yellow": "y", "blue": "b", "green": "g", "orange": "o", "purple": "p", "pink": "k"}


def source_name(source: str) -> str:
    """Where a bonus came from: 'yellow row 2' -> 'completing yellow row 2'."""
    m = _SOURCE.match(source)
    if m:
        area, kind, n = area_name(_AREA_LETTER[m.group(1)]), m.group(2), m.group(3)
        if kind == "box":
            return _("{area} box {n}").format(area=area, n=n)
        return (_("completing {area} row {n}") if kind == "row" else _("completing {area} column {n}")).format(
            area=area, n=n
        )
    if source == "yellow diagonal":
        return _("completing the yellow diagonal")
    if source.startswith("round "):
        return _("the round track (round {n})").format(n=source.split()[1])
    if source.endswith("track complete"):
        return _("completing an action track")
    return source


# A silver row by its colour, as a whole phrase: French agrees the colour with "rangée".
_SILVER_ROWS = {
    "y": N_("the yellow row"),
    "b": N_("the blue row"),
    "g": N_("the green row"),
    "k": N_("the pink row"),
}


def cell_name(game: Game, area: str, cell: tuple[int, int]) -> str:
    grid = game.spec.areas[area]
    assert isinstance(grid, Grid)
    value = grid.cells[grid.cell_index[cell]].value
    if area == "s":
        return _("{value} in {row}").format(value=value, row=_(_SILVER_ROWS[grid.row_colours[cell[0] - 1]]))
    return _("the {value} at row {row}, column {col}").format(value=value, row=cell[0], col=cell[1])


def describe_move(game: Game, move: Move, dice_values: bool = True) -> str:
    """A sentence for a legal move, e.g. 'Yellow 5 → the 5 at row 2, column 4'.

    ``dice_values=False`` leaves out what the dice show (for a move of the past)."""
    kind = move.kind
    if kind in (MoveKind.PICK, MoveKind.EXTRA, MoveKind.SWEEP):
        assert move.die is not None and move.area is not None
        die = die_name(move.die).capitalize()
        if dice_values:
            die += f" {game.values[game.dice.index(move.die)]}"
        if dice_values and move.area == game.spec.sum_area and move.die in ("w", "b"):
            total = game.values[game.dice.index("w")] + game.values[game.dice.index("b")]
            die = _("{die} (blue + white = {total})").format(die=die, total=total)
        target = area_name(move.area)
        if move.cell is not None:
            target = _("{area}: {cell}").format(area=target, cell=cell_name(game, move.area, move.cell))
        text = f"{die} → {target}"
        if kind is MoveKind.EXTRA:
            return _("Extra die (+1): {text}").format(text=text)
        if kind is MoveKind.SWEEP:
            return _("Sweep into silver: {text}").format(text=text)
        return text
    if kind is MoveKind.BONUS:
        assert move.area is not None
        where = area_name(move.area).capitalize()
        if move.cell is not None:
            return _("Bonus: {area}, {cell}").format(area=where, cell=cell_name(game, move.area, move.cell))
        if move.value is not None:
            return _("Bonus: write {value} in {area}").format(value=move.value, area=area_name(move.area))
        return _("Bonus: cross the next {area} box").format(area=area_name(move.area))
    if kind is MoveKind.REPRISE:
        assert move.die is not None
        return _("Reprise: take the {die} die back from the platter").format(die=die_name(move.die))
    if kind in _PLAIN_MOVES:
        return _(_PLAIN_MOVES[kind])
    return str(move)


# The moves said in the same words whatever the game
_PLAIN_MOVES = {
    MoveKind.REROLL: N_("Reroll the dice just rolled"),
    MoveKind.ROLL: N_("Roll"),
    MoveKind.PASS: N_("Pass (use no die)"),
    MoveKind.DONE: N_("Done"),
}


def situation(game: Game, player: int) -> str:
    """What ``player`` must do now, as a short instruction (the bonus first, if one waits)."""
    if game.pending[player]:
        item = game.pending[player][0]
        text = _("{instruction}, from {source}").format(
            instruction=placing(item.bonus), source=source_name(item.source)
        )
        others = len(game.pending[player]) - 1
        if others:
            text += "\n" + _("then {n} more bonus(es): you choose the order").format(n=others)
        return text
    phase = game.phase
    if phase is Phase.BEFORE_ROLL and any(m.kind is MoveKind.DONE for m in game.legal_moves(player)):
        # every die is chosen or on the platter: no roll is left, the turn ends with Done
        return _("take dice back from the platter (reprise), or done")
    if phase in _PHASE_INSTRUCTIONS:
        return _(_PHASE_INSTRUCTIONS[phase])
    if phase is Phase.ACTIVE_EXTRA or (phase is Phase.PASSIVE and game.stage[player] is Stage.EXTRA):
        return _("use extra dice (+1), or done")
    if phase is Phase.PASSIVE:
        return _("choose a die from the silver platter")
    return ""


# What any player does in these phases
_PHASE_INSTRUCTIONS = {
    Phase.CHOOSE: N_("choose a die of the roll"),
    Phase.BEFORE_ROLL: N_("take dice back from the platter (reprise), or roll"),
    Phase.SWEEP: N_("cross the swept dice in silver, or done"),
}

_WHERE = {"hand": N_("in hand"), "platter": N_("on the platter"), "field": N_("on a die field")}


def explain(reason: Reason | BaseException | str) -> str:
    """A refusal in the current language: a rules :class:`Reason` (or an error carrying one,
    as :class:`~tresfute.rules.IllegalMoveError` does) translated with its words; other text as
    it is."""
    if isinstance(reason, BaseException):
        reason = getattr(reason, "reason", None) or str(reason)
    if not isinstance(reason, Reason):
        return str(reason)
    return _(reason.template).format(**{k: _word(v) for k, v in reason.params.items()})


def _word(value: object) -> str:
    if isinstance(value, Reason):
        return explain(value)
    if isinstance(value, Listing):
        return ", ".join(_word(v) for v in value.items)
    if isinstance(value, OneOf):
        return _(" or ").join(_word(v) for v in value.items)
    if isinstance(value, Named):
        return _named(value)
    if isinstance(value, Plural):  # "1 die", "2 dice": the language's own plural rule
        return ngettext(value.singular, value.plural, value.n).format(n=value.n)
    if isinstance(value, float):  # 8,7 in French and German, 8.7 in English
        return str(value).replace(".", ",") if decimal_comma() else str(value)
    return str(value)


def _named(word: Named) -> str:
    key = word.key
    if word.kind == "die" and key in _DIE_NAMES:
        return die_name(str(key))
    if word.kind == "area" and key in _DIE_NAMES:
        return area_name(str(key))
    if word.kind == "where" and str(key) in _WHERE:
        return _(_WHERE[str(key)])
    if word.kind == "bonus" and isinstance(key, ActionBonus | FoxBonus | EntryBonus | ChoiceBonus):
        return bonus_name(key)
    if word.kind == "source":
        return source_name(str(key))
    if word.kind == "action" and str(key) in ("reroll", "plus_one", "reprise"):
        return action_name(str(key))
    if word.kind == "game" and key in SPECS:
        return game_name(SPECS[str(key)])
    return word.english
