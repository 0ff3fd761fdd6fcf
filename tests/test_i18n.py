"""Every player-facing message is translated, and the shipped catalogue is compiled from it.

``scripts/translations.py`` and ``scripts/french_typography.py`` (and Babel, which the test extra
carries) are imported, never skipped: without them these tests fail, in CI as anywhere."""

import importlib
import io
import logging
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo

from tresfute.i18n import LANGUAGES, TRANSLATED_LANGUAGES

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
translations = importlib.import_module("translations")
# A language tresfute does not speak, whichever it comes to speak.
UNSUPPORTED = next(code for code in ("it", "es", "nl", "pt", "zz") if code not in LANGUAGES)


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_every_message_in_the_code_has_a_translation_in_each_catalogue(language: str) -> None:
    """No catalogue lacks a message of the code, nor leaves one untranslated (each plural form)."""
    missing = translations.missing(language)
    assert not missing, (
        f"untranslated in {language}: {missing}; run scripts/translations.py extract, translate, compile"
    )


def _contents(mo: bytes) -> tuple[list[tuple[str, str]], list[tuple[object, object, object]]]:
    """A compiled catalogue's header (but the Babel release that wrote it) and its messages."""
    catalog = read_mo(io.BytesIO(mo))
    header = [(name, value) for name, value in catalog.mime_headers if name != "Generated-By"]
    return header, [(m.context, m.id, m.string) for m in catalog if m.id]


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_the_shipped_catalogue_is_compiled_from_the_po_file(language: str) -> None:
    """The same header and messages as the .po compiled now, whichever Babel release compiles it
    (a new release writes its own number into the header, nothing else)."""
    shipped = _contents(translations.mo_path(language).read_bytes())
    assert shipped == _contents(translations.compiled(translations.load_catalog(language)))
    assert len(shipped[1]) > 500


def test_french_is_the_default_and_english_and_german_are_available() -> None:
    from tresfute.i18n import _, ngettext, set_language

    set_language("fr")
    assert _("Silver platter") == "Plateau d’argent"
    set_language("en")
    assert _("Silver platter") == "Silver platter"
    set_language("de")
    assert _("Silver platter") == "Silbertablett"
    assert [ngettext("{n} point", "{n} points", n) for n in (0, 1, 2)] == ["{n} Punkte", "{n} Punkt", "{n} Punkte"]
    set_language("fr")
    with pytest.raises(ValueError, match="language must be one of"):
        set_language(UNSUPPORTED)
    assert _("Silver platter") == "Plateau d’argent"  # refused, nothing changed


def game_names(language: str) -> list[str]:
    """The games' names in ``language``, as every front end says them (``text.game_name``)."""
    from tresfute.i18n import use_language
    from tresfute.rules import SPECS
    from tresfute.text import game_name

    with use_language(language):
        return [game_name(spec) for spec in SPECS.values()]


def same_as_english_allowed(catalog: Catalog, message: str) -> bool:
    """Whether a message may read in the catalogue's language as in English: it has no word (a
    sign, a placeholder: "{rank}."), or the catalogue says so, by a translator's comment "same as
    English" on the message (a name, a unit: "Total", "Export")."""
    import re

    if not re.search(r"[^\W\d_]", re.sub(r"\{[^{}]*\}", "", message)):
        return True
    return message in catalog and "same as English" in " ".join(catalog[message].user_comments)


def test_the_games_keep_their_published_name_in_each_language() -> None:
    """Each language names the games as its box does: its catalogue translates each game's English
    name (never left to French or English unless the catalogue says so); the shipped languages'
    boxes are examples (a new language is checked through its catalogue alone)."""
    from tresfute.rules import SPECS

    english = game_names("en")
    assert english == [spec.name_en for spec in SPECS.values()]
    for language in TRANSLATED_LANGUAGES:
        catalog = translations.load_catalog(language)
        names = game_names(language)
        for spec, name, name_en in zip(SPECS.values(), names, english, strict=True):
            assert translations.translated(catalog[spec.name_en].string), (language, name_en)
            assert name in (catalog[spec.name_en].string, spec.name_fr if language == "fr" else None), name
            assert name != name_en or same_as_english_allowed(catalog, name_en), (language, name)
    assert {code: game_names(code) for code in BOX_NAMES} == BOX_NAMES


# The published names of the shipped languages' boxes (examples: a new language need not add its own).
BOX_NAMES = {
    "fr": ["Très futé", "Vraiment très futé"],
    "en": ["That's Pretty Clever!", "Twice as Clever!"],
    "de": ["Ganz schön clever", "Doppelt so clever"],
}


