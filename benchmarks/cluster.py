"""Two `rummy serve` processes on one PostgreSQL and one Redis: round trips and re-owning.

Starts a throwaway PostgreSQL and Redis (as the tests do: ``tests/services.py``,
``tests/redis_service.py``) and two server processes, A and B, sharing them. Then, in one run:

1. **Round trip.** One table made on A (a person and a computer player). A seat's socket sends
   ``pace`` (a stored change answered with a view) and waits for the view: on A itself (the
   owner) and on B (relayed over Redis), alternating in rounds, so both see the same load.
   Each client connects from a loopback address of its own (any 127.x.y.z is this machine), as
   in ``load_client.py``, so that the server's limits for one address are not the bound.
2. **Re-owning after SIGKILL.** ``--tables`` tables made on A, each with a seat's socket open
   on B (relayed). A is killed with SIGKILL; each socket is closed by B once the lease has run
   out (4503), reconnects to B, which takes the table over, and receives its view: the time
   from the kill to that view, per table.
3. **Quick pairing across the processes.** ``--pairs`` pairs of guests seek a table in
   ``duel_30``: the first on A; the second on A too (one process), or on B (two processes: the
   pool is on Redis, B seats both, and A's player gets the seat by post, nudged on the bus).
   The time from the second seek sent to both seats received, alternating the two kinds.

    .venv/bin/python benchmarks/cluster.py                  # 100 tables, 200 trips, 50 pairs
    .venv/bin/python benchmarks/cluster.py --quick          # a smoke run
    .venv/bin/python benchmarks/cluster.py --json results.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from rummykit.server.cluster.lease import LEASE_S
from rummykit.server.site.run import free_port

# run as a script: the repository (for benchmarks.*) and tests/ (the tests' throwaway servers)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tests"))
from benchmarks.load_client import client_address, post_json

from redis_service import RedisProcess
from server_process import ServerProcess
from services import local_postgres

SEND_GAP_S = 0.15
"""The pause between two rounds, not timed: a socket may send 10 messages a second at most."""


async def _table(server: ServerProcess, address: str) -> tuple[str, str]:
    """A table of a person and a computer player, made on ``server`` from ``address``."""
    body = {"name": "Ada", "preset": "classic", "opponents": ["basic"]}
    status, made = await post_json(server.port, "/api/tables", body, address)
    assert status == 200, made
    return str(made["table"]), str(made["token"])


def _socket_url(server: ServerProcess, table: str) -> str:
    return f"ws://127.0.0.1:{server.port}/ws/{table}"


def _hello(token: str, last: int = 0) -> str:
    return json.dumps({"t": "hello", "v": last, "d": {"token": token}})


async def _view(connection: ClientConnection, pace_ms: int | None = None) -> int:
    """The version of the next view frame (with this pace, if given)."""
    while True:
        frame = json.loads(await connection.recv())
        if frame["t"] == "view" and pace_ms in (None, frame["d"]["pace_ms"]):
            return int(frame["v"])


async def round_trips(
    owner: ServerProcess, other: ServerProcess, rounds: int
) -> dict[str, list[float]]:
    """Milliseconds from ``pace`` sent to the view back, on the owner and relayed."""
    table, token = await _table(owner, client_address(0))
    timings: dict[str, list[float]] = {"owner": [], "relayed": []}
    async with (
        connect(_socket_url(owner, table), local_addr=(client_address(1), 0)) as on_owner,
        connect(_socket_url(other, table), local_addr=(client_address(2), 0)) as relayed,
    ):
        for connection in (on_owner, relayed):
            await connection.send(_hello(token))
            await _view(connection)
        for number in range(rounds):
            for offset, (name, connection) in enumerate(
                (("owner", on_owner), ("relayed", relayed))
            ):
                ms = 700 + 2 * number + offset  # a new pace each time: its own view answers
                pace = json.dumps({"t": "pace", "v": 0, "d": {"ms": ms}})
                started = time.perf_counter()
                await connection.send(pace)
                await _view(connection, ms)
                timings[name].append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(SEND_GAP_S)  # under the server's limit of messages a socket
    return timings


async def _follow(
    server: ServerProcess, table: str, token: str, address: str, killed: asyncio.Event
) -> float:
    """A seat relayed by ``server``: the moment its view came back after the move."""
    async with connect(_socket_url(server, table), local_addr=(address, 0)) as connection:
        await connection.send(_hello(token))
        last = await _view(connection)
        try:
            while True:
                frame = json.loads(await connection.recv())
                last = max(last, int(frame.get("v", 0)))
        except ConnectionClosed:
            pass
    await killed.wait()
    while True:
        try:
            async with connect(_socket_url(server, table), local_addr=(address, 0)) as again:
                await again.send(_hello(token, last))
                await _view(again)
                return time.monotonic()
        except (ConnectionClosed, OSError):
            await asyncio.sleep(0.1)


async def reowning(owner: ServerProcess, other: ServerProcess, tables: int) -> list[float]:
    """Seconds from A's SIGKILL to each table's view through B."""
    addresses = [client_address(10 + number) for number in range(tables)]
    made = [await _table(owner, address) for address in addresses]
    killed = asyncio.Event()
    following = [
        asyncio.create_task(_follow(other, table, token, address, killed))
        for (table, token), address in zip(made, addresses, strict=True)
    ]
    await asyncio.sleep(1.0)  # every socket joined (relayed)
    at = time.monotonic()
    owner.kill()
    killed.set()
    done = await asyncio.gather(*following)
    return [moment - at for moment in done]


def _seek(name: str) -> str:
    return json.dumps({"t": "seek", "v": 0, "d": {"pool": "duel_30", "name": name}})


async def _frame(connection: ClientConnection, kind: str) -> dict[str, Any]:
    """The next frame of this kind (``t``)."""
    while True:
        frame: dict[str, Any] = json.loads(await connection.recv())
        if frame["t"] == kind:
            return frame
        assert frame["t"] != "refused", frame


async def pairings(a: ServerProcess, b: ServerProcess, pairs: int) -> dict[str, list[float]]:
    """Milliseconds from a second guest's seek to both seats given: on one process, on two."""
    timings: dict[str, list[float]] = {"one process": [], "two processes": []}
    index = 500
    for _ in range(pairs):
        for name, second in (("one process", a), ("two processes", b)):
            index += 2
            async with (
                connect(_pairing_url(a), local_addr=(client_address(index), 0)) as waiting,
                connect(_pairing_url(second), local_addr=(client_address(index + 1), 0)) as late,
            ):
                for connection in (waiting, late):
                    await connection.send(json.dumps({"t": "hello", "v": 0, "d": {}}))
                await waiting.send(_seek("Ann"))
                await _frame(waiting, "seeking")
                started = time.perf_counter()
                await late.send(_seek("Bob"))
                seats = await asyncio.gather(_frame(waiting, "paired"), _frame(late, "paired"))
                timings[name].append((time.perf_counter() - started) * 1000)
                assert seats[0]["d"]["table"] == seats[1]["d"]["table"]
    return timings


