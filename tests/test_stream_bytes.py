"""Issue 41 item 3: a change's StreamEvents messages are encoded once for every stream that
sends them (spectators share one view), the handlers' serializer sends those bytes as they
are, and a stream may take a change's events and progress as one message."""

from __future__ import annotations

import asyncio

from lifecycle_support import play_out
from prometheus_client import REGISTRY

from parlour.client import GatewayClient
from parlour.gateway.fanout import Progress
from parlour.gateway.streams import stream_message
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc.decoding import encoder
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store.matchstore import StoredEvent
from stack import running_stack

URL = "type.googleapis.com/parlour.games.tinycards.v1.Event"


async def subscribed(count: int) -> None:
    """Wait until the gateway holds `count` subscribers."""
    while (REGISTRY.get_sample_value("parlour_subscribers") or 0) < count:
        await asyncio.sleep(0.05)


def stored(sequence: int, visibility: bytes = b"*") -> StoredEvent:
    payload = rules.RecordedEvent(text=f"event {sequence}").SerializeToString()
    return StoredEvent(sequence, payload, visibility, actor=0, version=sequence + 1)


def test_events_and_progress_are_encoded_once_for_every_stream():
    """The same events (or progress) give the same bytes object to every stream, which
    parse to the message a stream would have built itself."""
    one, two = stored(1), stored(2)
    first = stream_message([one], URL)
    assert stream_message([one], URL) is first
    assert gw.StreamEventsResponse.FromString(first).event.text == "event 1"
    batch = stream_message([one, two], URL)
    assert stream_message([one, two], URL) is batch and batch != first
    parsed = gw.StreamEventsResponse.FromString(batch)
    assert [e.sequence for e in parsed.batch.events] == [1, 2]
    assert stream_message([one, two], URL + "x") is not batch  # another game's URL
    data = rules.MatchProgress(version=3, last_sequence=2).SerializeToString()
    note = Progress(3, 2, data)
    sent = stream_message(note, URL)
    assert stream_message(note, URL) is sent
    assert gw.StreamEventsResponse.FromString(sent).progress.version == 3


def test_the_serializer_passes_bytes_and_serializes_messages():
    """A response already encoded leaves as it is; a message is serialized."""
    encode = encoder(gw.StreamEventsResponse)
    message = gw.StreamEventsResponse(heartbeat=gw.Heartbeat(last_sequence=4))
    assert encode(message) == message.SerializeToString()
    encoded = message.SerializeToString()
    assert encode(encoded) is encoded


async def read_changes(stream):
    """A stream's (event sequences, progress versions, messages) up to MatchFinished;
    checks that a progress in a batch comes after the batch's events."""
    sequences, versions, messages = [], [], 0
    async for item in stream:
        messages += 1
        kind = item.WhichOneof("kind")
        if kind == "finished":
            return sequences, versions, messages
        events = [item.event] if kind == "event" else list(item.batch.events)
        sequences += [e.sequence for e in events]
        if kind == "batch" and item.batch.HasField("progress"):
            assert item.batch.progress.last_sequence >= events[-1].sequence
            versions.append(item.batch.progress.version)
        elif kind == "progress":
            versions.append(item.progress.version)
    raise AssertionError("the stream ended without MatchFinished")


async def test_progress_with_events_sends_a_change_as_one_message(redis_url):
    """A spectator asking for progress_with_events gets the same events and progress as one
    that does not, a change's progress inside its events' batch."""
    async with running_stack(redis_url) as (address, _):
        async with GatewayClient(address) as client:
            match = await client.create_match("tinycards", 2, seed=3, spectators=True)
            players = [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
            before = REGISTRY.get_sample_value("parlour_subscribers") or 0
            streams = [
                asyncio.create_task(read_changes(client.stub.StreamEvents(
                    gw.StreamEventsRequest(match=match.name, progress_with_events=together)
                )))
                for together in (False, True)
            ]  # fmt: skip
            await subscribed(before + 2)
            await play_out(players)
            (
                (apart, apart_versions, apart_messages),
                (together, versions, messages),
            ) = await asyncio.wait_for(asyncio.gather(*streams), 60)
    assert together == apart and together == sorted(set(together))
    assert versions == sorted(set(versions)) and set(versions) <= set(apart_versions)
    assert messages < apart_messages


async def test_the_sdk_stream_takes_a_change_as_one_message(redis_url):
    """The Python SDK's event stream asks for progress_with_events and hands each change's
    events on one by one, then its progress: the same events as a raw stream that does not
    ask, every change's progress after its events (a client learns the match moved without
    a GetView)."""
    async with running_stack(redis_url) as (address, _):
        async with GatewayClient(address) as client:
            match = await client.create_match("tinycards", 2, seed=5, spectators=True)
            players = [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
            asked, real = [], client.stub.StreamEvents

            def recorded(request, **kwargs):  # the real call, its request kept
                asked.append(request)
                return real(request, **kwargs)

            client.stub.StreamEvents = recorded
            before = REGISTRY.get_sample_value("parlour_subscribers") or 0
            sdk = asyncio.create_task(read_sdk(client.spectate(match.name)))
            raw = asyncio.create_task(read_changes(real(gw.StreamEventsRequest(match=match.name))))
            await subscribed(before + 2)
            await play_out(players)
            (sequences, versions), (raw_sequences, raw_versions, _) = await asyncio.wait_for(
                asyncio.gather(sdk, raw), 60)
    assert asked and all(r.progress_with_events for r in asked)
    assert sequences == raw_sequences
    assert versions and versions == sorted(set(versions)) and set(versions) <= set(raw_versions)


async def read_sdk(items):
    """The SDK stream's (event sequences, progress versions) up to Finished; checks that a
    progress comes after the events of its change."""
    sequences, versions = [], []
    async for item in items:
        kind = item.WhichOneof("kind")
        assert kind in ("event", "progress", "heartbeat", "finished"), kind
        if kind == "finished":
            return sequences, versions
        if kind == "event":
            sequences.append(item.event.sequence)
        elif kind == "progress":
            assert not sequences or item.progress.last_sequence >= sequences[-1]
            versions.append(item.progress.version)
    raise AssertionError("the stream ended without MatchFinished")
