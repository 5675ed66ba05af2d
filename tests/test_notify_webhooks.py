"""Issue 44 items 2 and 4, notifications through webhooks with real parts: a real HTTP receiver
gets every notice as deploy/README.md documents it, signed; a notifier killed (SIGKILL) while
sending re-sends after a restart and the receiver processes each idempotency key once; a
correspondence clock driven by the test clock gives "clock_low"; preferences opt a person out."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time

import pytest
import redis.asyncio as aioredis
from lifecycle_support import Table, own_redis
from webhook_receiver import Receiver

from parlour.client import GatewayClient
from parlour.engine.registry import get_game
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.launcher import LocalStack
from parlour.notify.notifier import sign, verify
from parlour.rules.clocks import CLOCK_FILE_ENV
from parlour.store import keys
from parlour.store.notices import prefs_key

SECRET = "whsec-test-0123456789"
HOUR = 3_600_000
#: The keys every notice has (deploy/README.md, "Webhook format"); finished ones add outcome.
FIELDS = {"id", "type", "match", "game", "seat", "player", "display_name", "version",
          "pending_seats", "deadline_unix_ms"}


@pytest.fixture(scope="module")
def clock_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("clock") / "offset"
    path.write_text("0")
    return path


@pytest.fixture(scope="module")
def receiver():
    with Receiver(SECRET) as receiver:
        yield receiver


@pytest.fixture(scope="module")
def stack(clock_file):
    with own_redis() as redis_url:
        env = {"PARLOUR_HEARTBEAT_SECONDS": "0.2", CLOCK_FILE_ENV: str(clock_file),
               "PARLOUR_NOTIFY_OUTBOX": "1"}
        stack = LocalStack(["tinycards", "murdercastle"], env=env, redis_url=redis_url).start()
        yield stack
        stack.stop()


class NotifierProcess:
    """`parlour serve-notifier` as a real process."""

    def __init__(self, stack, receiver, clock_file) -> None:
        self.env = {**os.environ, "PARLOUR_REDIS_URL": stack.redis_url,
                    "PARLOUR_NOTIFY_URL": receiver.url, "PARLOUR_NOTIFY_SECRET": SECRET,
                    "PARLOUR_NOTIFY_SWEEP_SECONDS": "0.3", "PARLOUR_NOTIFY_BACKOFF_SECONDS": "0.3",
                    "PARLOUR_NOTIFY_CLOCK_LOW_HOURS": "12", CLOCK_FILE_ENV: str(clock_file),
                    "PARLOUR_NOTIFY_POST_TIMEOUT_SECONDS": "1"}
        self.process = None

    def start(self) -> NotifierProcess:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "parlour.cli", "serve-notifier"], env=self.env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        return self

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def notifier(stack, receiver, clock_file):
    process = NotifierProcess(stack, receiver, clock_file).start()
    yield process
    process.stop()


@pytest.fixture
async def client(stack):
    async with GatewayClient(stack.address) as client:
        yield client


async def eventually(check, seconds: float = 60.0):
    """Wait until `check()` is true (polling; the notifier is another process)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the receiver did not get the notices in time"
        await asyncio.sleep(0.1)


async def new_match(client, hours=72):
    request = gw.CreateMatchRequest(
        game="tinycards", seats=2, allow_spectators=True,
        lifecycle=gw.LifecycleOptions(correspondence=gw.Correspondence(hours_per_move=hours)),
    )
    match = (await client.stub.CreateMatch(request)).match
    players = [await client.join(match.name, f"p{i}") for i in range(2)]
    return match, players


async def play_out(players, seed=0):
    choose = random.Random(seed)
    while True:
        view = await players[0].get_view()
        if view.progress.HasField("outcome"):
            return view.progress
        seat = view.progress.pending[0].seat
        await players[seat].submit(choose.choice(list((await players[seat].actions()).actions)))


def test_signature_round_trip():
    """The documented scheme: t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">; a changed
    body, another secret or an old timestamp fails."""
    now = int(time.time())
    header = sign(SECRET, now, b'{"a":1}')
    assert header.startswith(f"t={now},v1=")
    assert verify(SECRET, header, b'{"a":1}')
    assert not verify(SECRET, header, b'{"a":2}')
    assert not verify("other", header, b'{"a":1}')
    assert not verify(SECRET, sign(SECRET, now - 3600, b"{}"), b"{}")


async def test_a_played_match_notifies_each_turn_and_the_end(client, stack, receiver, notifier):
    """Every turn change and the end reach the receiver, signed, each key once, with the
    documented fields and only public facts; the match's notified hash expires with it."""
    match, players = await new_match(client)
    await eventually(lambda: receiver.notices("your_turn", match.name))  # the first mover
    final = await play_out(players)
    await eventually(lambda: len(receiver.notices("match_finished", match.name)) == 2)
    mine = receiver.notices(match=match.name)
    assert all(r["ok"] and r["type"] == "application/json" for r in receiver.received)
    for notice in mine:
        assert set(notice) - {"outcome"} == FIELDS
        assert notice["game"] == "tinycards" and notice["display_name"] == f"p{notice['seat']}"
    finished = receiver.notices("match_finished", match.name)
    assert {n["seat"] for n in finished} == {0, 1}
    assert finished[0]["outcome"]["winners"] == list(final.outcome.winners)
    turns = receiver.notices("your_turn", match.name)
    assert turns[0]["seat"] == 0 and turns[0]["deadline_unix_ms"] > 0
    assert len({n["id"] for n in turns}) == len(turns) >= 2
    assert not receiver.duplicates
    redis = aioredis.from_url(stack.redis_url)
    try:
        assert await redis.pttl(keys.notified(match.name[8:])) > 0
    finally:
        await redis.aclose()


