"""The pump: this process's one task that reads new notices from the database and publishes them.

In-process delivery (`announce` publishing after commit) only reaches spectators connected to
the process that made the change. The pump polls the Notice table every second, so notices made
by other processes (several uvicorn workers, the command line, an import) reach everyone, and
a delivery lost in-process is repaired. Subscriptions drop what they were already handed.
It also moves running rounds past their limit to counting, so screens see it without a reader.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from puzzlecomp.live import broker
from puzzlecomp.live.reads import in_db_thread, live_seqs, notices_after, running_rounds_advance
from puzzlecomp.live.relay import relay_listen, relay_url

POLL_SECONDS = 1.0

logger = logging.getLogger(__name__)


def poll(seen: dict[int, int] | None,
         subscribed: set[str]) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """The notices after `seen` (championship id -> last number) of the subscribed
    championships, and the new `seen`. The first poll (`seen` None) only takes the numbers.

    Numbers of championships nobody here watches stay where they were: a spectator who
    subscribed during this poll still gets what was numbered after the last one.
    """
    running_rounds_advance()
    if seen is None:
        return {pk: seq for pk, (_slug, seq) in live_seqs().items()}, []
    now_seen = dict(seen)
    notices: list[dict[str, Any]] = []
    for pk, (slug, seq) in live_seqs().items():
        # Fewer than before: the database was replaced (a restored backup, a fresh test one).
        # A championship created since the first poll has had all its notices since then.
        last = min(seen.get(pk, 0), seq)
        if seq > last and slug in subscribed:
            found = notices_after(pk, last)
            notices.extend(found)
            now_seen[pk] = max([seq, *(n["seq"] for n in found)])
        else:
            now_seen[pk] = last
    return now_seen, notices


class Pump:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.seen: dict[int, int] | None = None
        # Set once the first poll has taken every championship's number.
        self.ready = asyncio.Event()
        self.task = loop.create_task(self.run(), name="puzzlecomp-live-pump")
        url = relay_url()
        # Notices of other processes in milliseconds (the pump still repairs what it loses).
        self.relay = (loop.create_task(relay_listen(url), name="puzzlecomp-live-relay")
                      if url else None)

    def alive(self) -> bool:
        return not self.task.done() and self.loop.is_running()

    async def run(self) -> None:
        read = in_db_thread(poll)
        while True:
            try:
                reading = asyncio.ensure_future(read(self.seen, broker.subscribed_slugs()))
                try:
                    self.seen, notices = await asyncio.shield(reading)
                except asyncio.CancelledError:
                    # Stopping: let the database thread finish its read before the loop goes.
                    await asyncio.wait([reading])
                    raise
                for notice in notices:
                    broker.publish(notice["championship"], notice)
            except Exception:
                logger.exception("live pump: polling notices failed; retrying")
            self.ready.set()
            await asyncio.sleep(POLL_SECONDS)


_pump: Pump | None = None


async def pump_ensure_started() -> None:
    """Start the process's pump on this loop unless one runs; return once it has its numbers,
    so a spectator who says hello after this misses nothing the pump would have sent."""
    global _pump
    loop = asyncio.get_running_loop()
    if _pump is None or not _pump.alive():
        _pump = Pump(loop)
    if _pump.loop is loop:
        await _pump.ready.wait()
