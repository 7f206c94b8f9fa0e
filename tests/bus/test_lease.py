"""Table leases: one owner at a time, a higher epoch at each new owner, and the store's fence
(``check_epoch``) that keeps an owner who lost its lease from ever writing again. Every
behavioural test runs in memory and on a real Redis (``backend``)."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis
import redis.asyncio as aioredis
from hypothesis import given
from hypothesis import strategies as st

from bus_backends import Backend, table_id
from ports import free_port
from redis_service import RedisService
from rummykit.server.cluster.lease import (
    LEASE_S,
    Holder,
    Lease,
    LeaseKeeper,
    LeaseUnavailable,
    MemoryLeases,
    RedisLeases,
    StaleOwner,
    ThreadedKeeper,
    check_epoch,
)
from table_client import ManualClock

TIMEOUT_S = 30


@given(stored=st.none() | st.integers(0, 10**6), mine=st.integers(0, 10**6))
def test_check_epoch_refuses_exactly_the_epochs_below_the_tables(
    stored: int | None, mine: int
) -> None:
    if stored is not None and mine < stored:
        with pytest.raises(StaleOwner) as refused:
            check_epoch(stored, mine)
        assert (refused.value.stored, refused.value.mine) == (stored, mine)
    else:
        assert check_epoch(stored, mine) == mine


@pytest.mark.timeout(TIMEOUT_S)
def test_one_owner_at_a_time(backend: Backend) -> None:
    async def scenario() -> None:
        table = table_id()
        first, second = backend.leases(), backend.leases()
        try:
            mine = await first.acquire(table, "process-a")
            assert mine is not None and mine.epoch == 1
            assert await second.acquire(table, "process-b") is None
            assert await second.holder(table) == Holder("process-a", 1)
            # the owner asking again keeps its epoch: the table did not change hands
            again = await first.acquire(table, "process-a")
            assert again is not None and again.epoch == 1
            assert await first.acquire(table_id(), "process-b") is not None  # another table
        finally:
            await first.aclose()
            await second.aclose()

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_expiry_hands_the_table_to_another_owner_at_a_higher_epoch(backend: Backend) -> None:
    async def scenario() -> None:
        table = table_id()
        lease_s = backend.short_lease_s()
        first, second = backend.leases(lease_s), backend.leases(lease_s)
        try:
            old = await first.acquire(table, "process-a")
            assert old is not None
            stored = check_epoch(None, old.epoch)  # the old owner writes
            await backend.expire(first, table)  # ... and pauses past its lease
            new = await second.acquire(table, "process-b")
            assert new is not None and new.epoch == old.epoch + 1
            stored = check_epoch(stored, new.epoch)  # the new owner writes: the fence rises
            # the old owner wakes: its renewal fails, its release frees nothing ...
            assert await first.renew(old) is None
            await first.release(old)
            assert await second.holder(table) == Holder("process-b", new.epoch)
            # ... and a write it tries before noticing is refused
            with pytest.raises(StaleOwner):
                check_epoch(stored, old.epoch)
        finally:
            await first.aclose()
            await second.aclose()

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_renewal_after_expiry_fails_even_when_nobody_took_the_table(backend: Backend) -> None:
    async def scenario() -> None:
        table = table_id()
        leases = backend.leases(backend.short_lease_s())
        try:
            lease = await leases.acquire(table, "process-a")
            assert lease is not None
            await backend.expire(leases, table)
            assert await leases.renew(lease) is None
            assert await leases.holder(table) is None
            # taking it again is a new acquisition: a new epoch (the table reloads its log)
            again = await leases.acquire(table, "process-a")
            assert again is not None and again.epoch == lease.epoch + 1
        finally:
            await leases.aclose()

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_renewing_many_at_once_answers_each_lease_in_order(backend: Backend) -> None:
    """One request for many leases: the held ones renewed, the lost one ``None``."""

    async def scenario() -> None:
        tables = [table_id() for _ in range(3)]
        first, second = backend.leases(), backend.leases()
        try:
            held = [await first.acquire(table, "process-a") for table in tables]
            assert all(lease is not None for lease in held)
            leases = [lease for lease in held if lease is not None]
            await first.release(leases[1])
            taken = await second.acquire(tables[1], "process-b")
            assert taken is not None
            answers = await first.renew_many(leases)
            assert answers[1] is None, "another process holds it now"
            for lease, renewed in ((leases[0], answers[0]), (leases[2], answers[2])):
                assert renewed is not None and renewed.epoch == lease.epoch
                assert renewed.table_id == lease.table_id
            assert await first.renew_many([]) == []
            assert await second.holder(tables[1]) == Holder("process-b", taken.epoch)
        finally:
            await first.aclose()
            await second.aclose()

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_renewal_extends_the_lease_and_release_frees_the_table(backend: Backend) -> None:
    async def scenario() -> None:
        table = table_id()
        first, second = backend.leases(), backend.leases()
        try:
            lease = await first.acquire(table, "process-a")
            assert lease is not None and lease.valid_until == LEASE_S
            backend.clock.advance(LEASE_S * 2 / 3)
            renewed = await first.renew(lease)
            assert renewed is not None and renewed.epoch == lease.epoch
            assert renewed.valid_until == backend.clock.time() + LEASE_S
            backend.clock.advance(LEASE_S * 2 / 3)  # past the first lease, not the renewed one
            assert await second.acquire(table, "process-b") is None
            await first.release(renewed)
            assert await first.holder(table) is None
            taken = await second.acquire(table, "process-b")
            assert taken is not None and taken.epoch == lease.epoch + 1
        finally:
            await first.aclose()
            await second.aclose()

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_a_new_owner_starts_above_the_epoch_the_store_has_seen(backend: Backend) -> None:
    async def scenario() -> None:
        leases = backend.leases()
        try:
            lease = await leases.acquire(table_id(), "process-a", after=41)
            assert lease is not None and lease.epoch == 42
        finally:
            await leases.aclose()

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_after_a_redis_restart_the_epochs_still_rise(redis_server: RedisService) -> None:
    """Redis without persistence forgets its counters; the store's epoch keeps them rising."""

    async def scenario() -> None:
        table = table_id()
        leases = RedisLeases.from_url(redis_server.url)
        try:
            epochs = []
            for _ in range(3):
                lease = await leases.acquire(table, "process-a")
                assert lease is not None
                epochs.append(lease.epoch)
                await leases.release(lease)
            assert epochs == [1, 2, 3]
            stored = check_epoch(None, epochs[-1])
            redis_server.restart()
            fresh = await leases.acquire(table, "process-b")  # a counter from scratch ...
            assert fresh is not None and fresh.epoch == 1
            await leases.release(fresh)
            with pytest.raises(StaleOwner):  # ... which the store refuses
                check_epoch(stored, fresh.epoch)
            taken = await leases.acquire(table, "process-b", after=stored)
            assert taken is not None and check_epoch(stored, taken.epoch) == stored + 1
        finally:
            await leases.aclose()

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_an_unreachable_redis_is_reported_not_taken_for_a_lost_lease() -> None:
    async def scenario() -> None:
        leases = RedisLeases.from_url(f"redis://127.0.0.1:{free_port()}/0")
        try:
            with pytest.raises(LeaseUnavailable):
                await leases.acquire(table_id(), "process-a")
            with pytest.raises(LeaseUnavailable):
                await leases.renew(Lease(table_id(), "process-a", 1, 0.0))
        finally:
            await leases.aclose()

    asyncio.run(scenario())


