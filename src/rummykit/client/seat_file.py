"""Where a program keeps its seat: the party's token.

``rummy join`` writes the token it was given to a file as soon as it has it, so that the same
command run again after the program was killed returns to the seat instead of taking another.
Each life of the program numbers its intents afresh under a ``client`` id of its own, so
nothing else needs keeping.
By default the file lives in the user's data folder (``RUMMY_DATA_DIR`` if set), one file per
server and party code; ``--seat-file`` names another.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from rummykit.data_folder import data_folder, private_folder


class SeatFileError(ValueError):
    """A seat file that cannot be read, or that holds another party's seat."""


class Seat(BaseModel):
    """A seat at a party, as kept on this device."""

    model_config = ConfigDict(extra="ignore")

    server: str
    code: str
    token: str
    member: int
    name: str


def default_seat_path(server: str, code: str, account: str | None = None) -> Path:
    """The seat file for a party of a server, in the user's data folder.

    One per ``account`` played as (``--account``): programs of several accounts on one
    device each keep their own seat at the same party.
    """
    who = "" if account is None else f"\n{account.casefold()}"
    key = hashlib.sha256(f"{server}\n{code.upper()}{who}".encode()).hexdigest()[:20]
    return data_folder() / "seats" / f"{code.upper()}-{key}.json"


def load_seat(path: Path, server: str, code: str) -> Seat | None:
    """The seat kept in ``path`` for that party, or ``None`` if there is no file yet."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as error:
        raise SeatFileError(f"Cannot read the seat file {path}: {error.strerror}.") from None
    try:
        seat = Seat.model_validate_json(text)
    except ValidationError:
        raise SeatFileError(f"The seat file {path} is not a seat: remove it.") from None
    if seat.server != server or seat.code.upper() != code.upper():
        raise SeatFileError(
            f"The seat file {path} holds a seat at party {seat.code} on {seat.server}, "
            "not this one: name another file."
        )
    return seat


def save_seat(path: Path, seat: Seat) -> None:
    """Write the seat to ``path`` whole or not at all (readable by its owner only)."""
    write_private(path, seat.model_dump_json(indent=2))


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all, readable by its owner only (0600)."""
    private_folder(path.parent)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def forget_seat(path: Path) -> None:
    """Remove a seat file that no longer holds a seat."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
