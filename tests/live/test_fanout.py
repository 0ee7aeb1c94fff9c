"""The broker and the read coalescing, without a database."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from puzzlecomp.live import broker
from puzzlecomp.live.coalesce import FreshRead, OnceEach


def run(scenario):
    """Run a coroutine on a fresh loop in its own thread (the browser tests leave a loop
    running in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, scenario).result(10)


def notice(seq: int) -> dict[str, object]:
    return {"championship": "c", "seq": seq, "round": 1, "kind": "result"}


def drain(subscription: broker.Subscription) -> list[int]:
    seqs = []
    while not subscription.queue.empty():
        seqs.append(subscription.queue.get_nowait()["seq"])
    return seqs


def test_each_subscriber_gets_a_number_once_and_never_an_older_one():
    async def scenario():
        subscription = broker.subscribe("c")
        try:
            for seq in (1, 2, 2, 1, 4, 3, 5):
                broker.publish("c", notice(seq))
            return drain(subscription)
        finally:
            broker.unsubscribe(subscription)

    # 3 came after 4: the page already saw the gap at 4 and refetched.
    assert run(scenario()) == [1, 2, 4, 5]


def test_a_notice_published_from_another_thread_reaches_the_loop():
    async def scenario():
        subscription = broker.subscribe("c")
        try:
            threading.Thread(target=broker.publish, args=("c", notice(7))).start()
            return (await asyncio.wait_for(subscription.queue.get(), 2))["seq"]
        finally:
            broker.unsubscribe(subscription)

    assert run(scenario()) == 7


def test_subscribers_on_a_closed_loop_are_dropped():
    async def subscribe_only():
        return broker.subscribe("closed")

    run(subscribe_only())
    assert broker.subscriber_count("closed") == 1
    broker.publish("closed", notice(1))
    assert broker.subscriber_count("closed") == 0


def test_a_spectator_who_stops_reading_keeps_only_the_newest_notices():
    async def scenario():
        subscription = broker.subscribe("c")
        try:
            for seq in range(1, broker.QUEUE_LIMIT + 11):
                broker.publish("c", notice(seq))
            return drain(subscription)
        finally:
            broker.unsubscribe(subscription)

    seqs = run(scenario())
    assert seqs == list(range(11, broker.QUEUE_LIMIT + 11))


def test_a_read_asked_for_while_one_is_under_way_waits_for_the_next_read():
    """Joining a read already under way could miss a commit the asker was told about."""
    database = {"seq": 1}

    async def scenario():
        release = asyncio.Event()
        reads = []

        async def read(key):
            value = database["seq"]
            reads.append(value)
            await release.wait()
            return value

        fresh: FreshRead[str, int] = FreshRead(read)
        early = asyncio.ensure_future(fresh.get("c"))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        database["seq"] = 2  # committed, and the notice sent, while the first read runs
        late = [asyncio.ensure_future(fresh.get("c")) for _ in range(100)]
        await asyncio.sleep(0)
        release.set()
        return await early, await asyncio.gather(*late), reads

    early, late, reads = run(scenario())
    assert early == 1
    assert set(late) == {2}
    # A hundred askers, one read for them all.
    assert reads == [1, 2]


def test_a_build_under_way_is_shared_by_everyone_asking_for_the_same_key():
    async def scenario():
        builds = []
        once: OnceEach[int, str] = OnceEach()

        async def make():
            builds.append(1)
            await asyncio.sleep(0.01)
            return "body"

        results = await asyncio.gather(*(once.get(5, make) for _ in range(50)))
        return results, builds

    results, builds = run(scenario())
    assert set(results) == {"body"}
    assert builds == [1]
