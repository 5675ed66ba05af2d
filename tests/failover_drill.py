"""Issue 40's drill: play under load while Redis primaries are killed (SIGKILL) or frozen past
their fail-over (SIGSTOP, then SIGCONT), then check everything clients were told against
the final store: every acknowledged match and action stored exactly once, every event a
subscriber received and every resume point it was given still there, no read (GetView,
ListActions, GetMatch) showing a version past the stored one, no INTERNAL.

Clients do what a careful client does: retry UNAVAILABLE and DEADLINE_EXCEEDED with the
same request id, and resume each seat's stream after the last sequence it received. Half
the players act by unary SubmitAction, half on one Play session per seat (the SDK's,
which reopens itself; an UNAVAILABLE ack or ending is retried with the same request id).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from parlour.client import GatewayClient
from parlour.client.client import RETRY_CODES, Session
from parlour.engine.rng import Rng
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store.matchstore import MatchNotFound, MatchStore

GAME = "tinycards"
RETRIED = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
#: How long a client keeps retrying one call (a fail-over takes seconds, not this).
PATIENCE = 90.0


@dataclass
class Ledger:
    """What the clients were told."""

    #: Matches whose creation was acknowledged.
    created: set[str] = field(default_factory=set)
    #: Request ids of acknowledged actions, per match, in order.
    acked: dict[str, list[str]] = field(default_factory=dict)
    #: Events received by any subscriber: match -> sequence -> (version, actor, text).
    seen: dict[str, dict[int, tuple[int, int, str]]] = field(default_factory=dict)
    #: The furthest resume point (heartbeat or event) a subscriber was given, per match.
    resume_points: dict[str, int] = field(default_factory=dict)
    #: The highest version a read (GetView, ListActions, GetMatch) showed, per match, and
    #: how many reads there were.
    viewed: dict[str, int] = field(default_factory=dict)
    reads: int = 0
    #: Status codes of every failed call or stream ending, by name (and reason).
    codes: Counter = field(default_factory=Counter)
    failovers: int = 0
    #: The playing loops (a failed one fails the wait for more actions at once).
    tasks: list[asyncio.Task] = field(default_factory=list)

    @property
    def actions(self) -> int:
        return sum(len(r) for r in self.acked.values())

    def saw(self, match: str, progress) -> None:
        """A read showed the match at `progress`."""
        self.reads += 1
        self.viewed[match] = max(self.viewed.get(match, 0), progress.version)


@dataclass
class Findings:
    """The ledger against the store."""

    acknowledged: int = 0
    lost: int = 0
    duplicated: int = 0
    matches_gone: int = 0
    events_seen: int = 0
    events_not_in_store: int = 0
    resume_points_ahead: int = 0
    #: Reads checked, and matches a read showed at a version past the stored one.
    reads: int = 0
    views_ahead: int = 0
    internal: int = 0

    def clean(self) -> bool:
        return not (
            self.lost or self.duplicated or self.matches_gone or self.events_not_in_store
            or self.resume_points_ahead or self.views_ahead or self.internal
        )  # fmt: skip


def reason_of(error: grpc.aio.AioRpcError) -> str:
    """The ErrorInfo reason of a refusal ("" if none)."""
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.reason
    return ""


async def retrying(ledger: Ledger, call: Callable[[], Awaitable]):
    """`call()` until it is not refused UNAVAILABLE / DEADLINE_EXCEEDED (the same request
    each time: the caller fixes its request id)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        try:
            return await call()
        except grpc.aio.AioRpcError as error:
            ledger.codes[f"{error.code().name} {reason_of(error)}"] += 1
            if error.code() not in RETRIED or time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


