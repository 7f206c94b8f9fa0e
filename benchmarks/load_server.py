"""The server under load as a process of its own, and what it costs: CPU and memory from /proc.

``ServerProcess`` runs ``rummy serve`` on a free loopback port with a fresh store, waits until
it answers, and stops it (SIGINT, as Ctrl+C would; SIGKILL only if it hangs, and only that
process). ``sample`` reads its CPU time and memory, and those of its child processes (a pool of
workers for the computer players, when the server has one), from ``/proc``: no psutil needed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

from rummykit.server.run import free_port

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024

START_TIMEOUT_S = 30.0
"""A server that does not answer by then failed to start (it takes about a second)."""
STOP_TIMEOUT_S = 15.0
"""Time for a graceful stop (its tables' tasks are cancelled) before SIGKILL."""


def rummy_command() -> list[str]:
    """The ``rummy`` script of this interpreter's environment (else the one on the PATH)."""
    beside = Path(sys.executable).with_name("rummy")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("rummy")
    if found is None:
        raise RuntimeError("rummy is not installed: run `make venv` first")
    return [found]


@dataclasses.dataclass(frozen=True)
class Sample:
    """One reading of the server and its children."""

    wall: float
    """``time.monotonic()`` when read."""
    main_ticks: int
    """CPU time of the server process (user + system), in clock ticks."""
    child_ticks: int
    """CPU time of its live descendants plus its children that ended and were waited for."""
    rss_kb: int
    """Resident memory of the server process."""
    hwm_kb: int
    """Its peak resident memory so far (VmHWM)."""
    child_rss_kb: int
    """Resident memory of its live descendants, summed."""
    children: int
    machine_busy_ticks: int
    """CPU time of every process on the machine (all cores), from ``/proc/stat``."""


def machine_busy_ticks() -> int:
    """Clock ticks the machine's cores have spent on anything but waiting, since boot."""
    first_line = Path("/proc/stat").read_text().split("\n", 1)[0]
    fields = [int(field) for field in first_line.split()[1:]]
    idle, iowait = fields[3], fields[4]
    return sum(fields[:8]) - idle - iowait  # user nice system idle iowait irq softirq steal


def _stat_fields(pid: int) -> list[str]:
    text = Path(f"/proc/{pid}/stat").read_text()
    # the command name (field 2) is in parentheses and may hold spaces: split after it
    return text[text.rindex(")") + 2 :].split()


def _ticks(pid: int) -> tuple[int, int]:
    """(user + system, children's user + system) of ``pid``, in clock ticks."""
    fields = _stat_fields(pid)  # fields[0] is field 3 (state) of proc(5)
    return int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def _rss_kb(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_KB


def _hwm_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def descendants(pid: int) -> list[int]:
    """The live child processes of ``pid``, and theirs, from ``/proc/PID/task/*/children``."""
    found: list[int] = []
    pending = [pid]
    while pending:
        parent = pending.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            with contextlib.suppress(OSError):
                children = [int(child) for child in (task / "children").read_text().split()]
                found += children
                pending += children
    return found


def sample(pid: int) -> Sample:
    """The CPU time and memory of ``pid`` and its descendants now."""
    main, reaped = _ticks(pid)
    child_ticks, child_rss = reaped, 0
    children = descendants(pid)
    for child in children:
        with contextlib.suppress(OSError):  # a child may end while it is read
            own, _ = _ticks(child)
            child_ticks += own
            child_rss += _rss_kb(child)
    return Sample(
        wall=time.monotonic(),
        main_ticks=main,
        child_ticks=child_ticks,
        rss_kb=_rss_kb(pid),
        hwm_kb=_hwm_kb(pid),
        child_rss_kb=child_rss,
        children=len(children),
        machine_busy_ticks=machine_busy_ticks(),
    )


def cpu_percent(first: Sample, last: Sample, of: str = "main_ticks") -> float:
    """CPU used between two samples, in % of one core (200% is both cores of this machine).

    ``of``: ``main_ticks`` (the server), ``child_ticks`` (its workers) or
    ``machine_busy_ticks`` (every process).
    """
    seconds = last.wall - first.wall
    if seconds <= 0:
        return 0.0
    ticks: int = getattr(last, of) - getattr(first, of)
    return 100.0 * ticks / TICKS_PER_SECOND / seconds


class ServerProcess:
    """``rummy serve`` on 127.0.0.1 with a store in a temporary folder, for one run."""

    def __init__(self, idle_table_s: float | None = None) -> None:
        self.idle_table_s = idle_table_s
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="rummy-load-"))
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None, "the server is not running"
        return self.process.pid

    def start(self) -> None:
        command = [
            *rummy_command(),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--store",
            str(self.folder / "tables.sqlite3"),
        ]
        if self.idle_table_s is not None:
            command += ["--idle-table-seconds", str(self.idle_table_s)]
        log = (self.folder / "server.log").open("wb")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{self.log_tail()}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer in {START_TIMEOUT_S:.0f} s")

    def log_tail(self, lines: int = 20) -> str:
        path = self.folder / "server.log"
        if not path.exists():
            return ""
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])

    def error_lines(self) -> int:
        """Lines of the server's log that report an error (tracebacks included)."""
        path = self.folder / "server.log"
        if not path.exists():
            return 0
        text = path.read_text(errors="replace")
        return sum(1 for line in text.splitlines() if "Error" in line or "Traceback" in line)

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()  # this process only, by its pid
                self.process.wait()
        self.process = None

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
