"""The network of a client's address, as the ratings compare accounts (``ratings.trust``).

Two accounts seen at one network lately count little against each other until both have met
other people: a farmer who makes accounts and plays them from one machine gains nothing. A
network is an IPv4 address, or an IPv6 address's /64 (one home or phone line gets a whole
/64 and picks addresses in it at will). Anything else (a test client's name) is kept as it
is. A loopback address is no network: it is what a reverse proxy on the same machine shows
when it is not named as a proxy, and noting it would make every player share one network, so
that no game ever counted (a farmer with a shell on the server is not stopped by it).

The server knows no device: a member's network is noted when they join a party signed in and
when they open its lobby, so it is known when a ranked party starts.
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Final

from starlette.requests import HTTPConnection

from rummykit.server.store import Store

IPV6_PREFIX: Final = 64
"""The bits of an IPv6 address that name a line: the /64 a provider gives every customer."""


def network_of(address: str) -> str | None:
    """The network ``address`` belongs to (``None``: a loopback address, no network).

    >>> network_of("203.0.113.9"), network_of("::ffff:203.0.113.9")
    ('203.0.113.9', '203.0.113.9')
    >>> network_of("2001:db8:1:2:aaaa::1"), network_of("testclient")
    ('2001:db8:1:2::/64', 'testclient')
    >>> network_of("127.0.0.1"), network_of("::1"), network_of("::ffff:127.0.0.1")
    (None, None, None)
    """
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    if parsed.is_loopback:
        return None
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False))
    return str(parsed)


async def note_network(connection: HTTPConnection, account: int | None) -> None:
    """Keep the network ``account`` (if signed in) is connecting from, for its ratings."""
    network = None if connection.client is None else network_of(connection.client.host)
    if account is None or network is None:
        return
    store: Store = connection.app.state.lobby.store
    await asyncio.to_thread(store.accounts.note_network, account, network)
