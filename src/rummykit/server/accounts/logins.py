"""Sign-ins and sign-ups limited so that a stranger cannot turn the limit against an owner.

What is limited, on the server's clock (injected: tests move it by hand):

- **An address** (``ADDRESS_FAILURES`` failed sign-ins in ``ADDRESS_WINDOW_S``, whatever
  names it tries): refused with 429 and ``Retry-After`` until the oldest failure leaves the
  window. This is what holds back one machine guessing many names.
- **A name from an address** (``PAIR_FAILURES`` in ``PAIR_WINDOW_S``): the same, for one
  address guessing one name. Neither of these touches the owner, who signs in from addresses
  of their own.
- **A name, from anywhere** (the sum over every address): never a lockout, only a delay.
  Past ``NAME_FREE_FAILURES`` failures in ``NAME_WINDOW_S``, a new attempt must come
  ``name_delay`` seconds after the name's last failure: 1 s, then 2, 4, 8, and never more
  than ``NAME_MAX_DELAY_S``. Attempts refused for the delay are not failures and do not
  lengthen it, so each answer asks to wait at most ``NAME_MAX_DELAY_S``. An attacker who
  fires at every second could still take each slot before the owner; so the delay holds back
  only addresses that failed a sign-in (any name) in the last ``FRESH_ADDRESS_S``: the owner's
  first try from a new place is never delayed, and after a typo the owner waits at most
  ``FRESH_ADDRESS_S`` plus one delay, however many addresses attack. What the attackers get
  at one name: one guess per ``NAME_MAX_DELAY_S`` (8,640 a day) plus one per address per
  ``FRESH_ADDRESS_S``, each address also within its own limits above, against passwords that
  ``password_strength`` requires to need about a million guesses (zxcvbn score 2) at least.
- **A known device** (one that signed in to that account before: ``known_devices``) is not
  held by the per-name delay at all, and **a session already held** is never touched by
  any of this: signing in again is not needed to keep playing.
- **Sign-ups from an address** (``AccountLimiter``): ``Limits.accounts_per_address`` in
  ``ACCOUNT_WINDOW_S``; accounts cost nothing otherwise, and farmed accounts feed ratings.

Why so: lichess (lila ``modules/user/src/main/PasswordHasher.scala``, ``rateLimit``) checks
three limits before hashing, per address (200 credits in 10 minutes), per user (10 in 10
minutes) and for the whole site, and hands the check a charge to make on the address and the
user when the password is wrong; past the per-user limit anyone's new sign-ins to that user
are refused for up to ten minutes at a time (sessions already held go on). We keep that shape
(per address, charged on failure, checked before any hashing), but a name gets a capped delay
instead of a refusal, and the devices that signed in before skip it: the "device cookie"
defence OWASP describes for exactly this lockout ("Slow Down Online Guessing Attacks with
Device Cookies"), where the per-user limit holds back only clients it does not know.

Measured on the limiter's clock (``test_a_sustained_attack_keeps_the_owner_out_only_briefly``,
attackers firing every second and always before the owner, for an hour): a known device and a
held session are kept out 0 s; a new device after the owner's own typo 250 s (5 attacking
addresses) to 300 s (50 or 500); the attackers check 300, 894 and 6,294 passwords an hour.

A right password forgets the pair's failures and this attempt, not the address's earlier ones
nor the name's (an attacker's failures stay counted against the name).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from typing import Final

from rummykit.protocol import MAX_ADDRESSES, Clock

ADDRESS_FAILURES: Final = 20
"""Failed sign-ins an address may have within ``ADDRESS_WINDOW_S``: a household or a
classroom behind one address mistyping, but not a guesser trying names."""
ADDRESS_WINDOW_S: Final = 600.0
"""The window an address's failures are counted in."""

PAIR_FAILURES: Final = 5
"""Failed sign-ins one address may have for one name within ``PAIR_WINDOW_S``."""
PAIR_WINDOW_S: Final = 300.0
"""The window a name's failures from one address are counted in."""

NAME_FREE_FAILURES: Final = 5
"""Failures a name may have within ``NAME_WINDOW_S`` (from any addresses) before a delay."""
NAME_WINDOW_S: Final = 900.0
"""The window a name's failures are counted in."""
NAME_BASE_DELAY_S: Final = 1.0
"""The first delay past ``NAME_FREE_FAILURES``; it doubles with each further failure."""
NAME_MAX_DELAY_S: Final = 10.0
"""The longest a name's delay grows: the longest an owner on a new device waits between two
tries however hard the name is attacked, and one guess per 10 s for the attackers together."""

FRESH_ADDRESS_S: Final = 300.0
"""An address with no failed sign-in for this long is not held by any name's delay: the
longest a name's attackers can keep its owner's new device out after the owner's own typo."""

MAX_KEYS: Final = 3 * MAX_ADDRESSES
"""Names, pairs and addresses whose failures are kept; the least recently failed is
forgotten first (its failures would soon have left their window anyway)."""


def name_delay(failures: int) -> float:
    """Seconds between a name's last failure and the next attempt, after ``failures`` of them.

    >>> [name_delay(n) for n in (0, 5, 6, 7, 8, 9, 100)]
    [0.0, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
    """
    if failures < NAME_FREE_FAILURES:
        return 0.0
    excess = min(failures - NAME_FREE_FAILURES, 16)  # 2**16 s is past any cap
    return min(NAME_BASE_DELAY_S * 2.0**excess, NAME_MAX_DELAY_S)


