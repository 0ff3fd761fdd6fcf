"""The page's own messages (buttons, titles), translated on the server from the one catalogue.

The page's modules (``static/js/*.js``) mark them ``t("…")`` or ``N_("…")``, and a message with
a number ``tn("{n} point", "{n} points", n)``; they are read from the modules here, so the list
is never written twice, and ``scripts/translations.py extract`` puts them in the catalogue.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

from ..i18n import _, ngettext, use_language

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
