"""Issue 29's failover scenario, once: a party's first process SIGKILLed at a chosen moment.

Two ``rummy serve`` processes share one PostgreSQL database and one Redis. ``rummy party new``
runs against the first (the second as its fallback) and two ``rummy join`` against the second
(the first as their fallback), all three computer-played (``--bot basic``). The first process
is killed with SIGKILL at a moment of the party's life (``MOMENTS``, or ``delay:S``: S seconds
after the host's program started). Then every program must end by itself, with exit 0, and
the three records of the game must be equal.

Used by ``tests/server/cluster/test_failover_moments.py`` (each moment twice, side by side) and by
``benchmarks/failover_runs.py`` (longer soaks, with a table of the results).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cli_programs import Line, Program, Programs
from ports import free_port
from server_process import ServerProcess

MOMENTS: Final = (
    "lobby",
    "joining",
    "seated",
    "ready",
    "start_sent",
    "started",
    "first_action",
    "between_deals",
)
"""When the first process dies: with the host alone in the party's lobby; as the guests'
programs start (joining at the second); once all three members are in the lobby (before the
start, if caught in time); as soon as the second shows all three ready (the host's start on its
way to the first, or being carried out there); ``start_sent``: the first slowed down (frozen
in bursts) while the guests join, and killed as soon as it shows everyone ready, as the host's
start goes to it (issue 29's hang: the host, moved to the second, found the same version number
there and did not ask again); as soon as the party shows its table (made and
owned by the first, the guests perhaps not yet told); at the host's first acknowledged action;
when the first deal is over.
``delay:S`` (any number of seconds) kills S seconds after the host's program started, and
``MOMENT+S`` S seconds after ``MOMENT`` (``seated+0.1``)."""

SHORT_GAME: Final = ("--rule", "target=1000", "--rule", "deals=2")
"""Two deals (as ``cli_programs.TWO_DEALS``): a kill in the first leaves one to play."""

STOPPED_S: Final = 0.12
RUNNING_S: Final = 0.04
"""The first process's bursts at ``start_sent``: frozen, then running. A process this slow
reads several of the others' changes at once, so its count of the party's versions falls in
step with the second's (each process counts its own)."""

POLL_S: Final = 0.01
"""The wait between two looks at the party (``seated``, ``started``) or at the programs'
lines. A poll, because what it waits for happens in other processes (the servers, the
programs) and no event of ours marks it; the kills at a fixed ``delay:S`` or ``MOMENT+S``
sleep on purpose: the time is the scenario."""

LOOKER: Final = "127.0.0.29"
"""The loopback address the party is looked at from (any 127.x.y.z is this machine)."""

NAMES: Final = ("Host", "Guest", "Other")


@dataclass
class Outcome:
    """How one run ended."""

    moment: str
    seconds: float
    """From the host's start to the last program's end (or to the budget, when one hung)."""
    finished: list[str] = field(default_factory=list)
    """The programs that ended with exit 0."""
    failed: dict[str, int] = field(default_factory=dict)
    """The programs that ended with another exit code, and their codes."""
    hung: list[str] = field(default_factory=list)
    """The programs still running when the budget ran out."""
    records_equal: bool = False
    """The three records were written and are equal."""
    deals: int = 0
    """The deals in the records (when equal)."""
    killed: bool = False
    """The first process was killed while a program still ran (a game may end first)."""
    note: str = ""

    @property
    def ok(self) -> bool:
        """Every program finished, and the records are equal."""
        return len(self.finished) == len(NAMES) and self.records_equal

    def __str__(self) -> str:
        return (
            f"{self.moment}: finished {self.finished}, failed {self.failed}, hung {self.hung}, "
            f"records equal {self.records_equal} ({self.deals} deals), killed {self.killed}, "
            f"{self.seconds:.1f} s {self.note}"
        )


def _start(programs: Programs, log: Path, *arguments: str) -> Program:
    """A program whose standard error goes to a log of its own (``log``)."""
    program = Program(list(arguments), log)
    programs.started.append(program)
    return program


