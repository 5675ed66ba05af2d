"""The rulebook's running example with Sofia, Vlad, Pedro and Faith, played move by move.

Seats: Sofia 0 (the Butler), Vlad 1, Pedro 2, Faith 3. The Psychic Kid's die
is rigged to the rulebook's 4 by choosing the RNG state.
"""

from __future__ import annotations

from parlour.engine import runtime
from parlour.games.houseofhorrors import GAME
from parlour.games.houseofhorrors.decks import enough_rooms
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

from .positions import act, held, kinds, names, position, rigged_rng

SOFIA, VLAD, PEDRO, FAITH = range(4)


def _start() -> pb.State:
    return position(
        4,
        butler=SOFIA,
        hands={
            SOFIA: ["Mindbat Swarm", "Zombie"],
            VLAD: ["Psychic Kid", "Nurse"],
            PEDRO: ["Bleeding Walls", "Ghoul"],
            FAITH: ["Will o' Wisps", "Blood Moon"],
        },
        reveal=["Ouija Board", "The Armory", "Library"],
    )


def _play_to_resolution() -> tuple[pb.State, list]:
    state = _start()
    state, _ = act(state, SOFIA, choose_room=pb.ChooseRoom(room=state.revealed_rooms[0]))
    state, _ = act(state, SOFIA, declare_battle=pb.DeclareBattle(battle=pb.BATTLE_PSYCHIC))
    for seat, name in [(SOFIA, "Mindbat Swarm"), (VLAD, "Psychic Kid"), (PEDRO, "Bleeding Walls")]:
        state, _ = act(state, seat, play_character=pb.PlayCharacter(card=held(state, seat, name)))
        state, events = act(state, seat, end_turn=pb.EndTurn())
        assert "dice" not in kinds(events)
    state, _ = act(
        state, FAITH, play_character=pb.PlayCharacter(card=held(state, FAITH, "Will o' Wisps"))
    )
    blood_moon = held(state, FAITH, "Blood Moon")
    state, _ = act(state, FAITH, play_item=pb.PlayItem(card=blood_moon, side=pb.SIDE_HORROR))
    state.rng = rigged_rng(4)
    return act(state, FAITH, end_turn=pb.EndTurn())


def test_sofia_chooses_the_armory_on_the_main_floor():
    """Sofia keeps The Armory and discards the other Room; the Room Item stays (Rulebook:
    Gameplay)."""
    state = _start()
    assert names(state.revealed_rooms) == ["The Armory", "Library"]
    assert names(state.table) == ["Ouija Board"]
    state, _ = act(state, SOFIA, choose_room=pb.ChooseRoom(room=state.revealed_rooms[0]))
    assert names([state.room]) == ["The Armory"] and names(state.room_discard) == ["Library"]
    assert names(state.table) == ["Ouija Board"]
    zombie = held(state, SOFIA, "Zombie")
    state, _ = act(state, SOFIA, declare_battle=pb.DeclareBattle(battle=pb.BATTLE_PSYCHIC))
    legal = runtime.legal_actions(GAME, state, SOFIA)
    assert pb.Action(play_character=pb.PlayCharacter(card=zombie)) not in legal  # Basement only


def test_vlads_psychic_kid_rolls_only_after_everyone_has_played():
    """'?' dice are rolled after all have played; Horrors 7 beat Vlad's roll of 4 (Rulebook:
    Resolution)."""
    state, events = _play_to_resolution()
    dice = [e.event.dice for e in events if e.event.HasField("dice")]
    assert [(d.seat, list(d.rolls)) for d in dice] == [(VLAD, [4])]
    (resolved,) = [e.event.resolved for e in events if e.event.HasField("resolved")]
    assert (resolved.mortal_total, resolved.horror_total) == (4, 7)
    assert resolved.winner == pb.SIDE_HORROR
    assert list(resolved.seat_totals) == [2, 4, 1, 4]  # Sofia 2, Vlad 4, Pedro 1, Faith 4


def test_faith_picks_first_then_gives_to_pedro_or_sofia():
    """Two spoils: Faith (highest, 4) picks one, then gives one to Pedro or Sofia (Rulebook: The
    Spoils)."""
    state, events = _play_to_resolution()
    assert names(state.spoils_pool) == ["Psychic Kid", "Ouija Board"]
    assert state.phase == pb.PHASE_SPOILS and state.spoils_leader == FAITH
    assert list(state.spoils_allies) == [SOFIA, PEDRO]
    kid, ouija = state.spoils_pool
    state, _ = act(state, FAITH, take_spoil=pb.TakeSpoil(card=kid))
    gives = runtime.legal_actions(GAME, state, FAITH)
    assert {(a.give_spoil.card, a.give_spoil.seat) for a in gives} == {
        (ouija, SOFIA),
        (ouija, PEDRO),
    }
    state, events = act(state, FAITH, give_spoil=pb.GiveSpoil(card=ouija, seat=PEDRO))
    assert names(state.spoils[FAITH].cards) == ["Psychic Kid"]
    assert names(state.spoils[PEDRO].cards) == ["Ouija Board"]


def test_after_the_spoils_the_butler_passes_left_and_hands_refill():
    """Sofia's left neighbour Vlad becomes Butler and everyone draws to six (Rulebook: The
    Spoils)."""
    state, _ = _play_to_resolution()
    kid, ouija = state.spoils_pool
    state, _ = act(state, FAITH, take_spoil=pb.TakeSpoil(card=kid))
    state, events = act(state, FAITH, give_spoil=pb.GiveSpoil(card=ouija, seat=SOFIA))
    assert state.butler == VLAD and state.phase == pb.PHASE_CHOOSE_ROOM
    assert [len(h.cards) for h in state.hands] == [6, 6, 6, 6]
    assert names(state.house_discard) == [
        "Mindbat Swarm",
        "Bleeding Walls",
        "Will o' Wisps",
        "Blood Moon",
    ]
    assert enough_rooms(state) and kinds(events).count("revealed") == len(state.revealed)
