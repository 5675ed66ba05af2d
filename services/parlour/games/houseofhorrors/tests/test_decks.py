"""When a deck runs out, and when nothing is left to play (RULES.md: Decks running out;
Stalemate)."""

from __future__ import annotations

from parlour.games.houseofhorrors import GAME
from parlour.games.houseofhorrors.decks import draw_up, reveal_rooms
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

from .positions import kinds, names, play_round, position


def test_empty_house_deck_is_rebuilt_from_its_discard_pile():
    """Drawing from an empty House of Horrors deck first shuffles the discard pile into it
    (RULES.md)."""
    state = position(3)
    state.house_discard.extend(state.house_deck[:-4])
    del state.house_deck[:-4]
    events = draw_up(state, 0)
    assert [len(h.cards) for h in state.hands] == [6, 6, 6]
    assert "reshuffled" in kinds(events) and not state.house_discard
    assert len(state.house_deck) == 80 - 18


def test_players_draw_what_is_left_when_both_piles_are_empty():
    """With the House deck and its discard pile both empty, players draw what they can
    (RULES.md)."""
    state = position(3)
    state.spoils[2].cards.extend(state.house_deck[4:])
    del state.house_deck[4:]
    draw_up(state, 0)
    assert [len(h.cards) for h in state.hands] == [4, 0, 0]


def test_empty_room_deck_is_rebuilt_from_its_discard_pile():
    """The Butler keeps revealing after the Room deck runs out, from the shuffled Room discard
    (RULES.md)."""
    state = position(3, reveal=["Crypt", "Attic"])
    state.room_discard.extend(state.room_deck[1:])
    del state.room_deck[1:]
    del state.revealed_rooms[:]
    state.room_deck[:] = [c for c in state.room_deck if names([c]) != ["Crypt"]]
    events = reveal_rooms(state)
    assert len(state.revealed_rooms) == 2 and "reshuffled" in kinds(events)


def test_game_ends_when_no_player_can_hold_a_card():
    """If every hand is empty after drawing (all cards in spoils or under the Room) the game
    ends (RULES.md)."""
    hands = {0: ["Ghoul"], 1: ["Ghost Hunter"]}
    state = position(3, hands=hands, room="Kitchen", battle=pb.BATTLE_STRENGTH)
    state.spoils[2].cards.extend(state.house_deck)
    del state.house_deck[:]
    state, events = play_round(state, {0: ["Ghoul"], 1: ["Ghost Hunter"]})  # a 2-2 tie
    assert state.phase == pb.PHASE_OVER
    assert events[-1].event.ended.reason == "no cards are left to play"
    assert GAME.outcome(state) is not None
