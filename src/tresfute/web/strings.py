"""The page's own messages (buttons, titles), translated on the server from the one catalogue,
and what its menus offer (:func:`choices`), read from the one declaration of each list.

The page's modules (``static/js/*.js``) mark them ``t("…")`` or ``N_("…")``, and a message with
a number ``tn("{n} point", "{n} points", n)``; they are read from the modules here, so the list
is never written twice, and ``scripts/translations.py extract`` puts them in the catalogue.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from itertools import combinations
from typing import Any

from ..bot_names import TABLE_PLAYER, menu_players
from ..bots.network import trained_under
from ..i18n import LANGUAGE_NAMES, _, ngettext, use_language
from ..rules.games import SPECS
from ..rules.kinds import GameSpec
from ..text import game_name

_TEXT = r'("(?:[^"\\\n]|\\.)*")'
_MARKED = re.compile(r"\b(?:t|N_)\(\s*" + _TEXT)
_PLURAL = re.compile(r"\btn\(\s*" + _TEXT + r"\s*,\s*" + _TEXT)


@cache
def page_messages() -> tuple[str | tuple[str, str], ...]:
    """The script's messages: a text, or a (singular, plural) pair."""
    modules = resources.files("tresfute.web") / "static" / "js"
    script = "\n".join(
        module.read_text(encoding="utf-8")
        for module in sorted(modules.iterdir(), key=lambda m: m.name)
        if module.name.endswith(".js")
    )
    single: list[str | tuple[str, str]] = [json.loads(m) for m in _MARKED.findall(script)]
    single += [(json.loads(one), json.loads(many)) for one, many in _PLURAL.findall(script)]
    return tuple(dict.fromkeys(single))


def ui_strings(language: str) -> dict[str, str | list[str]]:
    """Each message in ``language``; a plural pair as its two forms, [singular, plural], under
    the singular (the page picks the form: French uses the singular for 0 and 1)."""
    strings: dict[str, str | list[str]] = {}
    with use_language(language):
        for message in page_messages():
            if isinstance(message, tuple):
                strings[message[0]] = [ngettext(*message, 1), ngettext(*message, 2)]
            else:
                strings[message] = _(message)
    return strings


def choices(language: str) -> dict[str, Any]:
    """What the page's menus offer, in ``language``, each list from its one declaration: the
    languages by their own names (``i18n.LANGUAGE_NAMES``); the games (``rules.games.SPECS``),
    each with its numbers of players, its rules options in their words (``RuleOption``) and the
    readings of its rules the strong player was trained under (``trained``: the options off
    their default, one object per reading); the computer players (``bot_names``), the strongest
    first, and the one a computer seat is unless another is chosen."""
    with use_language(language):
        return {
            "languages": [{"code": code, "name": name} for code, name in LANGUAGE_NAMES.items()],
            "games": [
                {
                    "id": spec.id,
                    "name": game_name(spec),
                    "players": sorted(spec.rounds_by_players),
                    "rules": [
                        {"name": option.name, "default": option.default, "label": _(option.label)}
                        for option in spec.rule_options
                    ],
                    "trained": trained_readings(spec),
                }
                for spec in SPECS.values()
            ],
            "players": [
                {"name": player.name, "label": _(player.choice), "network": player.network} for player in menu_players()
            ],
            "table_player": TABLE_PLAYER,
        }


def trained_readings(spec: GameSpec) -> list[dict[str, bool]]:
    """The readings of the game's rules the strong player has a network for: each the options
    it turns off their default (``{}``, the default reading)."""
    options = sorted(spec.rule_options, key=lambda option: option.name)
    readings = (
        tuple((option.name, not option.default) for option in chosen)
        for size in range(len(options) + 1)
        for chosen in combinations(options, size)
    )
    return [dict(reading) for reading in readings if trained_under(spec.id, reading)]
