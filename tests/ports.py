"""Ports for the tests' servers: each pytest worker hands out its own, never one twice.

``rummykit.server.site.run.free_port`` picks a port nobody listens on *now*. Between tests that
is not enough: a test that kills its server (or Redis) and starts it again on the same port
leaves that port free in between, and a test in another worker could pick it then and find
the other's server answering (CI saw it: a party code "not found" on a server of another test).
So the tests take theirs from ``TEST_PORTS``, a range below the product's own
(``LISTENING_PORTS``, which ``rummy play`` and the benchmarks use), split into one slice per
pytest-xdist worker; a worker gives its ports in turn and does not reuse one within a run,
so no two tests of a run ever share a port.
"""

from __future__ import annotations

import itertools
import os
import socket
import threading
from typing import Final

from rummykit.server.site.run import LISTENING_PORTS

TEST_PORTS: Final = range(11_000, LISTENING_PORTS.start)
"""Where the tests' servers listen: below the product's range and the outgoing ports, and
above the last port Chromium refuses to open (10080: ``ERR_UNSAFE_PORT``, which failed a
browser test in CI when it was handed out)."""


def worker_slice(worker: str | None, workers: str | None) -> range:
    """The ports of pytest-xdist worker ``worker`` (``"gw2"``) of ``workers`` (``"4"``);
    all of ``TEST_PORTS`` outside xdist.

    >>> worker_slice("gw1", "4")
    range(13250, 15500)
    >>> worker_slice(None, None) == TEST_PORTS
    True
    """
    if worker is None or workers is None:
        return TEST_PORTS
    index, count = int(worker.removeprefix("gw")), int(workers)
    size = len(TEST_PORTS) // count
    return range(TEST_PORTS.start + index * size, TEST_PORTS.start + (index + 1) * size)


_SLICE: Final = worker_slice(
    os.environ.get("PYTEST_XDIST_WORKER"), os.environ.get("PYTEST_XDIST_WORKER_COUNT")
)
_NEXT: Final = itertools.cycle(_SLICE)
_LOCK: Final = threading.Lock()


def free_port(host: str = "127.0.0.1") -> int:
    """The worker's next port that nobody listens on (tests start servers from threads too)."""
    with _LOCK:
        for port in itertools.islice(_NEXT, len(_SLICE)):
            with socket.socket() as probe:
                try:
                    probe.bind((host, port))
                except OSError:
                    continue  # something else of this machine holds it: the next
                return port
    raise RuntimeError(f"no free port in {_SLICE}")
