"""Quick pairing: how long a player waits for a table, and how close in rating the table is.

Two parts:

- **policy**: players arrive in one pool at random (a Poisson process, ``--rates`` players a
  minute), with ratings like a site's (normal, mean 1500, standard deviation 250, within
  800-2300), and are paired exactly as the server pairs them (``rummykit.ratings.tables_to_make``
  when someone arrives and every second). Simulated time, ``--minutes`` of it per rate: the
  figures are the policy's, not the machine's. For two-seat and four-seat pools: tables made,
  the wait to a table (p50 / p90 / max) and the rating spread of a table (highest less lowest:
  p50 / p90 / max).
- **server**: pairs of guests seek in ``duel_30`` on a real app (in this process, a SQLite
  store in a temporary folder, over its sockets), one pair after another: the time from the
  second seek to both seats given (the party made and started, its table dealt and stored).

    .venv/bin/python benchmarks/pairing.py --json benchmarks/results/pairing.json
    .venv/bin/python benchmarks/pairing.py --quick    # a smoke run: seconds
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tests"))
from benchmarks.engine import machine_info

from rummykit.ratings import Seeker, tables_to_make

RATING_MEAN = 1500.0
RATING_SD = 250.0
TICK_S = 1.0


def percentile(values: Sequence[float], share: float) -> float | None:
    """The value below which ``share`` of ``values`` lie (nearest rank); ``None``: none."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def simulate(rate_per_min: float, seats: int, minutes: float, seed: int) -> dict[str, Any]:
    """One pool under arrivals at ``rate_per_min`` for ``minutes`` of simulated time."""
    rng = random.Random(seed)
    end = minutes * 60.0
    arrivals: list[float] = []
    at = rng.expovariate(rate_per_min / 60.0)
    while at < end:
        arrivals.append(at)
        at += rng.expovariate(rate_per_min / 60.0)
    waiting: list[Seeker[int]] = []
    waits: list[float] = []
    spreads: list[float] = []
    next_tick = TICK_S
    events = iter(arrivals)
    arrival = next(events, None)
    key = 0
    while arrival is not None or next_tick < end:
        if arrival is not None and arrival <= next_tick:
            now = arrival
            rating = min(2300.0, max(800.0, rng.gauss(RATING_MEAN, RATING_SD)))
            waiting.append(Seeker(key, rating, now))
            key += 1
            arrival = next(events, None)
        else:
            now = next_tick
            next_tick += TICK_S
            if not waiting:
                continue
        for table in tables_to_make(waiting, seats, now):
            for each in table:
                waiting.remove(each)
                waits.append(now - each.since)
            spreads.append(max(s.rating for s in table) - min(s.rating for s in table))
    return {
        "rate_per_min": rate_per_min,
        "seats": seats,
        "minutes": minutes,
        "players": len(arrivals),
        "tables": len(spreads),
        "left_waiting": len(waiting),
        "wait_s": {
            "p50": percentile(waits, 0.5),
            "p90": percentile(waits, 0.9),
            "max": max(waits, default=None),
        },
        "spread": {
            "p50": percentile(spreads, 0.5),
            "p90": percentile(spreads, 0.9),
            "max": max(spreads, default=None),
        },
    }


def server_latency(pairs: int) -> dict[str, Any]:
    """Seconds from the second seek to both seats given, on a real app, ``pairs`` times."""
    from starlette.testclient import TestClient

    from rummykit.protocol import PAIRING_SERVER_MESSAGES, Limits
    from rummykit.server.site.app import create_app
    from rummykit.server.site.config import ServerConfig

    hello = json.dumps({"t": "hello", "v": 0, "d": {}})

    def seek(name: str) -> str:
        return json.dumps({"t": "seek", "v": 0, "d": {"pool": "duel_30", "name": name}})

    def paired(socket: Any) -> None:
        while True:
            message = PAIRING_SERVER_MESSAGES.validate_json(socket.receive_text())
            if message.t == "paired":
                return
            assert message.t == "seeking", message

    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        # one test client is one address: the limits made for strangers are lifted
        config = ServerConfig(store_path=Path(folder) / "p.sqlite3", limits=Limits.unlimited())
        app = create_app(config)
        with TestClient(app) as client:
            for n in range(pairs + 1):  # the first pair warms the app up: not counted
                with (
                    client.websocket_connect("/ws/pairing") as first,
                    client.websocket_connect("/ws/pairing") as second,
                ):
                    first.send_text(hello)
                    second.send_text(hello)
                    first.send_text(seek("Ann"))
                    first.receive_text()  # seeking
                    started = time.perf_counter()
                    second.send_text(seek("Bob"))
                    paired(second)
                    paired(first)
                    if n:
                        times.append(time.perf_counter() - started)
    return {
        "pairs": pairs,
        "ms": {
            "p50": 1000 * statistics.median(times),
            "p90": 1000 * (percentile(times, 0.9) or 0.0),
            "max": 1000 * max(times),
        },
    }


def _row(cell: dict[str, Any]) -> str:
    wait, spread = cell["wait_s"], cell["spread"]

    def shown(value: float | None) -> str:
        return "-" if value is None else f"{value:.0f}"

    return (
        f"| {cell['seats']} | {cell['rate_per_min']:g} | {cell['players']} | {cell['tables']} | "
        f"{shown(wait['p50'])} / {shown(wait['p90'])} / {shown(wait['max'])} | "
        f"{shown(spread['p50'])} / {shown(spread['p90'])} / {shown(spread['max'])} |"
    )


def main(argv: list[str] | None = None) -> int:
    """Run both parts and print their tables (Markdown)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rates", type=float, nargs="+", default=[2, 6, 20, 60])
    parser.add_argument("--minutes", type=float, default=240.0)
    parser.add_argument("--pairs", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a smoke run: small sizes")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args(argv)
    if args.quick:
        args.minutes, args.pairs = 10.0, 3
    from rich.progress import track

    cells = [(rate, seats) for seats in (2, 4) for rate in args.rates]
    policy = [
        simulate(rate, seats, args.minutes, args.seed)
        for rate, seats in track(cells, description="simulating pools", transient=True)
    ]
    server = server_latency(args.pairs)
    print(f"Quick pairing, {args.minutes:g} simulated minutes a pool, seed {args.seed}")
    print()
    print(
        "| seats | arrivals a minute | players | tables | wait s p50 / p90 / max "
        "| spread p50 / p90 / max |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for cell in policy:
        print(_row(cell))
    print()
    ms = server["ms"]
    print(
        f"Server: {server['pairs']} pairs of guests in duel_30, second seek to both seats: "
        f"p50 {ms['p50']:.1f} ms, p90 {ms['p90']:.1f} ms, max {ms['max']:.1f} ms"
    )
    if args.json:
        report = {
            "machine": machine_info(None),
            "config": {"quick": args.quick, "minutes": args.minutes, "seed": args.seed},
            "policy": policy,
            "server": server,
        }
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
