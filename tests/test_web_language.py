"""The server's side of the page's language and weight: the language a request is answered in
(``?lang=``, the header's cookie, ``Accept-Language``, ``serve --lang``, French), written into
the page and used by the API's refusals; answers compressed; the page's files cached for ever
under the version's name, revalidated by their ETag otherwise (304)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from tresfute.web.app import create_app
from tresfute.web.deps import accepted_languages
from tresfute.web.routes.pages import version


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(database=tmp_path / "games.sqlite3", challenge_bot="greedy")) as client:
        yield client


def _page_language(client: TestClient, path: str = "/", **headers: str) -> str:
    text = client.get(path, headers=headers).text
    return text.split('<html lang="', 1)[1].split('"', 1)[0]


def test_the_browsers_languages_are_read_most_wanted_first() -> None:
    assert accepted_languages("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7") == ["de", "de", "en", "en"]
    assert accepted_languages("en;q=0.5, fr-CH, *;q=0.1") == ["fr", "en", "*"]
    assert accepted_languages("it;q=0, es;q=x") == []
    assert accepted_languages("") == []


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("en-US,en;q=0.9", "en"),
        ("fr-FR", "fr"),
        ("ja, en;q=0.5", "en"),
        ("ja", "fr"),
    ],
)
def test_the_page_follows_the_browsers_language(client: TestClient, header: str, expected: str) -> None:
    for path in ("/", "/rules", "/g/abc", "/me"):
        assert _page_language(client, path, **{"Accept-Language": header}) == expected


def test_the_headers_choice_then_the_servers_language_then_french(tmp_path: Path) -> None:
    """The cookie the header's choice sets wins over the browser's languages; a browser asking
    for none tresfute speaks gets ``serve --lang``'s (``create_app(language=…)``), else French."""
    with TestClient(create_app(database=tmp_path / "a.sqlite3", challenge_bot="greedy", language="en")) as client:
        assert _page_language(client, **{"Accept-Language": "ja"}) == "en"
        assert _page_language(client, **{"Accept-Language": "de"}) == "de"
        client.cookies.set("tresfute_lang", "fr")
        assert _page_language(client, **{"Accept-Language": "de"}) == "fr"
        assert _page_language(client, "/?lang=de", **{"Accept-Language": "en"}) == "de"
    with TestClient(create_app(database=tmp_path / "b.sqlite3", challenge_bot="greedy")) as client:
        assert _page_language(client, **{"Accept-Language": "ja"}) == "fr"


def test_the_api_answers_in_the_requests_language(client: TestClient) -> None:
    said = {
        "de": "diese Partie gibt es nicht",
        "en": "no such game",
        "fr": "cette partie n’existe pas",
    }
    for language, sentence in said.items():
        answer = client.get("/api/games/nosuchgame", headers={"Accept-Language": f"{language};q=0.9"})
        assert answer.status_code == 404 and answer.json() == {"error": sentence}
    answer = client.get("/api/games/nosuchgame?lang=en", headers={"Accept-Language": "de"})
    assert answer.json() == {"error": said["en"]}
    answer = client.post("/api/games", json={"game": "tres-fute", "seats": []}, headers={"Accept-Language": "de"})
    assert answer.status_code == 422 and answer.json()["error"].startswith("fehlerhafte Anfrage: seats ")
    assert client.get("/nowhere", headers={"Accept-Language": "de"}).json() == {
        "error": "unter dieser Adresse gibt es nichts"
    }


def test_scripts_are_compressed_and_cached(client: TestClient) -> None:
    """A script is sent compressed; under the page's version it is cached for a year; without
    it (or under an old version), revalidated: its ETag answered 304 with no body."""
    page = client.get("/").text
    assert f'src="/static/v-{version()}/js/main.js"' in page and f'data-version="{version()}"' in page
    fresh = client.get(f"/static/v-{version()}/js/main.js", headers={"Accept-Encoding": "gzip"})
    assert fresh.status_code == 200 and fresh.headers["content-encoding"] == "gzip"
    assert fresh.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert "import(" in fresh.text
    for path in ("/static/js/game.js", "/static/v-0ld/js/game.js"):
        plain = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert plain.headers["content-encoding"] == "gzip" and plain.headers["cache-control"] == "no-cache"
        again = client.get(path, headers={"If-None-Match": plain.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
    assert client.get("/").headers["cache-control"] == "no-store"


def test_messages_and_sheets_of_this_version_are_cached(client: TestClient) -> None:
    strings = client.get(f"/api/strings?lang=de&v={version()}")
    assert strings.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert strings.json()["Rules"] == "Regeln" and strings.headers["content-encoding"] == "gzip"
    assert client.get("/api/strings?lang=de").headers["cache-control"] == "no-cache"
    layout = client.get(f"/api/layout/tres-fute?lang=de&v={version()}")
    assert layout.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert layout.json()["name"] == "Ganz schön clever"


def test_serve_lang_is_the_pages_language_where_the_browser_asks_for_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tresfute serve --lang de`` hands German to the application it runs (no --lang: none,
    so French)."""
    import uvicorn
    from click.testing import CliRunner

    from tresfute.cli import main

    served: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.append(app))
    monkeypatch.setenv("TRESFUTE_SERVE_LANG", "")  # serve --lang sets it: put back as it was after the test
    monkeypatch.delenv("TRESFUTE_SERVE_LANG")
    for args, expected in ((["--lang", "de"], "de"), ([], None)):
        result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "games.sqlite3"), *args])
        assert result.exit_code == 0, result.output
        assert served.pop().state.language == expected  # type: ignore[attr-defined]
        with TestClient(create_app(database=tmp_path / "g.sqlite3", language=expected)) as client:
            assert _page_language(client, **{"Accept-Language": "ja"}) == (expected or "fr")