def test_german_numbers_take_a_decimal_comma() -> None:
    from tresfute.i18n import use_language
    from tresfute.review_text import number

    with use_language("de"):
        assert number(12.25, 1) == "12,2"
    with use_language("en"):
        assert number(12.25, 1) == "12.2"


def test_a_language_writes_the_decimal_sign_its_catalogue_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The catalogue's "2.5" says it: a catalogue that keeps "2.5" (a language that writes a
    decimal point) writes 12.2, and no code lists the languages that do."""
    import tresfute.i18n
    from tresfute.i18n import _, use_language
    from tresfute.review_text import number

    catalog = translations.load_catalog("de")
    catalog["2.5"].string = "2.5"
    mo = tmp_path / "de" / "LC_MESSAGES" / "tresfute.mo"
    mo.parent.mkdir(parents=True)
    mo.write_bytes(translations.compiled(catalog))
    monkeypatch.setattr(tresfute.i18n, "LOCALE_DIR", tmp_path)
    with use_language("de"):
        assert number(12.25, 1) == "12.2" and _("Silver platter") == "Silbertablett"


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
            "'reprise o' n’est pas possible maintenant\u00a0: le joueur actif choisit un dé du lancer"
        )


def test_the_rules_write_every_refusal_as_a_template_for_the_catalogue() -> None:
    """An f-string reason cannot be extracted for translation: the rules use Reason("...", ...)."""
    import re

    rules = ROOT / "src" / "tresfute" / "rules"
    pattern = re.compile(r"(?:IllegalMoveError|MoveSyntaxError)\(\s*f?[\"']|Reason\(\s*f[\"']")
    found = [f"{p.name}: {m.group(0)}" for p in rules.glob("*.py") for m in pattern.finditer(p.read_text())]
    assert not found, found


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_each_catalogue_follows_its_languages_typography(language: str) -> None:
    """French: a no-break space before : ; ! ? and inside « », and ’ for an apostrophe
    (``scripts/french_typography.py`` mends a catalogue that does not); German: „…“ quotes,
    never "…" (``french_typography.CHECKS``); every language keeps the code's placeholders and
    the spaces at a message's ends (``french_typography.shared_problems``)."""
    typography = importlib.import_module("french_typography")
    wrong = typography.catalogue_problems(language, translations.load_catalog(language))
    assert wrong == [], "run scripts/french_typography.py"


def test_the_typography_checks_catch_what_they_promise() -> None:
    typography = importlib.import_module("french_typography")
    french, german = typography.problems, typography.german_problems
    assert french("Total : 3") == [" :"] and french("Total\u00a0: 3") == []
    assert french("un endroit sans droit d\u2019écriture ?)") == [" ?"]
    assert french("le plateau d'argent") == ["d'a"] and french("comme 'reprise g'\u00a0!") == []
    assert french("Cases « dé »") and french("Cases «\u00a0dé\u00a0»") == []
    mended = "Cases «\u00a0dé\u00a0» d\u2019argent\u00a0?"
    assert typography.mended("Cases « dé » d'argent ?") == mended == typography.mended(mended)
    assert german('etwa "w>o"') and german("etwa \u201ew>o\u201d") and german("etwa \u201ew>o\u201c") == []
    assert german('etwa ["r1c2"], {{"circled": []}}') == []
    shared = typography.shared_problems
    assert shared("Round {n}", "Manche {m}") == ["{m} is not filled in", "{n} is left out"]
    assert shared(("{n} point", "{n} points"), "un point") == []  # a plural's form may leave out its count
    assert shared(" or ", "ou") and shared(" or ", " ou ") == [] and shared("{a}", "{a") != []
    assert "de" in typography.CHECKS and "xx" not in typography.CHECKS  # a language without its own: the shared
    assert typography.catalogue_problems("xx", translations.load_catalog("de")) == []


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_every_page_message_reads_in_each_language(language: str) -> None:
    """The page shows no untranslated word: each of its messages has its text in the language,
    distinct from the English one unless the word is the same in both."""
    from tresfute.web.strings import choices, page_messages, ui_strings

    there, en, catalog = ui_strings(language), ui_strings("en"), translations.load_catalog(language)
    assert set(there) == set(en) == {m if isinstance(m, str) else m[0] for m in page_messages()}
    same = [key for key in there if there[key] == en[key] and not same_as_english_allowed(catalog, key)]
    assert same == [], f"not translated into {language} (or say so in its catalogue: # same as English): {same}"
    # the games' published names reach the page with the menus' lists (GET /api/choices)
    assert [game["name"] for game in choices(language)["games"]] == game_names(language)
    assert [game["name"] for game in choices("en")["games"]][1] == "Twice as Clever!"


