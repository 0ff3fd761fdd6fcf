"""The ``tresfute`` command: replay records, score paper sheets, simulate games."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from . import paper, records
from .bots import BOTS
from .rules import SPECS
from .rules.kinds import AREA_NAMES
from .simulate import simulate

AREA_FR = {"silver": "argent", "yellow": "jaune", "blue": "bleu", "green": "vert",
           "orange": "orange", "purple": "violet", "pink": "rose"}
TEXT = {
    "fr": {"total": "Total", "foxes": "Renards", "each": "chacun", "winner": "Vainqueur(s)",
           "rating": "Note en solo", "player": "Joueur", "games": "parties", "mean": "moyenne",
           "per_area": "moyenne par zone", "speed": "parties par seconde", "ok": "Partie valide"},
    "en": {"total": "Total", "foxes": "Foxes", "each": "each", "winner": "Winner(s)",
           "rating": "Solo rating", "player": "Player", "games": "games", "mean": "mean",
           "per_area": "mean per area", "speed": "games per second", "ok": "Valid game"},
}
GAME_CHOICE = click.Choice(sorted(SPECS))
LANG = click.option("--lang", type=click.Choice(["fr", "en"]), default="fr", show_default=True,
                    help="Language of the text output.")


def _area(name: str, lang: str) -> str:
    return (AREA_FR[name] if lang == "fr" else name).capitalize()


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise click.ClickException(f"cannot read {path}: {exc.strerror}") from None


def _emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


@click.group()
@click.version_option(package_name="tresfute")
def main() -> None:
    """Très futé and Vraiment très futé: replay, score and simulate games."""


@main.command()
@click.argument("record_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@LANG
def replay(record_file: Path, as_json: bool, lang: str) -> None:
    """Check a game record move by move and print its final scores."""
    try:
        record = records.loads(_read(record_file))
        game = records.replay(record)
    except records.RecordError as exc:
        raise click.ClickException(str(exc)) from None
    scores = game.scores()
    data = {
        "game": game.spec.id,
        "over": game.is_over,
        "moves": len(record.moves),
        "players": [
            {"name": name, **{k: v for k, v in s.as_dict().items() if k != "areas"},
             "areas": {AREA_NAMES[a]: v for a, v in s.areas.items()}}
            for name, s in zip(record.players, scores, strict=True)
        ],
        "winners": [record.players[w] for w in game.winners()] if game.is_over else [],
    }
    rating = game.solo_rating() if game.is_over else None
    if rating:
        data["solo_rating"] = {"fr": rating[0], "en": rating[1], "stars": rating[2]}
    if as_json:
        _emit_json(data)
        return
    t = TEXT[lang]
    state = t["ok"] + (f" ({len(record.moves)} moves)" if lang == "en" else f" ({len(record.moves)} coups)")
    if not game.is_over:
        state += " — partie en cours" if lang == "fr" else " — game in progress"
    click.echo(f"{game.spec.name_fr} — {state}")
    for player in data["players"]:
        click.echo(f"\n{player['name']}")
        for name, points in player["areas"].items():
            click.echo(f"  {_area(name, lang):8} {points:4}")
        click.echo(f"  {t['foxes']:8} {player['foxes']:4} × {player['fox_value']} ({t['each']})")
        click.echo(f"  {t['total']:8} {player['total']:4}")
    if data["winners"]:
        click.echo(f"\n{t['winner']}: {', '.join(data['winners'])}")
    if rating:
        stars = "" if rating[2] is None else " " + "★" * rating[2] + "☆" * (5 - rating[2])
        click.echo(f"{t['rating']}: {rating[0] if lang == 'fr' else rating[1]}{stars}")


@main.command()
@click.argument("sheet_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--game", "game_id", type=GAME_CHOICE, default=None,
              help="The game the sheet belongs to (checked against the sheet's own 'game').")
@click.option("--json", "as_json", is_flag=True, help="Print the breakdown as JSON.")
@LANG
def score(sheet_file: Path, game_id: str | None, as_json: bool, lang: str) -> None:
    """Score a filled paper sheet described in JSON."""
    try:
        spec, sheet = paper.load_sheet(_read(sheet_file))
    except paper.SheetError as exc:
        raise click.ClickException(str(exc)) from None
    if game_id is not None and game_id != spec.id:
        raise click.ClickException(f"the sheet is a {spec.id} sheet, not {game_id}")
    data = paper.breakdown(spec, sheet)
    if as_json:
        _emit_json(data)
        return
    t = TEXT[lang]
    click.echo(spec.name_fr)
    for name, points in data["areas"].items():
        click.echo(f"  {_area(name, lang):8} {points:4}")
    click.echo(f"  {t['foxes']:8} {data['foxes']:4} × {data['fox_value']} ({t['each']})")
    click.echo(f"  {t['total']:8} {data['total']:4}")
    rating = data["solo_rating"]
    click.echo(f"{t['rating']}: {rating[lang]}")


@main.command("simulate")
@click.option("--game", "game_id", type=GAME_CHOICE, default="tres-fute", show_default=True)
@click.option("--players", type=click.IntRange(1, 4), default=1, show_default=True)
@click.option("--bot", type=click.Choice(sorted(BOTS)), default="random", show_default=True)
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@LANG
def simulate_(game_id: str, players: int, bot: str, games: int, seed: int, as_json: bool, lang: str) -> None:
    """Play GAMES seeded games with a bot in every seat and summarise the scores."""
    data = simulate(game_id, players, bot, games, seed).as_dict()
    if as_json:
        _emit_json(data)
        return
    t = TEXT[lang]
    click.echo(f"{SPECS[game_id].name_fr}, {players} × {bot}, seed {seed}: {data['games']} {t['games']}")
    click.echo(f"  {t['mean']} {data['mean']:.1f}  sd {data['sd']:.1f}  min {data['min']}  max {data['max']}")
    per_area = "  ".join(f"{_area(a, lang)} {v:.1f}" for a, v in data["mean_per_area"].items())
    click.echo(f"  {t['per_area']}: {per_area}")
    click.echo(f"  {t['foxes']}: {data['mean_foxes']:.2f}")
    click.echo(f"  {t['speed']}: {data['games_per_second']:.0f}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
