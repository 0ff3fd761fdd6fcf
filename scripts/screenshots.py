"""Screenshots of a game's page as a player sees it (issue 73): each phase of a turn, in both
games, alone and at a table (you and two computer players), at six screen sizes, in French,
English and German, as PNGs of the first screen (what shows with no scrolling).

    python scripts/screenshots.py --sizes 360x740,1366x768 --langs fr --games vraiment-tres-fute --sheet

Needs the web and test extras (uvicorn, Playwright) and Chromium (``/usr/bin/chromium``, or
``TRESFUTE_CHROMIUM``); ``--sheet`` needs Pillow. The server runs in this process (uvicorn in a
thread, on a port the system picks, over a throwaway SQLite file), as ``tests/browser.py`` runs it.

Reaching a phase: the server rolls the dice (they cannot be seeded from outside), so a game is
played through the API by legal moves chosen at random, the computers' too, until the seat's view
stands in the phase wanted; the move choices come from ``random.Random(seed)`` for seeds
``--seed``, ``--seed`` + 1, … (eight tries; as tests/test_web_layout_browser.py reaches them).
A phase that never came in those tries is reported and left out. Très futé has no reprise; each
game is made once and shown at every size and in every language (looking changes nothing).

Files: ``OUT/<game>-<solo|table>-<phase>-<W>x<H>-<lang>.png``; with ``--sheet``, also
``OUT/sheet-<W>x<H>-<lang>.png``: one row a game and seating, one column a phase, scaled.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import socket
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

SIZES = [(360, 740), (390, 844), (414, 896), (768, 1024), (1366, 768), (1920, 1080)]
LANGS = {"fr": "fr-FR", "en": "en-GB", "de": "de-DE"}
GAMES = ["tres-fute", "vraiment-tres-fute"]
TABLES = ["solo", "table"]
ROBOTS = [{"bot": "greedy", "name": "Robot"}, {"bot": "greedy", "name": "Bea"}]
CHROMIUM = Path(os.environ.get("TRESFUTE_CHROMIUM", "/usr/bin/chromium"))
TRIES = 8  # seeds tried for a phase
MOVES = 400  # moves a try plays at most


def _kinds(view: dict[str, Any]) -> set[str]:
    return {m["kind"] for m in view.get("legal") or []}


def _own_turn(view: dict[str, Any]) -> bool:
    return view["state"]["active"] == 0 and not view["state"]["solo_passive_turn"]


# Each phase of the seat's turn (the seat is seat 0), as its view says it.
PHASES: dict[str, Callable[[dict[str, Any]], bool]] = {
    "roll": lambda v: _own_turn(v) and "roll" in _kinds(v),
    "pick": lambda v: v["state"]["active"] == 0 and v["state"]["phase"] == "choose" and "pick" in _kinds(v),
    "passive": lambda v: not _own_turn(v) and "pick" in _kinds(v),
    "bonus": lambda v: bool(v["pending"][0]),
    "extra": lambda v: "extra" in _kinds(v),
    "reprise": lambda v: "reprise" in _kinds(v),
}


def call(server: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """The server's JSON answer to a GET (or a POST of ``body``), as the seat ``token`` if given."""
    request = urllib.request.Request(
        server + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"X-Seat-Token": token} if token else {})},
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def start_server(database: Path) -> str:
    """A uvicorn server in a daemon thread over ``database``, on a port the system picks: its URL."""
    import uvicorn

    from tresfute.web.app import create_app
    from tresfute.web.limits import Limits

    bound = socket.socket()
    bound.bind(("127.0.0.1", 0))
    port = int(bound.getsockname()[1])
    # the games a phase takes to reach come faster than a site lets one address make them (0 lifts it)
    limits = dataclasses.replace(Limits.from_environment(), games_per_minute=0, sockets_per_address=0)
    app = create_app(database=database, challenge_bot="greedy", limits=limits)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [bound]}, daemon=True).start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}"


def reach(server: str, game: str, table: str, phase: str, first_seed: int) -> tuple[str, int] | None:
    """A seat link to a game standing in ``phase`` for seat 0, and the seed of the move choices
    that reached it; None if no try did."""
    wanted = PHASES[phase]
    seats = [{"name": "Anne"}, *(ROBOTS if table == "table" else [])]
    for seed in range(first_seed, first_seed + TRIES):
        rng = random.Random(seed)
        created = call(server, "/api/games", {"game": game, "seats": seats})
        token, link = created["seats"][0]["token"], created["seats"][0]["link"]
        for _ in range(MOVES):
            for _ in range(300):  # the computers play after the answer: until the seat has a move to make
                view = call(server, f"/api/games/{created['id']}", token=token)
                if view["over"] or view["legal"]:
                    break
                time.sleep(0.03)
            if view["over"]:
                break
            if wanted(view):
                return server + link, seed
            move = rng.choice(view["legal"])["move"]
            call(server, f"/api/games/{created['id']}/act", {"move": move, "seq": view["seq"]}, token=token)
    return None


