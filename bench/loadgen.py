"""The load generator: concurrent tinycards matches through the gateway, unary or Play.

Every match is created and joined before its level is timed (match set-up is not
what is measured). Its action sequence is computed in advance with the pure engine
from the same seed and options the rules service uses, so the timed loop does
nothing but submit actions and read acknowledgements and events: each seat draws
while the deck lasts, then plays; with hand_size=1 a 2-seat match is 22 actions
and 33 stream entries (each seat sees 23 of them).

A slot plays its matches one after another; `concurrency` slots run at once.
Per match, every seat is subscribed before the first action: the unary path opens
one StreamEvents call per seat, the Play path one Play session per seat (which
carries that seat's acks and events). One action is in flight per match: the next
is sent when the previous one is acknowledged (the game is turn based).

Latencies: ack = submit -> acknowledgement at the submitter; delivery = submit ->
arrival of each event it produced at each subscriber allowed to see it (events
carry the version their action produced, which identifies the action).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from google.protobuf import any_pb2

from bench.stats import summarize_ms
from parlour.client import GatewayClient
from parlour.client.client import Seat
from parlour.engine.local import LocalMatch
from parlour.engine.rng import Rng
from parlour.games.tinycards.v1 import tinycards_pb2 as tc
from parlour.gateway.v1 import gateway_pb2 as gw

GAME = "tinycards"
SEATS = 2
OPTIONS = tc.Options(hand_size=1)
SEEDS = 16


@dataclass(frozen=True)
class Plan:
    """A match's actions in order (seat, packed action) and its final stream sequence."""

    actions: tuple[tuple[int, any_pb2.Any], ...]
    final_sequence: int


@cache
def plan_for(seed: int) -> Plan:
    """Draw while the deck lasts, else play the first card (canonical order)."""
    match = LocalMatch(GAME, SEATS, seed=seed, options=OPTIONS)
    actions, sequence = [], 0
    while match.outcome is None:
        seat = match.pending[0].seat
        legal = match.legal_actions(seat)
        draws = [a for a in legal if a.HasField("draw")]
        action = draws[0] if draws else legal[0]
        sequence += len(match.act(seat, action))
        packed = any_pb2.Any()
        packed.Pack(action)
        actions.append((seat, packed))
    return Plan(tuple(actions), sequence)


@cache
def random_plan(game: str, seats: int, seed: int) -> Plan:
    """A whole match of `game` with a random legal action of the first pending seat each
    time (Rng seeded like the match), computed with the pure engine."""
    match = LocalMatch(game, seats, seed=seed)
    rng = Rng.from_seed(seed)
    actions, sequence = [], 0
    while match.outcome is None:
        seat = match.pending[0].seat
        legal = match.legal_actions(seat)
        action = legal[rng.below(len(legal))]
        sequence += len(match.act(seat, action))
        packed = any_pb2.Any()
        packed.Pack(action)
        actions.append((seat, packed))
    return Plan(tuple(actions), sequence)


@dataclass
class Prepared:
    match_id: str
    seats: list[Seat]
    plan: Plan


async def prepare(
    client: GatewayClient, count: int, parallel: int = 32, offset: int = 0
) -> list[Prepared]:
    """Create and join `count` matches (not timed as part of a level)."""
    out: list[Prepared | None] = [None] * count
    todo = iter(range(count))

    async def worker() -> None:
        for i in todo:
            seed = (offset + i) % SEEDS
            match = await client.create_match(GAME, SEATS, options=OPTIONS, seed=seed)
            seats = [await client.join(match.name, f"bench{s}", seat=s) for s in range(SEATS)]
            out[i] = Prepared(match.name.removeprefix("matches/"), seats, plan_for(seed))

    await asyncio.gather(*(worker() for _ in range(parallel)))
    return [p for p in out if p is not None]


async def prepare_game(client: GatewayClient, game: str, seats: int, seed: int) -> Prepared:
    """One match of any game, every seat taken, with its random_plan."""
    match = await client.create_match(game, seats, seed=seed)
    joined = [await client.join(match.name, f"bench{s}", seat=s) for s in range(seats)]
    return Prepared(match.name.removeprefix("matches/"), joined, random_plan(game, seats, seed))


@dataclass
class Recorder:
    """(submit time, latency) samples of one level; the window is applied at the end."""

    window_start: float
    window_end: float
    ack: list[tuple[float, float]] = field(default_factory=list)
    delivery: list[tuple[float, float]] = field(default_factory=list)
    matches: int = 0
    errors: list[str] = field(default_factory=list)
    finished: list[str] = field(default_factory=list)

    def acked(self, submitted: float, now: float) -> None:
        self.ack.append((submitted, now - submitted))

    def delivered(self, submitted: float, now: float) -> None:
        self.delivery.append((submitted, now - submitted))

    def within(self, samples: list[tuple[float, float]], end: float) -> list[float]:
        return [lat for t, lat in samples if self.window_start <= t < end]


EVENT_WAIT = 10.0


