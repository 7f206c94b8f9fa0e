"""``rummy`` commands as processes of their own, their JSON lines read as they come."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

Line = dict[str, Any]

PROGRAM_S = 40.0
"""The longest wait for one line of a program, or for its end: a game here takes seconds."""


class Program:
    """A ``rummy`` command as a process, its JSON lines read as they come."""

    def __init__(self, arguments: list[str], log: Path):
        self.arguments = arguments
        self.log = log
        self.lines: list[Line] = []
        self._queue: queue.Queue[Line | None] = queue.Queue()
        with log.open("ab") as errors:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "rummykit", *arguments],
                stdout=subprocess.PIPE,
                stderr=errors,
                env={**os.environ, "RUMMY_DATA_DIR": str(log.parent / "data")},
            )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            line = json.loads(raw)
            self.lines.append(line)
            self._queue.put(line)
        self._queue.put(None)

    def wait_for(self, wanted: Callable[[Line], bool], within_s: float = PROGRAM_S) -> Line:
        """The next line (from those not yet waited for) that ``wanted`` accepts; each line
        must come within ``within_s``."""
        while True:
            try:
                line = self._queue.get(timeout=within_s)
            except queue.Empty:
                raise AssertionError(
                    f"no such line within {within_s} s:\n{self.errors()}"
                ) from None
            if line is None:
                raise AssertionError(f"the program ended first:\n{self.errors()}")
            if wanted(line):
                return line

    def finish(self) -> Line:
        """Wait for the program's end (exit 0); its last line."""
        code = self.process.wait(timeout=PROGRAM_S)
        assert code == 0, self.errors()
        self.wait_for(lambda line: "rejoined" in line)
        return self.lines[-1]

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=PROGRAM_S)

    def stop(self) -> None:
        """End it if it still runs."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def errors(self) -> str:
        """What the programs of this test printed on standard error (the last lines)."""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-30:])


class Programs:
    """The programs a test started; ``stop_all`` ends those still running.

    Each appends its standard error to ``folder / "programs.log"`` and keeps its data in
    ``folder / "data"``.
    """

    def __init__(self, folder: Path):
        self.log = folder / "programs.log"
        self.started: list[Program] = []

    def start(self, *arguments: str) -> Program:
        """``rummy ARGUMENTS`` as a process."""
        program = Program(list(arguments), self.log)
        self.started.append(program)
        return program

    def stop_all(self) -> None:
        """End every program of the test that still runs (by its own pid)."""
        for program in self.started:
            program.stop()


TWO_DEALS = ["--rule", "target=1000", "--rule", "deals=2"]
"""Exactly two deals: a kill in the first one leaves a deal to play after the return."""


def _record_versions(record: dict[str, Any]) -> dict[int, str]:
    """Each action of a record by the table version it made (a deal's dealing is one)."""
    versions: dict[int, str] = {}
    version = 0
    for deal in record["deals"]:
        version += 1  # the deal dealt
        for action in deal["actions"]:
            version += 1
            versions[version] = action
    return versions


def check_acknowledged(record: dict[str, Any], *runs: Program) -> int:
    """Every action a program saw applied is in the record where it saw it; how many."""
    versions = _record_versions(record)
    count = 0
    for run in runs:
        for line in run.lines:
            if "acked" in line:
                assert versions.get(line["v"]) == f"{line['seat']} {line['acked']}", line
                count += 1
    return count
