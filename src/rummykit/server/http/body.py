"""A request's body, read whole within a deadline and a size."""

from __future__ import annotations

import asyncio
from typing import Final

from starlette.requests import Request

from rummykit.protocol import MAX_BODY_BYTES, AddressLimiter, BadRequest

SLOW_BODY: Final = "The request body came too slowly: send it whole, at once."


async def read_request_body(request: Request) -> bytes:
    """The request's body; refused past ``MAX_BODY_BYTES`` or ``Limits.header_timeout_s``.

    A body too large is answered 413 without reading it all; one that does not come whole
    within the deadline after its headers, 408.
    """
    chunks: list[bytes] = []
    size = 0
    limiter: AddressLimiter = request.app.state.limiter
    try:
        async with asyncio.timeout(limiter.limits.header_timeout_s):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    raise BadRequest(
                        f"The request body is larger than {MAX_BODY_BYTES} bytes.", 413
                    )
                chunks.append(chunk)
    except TimeoutError:
        raise BadRequest(SLOW_BODY, 408) from None
    return b"".join(chunks)
