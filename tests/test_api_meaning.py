"""Issue 11 item 2, "meaning travels with the data": catalogues, event text and action labels
come from each game's rules and reach clients through the gateway (real gRPC and Redis)."""

from __future__ import annotations

import pytest
import pytest_asyncio

from parlour.client import GatewayClient
from parlour.engine.registry import game_modules, get_game
from parlour.engine.rng import Rng
from parlour.gateway.v1 import gateway_pb2 as gw
from stack import running_stack

GAMES = game_modules()
STEPS = 12
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(redis_url):
    async with running_stack(redis_url, games=GAMES, heartbeat_seconds=0.2) as (address, _):
        async with GatewayClient(address) as client:
            yield client


def unpack(packed, message_type):
    message = message_type()
    assert packed.Unpack(message), f"{packed.type_url} is not a {message_type.__name__}"
    return message


async def test_every_game_publishes_its_catalogue(client):
    """Issue 11 item 2: DescribeGame (through ListGames) carries every game's Catalogue."""
    served = {g.name.removeprefix("games/"): g.info for g in await client.games()}
    assert sorted(served) == GAMES
    for name, info in served.items():
        game = get_game(name)
        expected = game.catalogue()
        assert info.catalogue.TypeName() == expected.DESCRIPTOR.full_name
        catalogue = unpack(info.catalogue, type(expected))
        assert catalogue == expected and catalogue.ByteSize() > 0, name


@pytest.mark.parametrize("name", GAMES)
async def test_every_game_has_words_and_a_catalogue(name):
    """Issue 11 item 2 / issue 27 item 1: the words come from the game folder's text.py and
    the catalogue from its catalogue_proto.py, by convention (no delegators)."""
    game = get_game(name)
    assert game.catalogue().ByteSize() > 0
    for words in ("describe_action", "describe_event"):
        assert words in type(game).__dict__ or callable(getattr(game.text, words, None)), words


async def test_views_carry_their_table_and_games_their_variants(client):
    """Issue 24 / issue 28 item 6: GetView answers the View in words (TableText), and
    GameInfo lists each variant with the seats it takes."""
    served = {g.name.removeprefix("games/"): g.info for g in await client.games()}
    for name, info in served.items():
        game = get_game(name)
        assert [v.name for v in info.variants] == [v.name for v in game.variants()], name
        for published, variant in zip(info.variants, game.variants(), strict=True):
            low, high = game.seat_range(variant.options)
            assert (published.min_seats, published.max_seats) == (low, high)
            assert info.min_seats <= low <= high <= info.max_seats
    match = await client.create_match("tinycards", 2, seed=5)
    player = await client.join(match.name, "p0", seat=0)
    table = (await player.get_view()).table
    assert [s.title for s in table.sections] == ["Your hand", "Seats", "Deck"]
    assert table.sections[1].items[0].text.startswith("{seat:0}")


@pytest.mark.parametrize("name", GAMES)
async def test_labels_and_event_text_come_from_the_rules(client, name):
    """Issue 11 item 2: every legal action has the game's label; every event each seat
    receives carries the game's one-line text for it."""
    game = get_game(name)
    seats = game.min_seats
    match = await client.create_match(name, seats, seed=11)
    players = [await client.join(match.name, f"p{i}", seat=i) for i in range(seats)]
    rng = Rng.from_seed(3)
    progress = await players[0].progress()
    for _ in range(STEPS):
        if progress.HasField("outcome"):
            break
        pending = sorted({d.seat for d in progress.pending})
        seat = pending[rng.below(len(pending))]
        listed = await players[seat].actions()
        assert len(listed.labels) == len(listed.actions) > 0
        for label in listed.labels:
            assert label and "\n" not in label
        choice = listed.actions[rng.below(len(listed.actions))]
        progress = (await players[seat].submit(choice)).result.progress
    last = progress.last_sequence
    for player in players:
        seen = 0
        async for item in player.events():
            if item.HasField("heartbeat"):
                assert item.heartbeat.last_sequence >= last
                break
            event = item.event
            assert event.text and "\n" not in event.text
            assert event.text == game.describe_event(unpack(event.event, game.event_type))
            seen += 1
            if event.sequence >= last:
                break
        assert seen > 0


async def test_play_stream_events_carry_text(client):
    """Issue 11 item 2: events on the Play stream carry the same text as StreamEvents."""
    game = get_game("tinycards")
    match = await client.create_match("tinycards", 2, seed=4)
    players = [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
    first = (await players[0].actions()).actions[0]
    session = players[0].session()
    request_id = session.send(first)
    texts = []
    acked = False
    while not (acked and texts):
        message = await session.receive()
        kind = message.WhichOneof("kind")
        if kind == "ack":
            assert message.ack.request_id == request_id and message.ack.response.result
            acked = True
        elif kind == "event":
            texts.append(message.event)
    session.cancel()
    for event in texts:
        assert isinstance(event, gw.MatchEvent)
        assert event.text == game.describe_event(unpack(event.event, game.event_type))
