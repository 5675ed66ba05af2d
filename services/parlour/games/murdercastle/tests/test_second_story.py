"""The 2nd Story expansion (Rulebook: The 2nd Story Expansion: Setup, Gameplay Overview, Event
Card Clarifications, Special Rooms), switched on by `Options.second_story`."""

from __future__ import annotations

from parlour.engine.rng import Rng
from parlour.engine.runtime import serialize
from parlour.games.murdercastle.board import Castle, place_of
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import total
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.modes import second_story
from parlour.games.murdercastle.tests.positions import (
    BLUE,
    GREEN,
    RED,
    WHITE,
    YELLOW,
    add_room,
    card_of,
    frame,
    game,
    give,
    legal,
    open_window,
    play,
    put_on_pile,
    set_board,
    set_gondola,
    stack_events,
    start_tile,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

A, H, L, J = (pb.CHARACTER_ADELINE, pb.CHARACTER_HOYT, pb.CHARACTER_LOLA, pb.CHARACTER_JONAH)
PASS = {"pass": pb.Pass()}
PHARMACY_PLACE = place_of(26)
SECRET, LAB, WAITING, DUMBWAITER, FIVE_DOOR = 21, 22, 23, 24, 25


def upstairs(**options: object) -> pb.State:
    """A 2-seat game with The 2nd Story (Jonah and Lola)."""
    state = game([J, L], second_story=True, **options)
    state.players[0].ability_used = state.players[1].ability_used = True
    return state


def test_components_are_shuffled_in_only_with_the_option():
    """The 5 new rooms and the Brick Wall go into the pile, the 9 new movement cards into the
    deck, the Shelf's 5 potions are set aside; a standard game has none of them (Rulebook:
    Components; 2nd Story Setup)."""
    cat = catalogue()
    state = upstairs()
    new = set(second_story.new_tiles())
    assert new == {21, 22, 23, 24, 25, 93} and new <= set(state.room_pile)
    assert len(state.holmes_deck) == 42 and set(second_story.box().movement) <= set(
        state.holmes_deck)
    assert sorted(state.shelf) == sorted([pb.POTION_TONIC, pb.POTION_H2O, pb.POTION_H2O,
                                          pb.POTION_SNAKE_OIL, pb.POTION_POISON])
    plain = game([J, L])
    assert not new & set(plain.room_pile) and len(plain.holmes_deck) == 33
    assert not plain.shelf
    assert cat.rules["second_story"]["padlocks"] == 12 and cat.rules["second_story"]["tokens"] == 12


def test_the_laboratory_stairs_meet_the_explored_doorway_and_a_padlock_parts_the_stories():
    """The worked example: exploring from the Reception Room reveals the Laboratory, placed so
    its stairs connect to the explored doorway; Holmes' Apartment happens to meet another of
    its doorways but is on the first level, so that doorway gets a Padlock (Rulebook: 2nd
    Story Gameplay Overview, the example)."""
    state = upstairs()
    add_room(state, 8, 0, -1)  # Reception Room: doors N, E, W
    add_room(state, 12, 1, -2)  # Holmes' Apartment: its west door faces (0, -2)
    state.players[0].place = place_of(8)
    put_on_pile(state, LAB)
    set_gondola(state, {BLUE: 2, WHITE: 2, RED: 1})
    start_tile(state, 0, pb.ACTION_TILE_EXPLORE)
    play(state, 0, explore=pb.Explore(side=0))
    # one rotation puts the stairs (printed south) on the explored doorway: taken at once
    lab = Castle(state).placed[LAB]
    assert lab.rotation == 0
    assert lab.level == 1 and lab.stairs == 2 + 1 and list(lab.padlocked) == [1]
    castle = Castle(state)
    assert castle.doorway_to(place_of(8), 0) == place_of(LAB)  # up the stairs
    assert castle.doorway_to(place_of(LAB), 1) is None  # padlocked: another story
    assert total(castle.safe(place_of(LAB))) == 5  # "up to 5 pieces of evidence"


def test_upper_stories_count_as_one_level_and_rooms_built_off_them_are_upstairs():
    """A room explored from a 2nd Story room is on the 2nd Story (a 2nd Story token); a 2nd
    Story room explored from another may be rotated freely; stories 2, 3 and 4 are one level
    (Rulebook: 2nd Story Gameplay Overview)."""
    state = upstairs()
    add_room(state, SECRET, 0, -1, level=1)  # stairs (S) down to the Pharmacy
    state.players[0].place = place_of(SECRET)
    put_on_pile(state, WAITING)
    start_tile(state, 0, pb.ACTION_TILE_EXPLORE)
    play(state, 0, explore=pb.Explore(side=0))
    rotations = sorted(a.rotate.rotation for a in legal(state, 0))
    assert rotations == [0, 1, 3]  # any way a doorway faces back, the stairs anywhere
    play(state, 0, rotate=pb.Rotate(rotation=1))  # doors S, W, N; stairs west
    assert Castle(state).placed[WAITING].level == 1
    assert Castle(state).doorway_to(place_of(SECRET), 0) == place_of(WAITING)
    assert Castle(state).doorway_to(PHARMACY_PLACE, 0) == place_of(SECRET)


def test_the_secret_room_draws_4_random_cubes_from_the_bag():
    """Secret Room (#21): "Draw 4 random pieces of evidence from the Evidence Bag to place onto
    the safe" — no choice, the gondola untouched (Rulebook: 2nd Story Special Rooms)."""
    state = upstairs()
    put_on_pile(state, SECRET)
    gondola = list(state.gondolas[state.unloading].counts)
    bag = total(state.bag)
    start_tile(state, 0, pb.ACTION_TILE_EXPLORE)
    play(state, 0, explore=pb.Explore(side=0))  # the only rotation: stairs south, taken
    assert total(Castle(state).safe(place_of(SECRET))) == 4 and total(state.bag) == bag - 4
    assert list(state.gondolas[state.unloading].counts) == gondola


def test_the_waiting_room_fills_from_the_previous_gondola():
    """Waiting Room (#23): 3 cubes of your choice from the previous gondola, refilled once
    emptied; the unloading gondola never changes; Destined for Success there uses the previous
    gondola too (Rulebook: 2nd Story Special Rooms: Waiting Room and its Note)."""
    state = upstairs()
    put_on_pile(state, WAITING)
    before = state.unloading
    previous = (before - 1) % 5
    prev = state.gondolas[previous]
    for i in range(5):
        state.bag.counts[i] += prev.counts[i]
        prev.counts[i] = 0
    prev.counts[0] = 2
    state.bag.counts[0] -= 2
    start_tile(state, 0, pb.ACTION_TILE_EXPLORE)
    play(state, 0, explore=pb.Explore(side=0))
    # only 2 blue cubes were there: both placed for Jonah, the gondola refilled with 5
    assert list(Castle(state).safe(place_of(WAITING)).counts) == [2, 0, 0, 0, 0]
    assert total(state.gondolas[previous]) == 5 and state.unloading == before
    state.players[1].place = place_of(WAITING)
    stack_events(state, card_of("destined_for_success"))
    start_tile(state, 1, pb.ACTION_TILE_DRAW)
    play(state, 1, draw=pb.Draw())
    assert frame(state).kind == pb.FRAME_KIND_FILL_SAFE and frame(state).gondola == previous + 1


def test_the_dumbwaiter_reaches_every_story_and_explores_to_any_level():
    """Dumbwaiter (#24): an elevator between all stories; you may explore from it to any level;
    Lucky Break with no space on your board may put the cube there (Rulebook: 2nd Story
    Special Rooms; 2nd Story Event Card Clarifications: Lucky Break)."""
    state = upstairs()
    add_room(state, DUMBWAITER, 1, 0, level=1)  # east of the Pharmacy (ground floor)
    add_room(state, 29, 2, 0, level=-1)  # the Chute Room (E-W) beyond it, in the basement
    castle = Castle(state)
    assert castle.doorway_to(PHARMACY_PLACE, 1) == place_of(DUMBWAITER)
    assert castle.doorway_to(place_of(DUMBWAITER), 1) == place_of(29)
    assert castle.doorway_to(place_of(29), 3) == place_of(DUMBWAITER)
    state.players[0].place = place_of(DUMBWAITER)
    put_on_pile(state, 4)
    start_tile(state, 0, pb.ACTION_TILE_EXPLORE)
    play(state, 0, explore=pb.Explore(side=0))
    levels = {a.rotate.level for a in legal(state, 0)}
    assert levels == {-1, 0, 1}
    play(state, 0, rotate=pb.Rotate(rotation=0, level=-1))
    assert Castle(state).placed[4].level == -1
    set_board(state, 1, [5, 5, 5, 5, 5])
    state.players[1].place = place_of(DUMBWAITER)
    stack_events(state, card_of("lucky_break"))
    start_tile(state, 1, pb.ACTION_TILE_DRAW)
    play(state, 1, draw=pb.Draw())
    assert total(Castle(state).safe(place_of(DUMBWAITER))) == 1  # capacity 0, yet there


def test_the_five_door_room_drops_collectors_to_basement_3():
    """5-Door Room (#25): a permanent Trapdoor to Basement #3 while it holds evidence; Player
    Dexterity or Disarm a Trapdoor protect once and it resets; Barter does not; no Trapdoor
    card can go there (Rulebook: 2nd Story Special Rooms: 5-Door Room and its Note)."""
    state = upstairs()
    add_room(state, FIVE_DOOR, 0, -1, level=1, cubes={RED: 3})
    state.players[1].place = place_of(FIVE_DOOR)
    set_board(state, 1, [2, 2, 2, 2, 2])
    give(state, 1, card_of("disarm_trapdoor"), card_of("barter"))
    start_tile(state, 1, pb.ACTION_TILE_COLLECT)
    play(state, 1, collect=pb.Collect(colour=RED))
    assert frame(state).kind == pb.FRAME_KIND_DEFEND
    assert {a.play.card for a in legal(state, 1) if a.HasField("play")} == {
        card_of("disarm_trapdoor")}
    play(state, 1, play=pb.PlayEvent(card=card_of("disarm_trapdoor")))
    assert state.players[1].place == place_of(FIVE_DOOR)
    start_tile(state, 1, pb.ACTION_TILE_COLLECT)
    play(state, 1, collect=pb.Collect(colour=RED))  # reset: it works again
    play(state, 1, **PASS)  # Barter is no help
    assert state.players[1].place == place_of(3)
    assert total(Castle(state).safe(place_of(FIVE_DOOR))) == 1
    give(state, 0, card_of("trapdoor"))
    from parlour.games.murdercastle.effects import trapdoor_rooms
    assert place_of(FIVE_DOOR) not in trapdoor_rooms(state)


def lab_state(potions: list[int], cubes: dict[int, int]) -> pb.State:
    """Lola in the Laboratory (upstairs, north of the Pharmacy) with the shelf in this order."""
    state = upstairs()
    add_room(state, LAB, 0, -1, level=1, cubes=cubes)
    state.players[1].place = place_of(LAB)
    state.shelf[:] = potions
    set_board(state, 1, [1, 1, 1, 1, 1])
    return state


SHELF = [pb.POTION_TONIC, pb.POTION_H2O, pb.POTION_SNAKE_OIL, pb.POTION_H2O, pb.POTION_POISON]


def test_laboratory_tonic_blocks_the_next_strike():
    """Each cube collected in the Laboratory draws a face-down potion; a Tonic shields you from
    the next Holmes Strikes! and is then removed; no collecting there while you hold it
    (Rulebook: Laboratory: Tonic; Note)."""
    state = lab_state(SHELF, {BLUE: 2})
    start_tile(state, 1, pb.ACTION_TILE_COLLECT)
    play(state, 1, collect=pb.Collect(colour=BLUE))
    play(state, 1, **PASS)
    assert frame(state).kind == pb.FRAME_KIND_PICK_POTION
    assert [a.potion.spot for a in legal(state, 1)] == [0, 1, 2, 3, 4]
    play(state, 1, potion=pb.PickPotion(spot=0))
    assert state.players[1].tonic and list(state.potions_drawn) == [pb.POTION_TONIC]
    start_tile(state, 1, pb.ACTION_TILE_COLLECT)
    assert not any(a.HasField("collect") for a in legal(state, 1))
    from parlour.games.murdercastle import holmes
    del state.frames[:]
    holmes.strike(state, 1, [])
    assert state.players[1].strikes == 0 and not state.players[1].tonic


def test_laboratory_snake_oil_returns_the_cube_and_poison_adds_a_drop():
    """Snake Oil sends the cube just collected back to the bag; H2O does nothing; Poison makes
    your next strike drop one more cube (Rulebook: Laboratory: Potion Types)."""
    state = lab_state(SHELF, {BLUE: 1, GREEN: 1})
    start_tile(state, 1, pb.ACTION_TILE_COLLECT)  # the bonus: 2 cubes, 2 potions
    play(state, 1, collect=pb.Collect(colour=BLUE))
    play(state, 1, collect=pb.Collect(colour=GREEN))
    play(state, 1, potion=pb.PickPotion(spot=2))  # Snake Oil: the blue cube goes back
    play(state, 1, potion=pb.PickPotion(spot=4))  # Poison with the green one
    assert list(state.players[1].board.counts) == [1, 1, 2, 1, 1] and state.players[1].poison
    from parlour.games.murdercastle import holmes
    del state.frames[:]
    holmes.strike(state, 1, [])
    assert frame(state).kind == pb.FRAME_KIND_DROP_EVIDENCE and frame(state).count == 2


def test_laboratory_tonic_and_poison_cancel_and_the_shelf_refills_at_round_end():
    """Drawing a Tonic and a Poison for two cubes cancels both; the potions drawn in a round
    go back face down at its end (Rulebook: Laboratory)."""
    state = lab_state(SHELF, {BLUE: 1, YELLOW: 1})
    start_tile(state, 1, pb.ACTION_TILE_COLLECT)
    play(state, 1, collect=pb.Collect(colour=BLUE))
    play(state, 1, collect=pb.Collect(colour=YELLOW))
    play(state, 1, potion=pb.PickPotion(spot=0))
    play(state, 1, potion=pb.PickPotion(spot=4))
    assert not state.players[1].tonic and not state.players[1].poison
    assert list(GAME.view(state, 0).shelf_face_down) == [False, True, True, True, False]
    from parlour.games.murdercastle import flow
    del state.frames[:]
    state.selections = 4
    state.current = pb.ACTION_TILE_UNSPECIFIED
    del state.to_act[:]
    flow.settle(state, [])
    while state.round == 0:
        seat = flow.pending_seats(state)[0]
        play(state, seat, **{k: getattr(a, k) for a in legal(state, seat)[:1]
                             for k in [a.WhichOneof("kind")]})
    assert not state.potions_drawn and sorted(state.shelf) == sorted(SHELF)


def test_the_shelf_order_is_hidden_from_everyone():
    """The potions lie face down: no view shows which is where, and resampling shuffles them
    (DESIGN: Hidden information; Rulebook: Laboratory: "face down")."""
    state = lab_state(SHELF, {BLUE: 1})
    rng = Rng.from_seed(3)
    for viewer in (None, 0, 1):
        twin = GAME.resample_hidden(state, viewer, rng)
        assert serialize(GAME.view(twin, viewer)) == serialize(GAME.view(state, viewer))
    shuffled = {tuple(GAME.resample_hidden(state, 1, rng).shelf) for _ in range(10)}
    assert len(shuffled) > 1


def test_a_third_hidden_bookcase_pathway():
    """The 2nd Story adds a 3rd Hidden Bookcase Pathway token (Rulebook: Components; Automa:
    "This includes the 3rd Hidden Bookcase Pathway")."""
    state = upstairs()
    add_room(state, 4, 0, -1)
    add_room(state, 9, 1, 0)
    state.pathways.add(a=place_of(1), b=place_of(2))
    state.pathways.add(a=place_of(2), b=place_of(3))
    give(state, 0, card_of("bookcase_pathway"))
    open_window(state, key=1)
    assert any(a.HasField("play") for a in legal(state, 0))
    plain = game([J, L])
    add_room(plain, 4, 0, -1)
    plain.pathways.add(a=place_of(1), b=place_of(2))
    plain.pathways.add(a=place_of(2), b=place_of(3))
    give(plain, 0, card_of("bookcase_pathway"))
    open_window(plain, key=1)
    assert not any(a.HasField("play") for a in legal(plain, 0))


def test_a_pathway_replaces_a_padlock():
    """A Hidden Bookcase Pathway placed across a padlocked doorway replaces and removes the
    Padlock (Rulebook: Automa and Play as Holmes Event Card Clarifications: Hidden Bookcase
    Pathway)."""
    state = upstairs()
    add_room(state, LAB, 0, -1, level=1)
    add_room(state, 12, 1, -1)  # Holmes' Apartment east of the Laboratory, on the ground floor
    Castle(state).placed[LAB].padlocked.append(1)
    give(state, 0, card_of("bookcase_pathway"))
    open_window(state, key=1)
    play(state, 0, play=pb.PlayEvent(card=card_of("bookcase_pathway")))
    play(state, 0, place=pb.ChoosePlace(place=place_of(LAB)))  # to the Apartment: the only one
    assert not Castle(state).placed[LAB].padlocked
    assert place_of(12) in Castle(state).neighbours(place_of(LAB))
