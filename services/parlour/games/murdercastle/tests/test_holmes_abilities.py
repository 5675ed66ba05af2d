"""Holmes' Ability Cards (Rulebook: Play as Holmes: Holmes' Control Panel; Play as Holmes
Gameplay; the three cards as reconstructed in RULES.md: Play as Holmes: Holmes' Ability
Cards)."""

from __future__ import annotations

import pytest

from parlour.engine.game import IllegalAction, copy_message
from parlour.engine.rng import Rng
from parlour.engine.runtime import serialize
from parlour.games.murdercastle import flow
from parlour.games.murdercastle.board import Castle, place_of
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.modes import holmes_abilities
from parlour.games.murdercastle.setup import new_state
from parlour.games.murdercastle.strategy import greedy
from parlour.games.murdercastle.tests.positions import (
    BLUE,
    PHARMACY_PLACE,
    add_room,
    card_of,
    frame,
    give,
    legal,
    open_window,
    play,
    set_board,
    take_from_bag,
)
from parlour.games.murdercastle.v1 import junction_pb2 as jpb
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

AD, AB, LO, HO = (pb.CHARACTER_ADELINE, pb.CHARACTER_ABRAHAM, pb.CHARACTER_LOLA,
                  pb.CHARACTER_HOYT)
HOLMES = 4
ALARM, ACID, GAS = jpb.HOLMES_ABILITY_ALARM, jpb.HOLMES_ABILITY_ACID, jpb.HOLMES_ABILITY_GAS


def fresh(seed: int = 1) -> pb.State:
    """A Play as Holmes game at its first decision (the Holmes seat last)."""
    options = pb.Options(characters=[AD, AB, LO, HO, pb.CHARACTER_UNSPECIFIED],
                         play_as_holmes=pb.PlayAsHolmes(seat=HOLMES))
    state = new_state(options, 5, seed)
    flow.settle(state, [])
    return state


def chosen(ability: int) -> pb.State:
    state = fresh()
    play(state, HOLMES, choose_ability=jpb.ChooseHolmesAbility(ability=ability))
    add_room(state, 4, 0, -1)
    return state


def holmes_window(state: pb.State) -> None:
    """An Event Card window, passed by everyone up to the Holmes seat."""
    for seat in range(4):
        state.players[seat].ability_used = True
    open_window(state, key=0)
    while frame(state).seats[0] != HOLMES:
        play(state, frame(state).seats[0], pass_=pb.Pass())


def test_holmes_reads_the_three_cards_and_keeps_one_secretly():
    """"Holmes will read through each of the 3 Holmes' Ability Cards to all players and then
    secretly select 1" (Holmes' Control Panel): his first decision; the card is seen by him
    only, and a state with another card looks the same to everyone else."""
    state = fresh()
    assert frame(state).kind == pb.FRAME_KIND_CHOOSE_HOLMES_ABILITY
    assert len(holmes_abilities.abilities()) == 3
    assert [a.choose_ability.ability for a in legal(state, HOLMES)] == [ALARM, ACID, GAS]
    events = play(state, HOLMES, choose_ability=jpb.ChooseHolmesAbility(ability=GAS))
    assert GAME.view(state, HOLMES).junction.ability == GAS
    assert GAME.view(state, 0).junction.ability == GAME.view(state, None).junction.ability == 0
    assert [e.event.ability_chosen.ability for e in events if e.visible_to(0)] == [0]
    for viewer in (None, 0, 3):
        twin = GAME.resample_hidden(state, viewer, Rng.from_seed(2))
        assert serialize(GAME.view(twin, viewer)) == serialize(GAME.view(state, viewer))