def shoot(browser: Any, url: str, size: tuple[int, int], locale: str, path: Path) -> list[str]:
    """The first screen of ``url`` at ``size`` in ``locale``, once the page has settled, into
    ``path``; the errors the page logged."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True, locale=locale)
    context.add_init_script("localStorage.setItem('tresfute.pace', 'instant')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(url)
        page.wait_for_selector(".game:not([aria-busy])", timeout=20_000)
        page.wait_for_function("() => !document.querySelector('#step-text')", timeout=20_000)
        page.wait_for_timeout(300)
        page.screenshot(path=str(path))
    finally:
        context.close()
    return errors


def contact_sheet(shots: dict[tuple[str, str, str], Path], phases: list[str], path: Path, height: int = 420) -> None:
    """One PNG: a row a game and seating, a column a phase, each shot scaled to ``height``."""
    from PIL import Image, ImageDraw

    rows = sorted({(game, table) for game, table, _ in shots})
    columns = [p for p in phases if any(key[2] == p for key in shots)]
    any_shot = Image.open(next(iter(shots.values())))
    width = round(any_shot.width * height / any_shot.height)
    label, gap = 22, 8
    sheet = Image.new("RGB", (len(columns) * (width + gap) + gap, len(rows) * (height + label + gap) + gap), "white")
    draw = ImageDraw.Draw(sheet)
    for r, (game, table) in enumerate(rows):
        for c, phase in enumerate(columns):
            x, y = gap + c * (width + gap), gap + r * (height + label + gap)
            draw.text((x, y + 4), f"{game} {table} {phase}", fill="black")
            shot = shots.get((game, table, phase))
            if shot is not None:
                sheet.paste(
                    Image.open(shot).convert("RGB").resize((width, height), Image.Resampling.LANCZOS), (x, y + label)
                )
    sheet.save(path)


def _sizes(text: str) -> list[tuple[int, int]]:
    try:
        return [(int(w), int(h)) for w, h in (s.split("x") for s in text.split(","))]
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes are WIDTHxHEIGHT[,…], not {text!r}") from None


def _choice(allowed: list[str]) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        chosen = [t for t in text.split(",") if t]
        wrong = [t for t in chosen if t not in allowed]
        if wrong or not chosen:
            raise argparse.ArgumentTypeError(f"choose among {', '.join(allowed)} (not {', '.join(wrong) or 'none'})")
        return chosen

    return parse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("runs/screenshots"), help="folder for the PNGs")
    parser.add_argument("--sizes", type=_sizes, default=SIZES, help="WIDTHxHEIGHT,… (default: all six)")
    parser.add_argument("--langs", type=_choice(list(LANGS)), default=list(LANGS), help="fr,en,de")
    parser.add_argument("--games", type=_choice(GAMES), default=GAMES, help=",".join(GAMES))
    parser.add_argument("--tables", type=_choice(TABLES), default=TABLES, help="solo,table")
    parser.add_argument("--phases", type=_choice(list(PHASES)), default=list(PHASES), help=",".join(PHASES))
    parser.add_argument("--seed", type=int, default=0, help="the first seed of the move choices (default 0)")
    parser.add_argument("--sheet", action="store_true", help="also a contact sheet a size and language (Pillow)")
    args = parser.parse_args(argv)
    if args.sheet:
        import PIL  # noqa: F401  (said now, not after minutes of screenshots)
    if not CHROMIUM.exists():
        parser.error(f"no Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder) / "games.sqlite3")
        links: dict[tuple[str, str, str], str] = {}
        for game in args.games:
            for table in args.tables:
                for phase in args.phases:
                    if phase == "reprise" and game == "tres-fute":
                        continue  # Très futé has no reprise
                    reached = reach(server, game, table, phase, args.seed)
                    if reached is None:
                        print(f"{game} {table} {phase}: not reached in {TRIES} tries", file=sys.stderr)
                        continue
                    links[game, table, phase] = reached[0]
                    print(f"{game} {table} {phase}: seed {reached[1]}", file=sys.stderr)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
            for size in args.sizes:
                for lang in args.langs:
                    shots: dict[tuple[str, str, str], Path] = {}
                    for (game, table, phase), url in links.items():
                        path = args.out / f"{game}-{table}-{phase}-{size[0]}x{size[1]}-{lang}.png"
                        errors = shoot(browser, url, size, LANGS[lang], path)
                        if errors:
                            print(f"{path.name}: page errors {errors}", file=sys.stderr)
                        shots[game, table, phase] = path
                    if args.sheet and shots:
                        sheet = args.out / f"sheet-{size[0]}x{size[1]}-{lang}.png"
                        contact_sheet(shots, list(PHASES), sheet)
                        print(sheet, file=sys.stderr)
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
