"""Keep the catalogues (each language of ``tresfute.i18n.LANGUAGE_NAMES`` but English, the code's own) in step
with the code (needs Babel: ``pip install -e .[test]``).

python scripts/translations.py extract   # add new messages to each locale/<lang>/.../tresfute.po
python scripts/translations.py compile   # write each tresfute.mo from its tresfute.po
python scripts/translations.py missing   # list the messages a catalogue lacks (exit 1 if any)
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from tresfute.i18n import TRANSLATED_LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "tresfute"
# Each translated language, read from the one list (tresfute.i18n.LANGUAGE_NAMES): a catalogue keeps the plural rule
# of its header; a new one starts with Babel's (the Unicode CLDR's) rule for its language.
LANGUAGES = TRANSLATED_LANGUAGES
# Reason("…") marks the rules' explanations of a refused move (tresfute.rules.reasons), Plural("…", "…", n)
# a count's words inside one.
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "Reason": None, "Plural": (1, 2)}


def po_path(language: str = "fr") -> Path:
    return PACKAGE / "locale" / language / "LC_MESSAGES" / "tresfute.po"


def mo_path(language: str = "fr") -> Path:
    return po_path(language).with_suffix(".mo")


PO = po_path("fr")  # the French catalogue, as before there were several
MO = mo_path("fr")


def messages_in_code() -> list[str | tuple[str, str]]:
    found: list[str | tuple[str, str]] = []
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        if message not in found:
            found.append(message)
    # The browser's messages, read from the page's script the way the server reads them.
    from tresfute.web.strings import page_messages

    found.extend(m for m in page_messages() if m not in found)
    return found


def load_catalog(language: str = "fr") -> Catalog:
    with po_path(language).open("rb") as handle:
        return read_po(handle, locale=language)


def compiled(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def translated(text: object) -> bool:
    """A message, or each form of a plural one, has its translation."""
    return all(text) if isinstance(text, (tuple, list)) else bool(text)


def missing(language: str) -> list[str | tuple[str, str]]:
    """The code's messages that the language's catalogue lacks or leaves untranslated."""
    catalog = load_catalog(language)
    return [m for m in messages_in_code() if m not in catalog or not translated(catalog[m].string)]


def extract() -> None:
    wanted = messages_in_code()
    for language in LANGUAGES:
        path = po_path(language)
        # a new catalogue's header: Babel's plural rule for the language (Catalog reads it from the locale)
        catalog = load_catalog(language) if path.exists() else Catalog(locale=language, project="tresfute")
        for message in wanted:
            if message not in catalog:
                catalog.add(message, "" if isinstance(message, str) else ("", ""))
        for obsolete in [m.id for m in catalog if m.id and m.id not in wanted]:
            del catalog[obsolete]
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as handle:
            write_po(handle, catalog, width=100, omit_header=False, sort_output=False)


def compile_mo() -> None:
    for language in LANGUAGES:
        mo_path(language).write_bytes(compiled(load_catalog(language)))


def report_missing() -> None:
    lacking = {language: missing(language) for language in LANGUAGES}
    for language, messages in lacking.items():
        for message in messages:
            print(f"{language}: {message!r}")
    if any(lacking.values()):
        sys.exit(1)


COMMANDS = {
    "extract": (extract, "add the code's new messages to each tresfute.po and drop the obsolete ones"),
    "compile": (compile_mo, "write each tresfute.mo from its tresfute.po"),
    "missing": (report_missing, "list the messages a catalogue lacks or leaves untranslated"),
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Keep the catalogues in step with the code.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (_action, help_text) in COMMANDS.items():
        commands.add_parser(name, help=help_text, description=help_text)
    args = parser.parse_args(argv)
    COMMANDS[args.command][0]()


if __name__ == "__main__":
    main()
