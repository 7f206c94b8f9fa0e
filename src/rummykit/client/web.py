"""A party's HTTP calls, with the standard library: create, join, look, and the record.

Every call takes the server's address (``http://host:port``) and answers a typed model of
``rummykit.protocol.party``; a refusal raises ``ServerError`` with the server's own
sentence (``PartyRefused`` for a party that cannot be joined).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any, Final, TypeVar

from pydantic import BaseModel, ValidationError

from rummykit.client.addresses import base_url
from rummykit.protocol import (
    JoinParty,
    NewChallenge,
    NewParty,
    OnlineBots,
    PartyJoined,
    PartyRefusal,
    PartyView,
)

HTTP_TIMEOUT_S: Final = 15.0
"""How long one request may take: the server answers in milliseconds, so this long means it
is gone."""

Model = TypeVar("Model", bound=BaseModel)


class ServerError(Exception):
    """The server refused a request, or could not be reached; ``message`` says which."""

    def __init__(self, message: str, *, status: int | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.status = status
        """The HTTP status; ``None`` when the server did not answer."""
        self.code = code
        """The refusal's code, when it gave one (``party_full``...)."""


class PartyRefused(ServerError):
    """A party that cannot be joined: no such code, full, started or closed."""

    def __init__(self, message: str, *, status: int, code: str | None, watch: bool = False):
        super().__init__(message, status=status, code=code)
        self.watch = watch
        """Whether its tables may be watched instead."""


def _answer(request: urllib.request.Request) -> tuple[int, bytes]:
    """The status and body of a request's answer, error statuses included."""
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_S) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read()
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        host = urllib.parse.urlsplit(request.full_url).netloc
        raise ServerError(f"Cannot reach the server at {host}: {reason}.") from None


def _sentence(status: int, body: bytes) -> str:
    try:
        said = json.loads(body).get("error")
    except (ValueError, AttributeError):
        said = None
    return str(said) if said else f"The server answered {status}."


def _call(
    server: str,
    path: str,
    body: BaseModel | None = None,
    token: str | None = None,
    signed: Mapping[str, str] | None = None,
) -> Any:
    """The JSON answer of a GET (or a POST of ``body``); ``ServerError`` for an error.

    ``signed``: headers that sign an account in (``rummykit.client.account.account_headers``).
    """
    headers = {"Content-Type": "application/json", "Accept": "application/json", **(signed or {})}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        base_url(server) + path,
        data=None if body is None else body.model_dump_json(exclude_defaults=True).encode(),
        headers=headers,
        method="GET" if body is None else "POST",
    )
    status, data = _answer(request)
    if status == 409:
        try:
            refusal = PartyRefusal.model_validate_json(data, strict=False)
        except ValidationError:
            raise PartyRefused(_sentence(status, data), status=status, code=None) from None
        raise PartyRefused(refusal.error, status=status, code=refusal.code, watch=refusal.watch)
    if status >= 400:
        raise ServerError(_sentence(status, data), status=status)
    try:
        return json.loads(data)
    except ValueError:
        raise ServerError(f"The server's answer to {path} is not JSON.", status=status) from None


def _read(model: type[Model], data: Any) -> Model:
    try:
        return model.model_validate(data, strict=False)
    except ValidationError as error:
        raise ServerError(f"The server's answer is not a {model.__name__}: {error}") from None


def _party_path(code: str, tail: str = "") -> str:
    return f"/api/parties/{urllib.parse.quote(code)}{tail}"


def create_party(
    server: str, request: NewParty, signed: Mapping[str, str] | None = None
) -> PartyJoined:
    """``POST /api/parties``: a new party, with its host's seat.

    The host is bound to the account that ``signed`` signs in, if any; ``PartyRefused`` for
    a ranked party that cannot be (``ranked_account``, ``ranked_timer``...).
    """
    return _read(PartyJoined, _call(server, "/api/parties", request, signed=signed))


def join_party(
    server: str, reference: str, name: str, signed: Mapping[str, str] | None = None
) -> PartyJoined:
    """``POST /api/parties/{reference}/join``: a seat; ``PartyRefused`` if there is none.

    ``reference``: ``party_reference``'s. ``signed``: the headers of the account to join as
    (a ranked party needs one).
    """
    path = _party_path(reference, "/join")
    try:
        answer = _call(server, path, JoinParty(name=name), signed=signed)
    except ServerError as error:
        if error.status == 404:
            code = reference.split(".", 1)[0]
            raise PartyRefused(
                f"There is no party {code} on this server: check the code.",
                status=404,
                code="unknown_party",
            ) from None
        raise
    return _read(PartyJoined, answer)


def challenge_bot(server: str, request: NewChallenge, signed: Mapping[str, str]) -> PartyJoined:
    """``POST /api/challenges``: a game against an online program, once it accepts.

    ``signed``: the challenger's account headers. ``PartyRefused`` when it is offline or
    declines (the sentence says why).
    """
    return _read(PartyJoined, _call(server, "/api/challenges", request, signed=signed))


def online_bots(server: str) -> OnlineBots:
    """``GET /api/bots``: the programs' accounts online."""
    return _read(OnlineBots, _call(server, "/api/bots"))


def look_at_party(server: str, code: str) -> PartyView:
    """``GET /api/parties/{code}``: the party as its invite page shows it."""
    return _read(PartyView, _call(server, _party_path(code)))


def game_record(server: str, table: str, token: str) -> dict[str, Any]:
    """``GET /api/games/{table}/record``: a finished game's ``rummy-record/1``."""
    record = _call(server, f"/api/games/{urllib.parse.quote(table)}/record", token=token)
    if not isinstance(record, dict):
        raise ServerError("The server's record is not a JSON object.")
    return record


def invite_link(server: str, path: str) -> str:
    """The invite link to share: the server's address and the party's path (``/#/party/C``)."""
    return base_url(server) + path
