"""The serving process's own machinery: worker processes for costly work, rate-limited logs."""

from rummykit.server.runtime.logs import AddressLog, limit_logging
from rummykit.server.runtime.workers import SERVER_CLIENT, WorkerPool, advise, decide, rebuild_game

__all__ = [
    "SERVER_CLIENT",
    "AddressLog",
    "WorkerPool",
    "advise",
    "decide",
    "limit_logging",
    "rebuild_game",
]