async def play_unary(client: GatewayClient, m: Prepared, rec: Recorder) -> None:
    """SubmitAction per action; each seat subscribed with StreamEvents."""
    submitted: dict[int, float] = {}
    final = m.plan.final_sequence
    clock = time.perf_counter
    calls = [
        client.stub.StreamEvents(
            gw.StreamEventsRequest(match=f"matches/{m.match_id}"), metadata=s.metadata
        )
        for s in m.seats
    ]

    async def subscriber(call) -> None:
        async for item in call:
            kind = item.WhichOneof("kind")
            events = {"event": [item.event], "batch": item.batch.events}.get(kind, [])
            for event in events:
                rec.delivered(submitted[event.version], clock())
                if event.sequence >= final:
                    return

    readers = [asyncio.create_task(subscriber(c)) for c in calls]
    try:
        for i, (seat, action) in enumerate(m.plan.actions):
            version = i + 2
            start = submitted[version] = clock()
            response = await m.seats[seat].submit(action, request_id=f"{m.match_id}:{i}")
            rec.acked(start, clock())
            if response.result.progress.version != version:
                rec.errors.append(
                    f"{m.match_id}: version {response.result.progress.version} != {version}"
                )
        await asyncio.wait_for(asyncio.gather(*readers), EVENT_WAIT)
        rec.matches += 1
        rec.finished.append(m.match_id)
    finally:
        for call in calls:
            call.cancel()
        for task in readers:
            task.cancel()


async def play_session(
    client: GatewayClient,
    m: Prepared,
    rec: Recorder,
    pace: Callable[[], float] | None = None,
    opened: asyncio.Future | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """One Play session per seat: actions in, acks and events out on the same stream.
    With `pace`, wait that many seconds before each action; `opened` is set once every
    seat's session is open; once `stop` is set no more actions go out (the match is left
    unfinished)."""
    submitted: dict[int, float] = {}
    acks: dict[str, asyncio.Future] = {}
    final = m.plan.final_sequence
    loop = asyncio.get_running_loop()
    clock = time.perf_counter
    sessions = [s.session() for s in m.seats]
    done = [loop.create_future() for _ in sessions]

    async def reader(session, finished: asyncio.Future) -> None:
        while True:
            try:
                item = await session.receive()
            except EOFError:
                return
            kind = item.WhichOneof("kind")
            if kind == "event":
                event = item.event
                rec.delivered(submitted[event.version], clock())
                if event.sequence >= final and not finished.done():
                    finished.set_result(None)
            elif kind == "ack":
                future = acks.pop(item.ack.request_id, None)
                if future is not None:
                    future.set_result(item.ack)

    readers: list[asyncio.Task] = []
    try:
        for session in sessions:  # both subscribed before the first action
            first = await session.receive()
            if not first.HasField("opened"):
                raise RuntimeError(f"Play did not open: {first}")
        readers = [asyncio.create_task(reader(s, d)) for s, d in zip(sessions, done, strict=True)]
        if opened is not None:
            opened.set_result(None)
        for i, (seat, action) in enumerate(m.plan.actions):
            if pace is not None:
                await asyncio.sleep(pace())
            if stop is not None and stop.is_set():
                return
            version = i + 2
            request_id = f"{m.match_id}:{i}"
            future = acks[request_id] = loop.create_future()
            start = submitted[version] = clock()
            sessions[seat].send(action, request_id)
            ack = await future
            rec.acked(start, clock())
            if ack.code or ack.response.result.progress.version != version:
                rec.errors.append(f"{m.match_id}: ack {ack.code} {ack.reason} at version {version}")
        await asyncio.wait_for(asyncio.gather(*done), EVENT_WAIT)
        for session in sessions:  # half-close: the server ends each stream
            session.close()
        await asyncio.wait_for(asyncio.gather(*readers), EVENT_WAIT)
        rec.matches += 1
        rec.finished.append(m.match_id)
    finally:
        for session in sessions:
            session.cancel()
        for task in readers:
            task.cancel()


DRIVERS = {"unary": play_unary, "play": play_session}


async def run_level(
    client: GatewayClient,
    path: str,
    concurrency: int,
    pool: list[Prepared],
    warmup: float,
    duration: float,
) -> tuple[dict, Recorder]:
    """`concurrency` slots each playing matches from the pool until the window closes."""
    drive = DRIVERS[path]
    queue = deque(pool)
    begin = time.perf_counter()
    rec = Recorder(begin + warmup, begin + warmup + duration)
    ran_dry: list[float] = []

    async def slot() -> None:
        while time.perf_counter() < rec.window_end:
            if not queue:
                ran_dry.append(time.perf_counter())
                return
            m = queue.popleft()
            try:
                await drive(client, m, rec)
            except Exception as error:  # noqa: BLE001 - counted and reported
                rec.errors.append(f"{m.match_id}: {type(error).__name__}: {error}")

    await asyncio.gather(*(slot() for _ in range(concurrency)))
    window_end = min([rec.window_end, *ran_dry])
    window = max(window_end - rec.window_start, 1e-9)
    acks = rec.within(rec.ack, window_end)
    result = {
        "path": path,
        "concurrency": concurrency,
        "window_s": round(window, 3),
        "actions_in_window": len(acks),
        "actions_per_s": round(len(acks) / window, 1),
        "matches_finished": rec.matches,
        "ack": summarize_ms(acks),
        "delivery": summarize_ms(rec.within(rec.delivery, window_end)),
        "errors": len(rec.errors),
        "error_samples": rec.errors[:5],
        "pool_ran_dry": bool(ran_dry),
    }
    return result, rec
