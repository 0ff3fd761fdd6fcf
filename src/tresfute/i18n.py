"""Player-facing text in French (the default), English or German, through standard gettext
catalogues.

Messages are written in English in the code (``_("Round")``); ``locale/fr`` and ``locale/de`` hold
the French and German catalogues (``tresfute.po``, compiled to ``tresfute.mo``); ``python
scripts/translations.py extract`` then ``compile`` keep them in step with the code.

Text fails soft: a message a catalogue lacks, or a whole catalogue that is missing, shows in
French (the default) and, failing that, in English (the code's own words), with one logged warning
per language, never an error.
"""

from __future__ import annotations

import gettext
import logging
import os
import re
import struct
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib.resources.abc import Traversable
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "tresfute"
# The one list of the languages tresfute speaks, each by its own name for itself (the page's and
# the terminal's menus): the CLI, the web server, the page and the tests read it.
LANGUAGE_NAMES = {"fr": "Français", "en": "English", "de": "Deutsch"}
LANGUAGES = tuple(LANGUAGE_NAMES)
DEFAULT_LANGUAGE = "fr"
SOURCE_LANGUAGE = "en"  # the code's own messages, which need no catalogue
TRANSLATED_LANGUAGES = tuple(code for code in LANGUAGES if code != SOURCE_LANGUAGE)

logger = logging.getLogger(__name__)
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_WORD = re.compile(r"[^\W\d_]")  # a letter
_warned: set[tuple[str, str]] = set()


def _warn_once(key: str, language: str, message: str, *args: object) -> None:
    """Log ``message`` the first time only for this ``key`` and language."""
    if (key, language) not in _warned:
        _warned.add((key, language))
        logger.warning(message, *args)


_language = "en"
# A language for the current thread or task only (a web request), over the process's own.
_local_language: ContextVar[str | None] = ContextVar("tresfute_language", default=None)


def fallback_languages(language: str) -> tuple[str, ...]:
    """Where a text in ``language`` is looked for, in order: the language itself, then French (the
    default), then English (the code's own words, the last resort)."""
    return tuple(dict.fromkeys((language, DEFAULT_LANGUAGE, SOURCE_LANGUAGE)))


class _Fallback(gettext.NullTranslations):
    """Stands behind a catalogue: a message it lacks is looked for in the next language's
    catalogue, with one warning for the language that lacks it."""

    def __init__(self, language: str, locale_dir: Path, then: gettext.NullTranslations) -> None:
        super().__init__()
        self.language, self.locale_dir = language, locale_dir
        self.add_fallback(then)

    def _lacks(self, message: str) -> None:
        if not _WORD.search(_PLACEHOLDER.sub("", message)):
            return  # nothing to translate ("{text}", a reason given as plain text): not a lack
        _warn_once(
            f"message:{self.locale_dir}",
            self.language,
            "the %r catalogue lacks %r (and perhaps others): shown in %s",
            self.language,
            message,
            " or ".join(fallback_languages(self.language)[1:]),
        )

    def gettext(self, message: str) -> str:
        self._lacks(message)
        return super().gettext(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self._lacks(msgid1)
        return super().ngettext(msgid1, msgid2, n)


def _catalogue(language: str) -> gettext.NullTranslations:
    return _load(language, LOCALE_DIR)


@cache
def _load(language: str, locale_dir: Path) -> gettext.NullTranslations:
    """The language's catalogue, backed by the next language's; the next language's alone where
    the catalogue is missing or unreadable."""
    languages = fallback_languages(language)
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    then = _load(languages[1], locale_dir)
    try:
        found = gettext.translation(DOMAIN, locale_dir, languages=[language])
    except (OSError, ValueError, struct.error) as error:
        _warn_once(
            f"catalogue:{locale_dir}",
            language,
            "no usable %r catalogue in %s (%s): messages shown in %s",
            language,
            locale_dir,
            error,
            " or ".join(languages[1:]),
        )
        return then
    found.add_fallback(_Fallback(language, locale_dir, then))
    return found


def localized_text(folder: Traversable, stem: str, suffix: str) -> str:
    """The text of ``folder/<stem>.<language><suffix>`` in the current language, or in French,
    or in English where that file is missing (with one warning per language)."""
    wanted = language()
    for code in fallback_languages(wanted):
        path = folder / f"{stem}.{code}{suffix}"
        if path.is_file():
            if code != wanted:
                _warn_once(
                    f"file:{folder}/{stem}{suffix}", wanted, "no %r text for %s: shown in %r", wanted, path, code
                )
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError(f"no {stem}.<language>{suffix} in {folder} for {', '.join(fallback_languages(wanted))}")


def _check(language: str) -> None:
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")


def set_language(language: str) -> None:
    """Use ``language`` (one of ``LANGUAGES``: ``fr``, ``en``, ``de``...) for every message from now on."""
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
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set; a translated language for its code
    (French for ``fr*``, German for ``de*``), English otherwise (``C``, ``en_US.UTF-8``, a
    language not in ``LANGUAGES``, nothing set)."""
    environ = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        if value := environ.get(name):
            return next((code for code in TRANSLATED_LANGUAGES if value.lower().startswith(code)), SOURCE_LANGUAGE)
    return SOURCE_LANGUAGE


def language() -> str:
    return _local_language.get() or _language


def decimal_comma() -> bool:
    """Whether the current language writes 2,5 (French, German) rather than 2.5 (English), as its
    catalogue writes the example "2.5" (a catalogue that lacks it: as French)."""
    return _("2.5") != "2.5"


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
