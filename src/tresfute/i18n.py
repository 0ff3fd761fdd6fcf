"""Player-facing text in French (the default) or English, through standard gettext catalogues.

Messages are written in English in the code (``_("Round")``); ``locale/fr`` holds the French
catalogue (``tresfute.po``, compiled to ``tresfute.mo`` by ``scripts/compile_translations.py``).
"""

from __future__ import annotations

import gettext
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "tresfute"
LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def set_language(language: str) -> None:
    """Use French (``fr``) or English (``en``) for every message from now on."""
    global _translations, _language
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    if language == "en":
        _translations = gettext.NullTranslations()
    else:
        _translations = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])
    _language = language


def language() -> str:
    return _language


def _(message: str) -> str:
    return _translations.gettext(message)


def N_(message: str) -> str:
    """Mark a message for translation where it is defined; translate it later with ``_``."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translations.ngettext(singular, plural, n)


set_language(DEFAULT_LANGUAGE)