def _party_view(server: ServerProcess, reference: str) -> dict[str, Any] | None:
    """The party as a visitor sees it, asked from an address of its own (``LOOKER``): the
    programs' address keeps its whole allowance of requests."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=2, source_address=(LOOKER, 0)
    )
    try:
        connection.request("GET", f"/api/parties/{reference}")
        answer = connection.getresponse()
        if answer.status != 200:
            return None
        view: dict[str, Any] = json.loads(answer.read())
        return view
    except (OSError, ValueError):
        return None
    finally:
        connection.close()


def _wait_for_party(server: ServerProcess, reference: str, wanted: str, deadline: float) -> bool:
    """Look at the party until ``wanted`` ("seated": three members; "started": a table)."""
    while time.monotonic() < deadline:
        view = _party_view(server, reference)
        if view is not None:
            if wanted == "seated" and len(view["members"]) == len(NAMES):
                return True
            if wanted == "started" and view.get("table") is not None:
                return True
        time.sleep(POLL_S)
    return False


@contextlib.contextmanager
def _visitor(server: ServerProcess, reference: str) -> Iterator[ClientConnection]:
    """A visitor's socket to the party's lobby on ``server``, its hello sent."""
    url = f"ws://127.0.0.1:{server.port}/ws/party/{reference}"
    with connect(url, open_timeout=2) as connection:
        connection.send(json.dumps({"t": "hello", "v": 0, "d": {}}))
        yield connection


def _until_all_ready(connection: ClientConnection, deadline: float) -> bool:
    """Read the party's views until three members are all ready; whether that came."""
    try:
        while True:
            frame = json.loads(connection.recv(timeout=max(0.0, deadline - time.monotonic())))
            members = frame["d"].get("members", []) if frame["t"] == "party" else []
            if len(members) == len(NAMES) and all(each["ready"] for each in members):
                return True
    except (OSError, TimeoutError, ConnectionClosed):
        return False


def _wait_all_ready(server: ServerProcess, reference: str, deadline: float) -> bool:
    """Watch the party on ``server``, as a visitor, until three members are all ready."""
    try:
        with _visitor(server, reference) as connection:
            return _until_all_ready(connection, deadline)
    except (OSError, TimeoutError, ConnectionClosed):
        return False


class Stutter:
    """A process slowed down: frozen (SIGSTOP) ``STOPPED_S`` and running ``RUNNING_S`` in turn,
    in a thread, until ``stop``; left running (or as ``stop`` found it, for a kill)."""

    def __init__(self, server: ServerProcess) -> None:
        self.pid = server.pid
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stopping.wait(RUNNING_S):
            os.kill(self.pid, signal.SIGSTOP)
            self.stopping.wait(STOPPED_S)
            os.kill(self.pid, signal.SIGCONT)

    def start(self) -> None:
        """Begin."""
        self.thread.start()

    def stop(self) -> None:
        """End the bursts at once (the process running again)."""
        self.stopping.set()
        self.thread.join()


def _wait_line(program: Program, key: str, deadline: float) -> bool:
    """Whether ``program`` printed a line with ``key`` before ``deadline`` (or its end)."""
    seen = 0
    while time.monotonic() < deadline:
        lines = program.lines
        if any(key in line for line in lines[seen:]):
            return True
        seen = len(lines)
        if program.process.poll() is not None and len(program.lines) == seen:
            return False
        time.sleep(POLL_S)
    return False


def _reached(
    moment: str,
    host: Program,
    second: ServerProcess,
    reference: str,
    began: float,
    deadline: float,
) -> bool:
    """Wait for ``moment`` (after the guests' programs started); whether it came."""
    if moment == "joining":
        return True
    if moment in ("seated", "started"):
        return _wait_for_party(second, reference, moment, deadline)
    if moment == "ready":
        return _wait_all_ready(second, reference, deadline)
    if moment == "first_action":
        return _wait_line(host, "acked", deadline)
    if moment == "between_deals":
        return _wait_line(host, "deal", deadline)
    time.sleep(max(0.0, began + float(moment.removeprefix("delay:")) - time.monotonic()))
    return True


def _records(folder: Path) -> list[Any] | None:
    try:
        return [json.loads((folder / f"{name}.json").read_text()) for name in NAMES]
    except (OSError, ValueError):
        return None


