"""The serving process's own machinery: worker processes for costly work, rate-limited logs."""

from rummykit.server.runtime.faults import REDIS_GONE, going_on, note_gone_past
from rummykit.server.runtime.logs import AddressLog, limit_logging
from rummykit.server.runtime.workers import SERVER_CLIENT, WorkerPool, advise, decide, rebuild_game

__all__ = [
    "REDIS_GONE",
    "SERVER_CLIENT",
    "AddressLog",
    "WorkerPool",
    "advise",
    "decide",
    "going_on",
    "limit_logging",
    "note_gone_past",
    "rebuild_game",
]
