"""The user's data folder, and the owner-only folders and files kept in it.

Every command that writes a file (the server's database and its lock, the account and seat
files of ``rummy account`` and ``rummy join``) makes the file's folder first, with
``private_folder``: a fresh machine has no data folder yet, and a ``--store`` or
``RUMMY_DATA_DIR`` may name a folder nobody has made.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Final

from platformdirs import user_data_dir

OWNER_ONLY_FILE: Final = 0o600
"""The mode of every file the program writes: seat tokens and sessions are in them."""

OWNER_ONLY_FOLDER: Final = 0o700
"""The mode of every folder the program makes for them."""

DATA_DIR_VARIABLE: Final = "RUMMY_DATA_DIR"
"""The environment variable naming another data folder than the user's own."""


def data_folder() -> Path:
    """The data folder: ``RUMMY_DATA_DIR`` if set, else the user's data directory.

    It may not exist yet: ``private_folder`` makes it when something is written there.
    """
    return Path(os.environ.get(DATA_DIR_VARIABLE) or user_data_dir("rummykit", appauthor=False))


def private_folder(folder: Path) -> Path:
    """Make ``folder`` (and its parents) if it does not exist yet; give it back.

    The folder made is its owner's alone (0700). A folder that exists already keeps its mode
    (a ``--store`` in ``/tmp`` must not close ``/tmp``), except the data folder and the
    folders in it, which are ours: one made 0755 (by an older version, or by hand) is made
    owner-only too, when it belongs to this user and is not a shared folder (sticky, as
    ``/tmp`` is: a ``RUMMY_DATA_DIR=/tmp`` keeps ``/tmp`` as it is).
    """
    folder.mkdir(mode=OWNER_ONLY_FOLDER, parents=True, exist_ok=True)
    if is_in_data_folder(folder):
        _make_owner_only(folder)
    return folder


def is_in_data_folder(folder: Path) -> bool:
    """Whether ``folder`` is the data folder or a folder in it."""
    ours = data_folder().resolve()
    here = folder.resolve()
    return here == ours or ours in here.parents


def _make_owner_only(folder: Path) -> None:
    mode = folder.stat()
    if not hasattr(os, "getuid") or mode.st_uid != os.getuid():
        return  # not ours to change (and no such modes on Windows)
    if mode.st_mode & stat.S_ISVTX or not mode.st_mode & 0o077:
        return  # a shared folder, or owner-only already
    folder.chmod(OWNER_ONLY_FOLDER)
