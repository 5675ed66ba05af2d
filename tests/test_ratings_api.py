"""Issue 36 items 2-3 through the public API (real gateway, rules service and Redis): the
record a seat counts toward, GetPlayerRecord and ListLeaderboard, unrated matches, bots,
bad input, and visibility: a private table's match counts but is listed only to its
owner."""

from __future__ import annotations

import uuid

import grpc
import pytest
from edge_helpers import refusal
from identity_helpers import identity_stack, metadata
from lifecycle_support import own_redis

from parlour.engine.rng import Rng
from parlour.gateway.identity import subject_key
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from stack import running_stack


async def play_out(stub, match: str, seats: list[tuple], seed: int) -> gw.MatchProgress:
    """Seeded random legal actions until the end; `seats[i]` is seat i's call metadata."""
    rng = Rng.from_seed(seed)
    progress = (await stub.GetMatch(gw.GetMatchRequest(match=match),
                                    metadata=seats[0])).match.progress
    while not progress.HasField("outcome"):
        seat = progress.pending[0].seat
        actions = (await stub.ListActions(gw.ListActionsRequest(match=match),
                                          metadata=seats[seat])).actions
        response = await stub.SubmitAction(
            gw.SubmitActionRequest(match=match, action=actions[rng.below(len(actions))],
                                   request_id=uuid.uuid4().hex),
            metadata=seats[seat])
        progress = response.result.progress
    return progress


async def new_match(stub, jwt: str | None = None, **fields) -> str:
    created = await stub.CreateMatch(
        gw.CreateMatchRequest(game="tinycards", seats=2, **fields), metadata=metadata(jwt))
    return created.match.name


@pytest.fixture
def own_url():
    """A Redis of the test's own: its leaderboard holds only this test's players (the worker's
    fills with every other test's, past the top 100 read here)."""
    with own_redis() as url:
        yield url


async def test_a_finished_match_is_in_both_records_and_on_the_leaderboard(own_url):
    """Items 2-3: two named players finish a match; each JoinMatchResponse named its record;
    GetPlayerRecord shows the rating, one match, the win and a link to the match;
    ListLeaderboard ranks them with Ada's neighbourhood; the same name again, in another
    letter case or spacing, is the same record."""
    ada, ben = f"Ada {uuid.uuid4().hex[:6]}", f"Ben {uuid.uuid4().hex[:6]}"
    async with running_stack(own_url) as (address, _), grpc.aio.insecure_channel(address) as ch:
        stub = gw_grpc.GatewayServiceStub(ch)
        match = await new_match(stub, seed=3)
        joined = [await stub.JoinMatch(gw.JoinMatchRequest(match=match, display_name=n))
                  for n in (ada, ben)]
        assert [j.player.startswith("players/n") for j in joined] == [True, True]
        assert joined[0].player != joined[1].player and joined[0].match.rated
        seats = [(("authorization", f"Bearer {j.seat_token}"),) for j in joined]
        outcome = (await play_out(stub, match, seats, 3)).outcome
        records = [await stub.GetPlayerRecord(gw.GetPlayerRecordRequest(player=j.player))
                   for j in joined]
        for seat, record in enumerate(records):
            assert record.kind == gw.PLAYER_KIND_NAME
            assert record.display_name == (ada, ben)[seat]
            (standing,) = record.records
            assert (standing.game, standing.variant) == ("tinycards", "standard")
            assert standing.matches == 1
            assert standing.wins == (seat in outcome.winners and len(outcome.winners) == 1)
            (played,) = standing.recent
            assert (played.match, played.seat, played.sides) == (match, seat, 2)
            assert played.change == pytest.approx(standing.rating.display)
            assert standing.rating.display == pytest.approx(
                standing.rating.mu - 3 * standing.rating.sigma)
        by_name = await stub.GetPlayerRecord(gw.GetPlayerRecordRequest(
            player=f"players/name:  {ada.lower()} "))
        assert by_name.player == joined[0].player and by_name.records == records[0].records
        # the same name again (letter case and spaces aside) is the same record
        other = await new_match(stub)
        again = await stub.JoinMatch(gw.JoinMatchRequest(match=other, display_name=ada.upper()))
        twice = await stub.JoinMatch(gw.JoinMatchRequest(match=other, display_name=f" {ada} "))
        assert again.player == joined[0].player == twice.player
        board = await stub.ListLeaderboard(gw.ListLeaderboardRequest(
            game="tinycards", top=100, around=joined[0].player, neighbours=1))
        assert board.variant == "standard" and board.players >= 2
        listed = {e.player: e for e in board.top}
        assert {j.player for j in joined} <= set(listed)
        ranks = [e.rank for e in board.top]
        assert ranks == list(range(1, len(ranks) + 1))
        shown = [e.rating.display for e in board.top]
        assert shown == sorted(shown, reverse=True)
        assert joined[0].player in [e.player for e in board.around]
        assert len(board.around) <= 3
        assert listed[joined[0].player].rank == records[0].records[0].rank


