"""The page's own messages (buttons, titles), translated on the server from the one catalogue.

The script marks them ``t("…")`` or ``N_("…")``; they are read from it here, so the list is never
written twice, and ``scripts/translations.py extract`` puts them in the catalogue.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

from ..i18n import _, use_language

_MARKED = re.compile(r'\b(?:t|N_)\(\s*("(?:[^"\\\n]|\\.)*")')


@cache
def page_messages() -> tuple[str, ...]:
    script = (resources.files("tresfute.web") / "static" / "app.js").read_text(encoding="utf-8")
    return tuple(dict.fromkeys(json.loads(m) for m in _MARKED.findall(script)))


def ui_strings(language: str) -> dict[str, str]:
    with use_language(language):
        return {message: _(message) for message in page_messages()}