class _Windows:
    """Failure times by key, each kept only within its window; the oldest keys forgotten."""

    def __init__(self) -> None:
        self._times: OrderedDict[str, deque[float]] = OrderedDict()

    def recent(self, key: str, window: float, now: float) -> deque[float]:
        times = self._times.get(key)
        if times is None:
            return deque()
        while times and times[0] <= now - window:
            times.popleft()
        if not times:
            del self._times[key]
        return times

    def add(self, key: str, now: float, keep: int) -> None:
        times = self._times.pop(key, None) or deque()
        times.append(now)
        while len(times) > keep:
            times.popleft()
        self._times[key] = times  # most recently failed last
        while len(self._times) > MAX_KEYS:
            self._times.popitem(last=False)

    def take_back(self, key: str) -> None:
        """Forget the latest time of ``key`` (an attempt that turned out right)."""
        times = self._times.get(key)
        if times:
            times.pop()
            if not times:
                del self._times[key]

    def forget(self, key: str) -> None:
        self._times.pop(key, None)


def _wait(times: deque[float], limit: int, window: float, now: float) -> float | None:
    """Seconds until fewer than ``limit`` of ``times`` are within the window, if that many are."""
    return times[0] + window - now if len(times) >= limit else None


class LoginLimiter:
    """The failed sign-ins of each address, name-and-address pair, and name."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        """Failures timed by ``clock`` (the app's; tests move it by hand)."""
        self.clock = clock
        self._failures = _Windows()

    @staticmethod
    def _keys(name: str, address: str) -> tuple[str, str, str]:
        folded = name.casefold()
        return f"address:{address}", f"pair:{address}\n{folded}", f"name:{folded}"

    def retry_after(self, name: str, address: str, *, known_device: bool = False) -> int | None:
        """Whole seconds to wait before trying ``name`` from ``address``; ``None``: go on.

        ``known_device``: the request carries a proof that its device signed in to that
        account before, which the name's delay does not hold back (nor does it hold back an
        address without a failure in ``FRESH_ADDRESS_S``).
        """
        now = self.clock()
        by_address, by_pair, by_name = self._keys(name, address)
        from_address = self._failures.recent(by_address, ADDRESS_WINDOW_S, now)
        waits = [
            _wait(from_address, ADDRESS_FAILURES, ADDRESS_WINDOW_S, now),
            _wait(
                self._failures.recent(by_pair, PAIR_WINDOW_S, now),
                PAIR_FAILURES,
                PAIR_WINDOW_S,
                now,
            ),
        ]
        fresh = not from_address or from_address[-1] <= now - FRESH_ADDRESS_S
        if not (known_device or fresh):
            failures = self._failures.recent(by_name, NAME_WINDOW_S, now)
            if failures:
                due = failures[-1] + name_delay(len(failures)) - now
                waits.append(due if due > 0 else None)
        found = [wait for wait in waits if wait is not None]
        return max(1, math.ceil(max(found))) if found else None

    def attempt(self, name: str, address: str, *, known_device: bool = False) -> None:
        """Count a sign-in about to be checked as failed, until ``succeeded`` says otherwise.

        Counted before the password is checked, so that many attempts sent at once (each
        waiting for its hash) cannot all pass the limit before the first failure is counted.
        A known device's failures are not the name's: they cannot delay anyone else.
        """
        now = self.clock()
        by_address, by_pair, by_name = self._keys(name, address)
        self._failures.add(by_address, now, ADDRESS_FAILURES)
        self._failures.add(by_pair, now, PAIR_FAILURES)
        if not known_device:
            # kept past the free ones: their count sets the delay
            self._failures.add(by_name, now, NAME_FREE_FAILURES + 16)

    def succeeded(self, name: str, address: str, *, known_device: bool = False) -> None:
        """The password was right: forget this attempt and the pair's failures."""
        by_address, by_pair, by_name = self._keys(name, address)
        self._failures.take_back(by_address)
        self._failures.forget(by_pair)
        if not known_device:
            self._failures.take_back(by_name)


ACCOUNT_WINDOW_S: Final = 3600.0
"""The window an address's new accounts are counted in (``Limits.accounts_per_address``)."""


class AccountLimiter:
    """The accounts each address made within ``ACCOUNT_WINDOW_S``."""

    def __init__(self, per_address: int | None, clock: Clock = time.monotonic) -> None:
        """At most ``per_address`` accounts an address in the window (``None``: no limit)."""
        self.per_address = per_address
        self.clock = clock
        self._made = _Windows()

    def retry_after(self, address: str) -> int | None:
        """Whole seconds before ``address`` may make another account; ``None``: go on."""
        if self.per_address is None:
            return None
        now = self.clock()
        made = self._made.recent(address, ACCOUNT_WINDOW_S, now)
        wait = _wait(made, self.per_address, ACCOUNT_WINDOW_S, now)
        return None if wait is None else max(1, math.ceil(wait))

    def attempt(self, address: str) -> None:
        """Count an account about to be made (before its password is hashed)."""
        if self.per_address is not None:
            self._made.add(address, self.clock(), self.per_address)

    def refused(self, address: str) -> None:
        """The account was not made after all (its name was taken meanwhile)."""
        if self.per_address is not None:
            self._made.take_back(address)
