"""Several processes serving one site: table leases, the bus, the relay, presence."""

from rummykit.server.cluster.board import Board
from rummykit.server.cluster.bus import BusUnavailable, party_channel
from rummykit.server.cluster.lease import LeaseUnavailable, StaleOwner, check_epoch
from rummykit.server.cluster.outage_log import OUTAGES
from rummykit.server.cluster.post import Post, address
from rummykit.server.cluster.presence import HERE, PRESENCE_EVERY_S, SharedPresence
from rummykit.server.cluster.relay import RemoteTable
from rummykit.server.cluster.site import (
    REDIS_URL_ENV,
    Cluster,
    Locks,
    OwnedElsewhere,
    Sharing,
)

__all__ = [
    "HERE",
    "OUTAGES",
    "PRESENCE_EVERY_S",
    "REDIS_URL_ENV",
    "Board",
    "BusUnavailable",
    "Cluster",
    "LeaseUnavailable",
    "Locks",
    "OwnedElsewhere",
    "Post",
    "RemoteTable",
    "SharedPresence",
    "Sharing",
    "StaleOwner",
    "address",
    "check_epoch",
    "party_channel",
]
