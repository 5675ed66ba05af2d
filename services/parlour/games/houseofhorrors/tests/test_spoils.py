"""Handing out the spoils, hand size and the next Butler (Rulebook: The Spoils; FAQ)."""

from __future__ import annotations

import pytest

from parlour.engine import runtime
from parlour.engine.game import IllegalAction
from parlour.games.houseofhorrors import GAME
from parlour.games.houseofhorrors.decks import draw_up, hand_limit
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

from .positions import act, held, names, play_round, position, resolved


def _refused(state, seat, reason, **move):
    with pytest.raises(IllegalAction) as refusal:
        act(state, seat, **move)
    assert refusal.value.reason == reason


def test_winners_recycled_losers_with_hourglasses_become_spoils():
    """Winning cards are discarded; losing cards with hourglasses and unused Room Items are spoils
    (Rulebook: The Spoils)."""
    hands = {0: ["Werewolf", "Blood Moon"], 1: ["Strongman", "Crucifix"], 2: ["Ghoul"]}
    state = position(
        3, hands=hands, room="Kitchen", battle=pb.BATTLE_STRENGTH, table=["Rusty Chains"]
    )
    state, events = play_round(state, {0: ["Werewolf", "Blood Moon"], 1: ["Strongman", "Crucifix"]})
    result = resolved(events)
    assert result.winner == pb.SIDE_HORROR and (result.horror_total, result.mortal_total) == (6, 4)
    assert names(result.spoils) == ["Strongman", "Rusty Chains"]
    assert names(state.house_discard) == ["Ghoul", "Werewolf", "Blood Moon", "Crucifix"]
    assert names(state.room_discard) == ["Kitchen"]
    # Only seat 0 is eligible on the winning side: it takes everything without a choice.
    assert names(state.spoils[0].cards) == ["Strongman", "Rusty Chains"]


def test_largest_total_picks_first_ties_go_to_who_played_first():
    """The largest winning total picks first; on a tie, whoever played first (Rulebook: The
    Spoils)."""
    hands = {0: ["Vampire"], 1: ["Werewolf"], 2: ["Werewolf"], 3: ["Strongman", "Nurse"]}
    state = position(4, butler=1, hands=hands, room="Kitchen", battle=pb.BATTLE_STRENGTH)
    state, events = play_round(
        state, {1: ["Werewolf"], 2: ["Werewolf"], 3: ["Strongman"], 0: ["Vampire"]}
    )
    result = resolved(events)
    assert list(result.seat_totals) == [3, 4, 4, 4]
    assert result.leader == 1  # the Butler played before seat 2
    assert list(result.eligible) == [1, 2, 0]
    assert state.spoils_leader == 1 and list(state.spoils_allies) == [2, 0]


def _three_spoils_state():
    hands = {0: ["Werewolf"], 1: ["Ghoul"], 2: ["Nurse", "Maid", "Debutante"]}
    state = position(
        3, hands=hands, room="Kitchen", battle=pb.BATTLE_STRENGTH, table=["Ouija Board"]
    )
    state.midnight = True
    state, _ = play_round(state, {0: ["Werewolf"], 1: ["Ghoul"], 2: ["Nurse", "Maid"]})
    return state


def test_leader_takes_one_then_gives_one_to_each_ally_before_taking_again():
    """She hands one spoil to each allied player before taking another (Rulebook: The Spoils)."""
    state = _three_spoils_state()
    assert state.phase == pb.PHASE_SPOILS and state.spoils_leader == 0
    assert names(state.spoils_pool) == ["Nurse", "Maid", "Ouija Board"]
    nurse, maid, ouija = state.spoils_pool
    _refused(state, 0, "LEADER_FIRST", give_spoil=pb.GiveSpoil(card=nurse, seat=1))
    state, _ = act(state, 0, take_spoil=pb.TakeSpoil(card=ouija))
    _refused(state, 0, "ALLIES_FIRST", take_spoil=pb.TakeSpoil(card=nurse))
    _refused(state, 0, "NOT_OWED", give_spoil=pb.GiveSpoil(card=nurse, seat=2))
    _refused(state, 0, "NOT_A_SPOIL", give_spoil=pb.GiveSpoil(card=ouija, seat=1))
    state, _ = act(state, 0, give_spoil=pb.GiveSpoil(card=maid, seat=1))
    state, _ = act(state, 0, take_spoil=pb.TakeSpoil(card=nurse))
    assert names(state.spoils[0].cards) == ["Ouija Board", "Nurse"]
    assert names(state.spoils[1].cards) == ["Maid"]
    assert state.phase == pb.PHASE_CHOOSE_ROOM and state.butler == 1


