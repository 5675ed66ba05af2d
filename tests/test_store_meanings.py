"""What parlour.store answers by meaning (issue 46 item 3): seat.lua's answers decoded into
Taken / SeatRefused, the metadata reads, platform.lua, the lobby's picks, notice
preferences and channel subscriptions, against the real test Redis."""

from __future__ import annotations

import asyncio

import pytest

from parlour.store import keys
from parlour.store import meta as field
from parlour.store.seating import Refusal, SeatRefused


async def new_match(store, match: str, seats: int = 2, **meta: str) -> None:
    base = {field.GAME: "tinycards", field.SEATS: str(seats), field.SPECTATORS: "1"}
    assert await store.create_state(match, b"s", b"", {**base, **meta})


async def refusal(coroutine) -> tuple[Refusal, int | None]:
    with pytest.raises(SeatRefused) as refused:
        await coroutine
    return refused.value.refusal, refused.value.seat


async def test_every_seat_answer_is_decoded(store, match_id):
    assert await refusal(store.take_seat("gone" + match_id, 0, "h", "n", "", "f")) == (
        Refusal.NO_MATCH, None)
    await new_match(store, match_id)
    taken = await store.take_seat(match_id, 0, "h0", "Ann", "r0", "f0", "p-ann")
    assert (taken.seat, taken.reopened, taken.revoked) == (0, False, None)
    take = store.take_seat
    assert await refusal(take(match_id, 5, "h", "n", "", "f")) == (Refusal.NO_SUCH_SEAT, None)
    assert await refusal(take(match_id, 0, "h", "n", "", "f")) == (Refusal.SEAT_TAKEN, None)
    assert await refusal(take(match_id, 1, "h", "n", "r0", "other")) == (
        Refusal.REQUEST_REUSED, None)
    assert await refusal(take(match_id, 0, "h", "n", "r0", "f0")) == (Refusal.ALREADY_JOINED, 0)
    assert await refusal(take(match_id, 1, "h", "n", "", "f", "p-ann")) == (
        Refusal.ALREADY_SEATED, 0)
    again = await take(match_id, -1, "h0b", "Ann", "", "f", "p-ann")
    assert (again.seat, again.reopened, again.revoked) == (0, True, "h0")
    assert (await take(match_id, -1, "h1", "Bo", "", "f")).seat == 1
    assert await refusal(take(match_id, -1, "h", "n", "", "f")) == (Refusal.MATCH_FULL, None)


async def test_meta_reads_by_meaning(store, match_id):
    assert await store.meta.viewer(match_id, ["h"], None) is None
    await new_match(store, match_id, time_bank_ms="5000", code="c0de", invite="1",
                    abandon_after="2", on_abandon="end")
    await store.take_seat(match_id, 0, "h0", "Ann", "", "f", "p-ann")
    seen = await store.meta.viewer(match_id, ["h0", "hx"], "p-ann")
    assert seen == {field.GAME: "tinycards", field.SPECTATORS: "1", field.RULES: "1",
                    field.holder("h0"): "0", field.proof_of("p-ann"): "0"}
    assert await store.meta.rules_version(match_id) == 1
    assert await store.meta.clock_options(match_id) == (0, 5000, 0)
    assert await store.meta.open_code(match_id) == "c0de"
    assert await store.meta.admits(match_id, "p-ann", "")
    assert await store.meta.admits(match_id, "", "c0de")
    assert not await store.meta.admits(match_id, "p-bo", "wrong")
    assert await store.meta.abandon_policy(match_id, 1) == (2, "end", False)


async def test_platform_lua_marks_a_seat_and_never_recreates_a_match(store, match_id):
    await new_match(store, match_id)
    assert await store.meta.platform_seats(match_id) == frozenset()
    assert await store.meta.play_for(match_id, 1)
    assert await store.meta.platform_seats(match_id) == {1}
    assert (await store.meta.abandon_policy(match_id, 1))[2]
    await store.delete(match_id)
    assert not await store.meta.play_for(match_id, 1)
    assert not await store.redis.exists(keys.meta(match_id))


async def test_lobby_picks(store, match_id):
    pick = keys.lobby_pick(f"test|{match_id}")
    assert await store.lobby.picked(pick) is None
    assert await store.lobby.pick(pick, "m1", False)
    assert not await store.lobby.pick(pick, "m2", True)
    assert await store.lobby.picked(pick) == ("m1", False)
    await store.lobby.unpick(pick)
    assert await store.lobby.pick(pick, "m2", True)
    assert await store.lobby.picked(pick) == ("m2", True)


async def test_notice_preferences(store, match_id):
    player = f"players/p-{match_id}"
    await store.prefs.mute(player, {"your_turn", "clock_low"})
    assert await store.prefs.muted(player) == {"your_turn", "clock_low"}
    assert await store.prefs.is_muted(player, "clock_low")
    await store.prefs.mute(player, set())
    assert await store.prefs.muted(player) == set()


async def test_a_subscription_hears_its_channel(store, match_id):
    channel = f"parlour:test:{match_id}"
    async with store.subscribed(channel) as heard:
        assert await heard.next(0.05) is None
        await store.redis.publish(channel, "hello")
        message = None
        for _ in range(100):
            if (message := await heard.next(0.1)) is not None:
                break
            await asyncio.sleep(0)
        assert message == "hello"
