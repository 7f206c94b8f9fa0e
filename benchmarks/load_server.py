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
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Protocol

import psycopg

from redis_service import RedisProcess  # the tests' own (load.py puts tests/ on the path)
from rummykit.server.site.run import free_port
from server_process import ServerProcess
from services import local_postgres

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
    service_ticks: int = 0
    """CPU time of the services the servers share (PostgreSQL with its backends, Redis)."""


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


def _tree_ticks(pid: int) -> int:
    """CPU time of ``pid``, its children that ended, and its live descendants."""
    own, reaped = _ticks(pid)
    total = own + reaped
    for child in descendants(pid):
        with contextlib.suppress(OSError):  # a child may end while it is read
            total += _ticks(child)[0]
    return total


def sample(*pids: int, services: Sequence[int] = ()) -> Sample:
    """The CPU time and memory of the server ``pids`` and their descendants now, summed.

    ``services``: processes the servers share (PostgreSQL, Redis), counted apart.
    """
    main = child_ticks = rss = hwm = child_rss = count = 0
    for pid in pids:
        own, reaped = _ticks(pid)
        main += own
        child_ticks += reaped
        rss += _rss_kb(pid)
        hwm += _hwm_kb(pid)
        children = descendants(pid)
        count += len(children)
        for child in children:
            with contextlib.suppress(OSError):  # a child may end while it is read
                child_ticks += _ticks(child)[0]
                child_rss += _rss_kb(child)
    return Sample(
        wall=time.monotonic(),
        main_ticks=main,
        child_ticks=child_ticks,
        rss_kb=rss,
        hwm_kb=hwm,
        child_rss_kb=child_rss,
        children=count,
        machine_busy_ticks=machine_busy_ticks(),
        service_ticks=sum(_tree_ticks(pid) for pid in services),
    )


def cpu_percent(first: Sample, last: Sample, of: str = "main_ticks") -> float:
    """CPU used between two samples, in % of one core (200% is both cores of this machine).

    ``of``: ``main_ticks`` (the server), ``child_ticks`` (its workers), ``service_ticks``
    (PostgreSQL and Redis) or ``machine_busy_ticks`` (every process).
    """
    seconds = last.wall - first.wall
    if seconds <= 0:
        return 0.0
    ticks: int = getattr(last, of) - getattr(first, of)
    return 100.0 * ticks / TICKS_PER_SECOND / seconds


def error_lines(log_path: Path) -> int:
    """Lines of a server's log that report an error (tracebacks included)."""
    if not log_path.exists():
        return 0
    lines = log_path.read_text(errors="replace").splitlines()
    return sum(1 for line in lines if "Error" in line or "Traceback" in line)


def keep_logs(folder: Path | None, logs: list[Path]) -> None:
    """Copy a run's server logs into ``folder`` (made if needed), each under a new name."""
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for number, log in enumerate(logs):
        if log.exists():
            shutil.copy(log, folder / f"{stamp}-{os.getpid()}-{number}.log")


class Site(Protocol):
    """What a load run needs of the servers it drives: one process or several."""

    @property
    def port(self) -> int:
        """Where tables are made by default."""
        ...

    @property
    def ports(self) -> tuple[int, ...]:
        """Every process's port."""
        ...

    def sample(self) -> Sample:
        """CPU and memory now."""
        ...

    def error_lines(self) -> int:
        """Lines of the logs that report an error."""
        ...


