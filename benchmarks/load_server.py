"""The server under load as a process of its own, and what it costs: CPU and memory from /proc.

``LoadServer`` runs ``rummy serve`` on a free loopback port with a fresh store, waits until
it answers, and stops it (SIGTERM; SIGKILL only if it lingers, and only that process).
``sample`` reads its CPU time and memory, and those of its child processes (the pool of
workers for the computer players), from ``/proc``: no psutil needed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

from rummykit.server.run import free_port
from server_process import ServerProcess  # the tests' own (load.py puts tests/ on the path)

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


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


class LoadServer(ServerProcess):
    """``rummy serve`` on a free loopback port with a store in a temporary folder, for one run.

    The tests' ``ServerProcess`` (started, waited for and stopped the same way), with the
    server's idle time chosen and its folder removed on exit.
    """

    def __init__(self, idle_table_s: float | None = None) -> None:
        folder = Path(tempfile.mkdtemp(prefix="rummy-load-"))
        super().__init__(folder / "tables.sqlite3", free_port(), folder / "server.log")
        self.folder = folder
        self.idle_table_s = idle_table_s

    def start(self) -> None:
        command = [sys.executable, "-m", "rummykit", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--store", str(self.store_path)]
        if self.idle_table_s is not None:
            command += ["--idle-table-seconds", str(self.idle_table_s)]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        self._wait_ready()

    def error_lines(self) -> int:
        """Lines of the server's log that report an error (tracebacks included)."""
        if not self.log_path.exists():
            return 0
        lines = self.log_path.read_text(errors="replace").splitlines()
        return sum(1 for line in lines if "Error" in line or "Traceback" in line)

    def __enter__(self) -> LoadServer:
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
