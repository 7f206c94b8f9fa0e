"""Memory of the server after sockets come and go: is it given back?

Starts ``rummy serve`` (one worker) on a fresh data folder, makes the tables the sockets will
sit at, then opens ``--sockets`` seat sockets at once, each saying hello and reading its view,
and closes them all; ``--rounds`` times. The server's resident memory (VmRSS, from /proc) is
read after a first round (allocator pools and caches warmed: the baseline) and after the
last. Sockets come from many loopback addresses (127.10.0.2, 127.10.0.3...), as from many
players, so that the limits per address are those a real server keeps.

    python benchmarks/socket_memory.py --sockets 1000 --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

from rummykit.server.site.app import MAX_CONNECTIONS_PER_SEAT
from rummykit.server.site.run import free_port

SOCKETS_PER_ADDRESS = 50
"""Sockets one address opens at once: under its limit of 64, and under the 60 requests and
socket opens an address may make at once."""


def rss_kb(pid: int) -> int:
    """The process's resident memory, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def start_server(folder: Path, port: int) -> subprocess.Popen[bytes]:
    environment = {**os.environ, "RUMMY_DATA_DIR": str(folder)}
    command = [sys.executable, "-m", "rummykit", "serve", "--port", str(port), "--workers", "1"]
    server = subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not start")


def create_tables(port: int, count: int) -> list[tuple[str, str]]:
    """``count`` tables (a person against ``basic``), from addresses 127.0.1.x (an address
    may make 60 requests at once)."""
    tables = []
    body = json.dumps({"preset": "classic", "opponents": ["basic"]})
    for number in range(count):
        source = (f"127.0.1.{1 + number // SOCKETS_PER_ADDRESS}", 0)
        connection = http.client.HTTPConnection("127.0.0.1", port, 30, source_address=source)
        try:
            connection.request("POST", "/api/tables", body, {"Content-Type": "application/json"})
            created = json.loads(connection.getresponse().read())
        finally:
            connection.close()
        tables.append((created["table"], created["token"]))
    return tables


async def one_socket(port: int, table: tuple[str, str], address: str) -> None:
    table_id, token = table
    async with connect(
        f"ws://127.0.0.1:{port}/ws/{table_id}", local_addr=(address, 0), open_timeout=60
    ) as websocket:
        await websocket.send(json.dumps({"t": "hello", "v": 0, "d": {"token": token}}))
        await asyncio.wait_for(websocket.recv(), 60)


async def round_of_sockets(
    port: int, tables: list[tuple[str, str]], sockets: int, round_number: int
) -> None:
    """Open ``sockets`` at once, each reading its view, then close them all.

    Each round comes from addresses of its own (127.R.0.x), each address opening at most
    ``SOCKETS_PER_ADDRESS`` sockets ever: no address waits for its limit to refill.
    """
    opened = [
        one_socket(
            port,
            tables[number // MAX_CONNECTIONS_PER_SEAT],
            f"127.{10 + round_number}.0.{2 + number // SOCKETS_PER_ADDRESS}",
        )
        for number in range(sockets)
    ]
    await asyncio.gather(*opened)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=1000, help="sockets a round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds after the first")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder), port)
        try:
            started = rss_kb(server.pid)
            tables = create_tables(port, -(-args.sockets // MAX_CONNECTIONS_PER_SEAT))
            with_tables = rss_kb(server.pid)
            table_count = len(tables)
            asyncio.run(round_of_sockets(port, tables, args.sockets, 0))
            time.sleep(2)  # the closes' last frames and tasks settle
            baseline = rss_kb(server.pid)
            for round_number in range(1, args.rounds + 1):
                asyncio.run(round_of_sockets(port, tables, args.sockets, round_number))
            time.sleep(2)
            after = rss_kb(server.pid)
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)
    total = args.sockets * (args.rounds + 1)
    print(f"RSS at start {started / 1024:.1f} MB")
    print(f"RSS with {table_count} tables in memory {with_tables / 1024:.1f} MB")
    print(f"RSS after a first round of {args.sockets} sockets {baseline / 1024:.1f} MB")
    print(f"RSS after {args.rounds} more rounds ({total} sockets in all) {after / 1024:.1f} MB")
    print(
        f"growth per 1,000 sockets after the first round: "
        f"{(after - baseline) / 1024 / (args.rounds * args.sockets / 1000):.2f} MB"
    )


if __name__ == "__main__":
    main()
