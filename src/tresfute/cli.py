"""The ``tresfute`` command: play, replay records, score paper sheets, simulate and bench."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from .bot_names import BUILT_IN, FILE_KINDS
from .i18n import LANGUAGES, N_, _, environment_language, language, ngettext, set_language
from .progress import Progress, progress_bar
from .rules import SPECS
from .settings import SettingError

if TYPE_CHECKING:
    from .bots import Bot

# The command imports what a command needs when it runs, so that ``tresfute --help`` and a
# command's help start at once: the bots (numpy), records and paper sheets (pydantic), the
# terminal game (Textual), the server (FastAPI). The bots' names are written out
# (``tresfute.bot_names``) for the same reason; a test checks them against ``tresfute.bots``.
BOT_NAMES = BUILT_IN
FILE_BOT_KINDS = FILE_KINDS
GAME_CHOICE = click.Choice(sorted(SPECS))


class CliError(click.ClickException):
    """An error line in the user's language (``Erreur : …`` in French)."""

    def show(self, file: Any = None) -> None:
        click.echo(_("Error: {message}").format(message=self.format_message()), file=file, err=file is None)


def _missing_extra(command: str, extra: str, error: ImportError) -> NoReturn:
    """One line that says which extra the command needs, when one of its packages is missing."""
    missing = getattr(error, "name", None) or str(error)
    raise CliError(
        _(
            'tresfute {command} needs the {extra} extra ({missing} is not installed): pip install "tresfute[{extra}]"'
        ).format(command=command, extra=extra, missing=missing)
    ) from None


@cache
def _warn_if_plain_engine() -> None:
    """Once per process, on stderr: the engine runs as plain Python, several times slower."""
    from .rules import COMPILED

    if not COMPILED:
        click.echo(
            _(
                "tresfute runs the plain Python engine, several times slower than the compiled one "
                "(pip install . without -e, where a C compiler is found; tresfute --version tells which one runs)."
            ),
            err=True,
        )


def _engine() -> str:
    from .rules import COMPILED

    return _("compiled engine") if COMPILED else _("plain Python engine")


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import version

    click.echo(f"tresfute {version('tresfute')} ({_engine()})")
    ctx.exit()


class BotSpec(click.ParamType):
    """A computer player: a name (random, greedy, strong) or a trained agent's file (ppo:FILE.zip)."""

    name = "bot"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + "|".join([*BOT_NAMES, *(f"{k}:FILE" for k in FILE_BOT_KINDS)]) + "]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from .text import explain

        try:
            _make_bot(value)  # a wrong name or file fails here, with the reason
        except ValueError as exc:
            self.fail(explain(exc), param, ctx)
        return str(value)


def _make_bot(name: str) -> Bot:
    from .bots import make_bot

    try:
        return make_bot(name, 0)
    except ImportError as exc:  # a trained agent's seat without the rl extra's packages
        _missing_extra("--bot " + name.partition(":")[0], "rl", exc)


BOT_SPEC = BotSpec()


def _read_rules(_ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]) -> dict[str, bool]:
    """``--rule NAME=true|false``, given once per rule: the rules options by name (checked
    against the game where it is known, :func:`_game_rules`)."""
    from .inputs import rule_setting

    rules: dict[str, bool] = {}
    for text in values:
        setting = rule_setting(text)
        if setting is None:
            raise click.BadParameter(
                _("write a rule as NAME=true or NAME=false, as in reprise_with_no_die_left=false, not {text}").format(
                    text=repr(text)
                )
            )
        rules[setting[0]] = setting[1]
    return rules


def _game_rules(game_id: str, rules: dict[str, bool]) -> dict[str, bool]:
    """The rules options given, once the game is known to have them (one line saying why not)."""
    from .rules import RulesError, game_rules
    from .text import explain

    try:
        game_rules(game_id, rules)
    except RulesError as exc:
        raise click.BadParameter(explain(exc), param_hint="'--rule'") from None
    return rules