class LoadServer(ServerProcess):
    """``rummy serve`` on a free loopback port with a store in a temporary folder, for one run.

    The tests' ``ServerProcess`` (started, waited for and stopped the same way), with the
    server's idle time chosen and its folder removed on exit.
    """

    def __init__(
        self,
        idle_table_s: float | None = None,
        keep_logs: Path | None = None,
        *,
        source: Path | None = None,
        profile: Path | None = None,
    ) -> None:
        folder = Path(tempfile.mkdtemp(prefix="rummy-load-"))
        super().__init__(folder / "tables.sqlite3", free_port(), folder / "server.log")
        self.folder = folder
        self.idle_table_s = idle_table_s
        self.keep_logs = keep_logs
        """A folder the server's log is copied to when the run ends (``None``: not kept)."""
        self.source = source
        """A source folder whose ``src`` the server runs (``None``: whatever Python finds):
        a worktree of an earlier commit serves the "before" of a comparison."""
        self.profile = profile
        """Where py-spy writes the server's sampled stacks, collapsed (``None``: no profile).
        py-spy samples from outside: cProfile's statistics would be lost, as uvicorn ends
        the process by raising the SIGTERM it caught again once it has stopped."""
        self.profiler: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "rummykit", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--store", str(self.store_path)]
        if self.idle_table_s is not None:
            command += ["--idle-table-seconds", str(self.idle_table_s)]
        environment = dict(os.environ)
        if self.source is not None:
            environment["PYTHONPATH"] = str(self.source.resolve() / "src")
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env=environment
            )
        self._wait_ready()
        if self.profile is not None:
            spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
            options = ["--format", "raw", "--rate", "200", "--output", str(self.profile)]
            self.profiler = subprocess.Popen(
                [spy, "record", "--pid", str(self.pid), *options],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )

    def stop(self) -> None:
        """Stop the profiler (it writes its stacks), then the server."""
        if self.profiler is not None:
            self.profiler.send_signal(signal.SIGINT)
            try:
                self.profiler.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.profiler.kill()
                self.profiler.wait()
            self.profiler = None
        super().stop()

    @property
    def ports(self) -> tuple[int, ...]:
        """The site's ports: this one process's."""
        return (self.port,)

    def sample(self) -> Sample:
        """The server's CPU and memory now."""
        return sample(self.pid)

    def error_lines(self) -> int:
        """Lines of the server's log that report an error (tracebacks included)."""
        return error_lines(self.log_path)

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
        keep_logs(self.keep_logs, [self.log_path])
        shutil.rmtree(self.folder, ignore_errors=True)


def _postmaster_pid(url: str) -> int:
    """The pid of the PostgreSQL server at ``url`` (from its data folder's lock file)."""
    with psycopg.connect(url) as connection:
        row = connection.execute("SHOW data_directory").fetchone()
    assert row is not None
    return int((Path(row[0]) / "postmaster.pid").read_text().split("\n", 1)[0])


class ClusterServers:
    """Several ``rummy serve`` processes of one site, on a throwaway PostgreSQL and Redis.

    PostgreSQL keeps its durability on (``fsync``), as SQLite does in the one-process setup
    (``synchronous=FULL``), so the two are compared doing the same work. Every process has
    its defaults (limits, a worker pool a core). The players make their tables on one port
    and open their sockets on one (``PlayerSettings.spread``): half the sockets are relayed.
    """

    def __init__(self, processes: int = 2, keep_logs: Path | None = None) -> None:
        self.count = processes
        self.keep_logs = keep_logs
        self.folder = Path(tempfile.mkdtemp(prefix="rummy-cluster-load-"))
        self.servers: list[ServerProcess] = []
        self.services: list[int] = []
        self._stack = contextlib.ExitStack()

    @property
    def port(self) -> int:
        return self.servers[0].port

    @property
    def ports(self) -> tuple[int, ...]:
        return tuple(server.port for server in self.servers)

    def sample(self) -> Sample:
        """All the processes' CPU and memory now, summed, and the services' CPU."""
        return sample(*(server.pid for server in self.servers), services=self.services)

    def error_lines(self) -> int:
        return sum(error_lines(server.log_path) for server in self.servers)

    def __enter__(self) -> ClusterServers:
        stack = self._stack
        try:
            database, _ = stack.enter_context(local_postgres(durable=True))
            redis = RedisProcess(self.folder)
            redis.start()
            stack.callback(redis.stop)
            assert redis.process is not None
            self.services = [_postmaster_pid(database), redis.process.pid]
            shared = ("--database-url", database, "--redis-url", redis.url)
            for number in range(self.count):
                server = ServerProcess(
                    self.folder / f"{number}.sqlite3",
                    free_port(),
                    self.folder / f"{number}.log",
                    *shared,
                )
                stack.enter_context(server)
                server.start()
                self.servers.append(server)
        except BaseException:
            stack.close()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stack.close()
        keep_logs(self.keep_logs, [server.log_path for server in self.servers])
        shutil.rmtree(self.folder, ignore_errors=True)
