"""A round of play: revealing Rooms, the Butler's choices and each player's turn (Rulebook:
Gameplay)."""

from __future__ import annotations

import pytest

from parlour.engine import runtime
from parlour.engine.game import IllegalAction
from parlour.games.houseofhorrors import GAME
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

from .positions import act, held, kinds, names, position

PLAY = {"battle": pb.BATTLE_STRENGTH}


def _refused(state, seat, reason, **move):
    with pytest.raises(IllegalAction) as refusal:
        act(state, seat, **move)
    assert refusal.value.reason == reason


def test_butler_reveals_until_two_rooms_and_room_items_stay_on_the_table():
    """Room Items drawn while looking for two Rooms stay on the table (Rulebook: Gameplay)."""
    state = position(3, reveal=["Rusty Chains", "Crypt", "Holy Water", "Attic", "Chapel"])
    assert names(state.revealed_rooms) == ["Crypt", "Attic"]
    assert names(state.table) == ["Rusty Chains", "Holy Water"]
    assert names(state.room_deck[-1:]) == ["Chapel"]


def test_butler_keeps_one_room_discards_the_other_and_declares():
    """The Butler picks a Room, discards the other, then declares the battle (Rulebook:
    Gameplay)."""
    state = position(3, butler=1, reveal=["Crypt", "Attic"])
    attic = state.revealed_rooms[1]
    assert [d.seat for d in GAME.pending(state)] == [1]
    state, _ = act(state, 1, choose_room=pb.ChooseRoom(room=attic))
    assert state.room == attic and names(state.room_discard) == ["Crypt"]
    assert len(runtime.legal_actions(GAME, state, 1)) == 4  # Psychic, Strength, Terror, Bloodbath
    state, events = act(state, 1, declare_battle=pb.DeclareBattle(battle=pb.BATTLE_BLOODBATH))
    assert state.phase == pb.PHASE_PLAY and state.turn == 1
    _refused(state, 1, "WRONG_PHASE", choose_room=pb.ChooseRoom(room=attic))


def test_butler_may_only_choose_a_revealed_room():
    """Only one of the two revealed Rooms can be chosen (Rulebook: Gameplay)."""
    state = position(3, reveal=["Crypt", "Attic"])
    _refused(state, 0, "ROOM_NOT_REVEALED", choose_room=pb.ChooseRoom(room=state.room_deck[0]))


def test_character_must_be_allowed_on_the_rooms_floor():
    """A Mortal or Horror must be allowed on the active Room's floor (Rulebook: Gameplay)."""
    state = position(3, hands={0: ["Zombie", "Werewolf"]}, room="The Armory", **PLAY)
    _refused(
        state, 0, "WRONG_FLOOR", play_character=pb.PlayCharacter(card=held(state, 0, "Zombie"))
    )
    state, events = act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Werewolf")))
    assert kinds(events) == ["played"] and state.showings[0].side == pb.SIDE_HORROR


def test_one_character_per_player_but_any_number_of_items():
    """Each player plays one Mortal or Horror plus any number of Items (Rulebook: Gameplay)."""
    state = position(
        3, hands={0: ["Strongman", "Detective", "Shotgun", "Silver Bullet"]}, room="Kitchen", **PLAY
    )
    state, _ = act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Strongman")))
    _refused(
        state,
        0,
        "CHARACTER_LIMIT",
        play_character=pb.PlayCharacter(card=held(state, 0, "Detective")),
    )
    for item in ("Shotgun", "Silver Bullet"):
        state, _ = act(
            state, 0, play_item=pb.PlayItem(card=held(state, 0, item), side=pb.SIDE_MORTAL)
        )
    assert names(state.showings[0].items) == ["Shotgun", "Silver Bullet"]