async def test_an_unrated_match_changes_no_record_and_bots_count_as_their_strategy(redis_url):
    """Item 3: CreateMatch rated=false is a friendly match (Match.rated false, no record);
    item 1: a seat joined with bot="greedy" counts toward players/bot:greedy."""
    name = f"Cy {uuid.uuid4().hex[:6]}"
    async with running_stack(redis_url) as (address, _), grpc.aio.insecure_channel(address) as ch:
        stub = gw_grpc.GatewayServiceStub(ch)
        match = await new_match(stub, rated=False, seed=4)
        joined = [await stub.JoinMatch(gw.JoinMatchRequest(match=match, display_name=name)),
                  await stub.JoinMatch(gw.JoinMatchRequest(match=match, display_name="x",
                                                           bot="greedy"))]
        assert not joined[0].match.rated and joined[1].player == "players/bot:greedy"
        seats = [(("authorization", f"Bearer {j.seat_token}"),) for j in joined]
        await play_out(stub, match, seats, 4)
        assert await refusal(stub.GetPlayerRecord(
            gw.GetPlayerRecordRequest(player=joined[0].player))) == (
            grpc.StatusCode.NOT_FOUND, "PLAYER_NOT_FOUND")
        rated = await new_match(stub, seed=5)
        joined = [await stub.JoinMatch(gw.JoinMatchRequest(match=rated, display_name=name)),
                  await stub.JoinMatch(gw.JoinMatchRequest(match=rated, bot="greedy"))]
        seats = [(("authorization", f"Bearer {j.seat_token}"),) for j in joined]
        await play_out(stub, rated, seats, 5)
        bot = await stub.GetPlayerRecord(gw.GetPlayerRecordRequest(player="players/bot:greedy"))
        assert bot.kind == gw.PLAYER_KIND_BOT and bot.display_name == "Greedy bot"
        assert rated in [m.match for m in bot.records[0].recent]
        assert match not in [m.match for m in bot.records[0].recent]