RULE = click.option(
    "--rule",
    "rules",
    multiple=True,
    metavar="NAME=VALUE",
    callback=_read_rules,
    help="A rules option of the game, e.g. --rule reprise_with_no_die_left=false (Vraiment très futé: with "
    "no die left to roll, the turn ends; default true: a reprise may take a die back). See docs/rules-decisions.md.",
)


def _set_lang(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value is not None:
        set_language(value)
        ctx.meta["tresfute.lang"] = value  # asked on the command line (serve: the page's default)
    return value


LANG = click.option(
    "--lang",
    type=click.Choice(LANGUAGES),  # tresfute.i18n's one list
    default=None,
    callback=_set_lang,
    expose_value=False,
    is_eager=True,
    help="Language of the text, French, English or German (default: the locale's, LC_ALL, LC_MESSAGES or LANG).",
)


def _area(name: str) -> str:
    from .paper import AREA_BY_NAME
    from .text import area_name

    return area_name(AREA_BY_NAME[name]).capitalize()


# A file the command reads: a folder given instead is refused when it is read, in the user's
# language (click's own check, dir_okay=False, says it in English); its size is bounded before
# it is read (``records.load``, ``paper.load_sheet_file``).
FILE = click.Path(path_type=Path)


def _emit_json(data: Any) -> None:
    """``data`` as JSON, names as they are (accents) but no control character sent to the
    terminal (``tresfute.text.terminal_safe_json``)."""
    from .text import terminal_safe_json

    click.echo(terminal_safe_json(json.dumps(data, indent=2, ensure_ascii=False)))


def _progress(games: int) -> AbstractContextManager[Progress | None]:
    """The games played, on stderr when it is a terminal (:mod:`tresfute.progress`)."""
    return progress_bar(games, _("Games played"))


def _echo_rules(game_id: str, rules: dict[str, bool]) -> None:
    """The rules options a run played under, when one is not the game's default."""
    from .rules import game_rules
    from .text import rules_lines

    if rules != game_rules(game_id):
        click.echo("  " + _("rules: {rules}").format(rules=" · ".join(rules_lines(rules))))


def _histogram(totals: list[int], bars: int = 40) -> list[str]:
    """Lines of a text histogram of the scores: each line a range of scores, a bar, a count."""
    low, high = min(totals), max(totals)
    most_bins = max(4.0, min(15.0, 2 * len(totals) ** 0.5))  # a few for a few games, 15 at most
    width = next((w for w in (1, 2, 5, 10, 20, 25, 50, 100) if (high - low) / w < most_bins), 200)
    start = low - low % width
    counts: dict[int, int] = {}
    for total in totals:
        counts[(total - start) // width] = counts.get((total - start) // width, 0) + 1
    most = max(counts.values())
    lines = []
    for i in range((high - start) // width + 1):
        n = counts.get(i, 0)
        first = start + i * width
        label = f"{first}" if width == 1 else f"{first}–{first + width - 1}"
        lines.append(f"{label:>9} {'█' * round(n * bars / most) if n else '':{bars}} {n}")
    return lines


class _Commands(click.Group):
    """Speaks the locale's language (``--lang`` wins), with its error lines in it too, and
    reports a computer player that cannot play the game asked (a trained agent's file made for
    the other game) as an error message, not a traceback."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        set_language(_locale_language())
        if not standalone_mode:
            return super().main(args, prog_name, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, standalone_mode=False, **extra)
        except click.ClickException as error:
            _show_error(error)
            sys.exit(error.exit_code)
        except click.Abort:
            click.echo(_("Aborted!"), err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SettingError as exc:  # a TRESFUTE_… variable with a value that cannot be used
            raise CliError(str(exc)) from None
        except ValueError as exc:
            bots = sys.modules.get("tresfute.bots")  # a BotError comes only from bots imported
            if bots is not None and isinstance(exc, bots.BotError):
                raise CliError(str(exc)) from None
            raise


def _locale_language() -> str:
    return environment_language()


def _show_error(error: click.ClickException) -> None:
    """Click's own error lines (usage, hint, ``Error:``) in the user's language."""
    if isinstance(error, CliError):
        error.show()
        return
    ctx = error.ctx if isinstance(error, click.UsageError) else None
    if ctx is not None:
        click.echo(ctx.get_usage(), err=True)
        if ctx.command.get_help_option(ctx) is not None:
            command = f"{ctx.command_path} {ctx.help_option_names[0]}"
            click.echo(_("Try '{command}' for help.").format(command=command), err=True)
        click.echo(err=True)
    click.echo(_("Error: {message}").format(message=_message(error)), err=True)


def _message(error: click.ClickException) -> str:
    """The error's message, with click's "Invalid value for '--bot':" in the user's language
    (what follows it is ours, translated, for the options the project checks itself)."""
    if type(error) is not click.BadParameter:  # its subclasses (a missing parameter) say more
        return error.format_message()
    if error.param_hint is not None:
        hint = error.param_hint
    elif error.param is not None:
        hint = error.param.get_error_hint(error.ctx)  # type: ignore[arg-type]
    else:
        return _("Invalid value: {message}").format(message=error.message)
    if not isinstance(hint, str):
        hint = " / ".join(repr(h) for h in hint)
    return _("Invalid value for {param_hint}: {message}").format(param_hint=hint, message=error.message)


@click.group(cls=_Commands)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_show_version,
    help="Show the version and which engine runs (compiled or plain Python), and exit.",
)
def main() -> None:
    """Très futé and Vraiment très futé: play, replay, score, simulate and bench games."""


@main.command()
@click.argument("record_file", type=FILE)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@LANG
def replay(record_file: Path, as_json: bool) -> None:
    """Check a game record move by move and print its final scores."""
    from . import records
    from .rules.kinds import AREA_NAMES
    from .text import explain, game_name, rating_label, rating_labels, terminal_safe

    try:
        record = records.load(record_file)
        game = records.replay(record)
    except records.RecordError as exc:
        raise CliError(explain(exc)) from None
    scores = game.scores()
    data: dict[str, Any] = {
        "game": game.spec.id,
        "over": game.is_over,
        "moves": len(record.moves),
        "players": [
            {
                "name": name,
                **{k: v for k, v in s.as_dict().items() if k != "areas"},
                "areas": {AREA_NAMES[a]: v for a, v in s.areas.items()},
            }
            for name, s in zip(record.players, scores, strict=True)
        ],
        "winners": [record.players[w] for w in game.winners()] if game.is_over else [],
    }
    rating = game.solo_rating() if game.is_over else None
    if rating:
        data["solo_rating"] = {**rating_labels(rating[0], rating[1]), "stars": rating[2]}
    if as_json:
        _emit_json(data)
        return
    state = _("Valid game ({n} moves)").format(n=len(record.moves))
    if not game.is_over:
        state += " — " + _("game in progress")
    click.echo(f"{game_name(game.spec)} — {state}")
    for player in data["players"]:  # the names as the record gives them: printed harmless
        click.echo(f"\n{terminal_safe(player['name'])}")
        _print_breakdown(player)
    if data["winners"] and len(record.players) > 1:  # a solo game has a rating, no winner
        winners = data["winners"]
        said = _("Winner: {names}") if len(winners) == 1 else _("Shared victory: {names}")
        click.echo("\n" + said.format(names=", ".join(map(terminal_safe, winners))))
    if rating:
        stars = "" if rating[2] is None else " " + "★" * rating[2] + "☆" * (5 - rating[2])
        click.echo(_("Solo rating: {label}").format(label=rating_label(rating[0], rating[1])) + stars)


def _print_breakdown(data: dict[str, Any]) -> None:
    for name, points in data["areas"].items():
        click.echo(f"  {_area(name):8} {points:4}")
    foxes, total, each = _("Foxes"), _("Total"), _("each")
    click.echo(f"  {foxes:8} {data['foxes']:4} × {data['fox_value']} ({each})")
    click.echo(f"  {total:8} {data['total']:4}")


@main.command()
@click.argument("sheet_file", type=FILE)
@click.option(
    "--game",
    "game_id",
    type=GAME_CHOICE,
    default=None,
    help="The game the sheet belongs to (checked against the sheet's own 'game').",
)
@click.option("--json", "as_json", is_flag=True, help="Print the breakdown as JSON.")
@LANG
def score(sheet_file: Path, game_id: str | None, as_json: bool) -> None:
    """Score a filled paper sheet described in JSON."""
    from . import paper
    from .text import explain, game_name

    try:
        spec, sheet = paper.load_sheet_file(sheet_file)
    except paper.SheetError as exc:
        raise CliError(explain(exc)) from None
    if game_id is not None and game_id != spec.id:
        raise CliError(_("the sheet is a {sheet} sheet, not {game}").format(sheet=spec.id, game=game_id))
    data = paper.breakdown(spec, sheet)
    if as_json:
        _emit_json(data)
        return
    click.echo(game_name(spec))
    _print_breakdown(data)
    rating = data["solo_rating"]
    click.echo(_("Solo rating: {label}").format(label=rating[language()]))


Command = TypeVar("Command", bound=Callable[..., Any])


def _seeded_games(bot: str, bot_help: str, games: int, seed: int, seed_help: str) -> Callable[[Command], Command]:
    """The options ``simulate`` and ``bench`` share, declared once: the game, the players, the
    computer player, how many games and their seed; each command its own defaults."""
    options = [
        click.option(
            "--game",
            "game_id",
            type=GAME_CHOICE,
            default="tres-fute",
            show_default=True,
            help="The game played: tres-fute (Très futé) or vraiment-tres-fute (Vraiment très futé).",
        ),
        click.option(
            "--players",
            type=click.IntRange(1, 4),
            default=1,
            show_default=True,
            help="Players in each game, 1 (the solo game) to 4.",
        ),
        click.option(
            "--bot",
            type=BOT_SPEC,
            default=bot,
            show_default=True,
            help=f"{bot_help}: random, greedy, strong, strong-win, or ppo:FILE (a trained agent).",
        ),
        click.option(
            "--games", type=click.IntRange(min=1), default=games, show_default=True, help="How many games to play."
        ),
        click.option("--seed", type=int, default=seed, show_default=True, help=seed_help),
    ]

    def declared(command: Command) -> Command:
        for option in reversed(options):
            command = option(command)
        return command

    return declared


@main.command("simulate")
@_seeded_games(
    "random",
    "The computer player in every seat",
    100,
    1,
    "The games use seeds derived from it: the same seed plays the same games.",
)
@RULE
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@LANG
def simulate_(
    game_id: str, players: int, bot: str, games: int, seed: int, rules: dict[str, bool], as_json: bool
) -> None:
    """Play GAMES seeded games with a bot in every seat and summarise the scores."""
    from .simulate import simulate
    from .text import game_name

    _game_rules(game_id, rules)
    _warn_if_plain_engine()
    with _progress(games) as progress:
        data = simulate(game_id, players, bot, games, seed, progress, rules)
    if as_json:
        _emit_json(data)
        return
    click.echo(
        ngettext(
            "{game}, {players} × {bot}, seed {seed}: {n} game",
            "{game}, {players} × {bot}, seed {seed}: {n} games",
            games,
        ).format(game=game_name(SPECS[game_id]), players=players, bot=bot, seed=seed, n=data["games"])
    )
    _echo_rules(game_id, data["rules"])
    per_area = "  ".join(f"{_area(a)} {v:.1f}" for a, v in data["mean_per_area"].items())
    click.echo("  " + _("mean {mean:.1f}  sd {sd:.1f}  min {min}  max {max}").format(**data))
    click.echo("  " + _("mean per area: {areas}").format(areas=per_area))
    click.echo("  " + _("foxes: {n:.2f}").format(n=data["mean_foxes"]))
    click.echo("  " + _("games per second: {n:.0f}").format(n=data["games_per_second"]))


@main.command()
@_seeded_games(
    "greedy",
    "The computer player measured (in every seat, or with --opponents in one)",
    1000,
    1000,
    "Games use seeds derived from it; 1000 and up are held out from tuning.",
)
@click.option(
    "--opponents",
    type=click.Choice(BOT_NAMES),
    default=None,
    help="The bot in the other seats (needs --players 2 to 4): then BOT's win rate, its mean and theirs.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Play the games on this many processes; speeds stay per core.",
)
@click.option(
    "--results",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Keep each finished game in this file; run again with the same settings, only the games "
    "it lacks are played (a long run can stop and go on).",
)
@RULE
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@LANG
def bench(
    game_id: str,
    bot: str,
    games: int,
    seed: int,
    players: int,
    opponents: str | None,
    workers: int,
    results: Path | None,
    rules: dict[str, bool],
    as_json: bool,
) -> None:
    """Measure a computer player's strength over many seeded games."""
    from .simulate import ResultsError
    from .simulate import bench as run_bench
    from .text import game_name, rating_label

    if opponents is not None and players < 2:
        raise click.UsageError(_("--opponents needs --players 2 to 4"))
    _game_rules(game_id, rules)
    _warn_if_plain_engine()
    try:
        with _progress(games) as progress:
            data = run_bench(game_id, players, bot, games, seed, workers, opponents, progress, results, rules)
    except ResultsError as exc:
        raise CliError(_(exc.template).format(**exc.params)) from None
    if as_json:
        _emit_json(data)
        return
    if opponents is None:
        title = ngettext(
            "{game}, {players} × {bot}, seed {seed}: {n} game",
            "{game}, {players} × {bot}, seed {seed}: {n} games",
            games,
        )
    else:
        title = ngettext(
            "{game}, {bot} against {others} × {opponents}, seed {seed}: {n} game",
            "{game}, {bot} against {others} × {opponents}, seed {seed}: {n} games",
            games,
        )
    click.echo(
        title.format(
            game=game_name(SPECS[game_id]),
            players=players,
            bot=bot,
            others=players - 1,
            opponents=opponents,
            seed=seed,
            n=data["games"],
        )
    )
    _echo_rules(game_id, data["rules"])
    if opponents is not None:
        click.echo(
            "  "
            + _(
                "{bot} wins {rate:.1%} of the games (a tie shared); mean {mean:.1f}, the opponents' {others:.1f}"
            ).format(bot=bot, rate=data["win_rate"], mean=data["mean"], others=data["opponents_mean"])
        )
    click.echo("  " + _("mean {mean:.1f}  sd {sd:.1f}  standard error {se:.2f}").format(**data))
    click.echo("  p10 {p10:.0f}  p50 {p50:.0f}  p90 {p90:.0f}".format(**data))
    per_area = "  ".join(f"{_area(a)} {v:.1f}" for a, v in data["mean_per_area"].items())
    click.echo("  " + _("mean per area: {areas}").format(areas=per_area))
    click.echo("  " + _("foxes: {n:.2f}").format(n=data["mean_foxes"]))
    click.echo("  " + _("scores:") if opponents is None else "  " + _("scores of {bot}:").format(bot=bot))
    scores = (
        data["scores"]
        if opponents is None
        else [[g[s - 1]] for g, s in zip(data["scores"], data["bot_seats"], strict=True)]
    )
    for line in _histogram([t for game in scores for t in game]):
        click.echo("  " + line)
    click.echo("  " + _("solo rating bands:"))
    spec = SPECS[game_id]
    for band in spec.solo_rating:
        share = data["rating_bands"][band.label_en]
        label = rating_label(band.label_fr, band.label_en)
        click.echo(f"    {share:6.1%}  {label}")
    click.echo(
        "  "
        + _("{d:.0f} decisions per second, {s:.3f} s per game (one core)").format(
            d=data["decisions_per_second"], s=data["seconds_per_game"]
        )
    )
    if "median_ms_per_decision" in data:
        click.echo(
            "  "
            + _("time per decision of {bot}: median {m:.1f} ms, p90 {p:.1f} ms").format(
                bot=data["bot"], m=data["median_ms_per_decision"], p=data["p90_ms_per_decision"]
            )
        )


@main.command()
@click.argument("record_file", type=FILE)
@click.option(
    "--move",
    "move_number",
    type=click.IntRange(min=1),
    default=None,
    help="Analyse the position in which this move (numbered from 1) was played, and rate it; "
    "the number after the last move (or no --move) is where the record stops, in a game in progress.",
)
@click.option("--all", "search_all", is_flag=True, help="Search every move, not only the best candidates (slower).")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@LANG
def analyse(record_file: Path, move_number: int | None, search_all: bool, as_json: bool) -> None:
    """Rank the legal moves of a recorded position by the strong player's expected final score."""
    from . import records
    from .bots.appraisal import appraise
    from .rules import CHANCE, parse_move
    from .text import describe_move, explain, terminal_safe

    try:
        record = records.load(record_file)
        game = records.replay(record, stop=move_number)
        if move_number is not None and move_number <= len(record.moves):
            records.replay(record, stop=move_number + 1)  # move N itself, refused as replay refuses it
    except records.RecordError as exc:
        raise CliError(explain(exc)) from None
    if game.is_over and (move_number is None or move_number > len(record.moves)):  # after the last move
        raise CliError(
            _("the game is over after the record's {count} moves: no decision to analyse").format(
                count=len(record.moves)
            )
        )
    played = None
    if move_number is not None and move_number <= len(record.moves):
        player, text = records.split_entry(record.moves[move_number - 1])
        played = parse_move(text)
    else:
        player = game.to_move
    if player is None or player == CHANCE:
        raise CliError(_("No player decides in this position."))
    asked = tuple(game.legal_moves(player)) if search_all else (() if played is None else (played,))
    ranked = appraise(game, player, asked, searched=True).expected()  # as the hint and the review value them
    best = ranked[0][1]
    rows = [
        {
            "move": str(move),
            "text": describe_move(game, move),
            "expected": round(value, 1),
            "cost": round(best - value, 1),
            "searched": valued,
            "played": move == played,
        }
        for move, value, valued in ranked
    ]
    if as_json:
        _emit_json({"game": game.spec.id, "player": player + 1, "name": record.players[player], "moves": rows})
        return
    click.echo(
        _("{name} to decide: {n} legal moves, expected final score").format(
            name=terminal_safe(record.players[player]), n=len(rows)
        )
    )
    for row in rows:
        mark = "▶" if row["played"] else " "
        cost = "" if not row["cost"] else f"  (−{row['cost']:.1f})"
        click.echo(f" {mark} {row['expected']:6.1f}{cost:10}  {row['move']:14} {row['text']}")
    chosen = next((row for row in rows if row["played"]), None)
    if chosen is not None:
        click.echo(_("The move played costs {cost:.1f} points against the best one.").format(cost=chosen["cost"]))


@main.command()
@click.argument("record_file", type=FILE)
@click.option(
    "--player",
    "seat",
    type=int,
    default=1,
    show_default=True,
    help="The player whose decisions are reviewed (numbered from 1).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON (docs/review.md).")
@click.option(
    "--practice",
    is_flag=True,
    help="Play again your mistakes and blunders, costliest first, each until you find a good move "
    "(a short summary first, not the table).",
)
@click.option("--inaccuracies", is_flag=True, help="With --practice: the inaccuracies too.")
@click.option(
    "--verify",
    "verify_count",
    type=click.IntRange(1, 50),  # bots.verify.MOST_DECISIONS
    default=None,
    help="Check the K costliest decisions by strong rollouts to the end (slow: seconds each).",
)
@click.option(
    "--rollouts",
    type=click.IntRange(2, 1000),  # bots.verify.MOST_ROLLOUTS
    default=24,  # bots.verify.ROLLOUTS
    show_default=True,
    help="With --verify: rollouts per decision, each move played to the end on the same dice.",
)
@LANG
def review(
    record_file: Path,
    seat: int,
    as_json: bool,
    practice: bool,
    inaccuracies: bool,
    verify_count: int | None,
    rollouts: int,
) -> None:
    """Review a finished game: what each decision cost against the strong player's choice."""
    from . import records
    from .bots.review import ReviewError, review_game
    from .review_text import positions, print_review, print_summary, print_verified, review_json
    from .review_text import practice as practise
    from .text import explain

    if (practice or inaccuracies) and as_json:
        raise click.UsageError(_("--practice and --inaccuracies are not for --json"))
    if inaccuracies and not practice:
        raise click.UsageError(_("--inaccuracies goes with --practice"))
    try:
        record = records.load(record_file)
        result = review_game(record, seat - 1)
    except records.RecordError as exc:
        raise click.ClickException(explain(exc)) from None
    except ReviewError as exc:
        raise click.ClickException(_(exc.template).format(**exc.params)) from None
    if verify_count is not None:
        from .bots.verify import verify_review, with_verified

        found = verify_review(result, positions(record, result), verify_count, rollouts)
        result = with_verified(result, found)
    if as_json:
        _emit_json(review_json(record, result))
        return
    try:
        if practice:  # a short summary, then the positions (the whole table: without --practice)
            print_summary(record, result)
            print_verified(record, result)
            practise(
                record,
                result,
                lambda text: click.prompt(text, default="", show_default=False),
                click.echo,
                inaccuracies=inaccuracies,
            )
        else:
            print_review(record, result)
            print_verified(record, result)
    except ImportError as exc:  # the table is drawn with Rich, the tui extra's
        _missing_extra("review", "tui", exc)


@main.command()
@click.option("--resume", type=FILE, default=None, help="Resume a game saved as a record.")
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 10),
    default=0.6,
    show_default=True,
    help="Seconds a computer player waits before each move.",
)
@click.option(
    "--bot",
    "bots",
    type=BOT_SPEC,
    multiple=True,
    help="Offer this computer player in the seats too, e.g. a trained agent: --bot ppo:agent.zip.",
)
@RULE
@LANG
def play(resume: Path | None, bot_delay: float, bots: tuple[str, ...], rules: dict[str, bool]) -> None:
    """Play in the terminal: alone, with friends at one keyboard, against computer players.
    A new game of Vraiment très futé starts with the --rule options given (a resumed game keeps
    its record's)."""
    try:
        from .tui.app import TresFuteApp
        from .tui.session import Session
    except ImportError as exc:
        _missing_extra("play", "tui", exc)
    if resume is not None:  # a record that cannot be resumed is refused here, with one line
        from . import records
        from .bots import BotError
        from .text import explain

        try:
            Session.load(resume, bots, rules or None)
        except (records.RecordError, BotError) as exc:
            raise CliError(_("Cannot resume: {reason}").format(reason=explain(exc))) from None
    _game_rules("vraiment-tres-fute", rules)  # the one game with rules options
    TresFuteApp(resume=resume, bot_delay=bot_delay, extra_bots=bots, rules=rules).run()


@main.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (0.0.0.0 to let friends on the network join).",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Server processes sharing the port (more than one needs a postgresql:// database).",
)
@click.option(
    "--db",
    "database",
    default=None,
    help="Where the games are kept: an SQLite file (default: in the user's data folder) or a "
    "postgresql://user@host/db URL, which several servers can share.",
)
@LANG
def serve(host: str, port: int, workers: int, database: str | None) -> None:
    """Play in the browser: alone, against the computer, or with friends (tresfute serve)."""
    try:
        import uvicorn

        from .web.app import create_app, served
        from .web.serving import uvicorn_options
        from .web.store import DatabaseOpenError, PostgresStore, UnknownDatabaseError, open_store
    except ImportError as exc:
        _missing_extra("serve", "web", exc)

    where = database or str(Path(click.get_app_dir("tresfute")) / "games.sqlite3")
    if where.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg_pool  # noqa: F401  (the store imports it; here only to name the extra)
        except ImportError as exc:
            _missing_extra("serve --db postgresql://…", "postgres", exc)
    try:
        store = open_store(where)
    except UnknownDatabaseError as exc:
        raise click.BadParameter(
            _("{value} is neither a postgresql:// URL nor an SQLite file's path").format(value=exc.url),
            param_hint="--db",
        ) from None
    except DatabaseOpenError as exc:
        raise click.ClickException(_database_refused(_without_password(where), exc.kind)) from None
    if workers > 1 and not isinstance(store, PostgresStore):
        store.close()
        raise click.BadParameter(_("several workers need a postgresql:// database"), param_hint="--workers")
    _check_settings(store)
    _warn_if_plain_engine()
    click.echo(_("Games are kept in {path}").format(path=_without_password(where)))
    click.echo(
        _("Open http://{host}:{port}/ in your browser (Ctrl+C stops the server).").format(
            host="127.0.0.1" if host in ("0.0.0.0", "::") else host, port=port
        )
    )
    options = uvicorn_options(host, port)
    # the API's answers speak --lang when a request asks for no language (French without it)
    asked = click.get_current_context().get_parameter_source("lang") is click.core.ParameterSource.COMMANDLINE
    if asked:
        os.environ["TRESFUTE_SERVE_LANG"] = language()  # for the worker processes and the heads refused
    if workers == 1:
        uvicorn.run(served(create_app(store=store, language=language() if asked else None)), **options)
        return
    store.close()  # each worker process opens its own
    os.environ["TRESFUTE_DB"] = where
    uvicorn.run("tresfute.web.app:app_from_environment", factory=True, workers=workers, **options)