def test_the_command_line_speaks_german_and_gives_a_solo_game_no_winner() -> None:
    """``--lang de``: German words and the German game's name; a solo game's replay gives its
    rating, not a "Winner(s)" line (in any language)."""
    from click.testing import CliRunner

    from tresfute.cli import main

    record = str(ROOT / "examples" / "solo-game.json")
    german = CliRunner().invoke(main, ["replay", record, "--lang", "de"]).output
    assert "Ganz schön clever — Gültige Partie (25 Züge)" in german and "Solowertung: " in german
    assert "Füchse" in german and "Gewonnen" not in german
    english = CliRunner().invoke(main, ["replay", record, "--lang", "en"]).output
    assert "Solo rating: " in english and "Winner" not in english


def test_simulate_help_describes_every_option() -> None:
    from click.testing import CliRunner

    from tresfute.cli import main

    text = " ".join(CliRunner().invoke(main, ["simulate", "--help"]).output.split())
    for words in ("The game played", "Players in each game", "The computer player in every seat", "How many games"):
        assert words in text
    assert "seeds derived from it" in text


def test_the_environments_text_render_speaks_german() -> None:
    """The ``ansi`` render, in German: the round, the instruction, the areas and the fox's label."""
    from tresfute.envs.render import render_text
    from tresfute.i18n import use_language
    from tresfute.rules import Game

    with use_language("de"):
        text = render_text(Game("vraiment-tres-fute", seed=1), 0)
    assert text.startswith("Runde 1/6 · player_0: wähle einen Würfel aus dem Wurf")
    assert "Silbertablett" in text and " SILBER " in text and " ROSA " in text and "FCHS" in text


def test_the_languages_are_declared_once_and_each_has_its_catalogue_and_help() -> None:
    """``tresfute.i18n.LANGUAGES`` is the list: the translations script and the command line
    follow it; each translated language has its compiled catalogue; the terminal game's help is
    there in French and English for each game (where a language has none, they stand in), and in
    no language outside the list."""
    from click.testing import CliRunner

    from tresfute.cli import main
    from tresfute.i18n import DEFAULT_LANGUAGE, SOURCE_LANGUAGE
    from tresfute.rules import SPECS

    assert translations.LANGUAGES == TRANSLATED_LANGUAGES
    for language in TRANSLATED_LANGUAGES:
        assert translations.mo_path(language).is_file(), language
    help_dir = ROOT / "src" / "tresfute" / "tui" / "help"
    shipped = {p.name for p in help_dir.glob("*.md")}
    assert {f"{game}.{code}.md" for game in SPECS for code in (DEFAULT_LANGUAGE, SOURCE_LANGUAGE)} <= shipped
    assert shipped <= {f"{game}.{code}.md" for game in SPECS for code in LANGUAGES}
    result = CliRunner().invoke(main, ["replay", str(ROOT / "examples" / "solo-game.json"), "--lang", UNSUPPORTED])
    assert result.exit_code == 2 and all(f"'{code}'" in result.output for code in LANGUAGES)


def _locale_dir(tmp_path: Path, leave_out: dict[str, set[str]]) -> Path:
    """A locale folder with each shipped catalogue compiled without the messages ``leave_out``
    names for its language; a language named with ``None`` in the set has no catalogue at all."""
    for language in TRANSLATED_LANGUAGES:
        left_out = leave_out.get(language, set())
        if None in left_out:
            continue
        catalog = translations.load_catalog(language)
        for message in left_out:
            del catalog[message]
        mo = tmp_path / language / "LC_MESSAGES" / "tresfute.mo"
        mo.parent.mkdir(parents=True)
        mo.write_bytes(translations.compiled(catalog))
    return tmp_path


def _i18n_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "tresfute.i18n" and r.levelno == logging.WARNING]


