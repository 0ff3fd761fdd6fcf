"""Learning to play: the rules page is served, its words and the guide's read in French and in
English, the guide's steps are the terminal help's, and the view carries every fact the guide
reads (it works nothing out itself)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from tresfute.learn import STEPS
from tresfute.web.app import create_app
from tresfute.web.strings import ui_strings

JS = Path(__file__).parent.parent / "src" / "tresfute" / "web" / "static" / "js"
_MARKED = re.compile(r"\b(?:t|N_)\(\s*(\"(?:[^\"\\\n]|\\.)*\")")


def _messages(module: str) -> list[str]:
    return [json.loads(m) for m in _MARKED.findall((JS / module).read_text(encoding="utf-8"))]


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(database=tmp_path / "games.sqlite3"))


@pytest.mark.parametrize("path", ["/rules", "/rules?game=vraiment-tres-fute", "/rules?game=tres-fute"])
def test_the_rules_page_is_served_as_the_page(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    assert '/js/main.js"' in answer.text  # under the version's name: /static/v-<version>/js/main.js
    assert client.head(path).status_code == 200


def test_the_page_routes_the_rules_and_links_them_from_home_and_game() -> None:
    main = (JS / "main.js").read_text(encoding="utf-8")
    assert 'location.pathname === "/rules"' in main and 'href="/rules"' in main  # the header, on every page
    assert "/rules?game=${view.game}" in (JS / "game.js").read_text(encoding="utf-8")
    assert 'href="/rules"' in (JS / "home.js").read_text(encoding="utf-8")


@pytest.mark.parametrize("module", ["rules.js", "guide.js"])
def test_the_rules_and_the_guide_read_in_french_and_in_english(module: str) -> None:
    fr, en = ui_strings("fr"), ui_strings("en")
    messages = _messages(module)
    assert len(messages) > 10
    for message in messages:
        assert en[message] == message
        assert fr[message] and fr[message] != message, f"not in French: {message}"
    assert fr["Leave the guide"] == "Quitter le guide" and fr["Rules"] == "Règles"


def test_the_rules_page_explains_every_area_of_both_games() -> None:
    """rules.js has a text for each area of each game's layout (how to fill it, how it scores)."""
    from tresfute.web.layout import sheet_layout

    rules = (JS / "rules.js").read_text(encoding="utf-8")
    for game in ("tres-fute", "vraiment-tres-fute"):
        block = rules.split(f'"{game}": {{', 1)[1].split("\n  },", 1)[0]
        letters = re.findall(r"^    (\w): \[", block, flags=re.MULTILINE)
        assert letters == [area["letter"] for area in sheet_layout(game, "en")["areas"]]


def test_the_guides_steps_are_the_terminal_helps() -> None:
    """One list of steps in one set of words: guide.js's STEPS and tresfute.learn's."""
    guide = (JS / "guide.js").read_text(encoding="utf-8")
    found = re.findall(r'\["(\w+)", N_\(("(?:[^"\\]|\\.)*")\), N_\(("(?:[^"\\]|\\.)*")\)\]', guide)
    assert [(key, json.loads(title), json.loads(text)) for key, title, text in found] == list(STEPS)
    keys = [key for key, _title, _text in STEPS]
    for step in ("roll", "choose", "platter", "bonus", "passive", "solo", "fox", "reroll", "extra"):
        assert step in keys


def _play(client: TestClient, game_id: str, token: str, view: dict[str, Any], move: str) -> dict[str, Any]:
    answer = client.post(
        f"/api/games/{game_id}/act", json={"move": move, "seq": view["seq"]}, headers={"X-Seat-Token": token}
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_the_view_carries_every_fact_the_guide_reads(client: TestClient) -> None:
    """A solo game played to its passive turn: the guide reads the phase, the active player, the
    picks, where each die lies, the legal moves' kinds, the pending bonuses and the foxes."""
    created = client.post("/api/games", json={"game": "tres-fute", "seats": [{"name": "Ana"}]}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    view = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token}).json()
    assert view["you"] == 0 and view["state"]["phase"] == "roll" and view["state"]["active"] == 0
    assert [m["kind"] for m in view["legal"]] == ["roll"]
    view = _play(client, game_id, token, view, "roll")
    assert view["state"]["phase"] == "choose" and view["state"]["picks"] == 0
    kinds = set()
    for _ in range(200):
        state = view["state"]
        assert {"solo_passive_turn", "picks", "active", "phase", "dice", "sheets"} <= set(state)
        assert all({"die", "value", "where"} <= set(d) for d in state["dice"])
        assert "foxes" in state["sheets"][0]["score"] and isinstance(view["pending"][0], list)
        kinds |= {m["kind"] for m in view["legal"]}
        if state["solo_passive_turn"] and any(m["kind"] == "pick" for m in view["legal"]):
            break
        picks = [m for m in view["legal"] if m["kind"] == "pick"]
        view = _play(client, game_id, token, view, (picks or view["legal"])[0]["move"])
    else:
        raise AssertionError("no solo passive pick reached")
    assert {"roll", "pick"} <= kinds
