"""Addresses as people type them: a server's URL, a party's code or its invite link.

Plain string work, with nothing of the wire's models: the command line's parsers use it.
"""

from __future__ import annotations

import argparse
import re
import urllib.parse

_CODE = re.compile(r"^[A-Za-z0-9]{4,12}$")
"""A party's code as ``PartyCode`` reads it."""

_CODE_IN_LINK = re.compile(r"party/([A-Za-z0-9]{4,12})(?:\.([A-Za-z0-9_-]{16,86}))?(?:[/?#]|$)")
"""Where an invite link (``http://host/#/party/CODE.KEY``) holds the code and its key."""


def base_url(server: str) -> str:
    """The server's address as given, without a trailing slash; ``ValueError`` if it is none."""
    parts = urllib.parse.urlsplit(server.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{server!r} is not a server address: write it like http://host:8000.")
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


def party_code(text: str) -> str:
    """The party's code from a code or an invite link (``.../#/party/CODE.KEY``).

    >>> party_code("http://127.0.0.1:8000/#/party/K7QM2P.abcdefghijklmnopqrstuv")
    'K7QM2P'
    >>> party_code(" k7qm2p ")
    'K7QM2P'
    """
    return party_reference(text).split(".", 1)[0]


def party_reference(text: str) -> str:
    """How the server's addresses name the party: ``CODE.KEY`` from a link, else ``CODE``.

    The link's key finds the party without the site's limit on codes alone (the server's
    ``rummykit.server.parties.party_reference``).

    >>> party_reference("http://127.0.0.1:8000/#/party/k7qm2p.abcdefghijklmnopqrstuv")
    'K7QM2P.abcdefghijklmnopqrstuv'
    >>> party_reference("http://127.0.0.1:8000/#/party/K7QM2P"), party_reference(" k7qm2p ")
    ('K7QM2P', 'K7QM2P')
    """
    text = text.strip()
    found = _CODE_IN_LINK.search(text)
    if found is not None:
        code, key = found.group(1).upper(), found.group(2)
        return code if key is None else f"{code}.{key}"
    if _CODE.fullmatch(text):
        return text.upper()
    raise ValueError(f"{text!r} is neither a party's code (letters and digits) nor its link.")


def _server_argument(text: str) -> str:
    """``--server URL`` as argparse reads it: ``base_url``'s address, or a usage error."""
    try:
        return base_url(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_server_option(parser: argparse.ArgumentParser) -> None:
    """A command's ``--server URL``: the one server it asks."""
    parser.add_argument(
        "--server",
        required=True,
        type=_server_argument,
        metavar="URL",
        help="like http://host:8000",
    )
