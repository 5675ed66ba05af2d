"""Encounter ties, Midnight and Dawn, and winning the game (Rulebook: Special Cases; Winning the
Game)."""

from __future__ import annotations

import pytest

from parlour.engine import runtime
from parlour.engine.game import IllegalAction
from parlour.games.houseofhorrors import GAME
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

from .positions import act, held, kinds, names, play_round, position, resolved


def _tied_round():
    hands = {0: ["Werewolf", "Ghoul"], 1: ["Strongman", "Shotgun"], 2: ["Detective", "Vampire"]}
    state = position(
        3, hands=hands, room="Kitchen", battle=pb.BATTLE_STRENGTH, table=["Ouija Board"]
    )
    room = state.room
    state, events = play_round(state, {0: ["Werewolf"], 1: ["Strongman"]})
    return state, events, room


def test_a_tie_puts_the_cards_under_the_room_and_fights_again_there():
    """On a tie the cards go under the Room; the next Butler declares again in the same Room
    (Rulebook: Special Cases, Encounter Ties)."""
    state, events, room = _tied_round()
    assert resolved(events).winner == pb.SIDE_UNSPECIFIED
    assert names(state.under_horror) == ["Werewolf"] and names(state.under_mortal) == ["Strongman"]
    assert state.room == room and not state.revealed_rooms
    assert state.phase == pb.PHASE_DECLARE and state.butler == 1
    assert names(state.table) == ["Ouija Board"]  # an unused Room Item stays for the replay
    assert "revealed" not in kinds(events)
    assert [len(h.cards) for h in state.hands] == [6, 6, 6]


def test_the_next_winner_takes_the_spoils_of_both_rounds():
    """The side winning the replay gets the spoils from both rounds (Rulebook: Special Cases,
    Encounter Ties)."""
    state, _, _ = _tied_round()
    state, _ = act(state, 1, declare_battle=pb.DeclareBattle(battle=pb.BATTLE_STRENGTH))
    state, events = play_round(state, {1: ["Shotgun"], 2: ["Vampire"], 0: ["Ghoul"]})
    result = resolved(events)
    assert result.winner == pb.SIDE_HORROR
    assert names(result.spoils) == ["Strongman", "Ouija Board"]
    assert not state.under_mortal and not state.under_horror
    assert "Werewolf" in names(state.house_discard) and "Shotgun" in names(state.house_discard)


def test_repeated_ties_repeat_the_procedure():
    """A second tie in the same Room is handled the same way again (Rulebook: Special Cases,
    Encounter Ties)."""
    state, _, room = _tied_round()
    state, _ = act(state, 1, declare_battle=pb.DeclareBattle(battle=pb.BATTLE_PSYCHIC))
    state, events = play_round(state, {})
    assert resolved(events).winner == pb.SIDE_UNSPECIFIED
    assert state.room == room and state.butler == 2 and state.phase == pb.PHASE_DECLARE
    assert names(state.under_horror) == ["Werewolf"]


def test_midnight_allows_two_characters_of_one_side():
    """At Midnight players may play two Mortals or two Horrors, never a Mortal with a Horror
    (Rulebook: Special Cases, Midnight and Dawn)."""
    state = position(
        3, reveal=["Midnight", "Kitchen", "Attic"], hands={0: ["Werewolf", "Ghoul", "Strongman"]}
    )
    assert state.midnight and names(state.table) == ["Midnight"]
    state, _ = act(state, 0, choose_room=pb.ChooseRoom(room=state.revealed_rooms[0]))
    state, _ = act(state, 0, declare_battle=pb.DeclareBattle(battle=pb.BATTLE_STRENGTH))
    state, _ = act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Werewolf")))
    with pytest.raises(IllegalAction) as refusal:
        act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Strongman")))
    assert refusal.value.reason == "MIXED_SIDES"
    state, _ = act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Ghoul")))
    assert names(state.showings[0].characters) == ["Werewolf", "Ghoul"]


