"""The data folder is its owner's alone, even one that an older version left 0755; folders
elsewhere (a ``--store`` in ``/tmp``) keep their mode."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from rummykit.data_folder import DATA_DIR_VARIABLE, private_folder


def mode_of(folder: Path) -> int:
    return stat.S_IMODE(folder.stat().st_mode)


def test_an_existing_data_folder_open_to_others_becomes_owner_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    seats = data / "seats"
    seats.mkdir(parents=True)
    data.chmod(0o755)
    seats.chmod(0o755)
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(data))
    private_folder(data)
    private_folder(seats)
    assert mode_of(data) == 0o700
    assert mode_of(seats) == 0o700


def test_a_folder_outside_the_data_folder_keeps_its_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path / "data"))
    elsewhere = tmp_path / "elsewhere"  # a --store's folder
    elsewhere.mkdir()
    elsewhere.chmod(0o755)
    private_folder(elsewhere)
    assert mode_of(elsewhere) == 0o755
    made = private_folder(tmp_path / "new" / "folder")
    assert mode_of(made) == 0o700


def test_a_shared_sticky_folder_named_as_the_data_folder_keeps_its_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "shared"  # as /tmp is: 1777
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(shared))
    private_folder(shared)
    assert stat.S_IMODE(shared.stat().st_mode) == 0o1777