async def test_a_killed_notifier_resends_and_each_key_is_processed_once(
    client, stack, receiver, clock_file
):
    """SIGKILL while a POST is in flight: the restarted notifier claims the pending notice and
    sends it again; the receiver got that key twice and processed it once."""
    process = NotifierProcess(stack, receiver, clock_file).start()
    try:
        receiver.hang_next = True
        match, players = await new_match(client)
        await eventually(lambda: receiver.hung)
        hung = receiver.hung[0]
        process.kill()
        await play_out(players, seed=1)  # notices pile up in the outbox meanwhile
        process.start()
        await eventually(lambda: hung in receiver.duplicates)
        await eventually(lambda: len(receiver.notices("match_finished", match.name)) == 2)
    finally:
        process.stop()
    assert [r["key"] for r in receiver.received].count(hung) == 2
    assert receiver.duplicates.count(hung) == 1
    keys = [r["key"] for r in receiver.received if r["key"].startswith(match.name[8:])]
    assert len(set(keys)) == len(receiver.notices(match=match.name))


async def test_clock_low_when_the_deadline_nears(client, receiver, notifier, clock_file):
    """With 12 hours as "low", a 3-day move is low once the test clock is 61 hours on."""
    match, _ = await new_match(client)
    await eventually(lambda: receiver.notices("your_turn", match.name))
    assert not receiver.notices("clock_low", match.name)
    clock_file.write_text(str(int(clock_file.read_text()) + 61 * HOUR))
    await eventually(lambda: receiver.notices("clock_low", match.name))
    low = receiver.notices("clock_low", match.name)
    assert [n["seat"] for n in low] == [0]


async def test_an_opted_out_kind_is_not_sent(client, stack, receiver, notifier):
    """A person who turned "match_finished" off gets the other kinds, not that one."""
    match, players = await new_match(client)
    redis = aioredis.from_url(stack.redis_url)
    try:
        record = (await redis.hget(f"parlour:{{{match.name[8:]}}}:meta", "rk:1")).decode()
        await redis.sadd(prefs_key(f"players/{record}"), "match_finished")
        await play_out(players, seed=2)
        await eventually(lambda: receiver.notices("match_finished", match.name))
        await asyncio.sleep(2)  # the opted-out one would have come with the other
    finally:
        await redis.srem(prefs_key(f"players/{record}"), "match_finished")
        await redis.aclose()
    assert [n["seat"] for n in receiver.notices("match_finished", match.name)] == [0]


async def test_undo_asked_reaches_each_awaited_seat(client, stack, receiver, notifier):
    """A seat asks for an undo that needs agreement: every other seat is sent "undo_asked"."""
    game = get_game("murdercastle")
    seats = max(3, game.min_seats)
    request = gw.CreateMatchRequest(
        game="murdercastle", seats=seats, seed=5, allow_spectators=True,
        lifecycle=gw.LifecycleOptions(allow_undo=True, undo_needs_agreement=True),
    )
    match = (await client.stub.CreateMatch(request)).match
    players = [await client.join(match.name, f"p{i}") for i in range(seats)]
    table = Table(game, client, stack, match, players)
    try:
        seat, action = await table.find(None)
        await players[seat].submit(action)
        asked = (await table.undo(seat)).result.progress
    finally:
        await table.close()
    awaited = sorted(asked.undo_request.awaiting)
    await eventually(lambda: len(receiver.notices("undo_asked", match.name)) == len(awaited))
    assert sorted(n["seat"] for n in receiver.notices("undo_asked", match.name)) == awaited


async def test_a_pool_of_notifiers_sends_each_notice_once(client, stack, receiver, clock_file):
    """Three notifier processes share the consumer group: every notice of a played match is
    delivered exactly once (no duplicates reach the receiver)."""
    pool = [NotifierProcess(stack, receiver, clock_file).start() for _ in range(3)]
    try:
        before = len(receiver.received)
        match, players = await new_match(client)
        await play_out(players, seed=3)
        await eventually(lambda: len(receiver.notices("match_finished", match.name)) == 2)
        await asyncio.sleep(2)  # a duplicate would have come by now
    finally:
        for process in pool:
            process.stop()
    mine = [r["key"] for r in receiver.received[before:] if r["key"].startswith(match.name[8:])]
    assert len(mine) == len(set(mine)) == len(receiver.notices(match=match.name))


async def test_the_first_mover_of_an_untimed_match_is_told_once_seated(client, receiver, notifier):
    """Joining commits nothing, so the gateway writes the first "your_turn" when the seat is
    taken (no sweep covers an untimed match)."""
    match = (await client.stub.CreateMatch(gw.CreateMatchRequest(
        game="tinycards", seats=2, allow_spectators=True))).match
    for i in range(2):
        await client.join(match.name, f"p{i}")
    await eventually(lambda: receiver.notices("your_turn", match.name))
    (turn,) = receiver.notices("your_turn", match.name)
    assert turn["seat"] == 0 and turn["deadline_unix_ms"] == 0
