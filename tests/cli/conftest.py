"""What the command-line tests share: a live server process, and the programs they start."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_programs import Programs
from ports import free_port
from server_process import ServerProcess


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """``rummy serve`` as a process of its own, on a free port, its store in ``tmp_path``."""
    with ServerProcess(tmp_path / "store.sqlite3", free_port(), tmp_path / "server.log") as process:
        process.start()
        yield process


@pytest.fixture
def programs(tmp_path: Path, data: Path) -> Iterator[Programs]:
    """``rummy`` commands started as processes (their data folder: ``data``), ended after."""
    started = Programs(tmp_path)
    yield started
    started.stop_all()