def test_a_message_missing_from_german_shows_in_french_with_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import tresfute.i18n
    from tresfute.i18n import _, ngettext, use_language

    leave_out = {"de": {"Silver platter", "{n} point", "Round"}, "fr": {"Round"}}
    monkeypatch.setattr(tresfute.i18n, "LOCALE_DIR", _locale_dir(tmp_path, leave_out))
    with use_language("de"):
        assert _("{text}") == "{text}"  # no words to translate (a reason given as plain text): no warning
        assert _("Silver platter") == "Plateau d’argent"  # French, the default
        assert [ngettext("{n} point", "{n} points", n) for n in (1, 2)] == ["{n} point", "{n} points"]
        assert _("Round") == "Round"  # lacking in French too: English, the last resort
        assert _("Die fields") == "Würfelfelder"  # the rest of the catalogue still German
    with use_language("fr"):
        assert _("Round") == "Round" and _("Silver platter") == "Plateau d’argent"
    warnings = _i18n_warnings(caplog)
    assert len(warnings) == 2, warnings  # once per language, however many messages it lacks
    assert "'de' catalogue lacks 'Silver platter'" in warnings[0] and "'fr' catalogue lacks 'Round'" in warnings[1]


def test_a_missing_catalogue_shows_french_and_english_still_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """No German catalogue: ``--lang de`` speaks French, ``--lang en`` English (each printing
    a solo rating, which reads every language), with one warning and no traceback."""
    from click.testing import CliRunner

    import tresfute.i18n
    from tresfute.cli import main
    from tresfute.i18n import _, set_language, use_language

    monkeypatch.setattr(tresfute.i18n, "LOCALE_DIR", _locale_dir(tmp_path, {"de": {None}}))
    record = str(ROOT / "examples" / "solo-game.json")
    german = CliRunner().invoke(main, ["replay", record, "--lang", "de"])
    assert german.exit_code == 0 and german.exception is None, german.output
    assert "Très futé — Partie valide (25 coups)" in german.output and "Traceback" not in german.output
    english = CliRunner().invoke(main, ["replay", record, "--lang", "en"])
    assert english.exit_code == 0 and "That's Pretty Clever! — Valid game (25 moves)" in english.output
    set_language("de")
    with use_language("de"):
        assert _("Silver platter") == "Plateau d’argent"
    warnings = _i18n_warnings(caplog)
    assert len(warnings) == 1 and "no usable 'de' catalogue" in warnings[0], warnings

    # No catalogue at all: English, the code's own words.
    monkeypatch.setattr(tresfute.i18n, "LOCALE_DIR", tmp_path / "nowhere")
    with use_language("de"):
        assert _("Silver platter") == "Silver platter"


def test_the_terminal_games_help_falls_back_to_french_then_english(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from tresfute.i18n import localized_text, use_language

    (tmp_path / "game.fr.md").write_text("# Aide", encoding="utf-8")
    (tmp_path / "game.en.md").write_text("# Help", encoding="utf-8")
    (tmp_path / "other.en.md").write_text("# Other help", encoding="utf-8")
    with use_language("de"):
        assert localized_text(tmp_path, "game", ".md") == "# Aide"
        assert localized_text(tmp_path, "game", ".md") == "# Aide"
        assert localized_text(tmp_path, "other", ".md") == "# Other help"
    with use_language("en"):
        assert localized_text(tmp_path, "game", ".md") == "# Help"
    assert len(_i18n_warnings(caplog)) == 2  # once for each text German lacks
    with pytest.raises(FileNotFoundError, match=r"no absent\.<language>\.md"):
        localized_text(tmp_path, "absent", ".md")


def test_the_terminal_games_help_screen_reads_the_french_help_where_its_language_has_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The help (`h`) in German, with no German help shipped, shows the French one."""
    import asyncio
    import shutil
    from importlib import resources
    from types import SimpleNamespace

    pytest.importorskip("textual")  # the terminal game's extra
    from textual.widgets import Markdown

    from tresfute.i18n import use_language
    from tresfute.tui import app as tui

    (tmp_path / "help").mkdir()
    shutil.copy(str(resources.files("tresfute.tui") / "help" / "tres-fute.fr.md"), tmp_path / "help")
    monkeypatch.setattr(tui, "resources", SimpleNamespace(files=lambda package: tmp_path))

    async def scenario() -> str:
        app = tui.TresFuteApp(bot_delay=0)
        async with app.run_test(size=(140, 50)) as pilot:
            app.push_screen(tui.HelpScreen("tres-fute"))
            await pilot.pause()
            return app.screen.query_one(Markdown).source

    with use_language("de"):
        shown = asyncio.run(scenario())
    assert shown.startswith("# Très futé — aide")
    assert any("no 'de' text" in r.getMessage() for r in caplog.records)