def test_the_alarm_system_strikes_and_nothing_stops_it():
    """"Event Cards or player abilities cannot be used to stop a Holmes' Ability Card"
    (Play as Holmes Gameplay): no window, no defence, no Adeline; the strike moves the Tracker."""
    state = chosen(ALARM)
    state.players[0].place = place_of(4)
    set_board(state, 0, [4, 0, 0, 0, 0])
    give(state, 0, card_of("secret_passage"), card_of("not_so_fast"))
    holmes_window(state)
    state.players[0].ability_used = False  # Adeline could avoid an ordinary strike
    play(state, HOLMES, holmes_ability=jpb.UseHolmesAbility())
    assert GAME.view(state, 0).junction.ability == ALARM
    play(state, HOLMES, place=pb.ChoosePlace(place=place_of(4)))
    assert state.holmes == place_of(4) and state.players[0].strikes == 1
    assert state.holmes_tracker == 1 and len(state.players[0].keep) == 2
    assert not holmes_abilities.may_use(state)


def test_acid_and_quicklime_destroys_every_cube_in_a_room_but_fake_evidence():
    """Acid and Quicklime: every evidence cube of the room goes back into the Evidence Bag;
    Fake Evidence stays, as with the Automa card Destroy All (RULES.md: Holmes' Ability
    Cards)."""
    state = chosen(ACID)
    safe = Castle(state).safe(place_of(4))
    take_from_bag(state, safe, BLUE, 3)
    safe.fake, state.fake_supply = 1, state.fake_supply - 1
    bag = state.bag.counts[BLUE - 1]
    holmes_window(state)
    play(state, HOLMES, holmes_ability=jpb.UseHolmesAbility())
    play(state, HOLMES, place=pb.ChoosePlace(place=place_of(4)))
    assert sum(safe.counts) == 0 and safe.fake == 1
    assert state.bag.counts[BLUE - 1] == bag + 3


def test_the_gas_fixtures_every_player_there_drops_one_cube_no_strike():
    """The Gas Fixtures: each investigator in the room drops 1 cube into its safe; it is not a
    Holmes Strikes!, so the Tracker stays (RULES.md: Holmes' Ability Cards)."""
    state = chosen(GAS)
    for seat in (0, 1):
        state.players[seat].place = place_of(4)
        set_board(state, seat, [2, 0, 0, 0, 0])
    holmes_window(state)
    play(state, HOLMES, holmes_ability=jpb.UseHolmesAbility())  # the only room: no choice
    assert [state.players[s].board.counts[0] for s in (0, 1)] == [1, 1]
    assert Castle(state).safe(place_of(4)).counts[0] == 2
    assert [state.players[s].strikes for s in (0, 1)] == [0, 0] and state.holmes_tracker == 0


def test_greedy_bots_play_the_holmes_seat_and_his_card():
    """The greedy bot plays every seat of a Play as Holmes game to its end, the Holmes seat
    choosing and playing his Ability Card (issue 15: a bot can play the Holmes seat)."""
    for seed in (0, 1):
        rng = Rng.from_seed(seed)
        state = GAME.new_state(pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=seed)), 5, seed)
        while flow.pending_seats(state):
            seat = flow.pending_seats(state)[0]
            actions = GAME.legal_actions(state, seat)
            GAME.apply(state, seat, greedy(GAME.view(state, seat), actions, seat, rng))
        assert state.finished and state.junction.ability_used


def test_the_alarm_system_is_never_aimed_at_holmes_own_room():
    """The Alarm System moves Holmes "into any explored room other than the Pharmacy and his
    own" (RULES.md: Holmes' Ability Cards; Rulebook: Play as Holmes: Holmes' Control Panel):
    with an investigator in Holmes' room, that room is not offered and is refused."""
    state = chosen(ALARM)
    state.holmes = place_of(4)
    state.players[0].place = place_of(4)
    holmes_window(state)
    play(state, HOLMES, holmes_ability=jpb.UseHolmesAbility())
    offered = [a.place.place for a in legal(state, HOLMES)]
    assert offered and place_of(4) not in offered and PHARMACY_PLACE not in offered
    with pytest.raises(IllegalAction):
        GAME.apply(copy_message(state), HOLMES, pb.Action(place=pb.ChoosePlace(place=place_of(4))))