def test_outside_midnight_a_second_character_is_refused():
    """Only at Midnight may a player play two Mortals or Horrors (Rulebook: Special Cases,
    Midnight and Dawn)."""
    state = position(3, hands={0: ["Werewolf", "Ghoul"]}, room="Kitchen", battle=pb.BATTLE_STRENGTH)
    state, _ = act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Werewolf")))
    assert all(not a.HasField("play_character") for a in runtime.legal_actions(GAME, state, 0))


def test_midnight_is_given_out_as_a_spoil():
    """Midnight and Dawn can be given out as spoils like any other card (Rulebook: Special
    Cases)."""
    state = position(
        3, hands={0: ["Werewolf"]}, room="Kitchen", battle=pb.BATTLE_STRENGTH, table=["Midnight"]
    )
    state, events = play_round(state, {0: ["Werewolf"]})
    assert names(resolved(events).spoils) == ["Midnight"]
    assert names(state.spoils[0].cards) == ["Midnight"] and not state.midnight


@pytest.mark.parametrize("hour", ["Midnight", "Dawn"])
def test_midnight_and_dawn_count_as_one_of_the_two_room_cards(hour):
    """Midnight and Dawn "are always played with the other room drawn": each is one of the two
    Room cards the Butler draws, so she plays in the one Room drawn with it, with no choice
    (Rulebook: Special Cases, Midnight and Dawn; Gameplay)."""
    state = position(3, reveal=["Rusty Chains", hour, "Kitchen", "Attic"])
    assert names(state.revealed_rooms) == ["Kitchen"]
    assert names(state.table) == ["Rusty Chains", hour]
    assert names(state.room_deck[-1:]) == ["Attic"]
    (only,) = runtime.legal_actions(GAME, state, 0)
    state, events = act(state, 0, choose_room=only.choose_room)
    assert names([state.room]) == ["Kitchen"] and not state.room_discard
    assert events[0].event.room_chosen.discarded == 0


def test_with_midnight_and_dawn_out_and_no_room_revealing_goes_on():
    """Midnight and Dawn "are always played with the other room drawn": with both out and no
    Room yet there is no room to play them with, so the Butler reveals on until a Room comes,
    and that Room is the encounter's, at Midnight and in the final round (Rulebook: Special
    Cases, Midnight and Dawn; Gameplay)."""
    state = position(3, reveal=["Midnight", "Dawn", "Crypt", "Attic"])
    assert names(state.revealed) == ["Midnight", "Dawn", "Crypt"]
    assert names(state.revealed_rooms) == ["Crypt"]
    assert names(state.table) == ["Midnight", "Dawn"]
    assert state.midnight and state.final_round
    assert names(state.room_deck[-1:]) == ["Attic"]
    (only,) = runtime.legal_actions(GAME, state, 0)
    assert names([only.choose_room.room]) == ["Crypt"]


def test_a_room_drawn_before_midnight_is_the_encounter_room():
    """Midnight drawn after a Room also ends the draw: two Room cards are out (Rulebook:
    Special Cases, Midnight and Dawn)."""
    state = position(3, reveal=["Crypt", "Midnight", "Kitchen"])
    assert names(state.revealed_rooms) == ["Crypt"] and state.midnight
    assert names(state.room_deck[-1:]) == ["Kitchen"]


def test_dawn_is_played_with_the_other_rooms_and_makes_the_final_round():
    """Dawn is revealed with the Room it is played with; after its round the most hourglasses
    wins (Rulebook: Special Cases, Midnight and Dawn; Winning the Game)."""
    state = position(
        3,
        reveal=["Dawn", "Kitchen", "Crypt"],
        hands={0: ["Werewolf"], 1: ["Ghost Hunter"]},
        spoils={1: ["Lich"], 2: ["Vampire"]},
    )
    assert state.final_round and names(state.table) == ["Dawn"]
    assert names(state.revealed_rooms) == ["Kitchen"]
    state, _ = act(state, 0, choose_room=pb.ChooseRoom(room=state.revealed_rooms[0]))
    state, _ = act(state, 0, declare_battle=pb.DeclareBattle(battle=pb.BATTLE_STRENGTH))
    state, events = play_round(state, {0: ["Werewolf"], 1: ["Ghost Hunter"]})
    assert names(state.spoils[0].cards) == ["Ghost Hunter", "Dawn"]  # 1 + 2 hourglasses
    assert state.phase == pb.PHASE_OVER and kinds(events)[-1] == "ended"
    outcome = GAME.outcome(state)
    assert outcome.scores == (3, 3, 3) and outcome.winners == (0, 1, 2)