def _pairing_url(server: ServerProcess) -> str:
    return f"ws://127.0.0.1:{server.port}/ws/pairing"


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(rounds: int, tables: int, pairs: int) -> dict[str, Any]:
    """The three measurements, with their servers started and stopped around them."""
    with ExitStack() as stack, tempfile.TemporaryDirectory() as folder:
        database, _ = stack.enter_context(local_postgres())
        redis = RedisProcess(Path(folder))
        redis.start()
        stack.callback(redis.stop)
        shared = ("--database-url", database, "--redis-url", redis.url)

        def two_servers(first: str, second: str) -> list[ServerProcess]:
            servers = [
                stack.enter_context(
                    ServerProcess(
                        Path(folder) / f"{name}.sqlite3",
                        free_port(),
                        Path(folder) / f"{name}.log",
                        *shared,
                    )
                )
                for name in (first, second)
            ]
            for server in servers:
                server.start()
            return servers

        servers = two_servers("a", "b")
        trips = asyncio.run(round_trips(servers[0], servers[1], rounds))
        moved = asyncio.run(reowning(servers[0], servers[1], tables))
        # two fresh processes: the pairs' tables play on (the computer for the absent) and
        # would load the measurements above
        servers = two_servers("c", "d")
        paired = asyncio.run(pairings(servers[0], servers[1], pairs))
    return {
        "lease_s": LEASE_S,
        "round_trip_ms": {
            name: {
                "p50": statistics.median(values),
                "p99": _percentile(values, 0.99),
                "n": len(values),
            }
            for name, values in trips.items()
        },
        "paired_ms": {
            name: {
                "p50": statistics.median(values),
                "p90": _percentile(values, 0.9),
                "max": max(values),
                "n": len(values),
            }
            for name, values in paired.items()
        },
        "reowned_s": {
            "tables": tables,
            "p50": statistics.median(moved),
            "max": max(moved),
        },
    }


def main() -> None:
    """Measure and print the results table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 20 rounds, 5 tables, 3 pairs"
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    rounds, tables, pairs = (20, 5, 3) if args.quick else (args.rounds, args.tables, args.pairs)
    results = run(rounds, tables, pairs)
    trips = results["round_trip_ms"]
    print("round trip (pace -> view), ms      p50      p99")
    for name in ("owner", "relayed"):
        print(f"  {name:<32} {trips[name]['p50']:7.2f}  {trips[name]['p99']:7.2f}")
    print("quick pairing, second seek -> both seats, ms   p50      p90      max")
    for name, figures in results["paired_ms"].items():
        print(f"  {name:<32} {figures['p50']:7.2f}  {figures['p90']:7.2f}  {figures['max']:7.2f}")
    moved = results["reowned_s"]
    print(
        f"re-owned after SIGKILL ({moved['tables']} tables, lease {LEASE_S:g} s): "
        f"p50 {moved['p50']:.2f} s, max {moved['max']:.2f} s"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
