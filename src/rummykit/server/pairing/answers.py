"""How the pairing wing's sockets carry out a message, or refuse it with the reason.

A message after the hello is read by the socket's own parser; a binary frame, an unreadable
message or a second hello is refused as the protocol's error, and a ``PartyError`` raised while
carrying it out as the party's refusal (its code, reason and params): either way nothing
changed, and the page is told why.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

from rummykit.protocol import Hello, ProtocolError, Strict, refusal
from rummykit.server.parties import PartyError

HELLO_ONCE: Final = "hello is the socket's first message, and only its first."
BINARY: Final = "Send messages as text frames of JSON, not binary."

Message = TypeVar("Message")
Send = Callable[[Strict], Awaitable[None]]


def party_refusal(error: PartyError) -> Strict:
    """A party's refusal as these sockets send it."""
    return refusal(0, error.code, error.message, reason=error.reason, params=error.params)


async def carry_out(
    send: Send,
    text: str | None,
    parse: Callable[[str], Message],
    act: Callable[[Message], Awaitable[None]],
) -> None:
    """Read ``text`` with ``parse`` and ``act`` on it; a refusal is sent back by ``send``."""
    try:
        if text is None:
            raise ProtocolError(BINARY)
        message = parse(text)
        if isinstance(message, Hello):
            raise ProtocolError(HELLO_ONCE)
        await act(message)
    except ProtocolError as error:
        await send(refusal(0, error.code, str(error)))
    except PartyError as error:
        await send(party_refusal(error))
