"""Issue 41 item 3: a change's StreamEvents messages are encoded once for every stream that
sends them (spectators share one view), and the handlers' serializer sends those bytes as
they are."""

from __future__ import annotations

from parlour.gateway.fanout import Progress
from parlour.gateway.streams import stream_message
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc.decoding import encoder
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store.matchstore import StoredEvent

URL = "type.googleapis.com/parlour.games.tinycards.v1.Event"


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
