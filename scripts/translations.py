"""Keep the French catalogue in step with the code (needs Babel: ``pip install -e .[test]``).

python scripts/translations.py extract   # add new messages to locale/fr/.../tresfute.po
python scripts/translations.py compile   # write tresfute.mo from tresfute.po
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "tresfute"
PO = PACKAGE / "locale" / "fr" / "LC_MESSAGES" / "tresfute.po"
MO = PO.with_suffix(".mo")
# Reason("…") marks the rules' explanations of a refused move (tresfute.rules.reasons).
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "Reason": None}


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


def load_catalog() -> Catalog:
    with PO.open("rb") as handle:
        return read_po(handle, locale="fr")


def compiled(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def extract() -> None:
    catalog = load_catalog() if PO.exists() else Catalog(locale="fr", project="tresfute")
    wanted = messages_in_code()
    for message in wanted:
        if message not in catalog:
            catalog.add(message, "")
    for obsolete in [m.id for m in catalog if m.id and m.id not in wanted]:
        del catalog[obsolete]
    PO.parent.mkdir(parents=True, exist_ok=True)
    with PO.open("wb") as handle:
        write_po(handle, catalog, width=100, omit_header=False, sort_output=False)


def compile_mo() -> None:
    MO.write_bytes(compiled(load_catalog()))


COMMANDS = {
    "extract": (extract, "add the code's new messages to tresfute.po and drop the obsolete ones"),
    "compile": (compile_mo, "write tresfute.mo from tresfute.po"),
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Keep the French catalogue in step with the code.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (_action, help_text) in COMMANDS.items():
        commands.add_parser(name, help=help_text, description=help_text)
    args = parser.parse_args(argv)
    COMMANDS[args.command][0]()


if __name__ == "__main__":
    main()
