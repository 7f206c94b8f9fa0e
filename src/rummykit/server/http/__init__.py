"""The edge: requests and sockets before they reach a wing (bodies, hellos, origins, beats)."""

from rummykit.server.http.body import read_request_body, refused_request
from rummykit.server.http.connections import guarded_http
from rummykit.server.http.frame_guard import guarded_websockets
from rummykit.server.http.guard import (
    HostGuard,
    OriginGuard,
    RateGuard,
    account_identity,
    is_loopback,
    loopback_hosts,
    seat_identity,
    vouch_for,
)
from rummykit.server.http.heartbeat import Hearing, Heartbeat, beating
from rummykit.server.http.hello import NO_ONE, counted_socket, receive_first, receive_hello
from rummykit.server.http.listening import each_message, finish, socket_outbox
from rummykit.server.http.memory import MemoryKeeper, defer_full_collections, freeze_startup_objects
from rummykit.server.http.outbox import ConnectionDropped, Outbox

__all__ = [
    "NO_ONE",
    "ConnectionDropped",
    "Hearing",
    "Heartbeat",
    "HostGuard",
    "MemoryKeeper",
    "OriginGuard",
    "Outbox",
    "RateGuard",
    "account_identity",
    "beating",
    "counted_socket",
    "defer_full_collections",
    "each_message",
    "finish",
    "freeze_startup_objects",
    "guarded_http",
    "guarded_websockets",
    "is_loopback",
    "loopback_hosts",
    "read_request_body",
    "receive_first",
    "receive_hello",
    "refused_request",
    "seat_identity",
    "socket_outbox",
    "vouch_for",
]