@pytest.mark.parametrize(
    ("request_", "code", "reason"),
    [
        (gw.GetPlayerRecordRequest(player="players/ada"), "INVALID_ARGUMENT", "BAD_PLAYER"),
        (gw.GetPlayerRecordRequest(player="ada"), "INVALID_ARGUMENT", "BAD_PLAYER"),
        (gw.GetPlayerRecordRequest(player="players/name: "), "INVALID_ARGUMENT", "BAD_PLAYER"),
        (gw.GetPlayerRecordRequest(player="players/me"), "FAILED_PRECONDITION",
         "IDENTITY_NOT_ENABLED"),
        (gw.GetPlayerRecordRequest(player="players/n" + "0" * 32), "NOT_FOUND",
         "PLAYER_NOT_FOUND"),
        (gw.GetPlayerRecordRequest(player="players/" + "x" * 200), "INVALID_ARGUMENT",
         "INVALID_FIELD"),
        (gw.ListLeaderboardRequest(game="chess"), "NOT_FOUND", "GAME_NOT_FOUND"),
        (gw.ListLeaderboardRequest(game="tinycards", variant="speed"), "NOT_FOUND",
         "VARIANT_NOT_FOUND"),
        (gw.ListLeaderboardRequest(game="tinycards", top=101), "INVALID_ARGUMENT",
         "INVALID_FIELD"),
        (gw.ListLeaderboardRequest(game="tinycards", around="me"), "INVALID_ARGUMENT",
         "BAD_PLAYER"),
        (gw.JoinMatchRequest(match="matches/x", bot="Greedy!"), "INVALID_ARGUMENT",
         "INVALID_FIELD"),
    ],
)
async def test_bad_record_requests_are_refused_with_a_reason(redis_url, request_, code, reason):
    """Every input from outside is checked at the edge with a stable reason."""
    method = {gw.GetPlayerRecordRequest: "GetPlayerRecord",
              gw.ListLeaderboardRequest: "ListLeaderboard",
              gw.JoinMatchRequest: "JoinMatch"}[type(request_)]
    async with running_stack(redis_url) as (address, _), grpc.aio.insecure_channel(address) as ch:
        stub = gw_grpc.GatewayServiceStub(ch)
        assert await refusal(getattr(stub, method)(request_)) == (
            getattr(grpc.StatusCode, code), reason)


async def test_a_private_tables_match_counts_but_only_its_owner_sees_it(redis_url, provider):
    """Item 3, visibility: Alice plays Bob at a private table and at an open one; both count
    in her rating, but Bob (and anyone) reading her record sees only the open match, while
    Alice (players/me) sees both, the private one marked. A bot runner listed in
    PARLOUR_RATINGS_BOT_SUBJECTS plays for its strategy; anyone else's bot seat counts
    toward themselves."""
    runner = provider.subject("runner")
    async with identity_stack(redis_url, provider, ratings_bot_subjects=frozenset({runner})) \
            as (address, _), grpc.aio.insecure_channel(address) as ch:
        stub = gw_grpc.GatewayServiceStub(ch)
        alice, bob = provider.token("alice"), provider.token("bob")
        private = await new_match(stub, alice, seed=6, invitation=gw.Invitation(
            subjects=[provider.subject("bob")]))
        public = await new_match(stub, alice, seed=7)
        for match, seed in ((private, 6), (public, 7)):
            joined = [await stub.JoinMatch(gw.JoinMatchRequest(match=match, display_name=n),
                                           metadata=metadata(t))
                      for n, t in (("Alice", alice), ("Bob", bob))]
            seats = [metadata(t, j.seat_token) for t, j in zip((alice, bob), joined, strict=True)]
            await play_out(stub, match, seats, seed)
        player = joined[0].player
        assert player.startswith("players/p")
        mine = await stub.GetPlayerRecord(gw.GetPlayerRecordRequest(player="players/me"),
                                          metadata=metadata(alice))
        (standing,) = mine.records
        assert mine.player == player and standing.matches == 2
        assert {(m.match, m.private) for m in standing.recent} == {(private, True),
                                                                    (public, False)}
        seen = await stub.GetPlayerRecord(gw.GetPlayerRecordRequest(player=player),
                                          metadata=metadata(bob))
        assert seen.records[0].matches == 2
        assert [m.match for m in seen.records[0].recent] == [public]
        board = await stub.ListLeaderboard(gw.ListLeaderboardRequest(
            game="tinycards", top=100, around="players/me"), metadata=metadata(alice))
        assert player in [e.player for e in board.around]
        # bots: the host's runner plays for the strategy, anyone else for themselves
        match = await new_match(stub, alice)
        by_runner = await stub.JoinMatch(gw.JoinMatchRequest(match=match, bot="ismcts"),
                                         metadata=metadata(provider.token("runner")))
        by_bob = await stub.JoinMatch(gw.JoinMatchRequest(match=match, bot="ismcts"),
                                      metadata=metadata(bob))
        assert by_runner.player == "players/bot:ismcts"
        assert by_bob.player == f"players/{subject_key(provider.subject('bob'))}"