async def follow(ledger: Ledger, seat, match: str) -> None:
    """One seat's stream, resumed after the last sequence received, to the match's end."""
    cursor = 0
    seen = ledger.seen.setdefault(match, {})
    deadline = time.monotonic() + 10 * PATIENCE
    while time.monotonic() < deadline:
        request = gw.StreamEventsRequest(match=match, after_sequence=cursor)
        try:
            async for item in seat.client.stub.StreamEvents(request, metadata=seat.metadata):
                events = list(item.batch.events) if item.HasField("batch") else []
                if item.HasField("event"):
                    events = [item.event]
                for event in events:
                    seen[event.sequence] = (event.version, event.actor, event.text)
                    cursor = max(cursor, event.sequence)
                if item.HasField("heartbeat"):
                    cursor = max(cursor, item.heartbeat.last_sequence)
                ledger.resume_points[match] = max(ledger.resume_points.get(match, 0), cursor)
                if item.HasField("finished"):
                    return
            return
        except grpc.aio.AioRpcError as error:
            ledger.codes[f"stream {error.code().name} {reason_of(error)}"] += 1
            if error.code() not in RETRIED:
                return
            await asyncio.sleep(0.2)


async def seated(ledger: Ledger, client: GatewayClient, seed: int, tag: str):
    """A new match (its creation and joins retried with their request ids) and its seats."""
    match = await retrying(
        ledger,
        lambda: client.create_match(GAME, 2, seed=seed, request_id=f"create-{tag}"),
    )
    ledger.created.add(match.name)
    seats = [
        await retrying(
            ledger,
            lambda i=i, name=match.name: client.join(
                name, f"p{i}", seat=i, request_id=f"join-{tag}-{i}",
                join_secret=f"join-secret-of-{tag}-{i}",
            ),
        )
        for i in range(2)
    ]  # fmt: skip
    return match.name, seats


async def play(ledger: Ledger, client: GatewayClient, seed: int, stop: asyncio.Event) -> None:
    """Matches one after another until `stop`, every call retried with its request id; odd
    seeds act on Play sessions, even ones by unary calls."""
    rng = Rng.from_seed(seed)
    for number in range(1_000_000):
        if stop.is_set():
            return
        tag = f"s{seed}n{number}"
        match, seats = await seated(ledger, client, seed, tag)
        followers = [asyncio.create_task(follow(ledger, s, match)) for s in seats]
        sessions = [Streamed(ledger, seat) for seat in seats] if seed % 2 else None
        acked = ledger.acked.setdefault(match, [])
        progress = (await retrying(ledger, seats[0].get_view)).progress
        ledger.saw(match, progress)
        step = 0
        while not progress.HasField("outcome") and not stop.is_set():
            turn = progress.pending[0].seat
            listed = await retrying(ledger, seats[turn].actions)
            ledger.saw(match, listed.progress)
            action = listed.actions[rng.below(len(listed.actions))]
            rid = f"act-{tag}-{step}"
            if sessions:
                response = await sessions[turn].act(action, rid)
            else:
                response = await retrying(
                    ledger,
                    lambda p=seats[turn], a=action, r=rid: p.submit(a, request_id=r, timeout=30),
                )
            acked.append(rid)
            progress = response.result.progress
            await look(ledger, client, seats[1 - turn], step)
            step += 1
            await asyncio.sleep(0.01)
        for session in sessions or ():
            session.close()
        if stop.is_set():
            for task in followers:
                task.cancel()
        await asyncio.gather(*followers, return_exceptions=True)


async def look(ledger: Ledger, client: GatewayClient, seat, step: int) -> None:
    """The match as the other seat reads it (GetView), or as anyone does (GetMatch), in
    turn: a read must never show a version a fail-over could take back."""
    if step % 2:
        shown = await retrying(ledger, lambda: client.match(seat.match))
    else:
        shown = await retrying(ledger, seat.get_view)
    ledger.saw(seat.match, shown.progress)


