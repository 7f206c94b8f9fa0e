"""The bus and the leases, on Redis against in memory: latency p50/p99 side by side.

- ``hop``: publish on one bus, receive on a subscription of another (two Redis connections,
  as between two processes): the time from ``publish`` to the subscriber's ``anext``.
- ``round trip``: an intent published to the owner's channel, the owner (a task on the other
  bus) publishing a frame back on the table's frames channel, received by the first: what a
  socket on a non-owner process adds to each action.
- ``acquire`` (a fresh table each time) and ``renew`` (one held lease) of the leases.

Every figure is measured one call at a time, the kinds interleaved in rounds (memory, Redis,
memory, ...), so the noise of the shared machine falls on both. Redis is a ``redis-server``
the script starts on a free loopback port (or ``--redis-url``), in one event loop with the
client, as a server process would use it.

Usage::

    .venv/bin/python benchmarks/bus_roundtrip.py --json benchmarks/results/bus_roundtrip.json
    .venv/bin/python benchmarks/bus_roundtrip.py --quick      # smoke run, about a second
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tests"))
from benchmarks.engine import machine_info, render
from benchmarks.load_report import percentile

from redis_service import RedisProcess
from rummykit.server.cluster.bus import Bus, MemoryBus, RedisBus, frames_channel, intents_channel
from rummykit.server.cluster.lease import Leases, MemoryLeases, RedisLeases

KINDS: Final = ("memory", "redis")
FIGURES: Final = ("hop", "round trip", "acquire", "renew")
ROUND: Final = 50
"""Samples of one figure and kind in a row, before the other kind has its turn."""

Timed = Callable[[], Awaitable[float]]


class Kind:
    """The buses and leases of one kind, and a timed call for each figure."""

    def __init__(self, name: str, buses: tuple[Bus, Bus], leases: Leases, payload: bytes) -> None:
        self.name = name
        self.here, self.there = buses
        self.leases = leases
        self.payload = payload
        self.table = uuid.uuid4().hex
        self._owner: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.hop_sub = await self.there.subscribe(frames_channel(f"hop-{self.table}"))
        self.frames = await self.here.subscribe(frames_channel(self.table))
        intents = await self.there.subscribe(intents_channel(self.table))

        async def owner() -> None:  # the table's owner: each intent answered by a frame
            async for intent in intents:
                if isinstance(intent, bytes):
                    await self.there.publish(frames_channel(self.table), intent)

        self._owner = asyncio.get_running_loop().create_task(owner())
        lease = await self.leases.acquire(self.table, "bench")
        assert lease is not None
        self.lease = lease

    async def stop(self) -> None:
        if self._owner is not None:
            self._owner.cancel()
        await self.leases.release(self.lease)

    async def hop(self) -> float:
        started = time.perf_counter()
        await self.here.publish(self.hop_sub.channel, self.payload)
        got = await anext(self.hop_sub)
        elapsed = time.perf_counter() - started
        assert got == self.payload, got
        return elapsed

    async def round_trip(self) -> float:
        started = time.perf_counter()
        await self.here.publish(intents_channel(self.table), self.payload)
        got = await anext(self.frames)
        elapsed = time.perf_counter() - started
        assert got == self.payload, got
        return elapsed

    async def acquire(self) -> float:
        table = uuid.uuid4().hex
        started = time.perf_counter()
        lease = await self.leases.acquire(table, "bench")
        elapsed = time.perf_counter() - started
        assert lease is not None
        await self.leases.release(lease)
        return elapsed

    async def renew(self) -> float:
        started = time.perf_counter()
        lease = await self.leases.renew(self.lease)
        elapsed = time.perf_counter() - started
        assert lease is not None
        self.lease = lease
        return elapsed

    def timed(self, figure: str) -> Timed:
        calls: dict[str, Timed] = {
            "hop": self.hop,
            "round trip": self.round_trip,
            "acquire": self.acquire,
            "renew": self.renew,
        }
        return calls[figure]


@asynccontextmanager
async def kinds(url: str, payload: bytes) -> AsyncIterator[list[Kind]]:
    memory_bus = MemoryBus()
    made = [
        Kind("memory", (memory_bus, memory_bus), MemoryLeases(), payload),
        Kind("redis", (RedisBus(url), RedisBus(url)), RedisLeases.from_url(url), payload),
    ]
    try:
        for kind in made:
            await kind.start()
        yield made
    finally:
        for kind in made:
            await kind.stop()
            await kind.here.aclose()
            await kind.there.aclose()
            await kind.leases.aclose()


def spread_ms(values: Sequence[float]) -> dict[str, float | None]:
    def ms(fraction: float) -> float | None:
        value = percentile(values, fraction)
        return None if value is None else round(value * 1000, 3)

    return {"p50": ms(0.50), "p99": ms(0.99), "max": ms(1.0), "count": len(values)}


async def measure(url: str, samples: int, warmup: int, payload: bytes) -> dict[str, Any]:
    times: dict[str, dict[str, list[float]]] = {
        kind: {figure: [] for figure in FIGURES} for kind in KINDS
    }
    async with kinds(url, payload) as made:
        for kind in made:
            for figure in FIGURES:
                for _ in range(warmup):
                    await kind.timed(figure)()
        for done in range(0, samples, ROUND):
            for figure in FIGURES:
                for kind in made:
                    timed = kind.timed(figure)
                    for _ in range(min(ROUND, samples - done)):
                        times[kind.name][figure].append(await timed())
    return {figure: {kind: spread_ms(times[kind][figure]) for kind in KINDS} for figure in FIGURES}


def report_rows(figures: dict[str, Any]) -> list[list[str]]:
    def cell(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    rows = []
    for figure in FIGURES:
        memory, redis = figures[figure]["memory"], figures[figure]["redis"]
        rows.append(
            [
                figure,
                cell(memory["p50"]),
                cell(memory["p99"]),
                cell(redis["p50"]),
                cell(redis["p99"]),
                cell(redis["max"]),
            ]
        )
    return rows


@asynccontextmanager
async def redis_url(given: str | None) -> AsyncIterator[str]:
    if given:
        yield given
        return
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not installed (apt-get install redis-server)")
    with (
        tempfile.TemporaryDirectory(prefix="rummy-bench-redis-") as folder,
        RedisProcess(Path(folder), binary) as process,
    ):
        yield process.url


async def run(args: argparse.Namespace) -> dict[str, Any]:
    samples, warmup = (100, 10) if args.quick else (args.samples, 200)
    async with redis_url(args.redis_url) as url:
        figures = await measure(url, samples, warmup, b"x" * args.payload)
    return {
        "machine": machine_info(None),
        "config": {
            "quick": args.quick,
            "samples": samples,
            "warmup": warmup,
            "payload_bytes": args.payload,
            "redis_url_given": bool(args.redis_url),
        },
        "figures": figures,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="tiny counts: a smoke run")
    parser.add_argument("--samples", type=int, default=5000, help="calls timed per figure")
    parser.add_argument("--payload", type=int, default=512, help="bytes a message")
    parser.add_argument("--redis-url", help="a Redis to use instead of starting one")
    parser.add_argument("--json", type=Path, help="write the report here")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    report = asyncio.run(run(args))
    report["seconds"] = round(time.perf_counter() - started, 1)
    machine = report["machine"]
    print(
        f"rummykit {machine['rummykit']} ({machine['commit']}); {machine['python']}; "
        f"{machine['cpu']}, nproc {machine['nproc']}; {machine['date']}"
    )
    config = report["config"]
    print(
        f"{config['samples']} calls a figure ({config['warmup']} warm-up), "
        f"{config['payload_bytes']} B messages, rounds of {ROUND} interleaved; in ms."
    )
    render(
        "Bus and leases: in memory vs Redis (ms)",
        ["figure", "memory p50", "memory p99", "redis p50", "redis p99", "redis max"],
        report_rows(report["figures"]),
    )
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
