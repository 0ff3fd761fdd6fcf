"""Every player-facing message is translated, and the shipped catalogue is compiled from it.

``scripts/translations.py`` and ``scripts/french_typography.py`` (and Babel, which the test extra
carries) are imported, never skipped: without them these tests fail, in CI as anywhere."""

import importlib
import io
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
translations = importlib.import_module("translations")


def _translated(text: str | tuple[str, ...]) -> bool:
    """A message, or each form of a plural one, has its French text."""
    return all(text) if isinstance(text, tuple) else bool(text)


def test_every_message_in_the_code_has_a_french_translation() -> None:
    catalog = translations.load_catalog()
    missing = [m for m in translations.messages_in_code() if m not in catalog or not _translated(catalog[m].string)]
    assert not missing, f"untranslated: {missing}; run scripts/translations.py extract, translate, compile"


def _contents(mo: bytes) -> tuple[list[tuple[str, str]], list[tuple[object, object, object]]]:
    """A compiled catalogue's header (but the Babel release that wrote it) and its messages."""
    catalog = read_mo(io.BytesIO(mo))
    header = [(name, value) for name, value in catalog.mime_headers if name != "Generated-By"]
    return header, [(m.context, m.id, m.string) for m in catalog if m.id]


def test_the_shipped_catalogue_is_compiled_from_the_po_file() -> None:
    """The same header and messages as the .po compiled now, whichever Babel release compiles it
    (a new release writes its own number into the header, nothing else)."""
    shipped = _contents(translations.MO.read_bytes())
    assert shipped == _contents(translations.compiled(translations.load_catalog()))
    assert len(shipped[1]) > 500


def test_french_is_the_default_and_english_is_available() -> None:
    from tresfute.i18n import _, set_language

    set_language("fr")
    assert _("Silver platter") == "Plateau d'argent"
    set_language("en")
    assert _("Silver platter") == "Silver platter"
    set_language("fr")
    with pytest.raises(ValueError, match="language must be one of"):
        set_language("de")


@pytest.mark.parametrize(("args", "code"), [((), 2), (("--help",), 0), (("unknown",), 2)])
def test_the_translations_script_explains_its_usage(args: tuple[str, ...], code: int) -> None:
    import subprocess

    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "translations.py"), *args], capture_output=True, text=True
    )
    assert result.returncode == code and "Traceback" not in result.stderr
    assert "usage: translations.py" in result.stdout + result.stderr
    if code == 0:
        assert "extract" in result.stdout and "compile" in result.stdout


def test_an_illegal_moves_reason_is_translated_and_stays_english_for_library_users() -> None:
    """The rules give a reason as a template and its words; front ends translate both."""
    from tresfute.i18n import use_language
    from tresfute.rules import Game, IllegalMoveError
    from tresfute.text import explain

    from helpers import position

    game = position(Game("tres-fute", dice="external"), g=[0, 0, 0, 0])
    game.play("dice w1 y1 b1 g2 o1 p1")
    with pytest.raises(IllegalMoveError) as caught:
        game.play("g")
    assert str(caught.value) == "green box 5 needs at least 5, not 2"
    with use_language("fr"):
        assert explain(caught.value) == "vert case 5 demande au moins 5, pas 2"
    with use_language("en"):
        assert explain(caught.value) == "green box 5 needs at least 5, not 2"
    with pytest.raises(IllegalMoveError) as caught:
        game.play("reprise o")  # a reason inside a reason, with the words of the situation
    with use_language("fr"):
        assert explain(caught.value) == (
            "'reprise o' n'est pas possible maintenant\u00a0: le joueur actif choisit un dé du lancer"
        )


def test_the_rules_write_every_refusal_as_a_template_for_the_catalogue() -> None:
    """An f-string reason cannot be extracted for translation: the rules use Reason("...", ...)."""
    import re

    rules = ROOT / "src" / "tresfute" / "rules"
    pattern = re.compile(r"(?:IllegalMoveError|MoveSyntaxError)\(\s*f?[\"']|Reason\(\s*f[\"']")
    found = [f"{p.name}: {m.group(0)}" for p in rules.glob("*.py") for m in pattern.finditer(p.read_text())]
    assert not found, found


def test_the_french_catalogue_follows_french_typography() -> None:
    """A no-break space before : ; ! ? in every French message (``scripts/french_typography.py``
    mends a catalogue that does not)."""
    typography = importlib.import_module("french_typography")
    catalog = translations.load_catalog()
    wrong = [
        text
        for message in catalog
        if message.id
        for text in (message.string if isinstance(message.string, tuple) else (message.string,))
        if typography.problems(text)
    ]
    assert wrong == [], "run scripts/french_typography.py"
    assert typography.problems("Total : 3") == [" :"] and typography.problems("Total\u00a0: 3") == []


# Words the same in both languages (a name, a sign, a unit).
_SAME_IN_BOTH = {"Options", "{rank}.", "Total", "Total: {total}", "OK", "{n} point", "Conseil", "Date", "Score"}


def test_every_page_message_reads_in_french_and_english() -> None:
    """The page shows no untranslated word: each of its messages has its French text, distinct
    from the English one unless the word is the same in both."""
    from tresfute.web.strings import page_messages, ui_strings

    fr, en = ui_strings("fr"), ui_strings("en")
    assert set(fr) == set(en) == {m if isinstance(m, str) else m[0] for m in page_messages()}
    same = [key for key in fr if fr[key] == en[key] and key not in _SAME_IN_BOTH]
    assert same == [], f"not translated into French: {same}"
    assert fr["That's Pretty Clever!"] == "Très futé" and en["Twice as Clever!"] == "Twice as Clever!"