class Streamed:
    """One seat's Play session (the SDK's), opened again when it gives up UNAVAILABLE; the
    events it delivers are checked like the subscribers'."""

    def __init__(self, ledger: Ledger, seat) -> None:
        self.ledger = ledger
        self.seat = seat
        self.seen = ledger.seen.setdefault(seat.match, {})
        self.session: Session = seat.session()

    async def act(self, action, rid: str) -> gw.SubmitActionResponse:
        """Send `action` with `rid` until acknowledged (an UNAVAILABLE ack or ending: again,
        with the same request id)."""
        deadline = time.monotonic() + PATIENCE
        self.session.send(action, request_id=rid)
        while True:
            try:
                message = await self.session.receive()
            except (grpc.aio.AioRpcError, EOFError) as error:
                code = error.code() if isinstance(error, grpc.aio.AioRpcError) else None
                reason = reason_of(error) if code is not None else "EOF"
                self.ledger.codes[f"play {code.name if code else 'ended'} {reason}"] += 1
                if code not in RETRIED | {None} or time.monotonic() > deadline:
                    raise
                self.reopen()
                self.session.send(action, request_id=rid)
                continue
            self.note(message)
            if not message.HasField("ack") or message.ack.request_id != rid:
                continue
            ack = message.ack
            if ack.code == 0:
                return ack.response
            self.ledger.codes[f"play ack {code_name(ack.code)} {ack.reason}"] += 1
            if ack.code not in RETRY_CODES or time.monotonic() > deadline:
                raise AssertionError(f"{rid} refused: {ack}")
            await asyncio.sleep(0.2)
            self.session.send(action, request_id=rid)

    def note(self, message: gw.PlayResponse) -> None:
        if message.HasField("event"):
            event = message.event
            self.seen[event.sequence] = (event.version, event.actor, event.text)
        cursor = self.session.cursor
        match = self.seat.match
        self.ledger.resume_points[match] = max(self.ledger.resume_points.get(match, 0), cursor)

    def reopen(self) -> None:
        cursor = self.session.cursor
        self.session.cancel()
        self.session = self.seat.session(cursor)

    def close(self) -> None:
        self.session.cancel()


def code_name(number: int) -> str:
    """The name of a status code given by its number (an ack's code)."""
    return next(code.name for code in grpc.StatusCode if code.value[0] == number)


async def check(ledger: Ledger, store: MatchStore) -> Findings:
    """The ledger against the final store."""
    found = Findings(acknowledged=ledger.actions + len(ledger.created), reads=ledger.reads)
    for name in ledger.created:
        match = name.removeprefix("matches/")
        try:
            records = await store.match_log(match)
        except MatchNotFound:
            found.matches_gone += 1
            found.lost += len(ledger.acked.get(name, ())) + 1
            continue
        logged = [rules.LoggedAction.FromString(a).request_id for a in records.actions]
        counts = Counter(logged)
        found.duplicated += sum(n - 1 for n in counts.values() if n > 1)
        found.lost += sum(1 for rid in ledger.acked.get(name, ()) if rid not in counts)
        stored = {e.sequence: e for e in records.events}
        last = max(stored, default=0)
        for sequence, (version, _actor, _text) in ledger.seen.get(name, {}).items():
            found.events_seen += 1
            event = stored.get(sequence)
            if event is None or event.version != version:
                found.events_not_in_store += 1
        if ledger.resume_points.get(name, 0) > last:
            found.resume_points_ahead += 1
        if ledger.viewed.get(name, 0) > await store.version(match):
            found.views_ahead += 1
    found.internal = sum(n for code, n in ledger.codes.items() if "INTERNAL" in code or
                         "UNKNOWN" in code)  # fmt: skip
    return found


@contextlib.asynccontextmanager
async def load(address: str, players: int):
    """`players` playing loops on one client; yields the ledger and the stop event."""
    ledger = Ledger()
    stop = asyncio.Event()
    async with GatewayClient(address) as client:
        ledger.tasks = [
            asyncio.create_task(play(ledger, client, seed, stop)) for seed in range(players)
        ]
        try:
            yield ledger, stop
        finally:
            stop.set()
            results = await asyncio.gather(*ledger.tasks, return_exceptions=True)
            failures = [r for r in results if isinstance(r, BaseException)]
            if failures:
                raise failures[0]


async def wait_for_actions(ledger: Ledger, more: int, timeout: float = 120.0) -> None:
    """Until `more` actions more than now were acknowledged."""
    target = ledger.actions + more
    async with asyncio.timeout(timeout):
        while ledger.actions < target:
            for task in ledger.tasks:
                if task.done():
                    task.result()  # raises what ended it
            await asyncio.sleep(0.05)