def test_most_hourglasses_wins():
    """Whoever has the most hourglasses after the final round wins (Rulebook: Winning the Game)."""
    state = position(
        3,
        hands={0: ["Werewolf"]},
        room="Kitchen",
        battle=pb.BATTLE_STRENGTH,
        table=["Dawn"],
        spoils={2: ["Vampire", "Lich"]},
    )
    state, events = play_round(state, {0: ["Werewolf"]})
    ended = events[-1].event.ended
    assert list(ended.scores) == [2, 0, 6] and list(ended.winners) == [2]
    assert GAME.outcome(state).winners == (2,)


def test_a_tie_at_dawn_replays_the_encounter():
    """The tie procedure is unconditional ("the encounter takes place in the same room again!
    … In the unlikely event the second round is a tie, follow the same procedure again"), at
    Dawn too: the replay's winner takes the spoils of both rounds, Dawn among them, and then the
    game ends (Rulebook: Special Cases, Encounter Ties; Winning the Game)."""
    hands = {0: ["Werewolf", "Ghoul"], 1: ["Strongman", "Shotgun"], 2: ["Detective", "Vampire"]}
    state = position(3, hands=hands, room="Kitchen", battle=pb.BATTLE_STRENGTH, table=["Dawn"])
    room = state.room
    state, events = play_round(state, {0: ["Werewolf"], 1: ["Strongman"]})
    assert resolved(events).winner == pb.SIDE_UNSPECIFIED and "ended" not in kinds(events)
    assert state.phase == pb.PHASE_DECLARE and state.butler == 1 and state.room == room
    assert state.final_round and names(state.table) == ["Dawn"]
    state, _ = act(state, 1, declare_battle=pb.DeclareBattle(battle=pb.BATTLE_STRENGTH))
    state, events = play_round(state, {1: ["Shotgun"], 2: ["Vampire"], 0: ["Ghoul"]})
    assert resolved(events).winner == pb.SIDE_HORROR
    assert names(resolved(events).spoils) == ["Strongman", "Dawn"]
    while state.phase == pb.PHASE_SPOILS:
        leader = state.spoils_leader
        state, more = runtime.apply(
            GAME, state, leader, runtime.legal_actions(GAME, state, leader)[0]
        )
        events += more
    assert (
        state.phase == pb.PHASE_OVER and events[-1].event.ended.reason == "the Dawn round is over"
    )
    assert "Dawn" in names(state.spoils[0].cards) + names(state.spoils[2].cards)


def test_a_tied_midnight_round_is_replayed_at_midnight():
    """Midnight stays on the table through a tie, so the replay still allows two characters
    (Rulebook: Special Cases, Encounter Ties; RULES.md: tie)."""
    hands = {0: ["Ghoul"], 1: ["Ghost Hunter"], 2: ["Zombie", "Werewolf", "Ghoul"]}
    state = position(3, hands=hands, room="Kitchen", battle=pb.BATTLE_STRENGTH, table=["Midnight"])
    state, events = play_round(state, {0: ["Ghoul"], 1: ["Ghost Hunter"]})  # seat 2 discards
    assert resolved(events).winner == pb.SIDE_UNSPECIFIED
    assert state.midnight and names(state.table) == ["Midnight"]
    state, _ = act(state, 1, declare_battle=pb.DeclareBattle(battle=pb.BATTLE_STRENGTH))
    state, _ = play_round(state, {2: ["Werewolf", "Ghoul"]})
    assert state.phase == pb.PHASE_CHOOSE_ROOM
    assert "Midnight" in names(state.spoils[2].cards) and not state.midnight
