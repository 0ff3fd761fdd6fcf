"""French typography in the catalogue: a no-break space before ``: ; ! ?`` (never a plain space,
never none), as French printing wants. ``python scripts/french_typography.py`` mends the French
catalogue in place; ``tests/test_i18n.py`` checks it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

CATALOGUE = Path(__file__).resolve().parents[1] / "src/tresfute/locale/fr/LC_MESSAGES/tresfute.po"
NO_BREAK = "\u00a0"
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
# What is not prose: a URL's scheme, a move or a command quoted as typed, a time. A sign that
# starts the text or is followed by a letter is notation ("? noir", "!o=4"), not punctuation.
_NOT_PROSE = re.compile(r"\w+://\S*|'[^']*'|\d:\d")


def problems(text: str) -> list[str]:
    """The places where ``text`` breaks the rule, each shown with what precedes it."""
    prose = _NOT_PROSE.sub("", _PLACEHOLDER.sub("x", text))
    return [m.group(0) for m in re.finditer(r".[:;!?](?=\s|$)", prose) if not m.group(0).startswith(NO_BREAK)]


def mended(text: str) -> str:
    """A plain space before ``: ; ! ?`` becomes a no-break space (placeholders and quotes kept)."""
    return re.sub(r" (?=[:;!?](?:\s|$))", NO_BREAK, text)


def main() -> None:
    catalog = read_po(CATALOGUE.open("rb"))
    for message in catalog:
        if message.id and message.string:
            if isinstance(message.string, tuple):
                message.string = tuple(mended(s) for s in message.string)
            else:
                message.string = mended(message.string)
    with CATALOGUE.open("wb") as handle:
        write_po(handle, catalog, width=100, omit_header=False, sort_output=False)
    left = [
        s for m in catalog if m.id for s in (m.string if isinstance(m.string, tuple) else (m.string,)) if problems(s)
    ]
    if left:
        print("\n".join(left), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