def _database_refused(where: str, kind: str) -> str:
    """Why the games' database cannot be opened (``DatabaseOpenError.kind``), in a sentence."""
    sentences = {
        "not sqlite": N_("{where} is not an SQLite database: give the path of a new file, or of tresfute's games"),
        "foreign": N_("{where} is an SQLite database, but not of tresfute's games: give another file"),
        "newer": N_("the database {where} was written by a newer tresfute: upgrade tresfute to use it"),
        "unreachable": N_("the database {where} does not answer, or refuses the connection"),
    }
    default = N_("no database can be opened or made at {where} (a folder, or a place without write access?)")
    return _(sentences.get(kind, default)).format(where=where)


def _check_settings(store: Any) -> None:
    """The environment's limits and BLAS threads read now, so that a wrong value is one error
    line before the server starts, not a failure at the first game or computer player's move."""
    from .bots.blas import wanted_threads
    from .web.limits import Limits

    try:
        Limits.from_environment()
        wanted_threads()
    except SettingError:
        store.close()
        raise


def _without_password(where: str) -> str:
    """A database URL as it may be printed: its password hidden."""
    from urllib.parse import urlsplit

    parts = urlsplit(where)
    if parts.password is None:
        return where
    return where.replace(f":{parts.password}@", ":***@", 1)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
