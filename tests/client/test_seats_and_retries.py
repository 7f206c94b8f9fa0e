"""The seat kept on this device (``rummykit.client.seat_file``) and the loop that tries again
after a dropped connection (``rummykit.client.sockets.keep_trying``), on an injected sleep."""

from __future__ import annotations

import random
import stat
from pathlib import Path

import pytest

from rummykit.client.seat_file import (
    Seat,
    SeatFileError,
    default_seat_path,
    forget_seat,
    load_seat,
    write_private,
)
from rummykit.client.sockets import Backoff, SeatLost, keep_trying, party_socket_url

SERVER = "http://a:8000"


def test_each_party_server_and_account_has_its_own_seat_file(data: Path) -> None:
    path = default_seat_path(SERVER, "k7qm2p")
    assert path.parent == data / "seats"
    assert path.name.startswith("K7QM2P-") and path.suffix == ".json"
    assert default_seat_path(SERVER, "K7QM2P") == path  # the code in any letters
    others = {
        default_seat_path("http://b:8000", "K7QM2P"),
        default_seat_path(SERVER, "K7QM2Q"),
        default_seat_path(SERVER, "K7QM2P", account="Ann"),
        default_seat_path(SERVER, "K7QM2P", account="Bob"),
    }
    assert len(others) == 4 and path not in others
    assert default_seat_path(SERVER, "K7QM2P", account="ANN") == default_seat_path(
        SERVER, "K7QM2P", account="ann"
    )


def test_a_seat_file_that_holds_no_seat_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "seat.json"
    path.write_text('{"server": "http://a:8000"}')
    with pytest.raises(SeatFileError, match="is not a seat: remove it"):
        load_seat(path, SERVER, "K7QM2P")
    with pytest.raises(SeatFileError, match="Cannot read the seat file"):
        load_seat(tmp_path, SERVER, "K7QM2P")  # a folder


def test_a_seat_is_found_whatever_the_letters_of_its_code(tmp_path: Path) -> None:
    path = tmp_path / "seat.json"
    seat = Seat(server=SERVER, code="K7QM2P", token="t", member=1, name="A")
    write_private(path, seat.model_dump_json())
    assert load_seat(path, SERVER, "k7qm2p") == seat


def test_a_private_file_is_its_owners_alone_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "new" / "seat.json"
    write_private(path, "first")
    write_private(path, "second")
    assert path.read_text() == "second"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [each.name for each in path.parent.iterdir()] == ["seat.json"]


def test_a_seat_is_forgotten_once_and_forgetting_it_again_is_no_error(tmp_path: Path) -> None:
    path = tmp_path / "seat.json"
    write_private(path, "{}")
    forget_seat(path)
    forget_seat(path)
    assert not path.exists()


class Attempts:
    """Tries that end as they are told: ``True`` done, ``False`` closed, or an exception."""

    def __init__(self, *ends: bool | BaseException) -> None:
        self.ends = list(ends)
        self.count = 0

    def __call__(self) -> bool:
        self.count += 1
        end = self.ends.pop(0)
        if isinstance(end, BaseException):
            raise end
        return end


def test_keep_trying_waits_after_each_drop_and_says_why() -> None:
    slept: list[float] = []
    told: list[tuple[str, float]] = []
    attempts = Attempts(ConnectionError("reset by peer"), False, True)
    backoff = Backoff(rng=random.Random(4))
    keep_trying(attempts, backoff, slept.append, lambda why, wait: told.append((why, wait)))
    assert attempts.count == 3
    assert [why for why, _ in told] == ["reset by peer", "the server closed the connection"]
    assert slept == [wait for _, wait in told]
    assert 0.25 <= slept[0] <= 0.5 and 0.5 <= slept[1] <= 1.0  # each twice the last at most


def test_keep_trying_lets_a_lost_seat_through_at_once() -> None:
    slept: list[float] = []
    attempts = Attempts(ConnectionError("refused"), SeatLost("There is no such seat.", 4404))
    with pytest.raises(SeatLost, match=r"There is no such seat\."):
        keep_trying(attempts, Backoff(rng=random.Random(1)), slept.append, lambda *_: None)
    assert attempts.count == 2 and len(slept) == 1


def test_the_waits_stop_growing_at_the_longest() -> None:
    backoff = Backoff(first=1.0, longest=4.0, rng=random.Random(2))
    waits = [backoff.next_wait() for _ in range(40)]
    assert all(2.0 <= wait <= 4.0 for wait in waits[2:])
    backoff.reset()
    assert 0.5 <= backoff.next_wait() <= 1.0


def test_a_partys_socket_quotes_its_code() -> None:
    assert party_socket_url("https://a/base/", "K7 QM") == "wss://a/base/ws/party/K7%20QM"
