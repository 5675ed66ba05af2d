"""The characters' abilities (Rulebook: Characters)."""

from __future__ import annotations

from parlour.games.murdercastle.board import Castle, place_of
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.tests.positions import (
    PHARMACY_PLACE,
    add_room,
    card_of,
    frame,
    game,
    give,
    movement_card,
    open_window,
    play,
    put_on_pile,
    set_board,
    stack_holmes,
    start_tile,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

AD, AB, LO, HO, JE, JO = (pb.CHARACTER_ADELINE, pb.CHARACTER_ABRAHAM, pb.CHARACTER_LOLA,
                          pb.CHARACTER_HOYT, pb.CHARACTER_JEREMIAH, pb.CHARACTER_JONAH)
PASS = {"pass": pb.Pass()}


def test_adeline_avoids_a_strike_follows_holmes_then_escapes():
    """Adeline avoids 1 strike, partners with Holmes (no collecting), follows him at the next
    movement card and escapes through a doorway (Rulebook: Characters: Adeline)."""
    state = game([AD, HO])
    add_room(state, 4, 0, -1)
    add_room(state, 12, 0, -2)
    state.players[0].place = place_of(4)
    stack_holmes(state, movement_card((4, 13)), movement_card((12,)))
    start_tile(state, 1, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 1, reveal=pb.RevealHolmes())
    assert frame(state).kind == pb.FRAME_KIND_ESCAPE and frame(state).seat == 0
    play(state, 0, ability=pb.UseAbility())
    player = state.players[0]
    assert player.strikes == 0 and player.partnered and player.ability_used
    start_tile(state, 1, pb.ACTION_TILE_MOVE_HOLMES)
    events = play(state, 1, reveal=pb.RevealHolmes())
    moves = [(e.event.moved.to_place, e.event.moved.how) for e in events
             if e.event.HasField("moved")]
    # she follows Holmes to his apartment, then escapes by its only other doorway
    assert moves == [(place_of(12), "follow"), (place_of(4), "escape")]
    assert state.holmes == place_of(12) and not player.partnered and player.strikes == 0


def test_abraham_top_hats():
    """Abraham's next strike drops 1 cube fewer, the chosen player's next strike 1 more; the
    tokens go once used (Rulebook: Characters: Abraham)."""
    state = game([AB, HO, LO])
    add_room(state, 4, 0, -1)
    open_window(state, key=1)
    assert list(frame(state).seats) == [0]
    play(state, 0, ability=pb.UseAbility())
    play(state, 0, target=pb.ChooseSeat(seat=2))
    assert state.players[0].top_hat == 1 and state.players[2].top_hat == -1
    for seat in (0, 2):
        state.players[seat].place = place_of(4)
        set_board(state, seat, [4, 0, 0, 0, 0])
    stack_holmes(state, movement_card((4, 13)))
    start_tile(state, 1, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 1, reveal=pb.RevealHolmes())
    assert [state.players[s].board.counts[0] for s in (0, 2)] == [4, 2]
    assert state.players[0].top_hat == 0 and state.players[2].top_hat == 0


def test_lola_mimics_the_last_card_and_cannot_be_countered():
    """Lola mimics the last Event Card played or discarded; nobody may counter it (Rulebook:
    Characters: Lola)."""
    state = game([LO, HO])
    set_board(state, 0, [2, 2, 2, 2, 2])
    set_board(state, 1, [5, 0, 0, 0, 0])
    give(state, 1, card_of("not_so_fast"))
    pick = card_of("pickpocket")
    state.event_deck.remove(pick)
    state.event_discard.append(pick)
    open_window(state, key=0)
    play(state, 0, ability=pb.UseAbility())
    assert frame(state).kind != pb.FRAME_KIND_DEFEND  # the target cannot defend
    assert list(state.players[0].board.counts) == [3, 2, 2, 2, 2]
    assert state.event_discard[-1] == pick and state.players[0].ability_used


def test_hoyt_trades_one_card_for_two_random_ones():
    """Hoyt gives 1 Event Card for up to 2 random cards of one player; only the two of them see
    the cards (Rulebook: Characters: Hoyt)."""
    state = game([HO, LO, AD])
    mine = card_of("snitch")
    theirs = [card_of("barter"), card_of("ambush"), card_of("trapdoor")]
    give(state, 0, mine)
    give(state, 1, *theirs)
    add_room(state, 4, 0, -1)
    open_window(state, key=2)
    assert frame(state).seats[0] == 0
    play(state, 0, ability=pb.UseAbility())
    events = play(state, 0, give=pb.GiveCard(card=mine))  # Lola is the only partner: chosen
    assert len(state.players[0].keep) == 2 and len(state.players[1].keep) == 2
    assert mine in state.players[1].keep
    assert set(state.players[0].keep) <= set(theirs)
    assert all(not e.event.traded.cards for e in events if e.visible_to(2))
    assert any(e.event.traded.cards for e in events if e.visible_to(1))


def test_jeremiah_peeks_and_explores_any_tile():
    """Jeremiah explores without an Action Tile: he peeks at every room tile, picks one, and the
    rest keep their order (Rulebook: Characters: Jeremiah)."""
    state = game([JE, HO])
    add_room(state, 4, 0, -1)
    put_on_pile(state, 12)
    before = [t for t in state.room_pile if t != 10]
    open_window(state, key=1)
    play(state, 0, ability=pb.UseAbility())
    assert frame(state).kind == pb.FRAME_KIND_PICK_ROOM_TILE  # he peeks first …
    play(state, 0, pick=pb.PickTile(tile=10))  # the Steel Vault, deep in the pile
    assert frame(state).kind == pb.FRAME_KIND_CHOOSE_DOOR  # … then chooses the doorway
    assert GAME.view(state, 1).frames[-2].tile == 0 and GAME.view(state, 0).frames[-2].tile == 10
    play(state, 0, explore=pb.Explore(side=1))
    assert list(state.room_pile) == before
    assert Castle(state).placed[10].x == 1


def test_jonah_builds_and_destroys_brick_walls():
    """Jonah builds his Brick Wall at any doorway of the castle, or destroys a Brick Wall beside
    his room's door (Rulebook: Characters: Jonah)."""
    state = game([JO, HO])
    open_window(state, key=1)
    play(state, 0, ability=pb.UseAbility())
    play(state, 0, place=pb.ChoosePlace(place=PHARMACY_PLACE))
    play(state, 0, explore=pb.Explore(side=0))
    assert Castle(state).placed[92].y == -1 and not state.players[0].holds_brick_wall
    assert Castle(state).explorable(PHARMACY_PLACE) == [1, 3]
    other = game([JO, HO])
    other.room_pile.remove(90)
    other.tiles.add(tile=90, x=1, y=0)
    open_window(other, key=1)
    play(other, 0, ability=pb.UseAbility())
    play(other, 0, place=pb.ChoosePlace(place=180))  # the wall east of the Pharmacy
    assert 90 not in Castle(other).placed and other.boxed_brick_walls == 1


def test_adeline_partnered_cannot_collect_and_has_no_ability_on_a_rampage():
    """Adeline cannot collect while partnered with Holmes, and cannot use her ability against a
    rampage (Rulebook: Characters: Adeline)."""
    state = game([AD, HO])
    add_room(state, 4, 0, -1, cubes={1: 2})
    state.players[0].place = place_of(4)
    state.players[0].partnered = True
    set_board(state, 0, [2, 2, 2, 2, 2])
    start_tile(state, 0, pb.ACTION_TILE_COLLECT)
    assert state.players[0].board.counts[0] == 2  # nothing to collect: passed for her
    rampage = game([AD, HO])
    add_room(rampage, 4, 0, -1)
    rampage.players[0].place = place_of(4)
    set_board(rampage, 0, [4, 0, 0, 0, 0])
    stack_holmes(rampage, movement_card(special="rampage"), movement_card((4, 13)),
                 movement_card(special="lights_out"))
    start_tile(rampage, 1, pb.ACTION_TILE_MOVE_HOLMES)
    play(rampage, 1, reveal=pb.RevealHolmes())
    assert rampage.players[0].strikes == 1 and not rampage.players[0].ability_used