def test_promises_are_not_binding():
    """Nothing binds the leader: any spoil may go to any ally still owed one (Rulebook: FAQ)."""
    state = _three_spoils_state()
    state, _ = act(state, 0, take_spoil=pb.TakeSpoil(card=state.spoils_pool[0]))
    gives = runtime.legal_actions(GAME, state, 0)
    assert {(a.give_spoil.card, a.give_spoil.seat) for a in gives} == {
        (c, 1) for c in state.spoils_pool
    }


def test_zero_value_and_empty_handed_players_get_no_spoils():
    """Players with no card showing, or a value of 0, are not eligible (Rulebook: The Spoils;
    FAQ)."""
    hands = {0: ["Werewolf"], 1: ["Bleeding Walls"], 2: ["Ghoul"], 3: ["Ghost Hunter"]}
    state = position(4, hands=hands, room="Kitchen", battle=pb.BATTLE_STRENGTH)
    state, events = play_round(state, {0: ["Werewolf"], 1: ["Bleeding Walls"], 3: ["Ghost Hunter"]})
    result = resolved(events)
    assert result.winner == pb.SIDE_HORROR
    assert list(result.eligible) == [0]  # Bleeding Walls has 0 Strength; seat 2 discarded


def test_a_lone_item_counts_for_its_side_and_earns_spoils():
    """An Item played alone is a card showing with a value: its bonus is its player's total, so
    it can win the encounter and its player is eligible for spoils (Rulebook: The Spoils; FAQ;
    RULES.md: Items)."""
    state = position(
        3, hands={0: ["Lantern"], 1: ["Strongman"]}, room="Kitchen", battle=pb.BATTLE_PSYCHIC
    )
    state, events = play_round(state, {0: [("Lantern", pb.SIDE_HORROR)], 1: ["Strongman"]})
    result = resolved(events)
    assert (result.horror_total, result.mortal_total) == (1, 0)
    assert list(result.eligible) == [0] and names(state.spoils[0].cards) == ["Strongman"]


def test_every_three_lanterns_raise_hand_size_by_one_up_to_ten():
    """Three lanterns in your spoils add one card to your hand size, at most 10 (Rulebook: The
    Spoils)."""
    spoils = {
        0: ["Medium", "Ghost Hunter"],
        1: ["Maid", "Professor", "Lantern"],
        2: [
            "Medium",
            "Ghost Hunter",
            "Ghost Hunter",
            "Will o' Wisps",
            "Possessed Doll",
            "Old Lantern",
        ],
    }
    state = position(3, spoils=spoils)
    assert [hand_limit(state, s) for s in range(3)] == [6, 7, 8]
    state.spoils[2].cards.extend(
        state.spoils[0].cards
    )  # reuse ids: only the count of lanterns matters
    state.spoils[2].cards.extend(list(state.spoils[1].cards) * 4)
    assert hand_limit(state, 2) == 10


def test_players_draw_up_to_their_hand_size():
    """Players draw up to their hand size after each round (Rulebook: The Spoils)."""
    state = position(3, hands={0: ["Ghoul"]}, spoils={1: ["Medium", "Maid", "Lantern"]})
    events = draw_up(state, 1)
    assert [len(h.cards) for h in state.hands] == [6, 7, 6]
    drawn = [e for e in events if e.event.HasField("drawn")]
    assert [e.event.drawn.seat for e in drawn if e.to is None] == [1, 2, 0]


def test_a_question_mark_card_is_eligible_with_its_rolled_value():
    """A '?' value counts as the die rolled, so its player is eligible (Rulebook: The Spoils;
    RULES.md: '?' and eligibility)."""
    hands = {0: ["Psychic Kid"], 1: ["Crystal Ball"], 2: ["Debutante"]}
    state = position(3, hands=hands, room="Kitchen", battle=pb.BATTLE_PSYCHIC)
    plays = {0: ["Psychic Kid"], 1: [("Crystal Ball", pb.SIDE_HORROR)], 2: ["Debutante"]}
    state, events = play_round(state, plays, rolls=[3])
    result = resolved(events)
    assert result.winner == pb.SIDE_MORTAL and list(result.seat_totals) == [3, 2, 1]
    assert list(result.eligible) == [0, 2] and result.leader == 0
    assert names(result.spoils) == ["Crystal Ball"]  # a losing Item with an hourglass


def test_a_losing_butlers_room_item_becomes_a_spoil():
    """Losing cards with hourglasses, Room Items included, are spoils (Rulebook: The Spoils)."""
    hands = {0: ["Ghost Hunter"], 1: ["Werewolf"]}
    state = position(
        3, hands=hands, room="Kitchen", battle=pb.BATTLE_STRENGTH, table=["Rusty Chains"]
    )
    state, _ = act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Ghost Hunter")))
    state, _ = act(state, 0, take_room_item=pb.TakeRoomItem(card=state.table[0]))
    state, events = play_round(state, {0: [], 1: ["Werewolf"]})
    assert names(resolved(events).spoils) == ["Ghost Hunter", "Rusty Chains"]
