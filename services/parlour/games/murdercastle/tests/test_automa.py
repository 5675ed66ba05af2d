"""Automa, the solo mode (Rulebook: Automa Mode: Introduction, Setup, Winning, Gameplay, Automa
Holmes' Action Cards, Automa Event Card and Special Room Effect Clarifications)."""

from __future__ import annotations

from parlour.games.murdercastle import flow, holmes
from parlour.games.murdercastle.board import Castle, place_of
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import total
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.modes import automa
from parlour.games.murdercastle.setup import new_state
from parlour.games.murdercastle.tests.positions import (
    BLUE,
    GREEN,
    WHITE,
    add_room,
    card_of,
    frame,
    give,
    legal,
    movement_card,
    play,
    set_board,
    stack_events,
    stack_holmes,
    start_tile,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

BEGINNER, INTERMEDIATE, MENACING = (pb.AUTOMA_LEVEL_BEGINNER, pb.AUTOMA_LEVEL_INTERMEDIATE,
                                    pb.AUTOMA_LEVEL_MENACING)
PASS = {"pass": pb.Pass()}
BACK_ROOM, ATRIUM, MAZE = 4, 6, 5


def solo(level: int = BEGINNER, seed: int = 1) -> pb.State:
    """A settled Automa game waiting for the player's first selection."""
    state = new_state(pb.Options(automa=level), 1, seed)
    flow.settle(state, [])
    return state


def automa_card(kind: str) -> int:
    """The id of an Automa card of a kind."""
    return next(i for i, c in sorted(automa.data().cards.items()) if c.kind == kind)


def resolve(state: pb.State, kind: str) -> list:
    """Resolve an Automa card now, as at the end of a round."""
    del state.frames[:]
    card = automa_card(kind)
    if card in state.automa_deck:
        state.automa_deck.remove(card)
    else:
        state.automa_discard.remove(card)
    state.automa_deck.append(card)
    out: list = []
    automa.reveal(state, out)
    flow.settle(state, out)
    return out


def test_setup_by_difficulty():
    """One seat, no character ability; every room and wall (Jonah's too) in the pile; only the
    Automa Event Cards; Fake Evidence in the bag 0 / 15 / 30, an Automa deck of 17 / 19 / 18
    and 1 / 3 / 5 wilds in the Destruction deck (Rulebook: Automa Setup)."""
    expected = {BEGINNER: (0, 17, 1), INTERMEDIATE: (15, 19, 3), MENACING: (30, 18, 5)}
    for level, (fake, deck, wilds) in expected.items():
        state = solo(level)
        GAME.check_conservation(state)
        assert state.seats == 1 and state.players[0].character == pb.CHARACTER_GUEST
        in_bag = state.bag.fake + sum(g.fake for g in state.gondolas)
        in_bag += sum(s.fake for t in state.tiles for s in t.safes)
        assert in_bag == fake and state.fake_supply == 143 - fake
        assert len(state.automa_deck) == deck
        cards = [automa.data().destruction[c] for c in state.destruction_deck]
        assert sum(len(c) == 5 for c in cards) == wilds and len(cards) == 10 + wilds
        assert catalogue().jonah_brick_wall in state.room_pile and {21, 22, 25} <= set(
            state.room_pile)
        kinds = {catalogue().event(c).kind for c in state.event_deck}
        assert not kinds & {"pickpocket", "snitch", "ambush", "peephole", "not_so_fast",
                            "barter"}
    menacing = [automa.data().cards[c].kind for c in solo(MENACING).automa_deck]
    assert "lock_door" not in menacing  # "The 2 cards marked as Lock an Unexplored Door are
    # removed from the game"


def test_the_player_selects_two_tiles_without_bonuses():
    """You always start and select 2 Action Tiles, 1 at a time, without selection bonuses
    (Rulebook: Automa Gameplay)."""
    state = solo()
    state.players[0].place = place_of(2)  # Basement #2 holds a cube
    assert frame(state).kind == pb.FRAME_KIND_SELECT_TILE and frame(state).seat == 0
    play(state, 0, select=pb.SelectTile(tile=pb.ACTION_TILE_COLLECT))
    assert frame(state).count == 1  # no bonus cube
    play(state, 0, **PASS)
    assert frame(state).kind == pb.FRAME_KIND_SELECT_TILE and state.selections == 1


def test_holmes_moves_to_your_room_or_the_closest_listed_room():
    """Holmes always moves to your room if it is on the card, otherwise to the listed room
    closest to you by doorway paths, you breaking ties (Rulebook: Automa Gameplay)."""
    state = solo()
    add_room(state, BACK_ROOM, 0, -1)  # north of the Pharmacy
    add_room(state, 13, 0, -2)  # the Blind Room (N-S) beyond it
    state.players[0].place = place_of(13)
    del state.frames[:]
    stack_holmes(state, movement_card((4, 13)))
    holmes.reveal(state, 0, False, [])
    assert state.holmes == place_of(13)  # your room, though the Back Room is listed first
    state.players[0].place = automa.PHARMACY_PLACE
    state.holmes = place_of(1)
    del state.frames[:]
    stack_holmes(state, movement_card((4, 13)))
    holmes.reveal(state, 0, False, [])
    assert state.holmes == place_of(BACK_ROOM)  # the closer of the two to the Pharmacy
    tie = solo()
    add_room(tie, BACK_ROOM, 0, -1)  # north of the Pharmacy
    add_room(tie, 13, -1, 0, rotation=1)  # the Blind Room turned E-W, west of the Pharmacy
    tie.players[0].place = automa.PHARMACY_PLACE
    del tie.frames[:]
    stack_holmes(tie, movement_card((4, 13)))
    holmes.reveal(tie, 0, False, [])
    assert frame(tie).kind == pb.FRAME_KIND_HOLMES_ROOM and frame(tie).seat == 0
    assert sorted(frame(tie).places) == [place_of(BACK_ROOM), place_of(13)]


def test_move_up_to_2_stops_in_your_room():
    """The worked example: with Move up to 2 Rooms, Holmes stops in the Back Room (#4) where
    the player is and does not move past (Rulebook: Automa Holmes' Action Cards)."""
    state = solo()
    add_room(state, BACK_ROOM, 0, -1)
    add_room(state, ATRIUM, 0, -2)
    state.holmes = place_of(ATRIUM)
    state.players[0].place = place_of(BACK_ROOM)
    set_board(state, 0, [2, 0, 0, 0, 0])
    resolve(state, "move_2")
    assert state.holmes == place_of(BACK_ROOM) and state.players[0].strikes == 1
    resolve(state, "move_1")  # "Holmes does not move if Holmes occupies your room"
    assert state.holmes == place_of(BACK_ROOM) and state.players[0].strikes == 1


def test_destroy_matches_the_revealed_colours():
    """The worked example: white and blue revealed; a room with a white and a blue cube loses
    both, a room with a white and a green cube only the white; never Fake Evidence (Rulebook:
    Destroy 1 / Destroy 2 Pieces of Evidence)."""
    card = next(i for i, c in automa.data().destruction.items() if c == (BLUE, WHITE))
    for cubes, left in (({WHITE: 1, BLUE: 1}, [0, 0, 0, 0, 0]),
                        ({WHITE: 1, GREEN: 1}, [0, 0, 1, 0, 0])):
        state = solo(MENACING)
        add_room(state, BACK_ROOM, 0, -1, cubes=cubes)
        Castle(state).safe(place_of(BACK_ROOM)).fake = 1
        state.fake_supply -= 1
        state.holmes = place_of(BACK_ROOM)
        state.destruction_deck.remove(card)
        state.destruction_deck.append(card)
        resolve(state, "destroy_2")
        safe = Castle(state).safe(place_of(BACK_ROOM))
        assert list(safe.counts) == left and safe.fake == 1


def test_destroy_all_and_nothing_to_destroy():
    """Destroy All returns every piece of evidence in Holmes' room to the bag (not Fake
    Evidence, no Destruction card); with no evidence, Destroy 1 reveals no card (Rulebook:
    Automa Holmes' Action Cards)."""
    state = solo()
    add_room(state, BACK_ROOM, 0, -1, cubes={WHITE: 2, GREEN: 1})
    state.holmes = place_of(BACK_ROOM)
    resolve(state, "destroy_all")
    assert total(Castle(state).safe(place_of(BACK_ROOM))) == 0
    before = len(state.destruction_deck)
    resolve(state, "destroy_1")
    assert len(state.destruction_deck) == before


def test_move_2_and_lock_2_locks_the_first_doorways_on_the_way():
    """The worked examples: with 2 unexplored doors in his room Holmes locks both before
    leaving; with 1 he locks it, moves, and locks the next one in the next room (Rulebook:
    Move up to 2 Rooms using Doorways and Lock up to 2 Unexplored Doorways)."""
    state = solo()
    add_room(state, ATRIUM, 0, -1)  # 4 doors: north, east, west unexplored
    state.holmes = place_of(ATRIUM)
    state.players[0].place = place_of(2)
    resolve(state, "move_2_lock_2")
    atrium = Castle(state).placed[ATRIUM]
    assert sorted(atrium.padlocked) == [0, 1]  # both locks spent before leaving
    state = solo()
    add_room(state, 11, 0, -1, rotation=2)  # Room of the 3 Corpses: doors S, W, N
    add_room(state, 9, -1, -1)  # Ale Pub west of it (E-W): one unexplored door, west
    state.holmes = place_of(11)
    state.players[0].place = place_of(9)
    add_room(state, 7, -2, -1, rotation=1)  # the Black Closet closes the Ale Pub's west side
    state.tiles[-1].padlocked.append(3)
    resolve(state, "move_2_lock_2")
    assert list(Castle(state).placed[11].padlocked) == [0]  # its 1 unexplored door
    assert state.holmes == place_of(9)


def test_lock_an_unexplored_door_the_player_chooses():
    """Holmes padlocks an unexplored doorway of his room; with several you choose (Rulebook:
    Lock an Unexplored Door)."""
    state = solo()
    add_room(state, ATRIUM, 0, -1)
    state.holmes = place_of(ATRIUM)
    resolve(state, "lock_door")
    assert frame(state).kind == pb.FRAME_KIND_CHOOSE_DOOR
    assert sorted(a.explore.side for a in legal(state, 0)) == [0, 1, 3]
    play(state, 0, explore=pb.Explore(side=3))
    assert list(Castle(state).placed[ATRIUM].padlocked) == [3]
    assert 3 not in Castle(state).explorable(place_of(ATRIUM))


def test_seal_and_plant():
    """Seal All Hidden Bookcase Pathways removes them; Plant 10 / 15 moves Fake Evidence from
    the Fake Evidence Bag into the Evidence Bag (Rulebook: Automa Holmes' Action Cards)."""
    state = solo(INTERMEDIATE)
    state.pathways.add(a=place_of(1), b=place_of(2))
    resolve(state, "seal_pathways")
    assert not state.pathways
    bag, supply = state.bag.fake, state.fake_supply
    resolve(state, "plant_15")
    assert state.bag.fake == bag + 15 and state.fake_supply == supply - 15


def test_fake_evidence_is_moved_but_never_collected():
    """All evidence, Fake Evidence included, goes from the Ferris Wheel into the rooms; Fake
    Evidence cannot be picked up (Rulebook: Automa Gameplay)."""
    state = solo(MENACING)
    add_room(state, BACK_ROOM, 0, -1, cubes={WHITE: 1})
    Castle(state).safe(place_of(BACK_ROOM)).fake = 2
    state.fake_supply -= 2
    state.players[0].place = place_of(BACK_ROOM)
    start_tile(state, 0, pb.ACTION_TILE_COLLECT)
    assert [a.collect.colour for a in legal(state, 0) if a.HasField("collect")] == [WHITE]
    gondola = state.gondolas[state.unloading]
    gondola.fake += 1
    state.fake_supply -= 1
    from parlour.games.murdercastle.actions import fill_options
    filler = pb.Frame(kind=pb.FRAME_KIND_FILL_SAFE)
    assert pb.COLOUR_FAKE in [a.cube.colour for a in fill_options(state, filler)]


def test_holmes_wins_with_5_strikes_and_the_player_needs_5_of_each():
    """You need the last column ("Automa / 2-Player / Extended Version"): 5 of each; Holmes wins
    once your board holds all 5 Holmes Strikes! — an outcome with no winning seat (Rulebook:
    Automa Winning)."""
    state = solo()
    assert GAME.view(state, 0).needed == 5
    state.players[0].strikes = 4
    add_room(state, BACK_ROOM, 0, -1)
    state.players[0].place = place_of(BACK_ROOM)
    stack_holmes(state, movement_card((4,)))
    del state.frames[:]
    state.selections = 2
    flow.settle(state, [])
    outcome = GAME.outcome(state)
    assert state.finished and state.holmes_won
    assert outcome.winners == () and outcome.summary.startswith("Holmes won")


def test_no_card_evades_holmes_entering_your_room():
    """"Event Cards can be played at any time except to evade Holmes if Holmes moves into the
    room you occupy": no window opens, Secret Passage does not save you (Rulebook: Automa
    Gameplay; Automa Event Card Clarifications: Secret Passage)."""
    state = solo()
    add_room(state, BACK_ROOM, 0, -1)
    add_room(state, ATRIUM, 0, -2)
    give(state, 0, card_of("secret_passage"))
    state.holmes = place_of(ATRIUM)
    state.players[0].place = place_of(BACK_ROOM)
    resolve(state, "move_1")
    assert state.players[0].strikes == 1


def test_trapdoor_sends_you_to_basement_3_and_alerted_brings_holmes_to_you():
    """Trapdoor sends you to Basement #3 unless you play Player Dexterity or Disarm a Trapdoor;
    Holmes is Alerted (Play Now) moves Holmes to your room (Rulebook: Automa Event Card
    Clarifications)."""
    state = solo()
    add_room(state, BACK_ROOM, 0, -1)
    state.players[0].place = place_of(BACK_ROOM)
    stack_events(state, card_of("trapdoor"), card_of("holmes_alerted_now"))
    start_tile(state, 0, pb.ACTION_TILE_DRAW)
    play(state, 0, draw=pb.Draw())
    assert state.players[0].place == place_of(3)
    give(state, 0, card_of("player_dexterity"))
    stack_events(state, card_of("trapdoor", 1))
    state.players[0].place = place_of(BACK_ROOM)
    start_tile(state, 0, pb.ACTION_TILE_DRAW)
    play(state, 0, draw=pb.Draw())
    assert frame(state).kind == pb.FRAME_KIND_DEFEND
    play(state, 0, play=pb.PlayEvent(card=card_of("player_dexterity")))
    assert state.players[0].place == place_of(BACK_ROOM)
    stack_events(state, card_of("holmes_alerted_now"))
    start_tile(state, 0, pb.ACTION_TILE_DRAW)
    play(state, 0, draw=pb.Draw())
    assert state.holmes == place_of(BACK_ROOM)


def test_fake_evidence_can_fill_the_basements_and_the_ferris_wheel():
    """"You can choose a difficulty level before completing the remainder of the setup ... The
    basement Room Tiles and Ferris Wheel may now include Fake Evidence if you selected the
    Intermediate or Menacing difficulty levels": the Fake Evidence goes into the bag before the
    basements and gondolas are filled (Rulebook: Automa Setup: Difficulty Levels)."""
    for level in (INTERMEDIATE, MENACING):
        filled = 0
        for seed in range(1, 21):
            state = solo(level, seed)
            filled += sum(g.fake for g in state.gondolas)
            filled += sum(s.fake for t in state.tiles for s in t.safes)
        assert filled, f"no Fake Evidence on the wheel or in a basement in 20 setups ({level})"
    state = solo(BEGINNER)
    assert not sum(g.fake for g in state.gondolas) and state.bag.fake == 0


def test_a_rampage_into_the_maze_goes_to_your_side():
    """"If you occupy The Maze and The Maze is revealed on a Holmes' Movement Card, Holmes always
    move to your side of The Maze" — a rampage's cards too (Rulebook: Automa Special Room Effect
    Clarifications; Holmes Goes on a Rampage)."""
    state = solo()
    add_room(state, MAZE, 0, -1)
    state.players[0].place = place_of(MAZE, 1)
    stack_holmes(state, movement_card(special="rampage"), movement_card((MAZE,)),
                 movement_card(special="lights_out"))
    out: list = []
    holmes.reveal(state, 0, False, out)
    flow.settle(state, out)
    route = [e.event.holmes_moved.to_place for e in out if e.event.HasField("holmes_moved")]
    assert route == [place_of(MAZE, 1)]
    assert state.players[0].strikes == 1


def test_holmes_never_walks_into_or_through_the_pharmacy():
    """Issue 32: no rule of the multiplayer game puts Holmes in the Pharmacy (no Holmes'
    Movement Card lists it) and Automa's "Holmes will always move towards you, using doorways"
    adds none ("All multiplayer rules apply, unless they are noted as exceptions"): from
    Basement #1, where he starts, his Move cards neither enter the Pharmacy nor cross it to
    the rooms beyond, and Holmes is Alerted (Play Now) does not send him there (Rulebook:
    Automa Gameplay; Automa Holmes' Action Cards; Automa Event Card Clarifications)."""
    state = solo()
    add_room(state, BACK_ROOM, 0, -1)
    basement = state.holmes
    assert state.players[0].place == automa.PHARMACY_PLACE
    resolve(state, "move_2")
    assert state.holmes == basement and state.players[0].strikes == 0
    state.players[0].place = place_of(BACK_ROOM)
    assert automa.PHARMACY_PLACE in Castle(state).neighbours(place_of(BACK_ROOM))
    resolve(state, "move_2")
    assert state.holmes == basement and state.players[0].strikes == 0
    state.players[0].place = automa.PHARMACY_PLACE
    stack_events(state, card_of("holmes_alerted_now"))
    start_tile(state, 0, pb.ACTION_TILE_DRAW)
    play(state, 0, draw=pb.Draw())
    assert state.holmes == basement and state.players[0].strikes == 0
