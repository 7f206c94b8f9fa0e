"""A request's body, read whole in time and size, and the answer when it cannot be read."""

from __future__ import annotations

import asyncio
from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from rummykit.core.errors import RulesError
from rummykit.protocol import MAX_BODY_BYTES, BadRequest, ClientLimiter, ErrorAnswer

SLOW_BODY: Final = "The request body came too slowly: send it whole, at once."


async def read_request_body(request: Request) -> bytes:
    """The request's body; refused past ``MAX_BODY_BYTES`` or ``Limits.header_timeout_s``.

    A body too large is answered 413 without reading it all; one that does not come whole
    within the deadline after its headers, 408.
    """
    chunks: list[bytes] = []
    size = 0
    limiter: ClientLimiter = request.app.state.limiter
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


def refused_request(error: BadRequest | RulesError) -> Response:
    """The answer to a request that cannot be read, or asks for rules that cannot be played.

    An ``ErrorAnswer`` (400, or the ``BadRequest``'s status): the English sentence, with the
    reason and params a page words in its own language when the error has them.
    """
    status = error.status if isinstance(error, BadRequest) else 400
    return JSONResponse(ErrorAnswer.of(error).model_dump(), status)