async def keeper_round(keeper: LeaseKeeper, clock: ManualClock) -> None:
    """Let the keeper's sleep end, and wait for the renewal round that follows."""
    done = keeper.rounds
    while not clock.sleeping():
        await asyncio.sleep(0)  # the keeper has not gone back to sleep yet
    clock.advance(keeper.leases.lease_s / 3)
    await keeper.wait_rounds(done + 1)


@pytest.mark.timeout(TIMEOUT_S)
def test_the_keeper_holds_a_lease_for_many_lease_lengths(backend: Backend) -> None:
    async def scenario() -> None:
        table = table_id()
        mine, other = backend.leases(), backend.leases()
        lost: list[Lease] = []

        async def on_lost(lease: Lease) -> None:
            lost.append(lease)

        keeper = LeaseKeeper(mine, on_lost, sleep=backend.clock.sleep)
        try:
            lease = await mine.acquire(table, "process-a")
            assert lease is not None
            keeper.keep(lease)
            keeper.start()
            for _ in range(12):  # four lease lengths
                await keeper_round(keeper, backend.clock)
                assert await other.acquire(table, "process-b") is None
            current = keeper.current(table)
            assert current is not None and current.epoch == lease.epoch
            assert current.valid_until == backend.clock.time() + LEASE_S
            assert lost == []
        finally:
            await keeper.stop()
            await mine.aclose()
            await other.aclose()

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_the_keeper_reports_a_lease_taken_by_another_owner_once(backend: Backend) -> None:
    async def scenario() -> None:
        kept, taken = table_id(), table_id()
        mine, other = backend.leases(), backend.leases()
        lost: list[Lease] = []
        reported = asyncio.Event()

        async def on_lost(lease: Lease) -> None:
            lost.append(lease)
            reported.set()

        keeper = LeaseKeeper(mine, on_lost, sleep=backend.clock.sleep)
        try:
            for table in (kept, taken):
                lease = await mine.acquire(table, "process-a")
                assert lease is not None
                keeper.keep(lease)
            stolen = keeper.current(taken)
            assert stolen is not None
            await mine.release(stolen)  # as if it had expired
            assert await other.acquire(taken, "process-b") is not None
            keeper.start()
            await keeper_round(keeper, backend.clock)
            await reported.wait()
            await keeper_round(keeper, backend.clock)
            assert lost == [stolen]
            assert keeper.current(taken) is None and keeper.current(kept) is not None
        finally:
            await keeper.stop()
            await mine.aclose()
            await other.aclose()

    asyncio.run(scenario())


