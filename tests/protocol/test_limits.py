"""The request budgets on their own: addresses, checked identities, the ceiling, the wait."""

from __future__ import annotations

from rummykit.protocol.limits import ClientLimiter, Limits, TokenBucket, credential_key
from table_client import ManualClock


def limiter(clock: ManualClock, **limits: object) -> ClientLimiter:
    small = {
        "address_burst": 3,
        "address_per_second": 1.0,
        "identity_burst": 2,
        "identity_per_second": 0.5,
        "identities_per_address": 2,
    }
    return ClientLimiter(Limits(**{**small, **limits}), lambda: clock.now)  # type: ignore[arg-type]


def test_an_unchecked_credential_spends_its_address_budget() -> None:
    clock = ManualClock()
    limits = limiter(clock)
    key = credential_key("bearer", "not checked")
    assert [limits.refusal("1.2.3.4", key) for _ in range(4)] == [None, None, None, 1]
    assert limits.refusal("5.6.7.8", key) is None  # another address has its own


def test_a_checked_credential_spends_its_own_budget_from_any_address() -> None:
    clock = ManualClock()
    limits = limiter(clock)
    key = credential_key("session", "s3cret")
    limits.vouch(key, "account 7")
    assert limits.refusal("1.2.3.4", key) is None
    assert limits.refusal("5.6.7.8", key) is None  # the same account, elsewhere
    assert limits.refusal("1.2.3.4", key) == 2  # half a request a second: 2 s to wait
    assert limits.allow("1.2.3.4")  # the address's own budget is untouched
    clock.advance(2)
    assert limits.allow("1.2.3.4", key)


def test_an_addresses_identities_together_have_a_ceiling() -> None:
    clock = ManualClock()
    limits = limiter(clock)
    keys = [credential_key("bearer", f"token {n}") for n in range(3)]
    for number, key in enumerate(keys):
        limits.vouch(key, f"seat t {number}")
    spent = [limits.allow("1.2.3.4", key) for key in keys[:2] for _ in range(2)]
    assert spent == [True] * 4  # two identities' budgets: the ceiling
    assert limits.refusal("1.2.3.4", keys[2]) == 1  # its own bucket is full; the ceiling not
    assert limits.allow("9.9.9.9", keys[2])  # from another address it may go on


def test_a_refusal_takes_nothing_from_either_bucket() -> None:
    clock = ManualClock()
    limits = limiter(clock)
    key = credential_key("bearer", "t")
    limits.vouch(key, "seat t 0")
    assert limits.allow("a", key) and limits.allow("a", key)
    assert not limits.allow("a", key)
    assert limits.identified["a"].tokens == 2  # the ceiling's 4, less the two that went on


def test_the_credential_digest_names_the_kind_and_never_the_secret() -> None:
    key = credential_key("bearer", "my-seat-token")
    assert key.startswith("bearer:") and "my-seat-token" not in key
    assert key != credential_key("session", "my-seat-token")
    assert key == credential_key("bearer", "my-seat-token")


def test_no_limit_means_every_request_goes_on() -> None:
    clock = ManualClock()
    limits = ClientLimiter(Limits.unlimited(), lambda: clock.now)
    key = credential_key("bearer", "t")
    limits.vouch(key, "seat t 0")
    assert all(limits.allow("a", key) and limits.allow("a") for _ in range(1000))


def test_a_bucket_says_how_long_until_it_has_room() -> None:
    clock = ManualClock()
    bucket = TokenBucket(1, 0.25, lambda: clock.now)
    assert bucket.has() and bucket.take()
    assert not bucket.has() and bucket.wait_s() == 4
    clock.advance(3.5)
    assert bucket.wait_s() == 1
