"""A connection that dies without closing: how soon the page, the server and the computer know.

Issue 27: through a proxy that silently swallows traffic (a black hole: the TCP connection
stays open, no byte passes), the page said "Connected" for the whole outage, the server noticed
after 33.6 s and the computer took the turn after 54.2 s, where the README promises 20 s.

Each run, with the server's real defaults (``rummykit.server.http.heartbeat``: a beat every 2 s,
silent after 6 s, uvicorn's pings every 5 s with 5 s to answer; ``DROP_GRACE_S`` 20 s): a live
server in this process, a party of Ann and Bob, and Debian's Chromium holding the seat to play
first through ``tests/black_hole.py`` on 127.0.0.1, while the other seat's socket stays open
straight to the server (a table with nobody there pauses). The computer players' worker
processes are warmed first, as on any server that has played a move (a cold pool's first
decision, spawning its processes, took 6 s more on a loaded machine). After a settling time
plus a random part of a beat (so that the cut falls anywhere between two beats), the proxy
swallows every byte both ways. Timed from that moment, on the wall clock:

- **page**: the page's connection status first turns to not-well ("Connection lost; trying
  again..."), as recorded in the page by a ``MutationObserver``; **reconnecting**: it first
  says "Reconnecting..." (its first new attempt, after the first wait);
- **server**: the server has no open socket of that seat (polled every 20 ms);
- **stand-in**: the computer takes the seat (``standing_in``); **played**: the table's version
  moves on (the computer's first action of that turn);
- **back**: once the proxy lets bytes through again, the time until the page says "Connected".

    .venv/bin/python benchmarks/silent_drop.py --runs 5 --json benchmarks/results/silent_drop.json

``--beat``, ``--silent`` and ``--grace`` shorten the defaults
(``tests/benchmarks/test_silent_drop_smoke.py`` runs it in miniature).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# run as a script: the repository (for benchmarks.*) and tests/ (the server, Chromium, the proxy)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tests"))
from benchmarks.engine import machine_info

from black_hole import running
from rummykit.core.observation import observe
from rummykit.core.presets import find_preset
from rummykit.core.state import GameState
from rummykit.server.http.heartbeat import BEAT_S, SILENT_S, Heartbeat
from rummykit.server.runtime.workers import decide
from rummykit.server.site.run import free_port
from rummykit.server.tables.turn_keeper import DROP_GRACE_S
from silent_drop import WATCH_CONNECTION, first_at, open_through, party_table, status_log
from table_client import WORKERS, LiveServer
from web.conftest import CHROMIUM, CHROMIUM_ARGS, INSTALL_CHROMIUM

FIGURES = ("page", "reconnecting", "server", "stand_in", "played", "back")
"""What each run times, in seconds (see the module's docstring)."""

POLL_S = 0.02
"""How often the server's state is looked at."""


def wait_for(probe: Callable[[], bool], timeout: float) -> float | None:
    """The wall-clock time ``probe`` first held, polling; ``None`` if it never did."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if probe():
            return time.time()
        time.sleep(POLL_S)
    return None


def warm_workers() -> None:
    """A few decisions of the stand-in's level in the worker pool: its processes started."""
    game = GameState.new(find_preset("classic").rules, seats=2, seed=27)
    view = observe(game, game.turn)

    async def decisions() -> None:
        await asyncio.gather(*(WORKERS.run(decide, "strong", view, 0.5) for _ in range(8)))

    asyncio.run(decisions())


def one_run(browser: Any, server: LiveServer, settle_s: float) -> dict[str, float | None]:
    """One cut through the black hole; each figure in seconds after the cut."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        with running(server.port) as hole, party_table(server) as (table_id, token, seat, _):
            open_through(page, hole, table_id, token)
            table = server.app.state.lobby.tables[table_id]
            version = table.version
            beat_s = server.heartbeat.beat_s
            page.wait_for_timeout((settle_s + random.uniform(0, beat_s)) * 1000)
            page.evaluate(WATCH_CONNECTION)
            hole.swallow()
            cut = time.time()
            limit = (server.drop_grace_s or DROP_GRACE_S) + server.heartbeat.silent_s + 30
            server_at = wait_for(lambda: not table.listeners.get(seat), limit)
            stand_in_at = wait_for(lambda: seat in table.standing_in, limit)
            played_at = wait_for(lambda: table.version > version, limit)
            page.wait_for_function(  # the page has tried again at least once by now
                "() => window.connLog.some(entry => entry.text.includes('Reconnecting'))",
                timeout=60_000,
            )
            page_at, reconnecting_at = first_at(page, "bad"), first_at(page, "bad", "Reconnecting")
            hole.restore()
            restored = time.time()
            page.wait_for_function(
                "() => document.getElementById('conn').dataset.state === 'ok'", timeout=60_000
            )
            back_at = min(
                (entry["at"] for entry in status_log(page) if entry["state"] == "ok"),
                key=lambda at: (at < restored, at),  # the first "Connected" after the restore
            )
    finally:
        context.close()

    def since(at: float | None, start: float = cut) -> float | None:
        return None if at is None else round(at - start, 3)

    return {
        "page": since(page_at),
        "reconnecting": since(reconnecting_at),
        "server": since(server_at),
        "stand_in": since(stand_in_at),
        "played": since(played_at),
        "back": since(back_at, restored),
    }


def summary(runs: list[dict[str, float | None]]) -> dict[str, dict[str, float | None]]:
    """Each figure's median, least and most over the runs (``None``s left out)."""
    out: dict[str, dict[str, float | None]] = {}
    for figure in FIGURES:
        values = [run[figure] for run in runs if run[figure] is not None]
        numbers = [float(value) for value in values if value is not None]
        out[figure] = {
            "median": round(statistics.median(numbers), 2) if numbers else None,
            "min": round(min(numbers), 2) if numbers else None,
            "max": round(max(numbers), 2) if numbers else None,
            "missing": len(runs) - len(numbers),
        }
    return out


def render(runs: list[dict[str, float | None]]) -> str:
    """The runs and their summary as a plain table, seconds after the cut."""
    lines = ["run  " + "  ".join(f"{figure:>12}" for figure in FIGURES)]
    for number, run in enumerate(runs, 1):
        cells = ("-" if run[f] is None else f"{run[f]:.2f}" for f in FIGURES)
        lines.append(f"{number:>3}  " + "  ".join(f"{cell:>12}" for cell in cells))
    for key in ("median", "min", "max"):
        stats = summary(runs)
        cells = ("-" if stats[f][key] is None else f"{stats[f][key]:.2f}" for f in FIGURES)
        lines.append(f"{key:>3}  " + "  ".join(f"{cell:>12}" for cell in cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5, help="cuts, each on a fresh party")
    parser.add_argument("--settle", type=float, default=4.0, help="seconds connected first")
    parser.add_argument("--beat", type=float, default=BEAT_S, help="seconds between beats")
    parser.add_argument("--silent", type=float, default=SILENT_S, help="the server's silence")
    parser.add_argument("--grace", type=float, default=DROP_GRACE_S, help="the drop's grace")
    parser.add_argument("--seed", type=int, default=None, help="the cuts' random phases")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args(argv)
    random.seed(args.seed)
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing: {INSTALL_CHROMIUM}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    runs: list[dict[str, float | None]] = []
    started = time.monotonic()
    warm_workers()
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        heartbeat = Heartbeat(beat_s=args.beat, silent_s=args.silent)  # the rest: defaults
        server = LiveServer(
            Path(folder) / "tables.sqlite3",
            free_port(),
            drop_grace_s=args.grace,
            heartbeat=heartbeat,
        )
        server.start()
        try:
            for number in range(args.runs):
                runs.append(one_run(browser, server, args.settle))
                print(f"run {number + 1}: {runs[-1]}", file=sys.stderr)
        finally:
            server.stop()
            browser.close()
    print(render(runs))
    if args.json is not None:
        result = {
            "settings": {
                "beat_s": heartbeat.beat_s,
                "silent_s": heartbeat.silent_s,
                "ping_s": heartbeat.ping_s,
                "ping_timeout_s": heartbeat.ping_timeout_s,
                "drop_grace_s": args.grace,
                "page_silent_beats": 2.5,
            },
            "runs": runs,
            "summary": summary(runs),
            "seconds": round(time.monotonic() - started, 1),
            "machine": machine_info(None),
        }
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
