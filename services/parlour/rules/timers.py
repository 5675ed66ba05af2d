"""Turn timers: any rules replica plays the default for a decision whose deadline passed.

Each replica polls its game's timer set in Redis. Firing is a platform action with the
request id `parlour:timeout:<version>:<seat>` and that expected version, so replicas racing
on the same deadline (or a retry after a crash) commit it exactly once.
"""

from __future__ import annotations

import asyncio
import logging
import math

from parlour.engine import abandon, timeouts
from parlour.rpc.errors import ServiceError, log_failure
from parlour.rules.clocks import earliest_deadline, now_ms
from parlour.rules.core import RulesCore, pack
from parlour.rules.records import read_actions
from parlour.rules.v1 import rules_pb2 as pb
from parlour.store.keys import PLATFORM_REQUEST_PREFIX

log = logging.getLogger("parlour.rules.timers")
#: How far back the log is read to count a seat's timeouts in a row.
STREAK_WINDOW = 256
#: Pages of due timers read per poll past those of other rules versions (issue 42).
MAX_PAGES = 16
#: What fire() answers for a match under a rules version this replica does not play.
NOT_MINE = -1


def timeout_request_id(version: int, seat: int) -> str:
    """The one request id every replica uses for this seat's timeout at this version."""
    return f"{PLATFORM_REQUEST_PREFIX}timeout:{version}:{seat}"


#: Longest sleep between two looks at the timer set: how late a deadline armed by another
#: replica (that died) can be found.
IDLE_SECONDS = 1.0


class TurnTimers:
    """Fires the due turn timers of one game.

    It sleeps until the earliest deadline in the game's timer set (at least `poll_seconds`,
    at most IDLE_SECONDS), and wakes early when this replica arms an earlier one, so an
    idle replica looks once a second instead of `1 / poll_seconds` times."""

    def __init__(
        self,
        core: RulesCore,
        poll_seconds: float = 0.1,
        batch: int = 64,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        self.core = core
        self.poll_seconds = poll_seconds
        self.batch = batch
        self.idle_seconds = idle_seconds
        self._wake = asyncio.Event()
        #: When the current sleep ends (ms; inf while awake) and the earliest deadline this
        #: replica armed since the last look.
        self._wake_at = math.inf
        self._armed = math.inf
        core.on_armed = self.armed

    def armed(self, deadline_ms: int) -> None:
        """This replica pointed a match's timer at `deadline_ms`."""
        self._armed = min(self._armed, deadline_ms)
        if deadline_ms < self._wake_at:
            self._wake.set()

    async def run(self) -> None:
        """Fire due timers until cancelled."""
        while True:
            self._armed = math.inf
            try:
                await self.fire_due()
                soonest = await self.core.store.next_timer(self.core.game.name)
            except Exception as error:  # noqa: BLE001 - Redis away: keep polling (health says)
                log_failure(log, "timer poll failed", error, game=self.core.game.name)
                soonest = None
            await self._sleep(soonest)

    async def _sleep(self, soonest: int | None) -> None:
        """Until the soonest deadline known (within the bounds) or an earlier one is armed."""
        target = min(soonest if soonest is not None else math.inf, self._armed)
        seconds = (target - now_ms()) / 1000 if target < math.inf else self.idle_seconds
        seconds = min(self.idle_seconds, max(self.poll_seconds, seconds))
        self._wake.clear()
        self._wake_at = now_ms() + seconds * 1000
        handle = asyncio.get_running_loop().call_later(seconds, self._wake.set)
        try:
            await self._wake.wait()
        finally:
            handle.cancel()
            self._wake_at = math.inf

    async def fire_due(self) -> int:
        """Fire every timer due now; returns how many actions were played. Timers of
        matches under a rules version this replica does not play stay for a replica that
        does, and are read past (so they never hold this replica's own back)."""
        store, game = self.core.store, self.core.game.name
        fired = skipped = 0
        for _ in range(MAX_PAGES):
            due = await store.due_timers(game, now_ms(), self.batch, skipped)
            passed = skipped
            for match, seen in due:
                played = await self.fire(match, seen)
                fired += max(played, 0)
                skipped += played == NOT_MINE
            if len(due) < self.batch or skipped == passed:
                break  # nothing of another version held this page back
        return fired

    async def abandons(self, match: str, seat: int) -> str:
        """'' if this timeout leaves the seat in play; else the policy it now falls under
        ('platform': played by the platform from now on, marked in the metadata; 'end')."""
        store = self.core.store
        limit, policy, marked = await store.meta.abandon_policy(match, seat)
        if not limit or marked:
            return ""
        entries = read_actions(self.core.game, await store.last_actions(match, STREAK_WINDOW))
        if abandon.streak(entries, seat) + 1 < limit:
            return ""
        if policy == "end":
            return "end"
        await store.meta.play_for(match, seat)
        return "platform"

    async def fire(self, match: str, seen: int) -> int:
        """Play the default for one expired decision of `match` (1), or re-point its entry
        (0); NOT_MINE when the match's rules version is another replica's."""
        store, game = self.core.store, self.core.game
        raw = await store.stored_progress(match)
        progress = pb.MatchProgress.FromString(raw) if raw else pb.MatchProgress()
        now = now_ms()
        expired = [d for d in progress.pending if 0 < d.deadline_unix_ms <= now]
        if not expired:
            await store.settle_timer(game.name, match, seen, earliest_deadline(progress))
            return 0
        decision = expired[0]
        entry = await self.core.current(match)
        if entry.version != progress.version:
            return 0  # it moved on; the newer commit armed its own deadline
        if entry.rules not in self.core.served:
            if self.core.moves_forward(entry.rules):
                try:
                    await self.core.playable(match)  # migrated: the next poll plays it
                except ServiceError as error:
                    log.info("not migrated", extra={"match": match, "reason": error.reason})
                return 0
            return NOT_MINE  # a replica that plays its rules version fires it
        game = self.core.rules_at(entry.rules)
        abandoned = await self.abandons(match, decision.seat)
        if abandoned == "end":
            await self.core.end_abandoned(match, decision.seat, progress.version)
            return 1
        action = timeouts.default_action(game, entry.state, decision.seat, decision.kind)
        request = pb.ActRequest(
            match_id=match,
            seat=decision.seat,
            action=pack(action),
            request_id=timeout_request_id(progress.version, decision.seat),
            expected_version=progress.version,
        )
        try:
            response = await self.core.act(
                request, timed_out=decision.kind, abandoned=abandoned == "platform"
            )
        except ServiceError as error:
            log.info("timeout not played", extra={"match": match, "reason": error.reason})
            return 0
        return 0 if response.replayed else 1
