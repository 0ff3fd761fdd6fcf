"""The page as a player feels it: the time from a click to the updated sheet on screen, and what
the page weighs on the wire. Chromium (Debian's) on loopback against a server this script starts.

    python benchmarks/page_speed.py                  # 3 solo games and 3 against the strong player
    python benchmarks/page_speed.py --games 5 --json

Each game is played by clicks as a person plays (a die, a lit cell, the roll and pass buttons);
a click is timed in the page from the click to the first frame painted after the sheet changed
(the game's revision moved on). With the strong computer opponent, its own thinking happens
between our turns and is not timed: what a click waits for is our move's answer. The page's
weight is its JavaScript, CSS and SVG compressed with gzip, as a server with compression sends
them. Goals (issue 37): median <= 50 ms solo, <= 150 ms with the strong opponent; <= 150 KB.
On the wire (issue 53, :data:`WIRE`): a game page's first load <= 80 KB, a repeat visit <= 10 KB
(``--weight-only`` measures only that).
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parents[1] / "src" / "tresfute" / "web" / "static"

TIMED_CLICK = """async (selector) => {
  const game = document.querySelector('.game');
  const before = game.dataset.revision;
  const target = document.querySelector(selector);
  if (!target) return null;
  const start = performance.now();
  target.click();
  return await new Promise((resolve) => {
    const done = () => requestAnimationFrame(() => resolve(performance.now() - start));
    const watch = new MutationObserver(() => {
      const now = document.querySelector('.game');
      if (now && now.dataset.revision !== before) { watch.disconnect(); done(); }
    });
    watch.observe(document.body, { subtree: true, attributes: true, childList: true });
    setTimeout(() => { watch.disconnect(); resolve(null); }, 10000);
  });
}"""


def page_weight() -> dict[str, int]:
    """Bytes of the page's files, raw and gzip-compressed (what a page load fetches)."""
    files = [STATIC / "index.html", STATIC / "app.css", STATIC / "icon.svg", *sorted((STATIC / "js").glob("*.js"))]
    files += [
        STATIC / "vendor" / "htm-preact-standalone-3.1.1.module.js",
        STATIC / "vendor" / "js-sha256-0.11.1.min.js",
    ]
    raw = sum(f.stat().st_size for f in files)
    packed = sum(len(gzip.compress(f.read_bytes(), 6)) for f in files)
    return {"files": len(files), "raw_bytes": raw, "gzip_bytes": packed}


WIRE = """What a page load moves over the network, as Chromium counts it (DevTools' Network
domain): each response's encoded bytes (headers and compressed body; nothing for one the cache
answered) and each WebSocket message received."""


def wire_weight(browser: Any, server: str) -> dict[str, Any]:
    """A game page's weight on the wire: its first load in a fresh browser, then a repeat visit
    (the same browser, its cache kept). The game is a solo game made by the API."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from browser import call

    created = call(server, "/api/games", {"game": "tres-fute", "seats": [{"name": "Ana"}]})
    url = server + created["seats"][0]["link"]
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True, locale="fr-FR")
    loads = []
    for _ in range(2):
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        seen: dict[str, Any] = {"bytes": 0, "requests": 0, "from_cache": 0, "revalidated": 0}

        def finished(event: dict[str, Any], seen: dict[str, Any] = seen) -> None:
            seen["bytes"] += int(event.get("encodedDataLength", 0))
            seen["requests"] += 1

        def received(event: dict[str, Any], seen: dict[str, Any] = seen) -> None:
            response = event["response"]
            if response.get("fromDiskCache") or response.get("fromMemoryCache"):
                seen["from_cache"] += 1
            if response.get("status") == 304:
                seen["revalidated"] += 1

        def frame(event: dict[str, Any], seen: dict[str, Any] = seen) -> None:
            seen["bytes"] += len(event["response"].get("payloadData", "").encode())

        cdp.on("Network.loadingFinished", finished)
        cdp.on("Network.responseReceived", received)
        cdp.on("Network.webSocketFrameReceived", frame)
        page.goto(url)
        page.wait_for_selector(".game")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(300)
        loads.append(seen)
        page.close()
    context.close()
    return {"first": loads[0], "repeat": loads[1]}


def play_timed(browser: Any, url: str, opponent: str | None, games: int) -> list[float]:
    """``games`` games by clicks (a lit cell, else the turn's button; the picker's first choice
    where one opens); the time of every click that changed the game."""
    times: list[float] = []
    for _ in range(games):
        context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
        # the others' moves at once (the page's pace setting): a click is timed to our move's sheet
        context.add_init_script("localStorage.setItem('tresfute.pace', 'instant')")
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#new-game")
        page.select_option("#players", "2" if opponent else "1")
        if opponent:
            page.select_option(".seat-kind[data-seat='1']", opponent)
        page.click("#start")
        page.wait_for_selector(".game")
        for _ in range(900):
            if page.locator(".game[data-over]").count():
                break
            if page.locator(".own-sheet button.target").count():
                selector = ".own-sheet button.target"
            elif page.locator("#moves .primary button").count():
                selector = "#moves .primary button"
            else:
                page.wait_for_timeout(50)  # the opponent decides
                continue
            elapsed = page.evaluate(TIMED_CLICK, selector)
            if page.locator(".chooser button[data-move]").count():
                elapsed = page.evaluate(TIMED_CLICK, ".chooser button[data-move]")
            if elapsed is not None:
                times.append(float(elapsed))
        context.close()
    return times


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "clicks": len(ordered),
        "median_ms": round(statistics.median(ordered), 1),
        "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="games of each kind (default 3)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--weight-only", action="store_true", help="measure the page's weight on the wire only")
    args = parser.parse_args()

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from playwright.sync_api import sync_playwright

    from browser import LiveServer

    results: dict[str, Any] = {"weight": page_weight()}
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        live = LiveServer(Path(folder) / "games.sqlite3")
        live.start()
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--headless", "--no-sandbox"])
        try:
            results["wire"] = wire_weight(browser, live.url)
            if not args.weight_only:
                results["solo"] = summary(play_timed(browser, live.url + "/", None, args.games))
                results["strong opponent"] = summary(play_timed(browser, live.url + "/", "strong", args.games))
        finally:
            browser.close()
            live.stop()
    if args.json:
        print(json.dumps(results, indent=2))
        return
    weight = results["weight"]
    print(
        f"page weight: {weight['gzip_bytes'] / 1024:.1f} KB compressed ({weight['raw_bytes'] / 1024:.1f} KB raw, "
        f"{weight['files']} files)"
    )
    for visit in ("first", "repeat"):
        w = results["wire"][visit]
        print(
            f"game page, {visit} visit: {w['bytes'] / 1024:.1f} KB on the wire, {w['requests']} requests "
            f"({w['from_cache']} from the cache, {w['revalidated']} revalidated: 304)"
        )
    for kind in ("solo", "strong opponent"):
        if kind not in results:
            continue
        r = results[kind]
        print(
            f"click to updated sheet, {kind}: median {r['median_ms']} ms, p90 {r['p90_ms']} ms ({r['clicks']} clicks)"
        )


if __name__ == "__main__":
    main()
