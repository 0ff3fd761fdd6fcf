"""Each catalogue's typography, as printing in its language wants it.

French: a no-break space before ``: ; ! ?`` (never a plain space, never none) and inside « »,
and the typographic apostrophe (l’ordre, not l'ordre). German: quotation marks „…“, never "…"
nor “…” (a JSON example's quotes, inside brackets or braces, are code). English as it is.

``python scripts/french_typography.py`` mends the French catalogue in place (and reports what
is left in any catalogue); ``tests/test_i18n.py`` checks them all.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

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


def english_problems(text: str) -> list[str]:
    """English as it is: its catalogue is the code's own messages, nothing to check."""
    return []


CHECKS = {"fr": problems, "de": german_problems, "en": english_problems}


def _texts(catalog: object) -> list[str]:
    return [
        s
        for m in catalog  # type: ignore[attr-defined]
        if m.id
        for s in (m.string if isinstance(m.string, tuple) else (m.string,))
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
    for language, check in CHECKS.items():
        path = LOCALE / language / "LC_MESSAGES/tresfute.po"
        if path.exists():
            left += [f"{language}: {s}" for s in _texts(read_po(path.open("rb"))) if check(s)]
    if left:
        print("\n".join(left), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
