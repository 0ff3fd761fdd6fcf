"""Each catalogue's typography, as printing in its language wants it.

French: a no-break space before ``: ; ! ?`` (never a plain space, never none) and inside « »,
and the typographic apostrophe (l’ordre, not l'ordre). German: quotation marks „…“, never "…"
nor “…” (a JSON example's quotes, inside brackets or braces, are code). Every language, these
two and any other (``shared_problems``): the code's placeholders and the spaces at a message's
ends kept; a language with rules of its own adds its check to ``CHECKS``.

``python scripts/french_typography.py`` mends the French catalogue in place (and reports what
is left in any catalogue); ``tests/test_i18n.py`` checks them all.
"""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from tresfute.i18n import TRANSLATED_LANGUAGES

LOCALE = Path(__file__).resolve().parents[1] / "src/tresfute/locale"
CATALOGUE = LOCALE / "fr/LC_MESSAGES/tresfute.po"
NO_BREAK = "\u00a0"
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
# What is not prose: a URL's scheme, a move or a command quoted as typed, a time. A sign that
# starts the text or is followed by a letter is notation ("? noir", "!o=4"), not punctuation.
_NOT_PROSE = re.compile(r"\w+://\S*|'[^' ][^']*'|\d:\d")
_SIGN = r"[:;!?](?=[\s),.»]|$)"
# An apostrophe between letters (l'ordre, aujourd'hui, l'{area}): French prints ’.
_APOSTROPHE = re.compile(r"(?<=[A-Za-zÀ-ÿ])'(?=[A-Za-zÀ-ÿ{])")


def problems(text: str) -> list[str]:
    """The places where ``text`` breaks French typography, each shown with what precedes it."""
    prose = _NOT_PROSE.sub("", _PLACEHOLDER.sub("x", text))
    found = [m.group(0) for m in re.finditer(r"." + _SIGN, prose) if not m.group(0).startswith(NO_BREAK)]
    found += [m.group(0) for m in re.finditer(r"«.|.»", prose) if NO_BREAK not in m.group(0)]
    found += [m.group(0) for m in re.finditer(r"\w'\w", _NOT_PROSE.sub("", text))]
    return found


def mended(text: str) -> str:
    """A plain space before ``: ; ! ?`` or inside « » becomes a no-break space, and an apostrophe
    between letters ’ (placeholders and moves quoted as typed kept)."""
    text = re.sub(r" (?=" + _SIGN + ")", NO_BREAK, text)
    text = re.sub("«[ \u00a0]*", "«" + NO_BREAK, text)
    text = re.sub("[ \u00a0]*»", NO_BREAK + "»", text)
    return _APOSTROPHE.sub("’", text)


# German quotes: „ opens, “ closes; code (JSON in brackets or braces, a placeholder) set aside.
_CODE = re.compile(r'\[[^\]]*\]|\{\{.*?\}\}|\{[^{}]*\}|pip install "[^"]*"')


def german_problems(text: str) -> list[str]:
    """The places where ``text`` breaks German quotation marks: a straight " or an English ” in
    prose, or „ and “ that do not pair up."""
    prose = _CODE.sub("x", text)
    found = [m.group(0) for m in re.finditer(r".?[\"”].?", prose)]
    if prose.count("„") != prose.count("“"):
        found.append(prose)
    return found


# A language's own typography, over the shared checks; a language without an entry has the shared ones alone.
CHECKS: dict[str, Callable[[str], list[str]]] = {"fr": problems, "de": german_problems}


def _fields(text: str) -> set[str]:
    return {field for _text, field, _spec, _conversion in string.Formatter().parse(text) if field is not None}


def shared_problems(message: str | Sequence[str], text: str) -> list[str]:
    """What a translation ``text`` of the code's ``message`` (a plural one: its two forms) breaks of
    what every language keeps: a placeholder the code does not fill (it fails when shown), one
    that a plain message leaves out (a plural's form may leave out its count: "un point"), the
    spaces at its ends (the code joins them)."""
    originals = (message,) if isinstance(message, str) else tuple(message)
    try:
        wanted, found = set().union(*map(_fields, originals)), _fields(text)
    except ValueError as error:  # a brace that opens nothing or closes nothing
        return [f"{text!r}: {error}"]
    wrong = [f"{{{name}}} is not filled in" for name in sorted(found - wanted)]
    if len(originals) == 1:
        wrong += [f"{{{name}}} is left out" for name in sorted(wanted - found)]
    ends = {(o[:1].isspace(), o[-1:].isspace()) for o in originals}
    if text and (text[:1].isspace(), text[-1:].isspace()) not in ends:
        wrong.append(f"{text!r}: the spaces at its ends differ from the code's")
    return wrong


def catalogue_problems(language: str, catalog: Catalog) -> list[str]:
    """Each of the catalogue's translations (each form of a plural one) that breaks the shared
    checks or the language's own, with what it breaks; untranslated ones are left to
    ``scripts/translations.py missing``."""
    own = CHECKS.get(language, lambda text: [])
    return [
        f"{language}: {text} ({'; '.join(wrong)})"
        for m in catalog
        if m.id
        for text in ((m.string,) if isinstance(m.string, str) else m.string or ())
        if text and (wrong := shared_problems(m.id, text) + own(text))
    ]


def main() -> None:
    catalog = read_po(CATALOGUE.open("rb"))
    for message in catalog:
        if message.id and message.string:
            if isinstance(message.string, str):
                message.string = mended(message.string)
            else:
                message.string = tuple(mended(s) for s in message.string)
    with CATALOGUE.open("wb") as handle:
        write_po(handle, catalog, width=100, omit_header=False, sort_output=False)
    left = []
    for language in TRANSLATED_LANGUAGES:
        path = LOCALE / language / "LC_MESSAGES/tresfute.po"
        if path.exists():
            with path.open("rb") as handle:
                left += catalogue_problems(language, read_po(handle, locale=language))
    if left:
        print("\n".join(left), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