def run_once(
    moment: str,
    folder: Path,
    database_url: str,
    redis_url: str,
    *,
    budget_s: float = 120.0,
    rules: Sequence[str] = SHORT_GAME,
) -> Outcome:
    """The scenario once, in ``folder`` (logs, records); how it ended.

    ``budget_s``: how long the programs may take in all before those still running count as
    hung (and are stopped).
    """
    folder.mkdir(parents=True, exist_ok=True)
    shared = ("--database-url", database_url, "--redis-url", redis_url)
    first = ServerProcess(folder / "a.sqlite3", free_port(), folder / "a.log", *shared)
    second = ServerProcess(folder / "b.sqlite3", free_port(), folder / "b.log", *shared)
    programs = Programs(folder)
    with first, second, contextlib.ExitStack() as stack:
        first.launch()
        second.launch()
        first.wait_ready()
        second.wait_ready()
        began = time.monotonic()
        deadline = began + budget_s
        outcome = Outcome(moment, 0.0)
        try:
            host = _start(
                programs,
                folder / "Host.log",
                *("party", "new", "--server", first.url, "--server", second.url),
                *("--players", "3", "--bot", "basic", "--name", "Host", "--json", *rules),
                *("--record", str(folder / "Host.json")),
            )
            if not _wait_line(host, "code", deadline):
                outcome.note = "the host printed no code"
                return _ended(outcome, programs, folder, began, budget_s)
            invite = host.lines[0]
            reference = str(invite["url"]).rsplit("/", 1)[-1]
            code = str(invite["code"])
            name, _, after = moment.partition("+")
            if name not in MOMENTS and not name.startswith("delay:"):
                raise ValueError(f"no such moment: {moment!r}")

            def kill() -> None:
                time.sleep(float(after or 0))
                outcome.killed = any(each.process.poll() is None for each in programs.started)
                first.kill()

            if name == "lobby":
                kill()
            watching = stutter = None
            if name == "start_sent":
                watching = stack.enter_context(_visitor(first, reference))
                stutter = Stutter(first)
                stutter.start()
            for guest in NAMES[1:]:
                _start(
                    programs,
                    folder / f"{guest}.log",
                    *("join", code, "--server", second.url, "--server", first.url),
                    *("--bot", "basic", "--name", guest, "--json"),
                    *("--seat-file", str(folder / f"{guest}-seat.json")),
                    *("--record", str(folder / f"{guest}.json")),
                )
            if watching is not None and stutter is not None:
                reached = _until_all_ready(watching, deadline)
                stutter.stop()
                if reached:
                    kill()
            elif name != "lobby" and _reached(name, host, second, reference, began, deadline):
                kill()
            return _ended(outcome, programs, folder, began, budget_s)
        finally:
            programs.stop_all()


def _ended(
    outcome: Outcome, programs: Programs, folder: Path, began: float, budget_s: float
) -> Outcome:
    """Wait for the programs until the budget runs out; fill in how each ended."""
    deadline = began + budget_s
    for program in programs.started:
        with contextlib.suppress(subprocess.TimeoutExpired):  # still running: told below
            program.process.wait(timeout=max(0.0, deadline - time.monotonic()))
    outcome.seconds = time.monotonic() - began
    for index, program in enumerate(programs.started):
        name = NAMES[index]
        code = program.process.poll()
        if code is None:
            outcome.hung.append(name)
        elif code == 0:
            outcome.finished.append(name)
        else:
            outcome.failed[name] = code
    records = _records(folder)
    outcome.records_equal = records is not None and all(record == records[0] for record in records)
    if records is not None and outcome.records_equal:
        outcome.deals = len(records[0]["deals"])
    return outcome


def logs(folder: Path, count: int = 12) -> str:
    """The last lines of a run's logs (the servers', each program's), for a failure's message."""
    parts = []
    for name in ("a", "b", *NAMES):
        path = folder / f"{name}.log"
        if path.exists():
            tail = path.read_text(errors="replace").splitlines()[-count:]
            parts.append(f"--- {path.name}\n" + "\n".join(tail))
    return "\n".join(parts)


__all__ = ["MOMENTS", "NAMES", "SHORT_GAME", "Line", "Outcome", "logs", "run_once"]
