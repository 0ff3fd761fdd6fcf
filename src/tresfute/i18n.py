"""Player-facing text in French (the default), English or German, through standard gettext
catalogues.

Messages are written in English in the code (``_("Round")``); ``locale/fr`` and ``locale/de`` hold
the French and German catalogues (``tresfute.po``, compiled to ``tresfute.mo``); ``python
scripts/translations.py extract`` then ``compile`` keep them in step with the code.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "tresfute"
LANGUAGES = ("fr", "en", "de")
DEFAULT_LANGUAGE = "fr"

_language = "en"
# A language for the current thread or task only (a web request), over the process's own.
_local_language: ContextVar[str | None] = ContextVar("tresfute_language", default=None)


@cache
def _catalogue(language: str) -> gettext.NullTranslations:
    if language == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])


def _check(language: str) -> None:
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")


def set_language(language: str) -> None:
    """Use French (``fr``), English (``en``) or German (``de``) for every message from now on."""
    global _language
    _check(language)
    _catalogue(language)
    _language = language


@contextmanager
def use_language(language: str) -> Iterator[None]:
    """Messages in ``language`` inside the block, for this thread or task only."""
    _check(language)
    token = _local_language.set(language)
    try:
        yield
    finally:
        _local_language.reset(token)


def environment_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for, read as gettext reads it: the first of ``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set; French for ``fr*``, German for ``de*``,
    English otherwise (``C``, ``en_US.UTF-8``, any other language, nothing set)."""
    environ = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        if value := environ.get(name):
            return next((code for code in ("fr", "de") if value.lower().startswith(code)), "en")
    return "en"


def language() -> str:
    return _local_language.get() or _language


def decimal_comma() -> bool:
    """Whether the current language writes 2,5 (French, German) rather than 2.5 (English)."""
    return language() != "en"


def _translations() -> gettext.NullTranslations:
    return _catalogue(language())


def _(message: str) -> str:
    return _translations().gettext(message)


def N_(message: str) -> str:
    """Mark a message for translation where it is defined; translate it later with ``_``."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translations().ngettext(singular, plural, n)


set_language(DEFAULT_LANGUAGE)
