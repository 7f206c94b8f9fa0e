"""One site's addresses, and moving on to the next when one fails.

A party site may be served by several processes, reached at several addresses: ``rummy party
new`` and ``rummy join`` take ``--server`` once for each. Every process of a site serves any
party and any table, so a program may use whichever answers: requests go to the address in use
and, when it does not answer at all, to the next one (an answer, even a refusal, is the site's
and is not asked again elsewhere); a socket that drops reconnects at the next address. The
first address names the site: the seat file and the account kept for it go by that one.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from rummykit.client.addresses import base_url
from rummykit.client.web import ServerError

Answer = TypeVar("Answer")


class Servers:
    """The addresses of one site, and the one in use."""

    def __init__(self, urls: Sequence[str]) -> None:
        """The addresses as given (``ValueError`` for none, or one that is no address)."""
        if not urls:
            raise ValueError("give the server's address: --server http://host:8000")
        self.urls = tuple(dict.fromkeys(base_url(url) for url in urls))
        self.index = 0

    @property
    def site(self) -> str:
        """The first address: the site's name for the seat file and the kept account."""
        return self.urls[0]

    @property
    def current(self) -> str:
        """The address in use."""
        return self.urls[self.index]

    def move_on(self) -> str:
        """Use the next address (the first again after the last); the one now in use."""
        self.index = (self.index + 1) % len(self.urls)
        return self.current

    def first_answer(self, call: Callable[[str], Answer]) -> Answer:
        """``call`` at the address in use; at each other in turn while none answers.

        A refusal is an answer and goes through at once; ``ServerError`` without a status
        (no answer) only once every address has failed.
        """
        for _ in range(len(self.urls) - 1):
            try:
                return call(self.current)
            except ServerError as error:
                if error.status is not None:
                    raise
            self.move_on()
        return call(self.current)


def reconnect_note(what: str, why: str, wait: float, servers: Servers) -> str:
    """What a program says when its ``what`` ("table", "party") socket dropped.

    Said once it has moved on to the address it tries next (named when there are several).
    """
    where = f" at {servers.current}" if len(servers.urls) > 1 else ""
    return f"Lost the {what}'s connection ({why}); trying again in {wait:.1f} s{where}."


def signed_for(signed: Mapping[str, str] | None, url: str) -> dict[str, str] | None:
    """The headers that sign an account in (``signed``), for a request to ``url``.

    The session goes to every address of the site; the ``Origin`` is the one of the address
    in use, which that process accepts as its own.
    """
    if signed is None:
        return None
    parts = urllib.parse.urlsplit(url)
    return {**signed, "Origin": f"{parts.scheme}://{parts.netloc}"}