class Unreachable(MemoryLeases):
    """Leases whose service is out of reach while ``down`` is set."""

    def __init__(self, now: ManualClock) -> None:
        super().__init__(LEASE_S, now=now.time)
        self.down = False

    async def renew(self, lease: Lease) -> Lease | None:
        if self.down:
            raise LeaseUnavailable("down")
        return await super().renew(lease)


@pytest.mark.timeout(TIMEOUT_S)
def test_the_keeper_rides_out_an_outage_shorter_than_the_lease_and_not_a_longer_one() -> None:
    async def scenario() -> None:
        clock = ManualClock()
        leases = Unreachable(clock)
        lost: list[Lease] = []

        async def on_lost(lease: Lease) -> None:
            lost.append(lease)

        keeper = LeaseKeeper(leases, on_lost, sleep=clock.sleep)
        lease = await leases.acquire("t", "process-a")
        assert lease is not None
        keeper.keep(lease)
        leases.down = True
        for _ in range(2):  # two thirds of the lease: still surely ours
            clock.advance(LEASE_S / 3)
            await keeper.renew_all()
        assert lost == [] and keeper.current("t") == lease
        leases.down = False
        await keeper.renew_all()  # back in time: renewed
        renewed = keeper.current("t")
        assert renewed is not None and renewed.valid_until == clock.time() + LEASE_S
        leases.down = True
        for _ in range(3):  # a whole lease out of reach: another owner may hold it now
            clock.advance(LEASE_S / 3)
            await keeper.renew_all()
        assert lost == [renewed] and keeper.current("t") is None

    asyncio.run(scenario())


def test_leases_refuse_a_lease_of_no_length() -> None:
    with pytest.raises(ValueError):
        MemoryLeases(0)


@pytest.mark.timeout(TIMEOUT_S)
def test_the_keeper_renews_many_leases_over_a_few_connections(backend: Backend) -> None:
    name = f"keeper-{table_id()}"

    def connections() -> int:
        assert backend.service is not None
        with redis.Redis.from_url(backend.service.url) as admin:
            return sum(1 for client in admin.client_list() if client["name"] == name)

    async def scenario() -> None:
        if backend.service is None:
            leases = backend.leases()
        else:
            client = aioredis.Redis.from_url(backend.service.url, client_name=name)
            leases = RedisLeases(client, now=backend.clock.time)
        lost: list[Lease] = []

        async def on_lost(lease: Lease) -> None:
            lost.append(lease)

        keeper = LeaseKeeper(leases, on_lost, sleep=backend.clock.sleep, concurrency=4)
        try:
            tables = [table_id() for _ in range(100)]
            for table in tables:
                lease = await leases.acquire(table, "process-a")
                assert lease is not None
                keeper.keep(lease)
            backend.clock.advance(LEASE_S / 2)
            await keeper.renew_all()
            assert lost == []
            for table in tables:
                current = keeper.current(table)
                assert current is not None and current.valid_until == LEASE_S * 1.5
            if backend.service is not None:
                assert 1 <= connections() <= 4
        finally:
            await leases.aclose()

    asyncio.run(scenario())


@pytest.mark.timeout(TIMEOUT_S)
def test_a_threaded_keeper_renews_while_the_serving_loop_is_blocked(
    redis_server: RedisService,
) -> None:
    """Renewed in a thread of its own, a lease outlives a serving loop that does not turn for
    twice its length (a process under load); and a lost lease is reported on the serving
    loop. The blocking is the point: ``time.sleep`` stands for work that holds the loop."""

    async def scenario() -> None:
        lease_s = 0.3
        table = table_id()
        leases = RedisLeases.from_url(redis_server.url, lease_s)
        serving = asyncio.get_running_loop()
        lost: asyncio.Queue[tuple[Lease, bool]] = asyncio.Queue()

        async def on_lost(lease: Lease) -> None:
            await lost.put((lease, asyncio.get_running_loop() is serving))

        keeper = ThreadedKeeper(lambda: RedisLeases.from_url(redis_server.url, lease_s), on_lost)
        keeper.start()
        try:
            lease = await leases.acquire(table, "process-a")
            assert lease is not None
            keeper.keep(lease)
            time.sleep(lease_s * 2)  # the serving loop does not turn
            assert await leases.holder(table) == Holder("process-a", lease.epoch)
            current = keeper.current(table)
            assert current is not None and current.valid_until > lease.valid_until
            await leases.client.delete(f"rummy:{{{table}}}:lease")  # taken away
            gone, on_serving_loop = await asyncio.wait_for(lost.get(), TIMEOUT_S / 2)
            assert gone.table_id == table and on_serving_loop
            assert keeper.current(table) is None
        finally:
            await keeper.stop()
            await leases.aclose()

    asyncio.run(scenario())