def test_items_fight_for_their_own_side():
    """Horror Items go with Horrors, Mortal Items with Mortals (Rulebook: Gameplay; RULES.md:
    Items)."""
    state = position(3, hands={0: ["Strongman", "Blood Moon", "Lantern"]}, room="Kitchen", **PLAY)
    state, _ = act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Strongman")))
    blood_moon = held(state, 0, "Blood Moon")
    _refused(state, 0, "WRONG_SIDE", play_item=pb.PlayItem(card=blood_moon, side=pb.SIDE_MORTAL))
    _refused(state, 0, "MIXED_SIDES", play_item=pb.PlayItem(card=blood_moon, side=pb.SIDE_HORROR))
    _refused(
        state,
        0,
        "MIXED_SIDES",
        play_item=pb.PlayItem(card=held(state, 0, "Lantern"), side=pb.SIDE_HORROR),
    )
    _refused(state, 0, "NO_SIDE", play_item=pb.PlayItem(card=held(state, 0, "Lantern")))
    legal = runtime.legal_actions(GAME, state, 0)
    lantern = held(state, 0, "Lantern")
    assert pb.Action(play_item=pb.PlayItem(card=lantern, side=pb.SIDE_MORTAL)) in legal


def test_an_item_may_be_played_alone():
    """An Item can be played without a Mortal or Horror, choosing its side (Rulebook: FAQ)."""
    state = position(3, hands={1: ["Lantern", "Zombie"]}, room="Kitchen", **PLAY)
    state.turn = 1
    lantern = held(state, 1, "Lantern")
    legal = runtime.legal_actions(GAME, state, 1)
    for side in (pb.SIDE_MORTAL, pb.SIDE_HORROR):
        assert pb.Action(play_item=pb.PlayItem(card=lantern, side=side)) in legal
    state, _ = act(state, 1, play_item=pb.PlayItem(card=lantern, side=pb.SIDE_HORROR))
    state, _ = act(state, 1, end_turn=pb.EndTurn())
    assert state.turn == 2 and names(state.showings[1].items) == ["Lantern"]


def test_butler_may_take_one_room_item_with_her_character():
    """The Butler may play one Room Item from the table with her Mortal or Horror (Rulebook:
    Gameplay)."""
    state = position(
        3,
        hands={0: ["Werewolf"], 1: ["Ghoul"]},
        room="Kitchen",
        table=["Rusty Chains", "Ouija Board"],
        **PLAY,
    )
    chains, ouija = state.table
    _refused(state, 0, "NO_CHARACTER", take_room_item=pb.TakeRoomItem(card=chains))
    state, _ = act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Werewolf")))
    state, _ = act(state, 0, take_room_item=pb.TakeRoomItem(card=chains))
    _refused(state, 0, "ROOM_ITEM_TAKEN", take_room_item=pb.TakeRoomItem(card=ouija))
    assert names(state.table) == ["Ouija Board"]
    state, _ = act(state, 0, end_turn=pb.EndTurn())
    state, _ = act(state, 1, play_character=pb.PlayCharacter(card=held(state, 1, "Ghoul")))
    _refused(state, 1, "NOT_BUTLER", take_room_item=pb.TakeRoomItem(card=ouija))


def test_holy_water_is_for_mortals_only():
    """Holy Water (Room Item) adds Terror only to a Mortal (RULES.md: Catalogue)."""
    state = position(3, hands={0: ["Werewolf"]}, room="Kitchen", table=["Holy Water"], **PLAY)
    state, _ = act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Werewolf")))
    _refused(state, 0, "WRONG_SIDE", take_room_item=pb.TakeRoomItem(card=state.table[0]))


def test_discarding_replaces_playing_and_ends_the_turn():
    """Instead of playing, a player may discard one card (Rulebook: Gameplay)."""
    state = position(3, hands={0: ["Werewolf", "Ghoul"]}, room="Kitchen", **PLAY)
    _refused(state, 0, "MUST_PLAY_OR_DISCARD", end_turn=pb.EndTurn())
    ghoul = held(state, 0, "Ghoul")
    state, events = act(state, 0, discard=pb.DiscardCard(card=ghoul))
    assert kinds(events) == ["discarded", "turn_ended"] and state.turn == 1
    assert list(state.house_discard) == [ghoul]


