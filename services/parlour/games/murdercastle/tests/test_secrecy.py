"""Hidden information: Keep cards, the piles, Jeremiah's peek, Whitechapel choices (Rulebook:
Event Card Overview: "all players should be able to see how many Event Cards each player has
kept"; Characters: Jeremiah; The Whitechapel Suite)."""

from __future__ import annotations

from parlour.engine.rng import Rng
from parlour.engine.runtime import serialize
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.tests.positions import (
    add_room,
    card_of,
    frame,
    game,
    give,
    open_window,
    play,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

JE, HO, LO = pb.CHARACTER_JEREMIAH, pb.CHARACTER_HOYT, pb.CHARACTER_LOLA


def test_others_see_how_many_keep_cards_not_which():
    """Each seat sees its own Keep cards; everyone sees how many each seat keeps."""
    state = game([JE, HO, LO])
    give(state, 1, card_of("barter"), card_of("snitch"))
    mine, theirs, spectator = GAME.view(state, 1), GAME.view(state, 0), GAME.view(state, None)
    assert sorted(mine.hand) == sorted([card_of("barter"), card_of("snitch")])
    assert list(theirs.hand) == [] and list(spectator.hand) == []
    assert [p.keep_count for p in theirs.players] == [0, 2, 0]


def test_resampling_hidden_information_leaves_every_view_unchanged():
    """A state differing only in what a seat cannot see (pile and deck orders, other hands)
    looks the same to it (DESIGN: Hidden information and trust)."""
    state = game([JE, HO, LO])
    give(state, 1, card_of("barter"), card_of("snitch"))
    give(state, 2, card_of("ambush"))
    rng = Rng.from_seed(4)
    for viewer in (None, 0, 1, 2):
        twin = GAME.resample_hidden(state, viewer, rng)
        assert serialize(GAME.view(twin, viewer)) == serialize(GAME.view(state, viewer))
        assert twin.event_deck != state.event_deck or twin.room_pile != state.room_pile


def test_jeremiahs_peek_is_his_alone():
    """Jeremiah secretly peeks at all room tiles; only his view and event show them."""
    state = game([JE, HO])
    add_room(state, 4, 0, -1)
    open_window(state, key=1)
    events = play(state, 0, ability=pb.UseAbility())
    assert frame(state).kind == pb.FRAME_KIND_PICK_ROOM_TILE
    assert list(GAME.view(state, 0).peeked) == list(state.room_pile)
    assert list(GAME.view(state, 1).peeked) == [] and list(GAME.view(state, None).peeked) == []
    peeks = [e for e in events if e.event.HasField("peeked")]
    assert [list(e.event.peeked.tiles) for e in peeks if e.visible_to(0)] == [
        list(state.room_pile)]
    assert all(not e.event.peeked.tiles for e in peeks if e.visible_to(1) or e.visible_to(None))
