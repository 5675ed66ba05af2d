"""Special rooms not covered elsewhere (Rulebook: Special Room Effects)."""

from __future__ import annotations

from parlour.games.murdercastle import flow
from parlour.games.murdercastle.board import place_of
from parlour.games.murdercastle.tests.positions import (
    add_room,
    card_of,
    frame,
    game,
    legal,
    movement_card,
    play,
    stack_events,
    stack_holmes,
    start_tile,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

AD, HO = pb.CHARACTER_ADELINE, pb.CHARACTER_HOYT


def test_black_closet_draws_an_extra_card_at_the_end_of_the_round():
    """Ending the round in the Black Closet draws an extra Event Card (Rulebook: Special Room
    Effects: The Black Closet)."""
    state = game([AD, HO], round_limit=5)
    add_room(state, 7, 0, -1, rotation=2)  # door to the south, onto the Pharmacy
    state.players[1].place = place_of(7)
    stack_events(state, card_of("barter"))
    state.selections = 4
    del state.frames[:]
    flow.settle(state, [])  # the round ends
    assert frame(state).kind == pb.FRAME_KIND_BLACK_CLOSET  # "you are able to draw": optional
    assert {a.WhichOneof("kind") for a in legal(state, 1)} == {"draw", "pass"}
    play(state, 1, draw=pb.Draw())
    assert state.players[1].keep == [card_of("barter")] and state.round == 1
    state.selections = 4
    del state.frames[:]
    flow.settle(state, [])
    play(state, 1, **{"pass": pb.Pass()})
    assert len(state.players[1].keep) == 1 and state.round == 2


def test_holmes_in_the_maze_picks_a_side():
    """If Holmes moves to The Maze, a side is chosen for him (Rulebook: The Maze)."""
    state = game([AD, HO])
    add_room(state, 5, 0, -1)
    stack_holmes(state, movement_card((5, 19)))
    start_tile(state, 0, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 0, reveal=pb.RevealHolmes())
    assert frame(state).kind == pb.FRAME_KIND_HOLMES_ROOM
    assert [a.place.place for a in legal(state, 0)] == [place_of(5, 0), place_of(5, 1)]
    play(state, 0, place=pb.ChoosePlace(place=place_of(5, 1)))
    assert state.holmes == place_of(5, 1)