def test_a_turn_is_a_play_or_a_discard_never_a_bare_pass():
    """ "Each player may play one Mortal or Horror card plus items. Instead of playing, a player
    may discard one card": a player holding cards plays or discards; ending the turn unplayed is
    refused (Rulebook: Gameplay; RULES.md: Passing)."""
    state = position(3, hands={0: ["Werewolf", "Ghoul"]}, room="Kitchen", **PLAY)
    legal = runtime.legal_actions(GAME, state, 0)
    assert {a.WhichOneof("kind") for a in legal} == {"discard", "play_character"}
    _refused(state, 0, "MUST_PLAY_OR_DISCARD", end_turn=pb.EndTurn())


def test_no_discard_after_playing():
    """Discarding is instead of playing, not in addition (Rulebook: Gameplay)."""
    state = position(3, hands={0: ["Werewolf", "Ghoul"]}, room="Kitchen", **PLAY)
    state, _ = act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Werewolf")))
    _refused(state, 0, "ALREADY_PLAYED", discard=pb.DiscardCard(card=held(state, 0, "Ghoul")))


def test_a_player_with_an_empty_hand_passes():
    """A player with no cards can only end the turn (RULES.md: Empty hands)."""
    state = position(3, hands={1: ["Ghoul"]}, room="Kitchen", **PLAY)
    assert runtime.legal_actions(GAME, state, 0) == [pb.Action(end_turn=pb.EndTurn())]


def test_play_continues_clockwise_from_the_butler():
    """After the Butler each player in turn plays, clockwise (Rulebook: Gameplay)."""
    state = position(
        4,
        butler=2,
        hands={0: ["Zombie"], 1: ["Ghoul"], 2: ["Mummy"], 3: ["Lich"]},
        room="Kitchen",
        **PLAY,
    )
    order = []
    for _ in range(3):
        order.append(state.turn)
        state, _ = act(
            state, state.turn, discard=pb.DiscardCard(card=state.hands[state.turn].cards[0])
        )
    assert order + [state.turn] == [2, 3, 0, 1]


def test_refused_card_not_in_hand():
    """Only cards in your own hand can be played (Rulebook: Gameplay)."""
    state = position(3, hands={0: ["Werewolf"], 1: ["Ghoul"]}, room="Kitchen", **PLAY)
    ghoul = held(state, 1, "Ghoul")
    _refused(state, 0, "NOT_IN_HAND", play_character=pb.PlayCharacter(card=ghoul))
    _refused(state, 0, "NOT_IN_HAND", play_item=pb.PlayItem(card=ghoul, side=pb.SIDE_HORROR))
    _refused(state, 0, "NOT_IN_HAND", discard=pb.DiscardCard(card=ghoul))


def test_the_butler_opens_with_the_choices_of_every_player():
    """ "The Butler begins by playing one Mortal or Horror card" describes her usual opening,
    not a stricter rule: like every player she may instead play an Item alone or discard
    (Rulebook: Gameplay; RULES.md: Choice — the Butler's opening)."""
    state = position(3, butler=1, hands={1: ["Lantern", "Zombie"]}, room="Kitchen", **PLAY)
    lantern, zombie = held(state, 1, "Lantern"), held(state, 1, "Zombie")
    legal = runtime.legal_actions(GAME, state, 1)
    assert pb.Action(play_item=pb.PlayItem(card=lantern, side=pb.SIDE_MORTAL)) in legal
    assert pb.Action(discard=pb.DiscardCard(card=zombie)) in legal
    state, events = act(state, 1, discard=pb.DiscardCard(card=zombie))
    assert kinds(events) == ["discarded", "turn_ended"] and state.turn == 2
