"""Setup and the catalogue (Rulebook: Components; Standard Multiplayer Game: Setup)."""

from __future__ import annotations

import pytest

from parlour.engine.game import InvalidOptions
from parlour.games.murdercastle.board import PHARMACY, place_of
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import needed, total
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.modes import second_story
from parlour.games.murdercastle.tests.positions import game
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb


def test_catalogue_matches_the_components_page():
    """79 Event, 24 Evidence Setup, 33 Holmes' Movement cards, 24 room tiles, 3 Brick Walls,
    7 Action Tiles, 180 cubes (Rulebook: Components)."""
    cat = catalogue()
    standard = pb.Options()
    assert len(cat.events) == 79
    assert len(cat.setup_cards) == 24
    assert len(second_story.movement(standard)) == 33
    tiles = second_story.tiles(standard)
    assert len(tiles & set(cat.rooms)) == 24
    assert len(tiles - set(cat.rooms)) == 3
    assert len(cat.rules["action_tiles"]) == 7
    assert cat.rules["cubes_per_colour"] * len(cat.rules["colours"]) == 180
    assert all(sum(card) == 13 for card in cat.setup_cards)
    specials = [c.special for c in cat.movement.values()]
    assert specials.count("lights_out") == 1 and specials.count("rampage") >= 1
    rules = cat.rules
    assert len(rules["characters"]) == 7  # 6 with abilities (6 ability tokens) + the Guest
    assert sum(1 for c in rules["characters"] if c["ability"]) == 6
    assert len(rules["strike_progression"]) * 6 == 30  # 30 strike cubes, 6 boards
    assert rules["gondolas"] == 5 and rules["gondola_size"] == 5
    assert rules["pathway_tokens"] == 2 and rules["trapdoor_tokens"] == 2
    assert rules["keep_limit"] == 3 and rules["needed_with_pillar"] == 4
    assert rules["setup_cubes"] == 13 and len(rules["colours"]) == 5
    assert max(len(r.doors) for r in cat.rooms.values()) - 1 <= 3  # 3 Padlocks are enough


def test_the_second_story_components_are_in_the_catalogue():
    """The 2nd Story adds 5 rooms (#21-#25), 1 Brick Wall, 9 Holmes' Movement cards, 12
    Padlocks, 12 2nd Story tokens, 17 potion tokens and a Hidden Bookcase Pathway (Rulebook:
    Components: "The 2nd Story expansion also includes")."""
    cat = catalogue()
    full = pb.Options(second_story=True)
    assert second_story.tiles(full) - second_story.tiles(pb.Options()) == {21, 22, 23, 24, 25, 93}
    assert len(second_story.movement(full)) == 33 + 9
    rooms = {cat.rooms[n].special for n in (21, 22, 23, 24, 25)}
    assert rooms == {"secret_room", "laboratory", "waiting_room", "dumbwaiter", "five_door"}
    assert all(cat.rooms[n].stairs >= 0 for n in (21, 22, 23, 25)) and cat.rooms[24].stairs < 0
    assert len(cat.rooms[24].doors) == 4 and len(cat.rooms[25].doors) == 4  # "a total of 4"
    extra = cat.rules["second_story"]
    assert (extra["padlocks"], extra["tokens"], extra["pathways"]) == (12, 12, 1)
    assert extra["shelf_potions"] + extra["board_potions"] == 17
    assert len(second_story.SHELF) == extra["shelf_potions"]


def test_special_rooms_are_in_the_catalogue():
    """The Maze #5 (two rooms), Black Closet #7, Blind Room #13, Asphyxiation Chamber #19,
    Whitechapel Suite #27, Pharmacy #26 with the stairway to Basement #1 (Rulebook: Special Room
    Effects; Setup: The Room Tiles)."""
    rooms = catalogue().rooms
    assert len(rooms[5].halves) == 2 and rooms[5].special == "maze"
    assert {rooms[n].special for n in (7, 13, 19, 27)} == {
        "black_closet", "blind_room", "asphyxiation", "whitechapel"}
    assert rooms[26].stairs_to == 1 and rooms[1].stairs_to == 26
    assert len(rooms[26].doors) == 3
    assert rooms[3].dead_end_side >= 0


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 7])
def test_setup(seats):
    """Start tiles placed, characters in the Pharmacy, Holmes in Basement #1, one cube in each
    basement, five gondolas of five, 13 cubes per board, 6 or 7 Action Tiles (Rulebook: Setup)."""
    state = GAME.new_state(GAME.default_options(seats), seats, seed=3)
    assert [t.tile for t in state.tiles] == [26, 1, 2, 3]
    assert state.holmes == place_of(1)
    assert all(p.place == place_of(PHARMACY) for p in state.players)
    assert [total(t.safes[0]) for t in state.tiles] == [0, 1, 1, 1]
    assert [total(g) for g in state.gondolas] == [5] * 5
    assert all(total(p.board) == 13 for p in state.players)
    assert len(state.tiles_open) == (7 if seats >= 6 else 6)
    assert len({p.character for p in state.players}) == seats
    walls = [t for t in state.room_pile if catalogue().is_brick_wall(t)]
    assert len(walls) == 2 and len(state.room_pile) == 22
    assert needed(state) == (5 if seats == 2 else 4)
    assert state.frames[-1].kind == pb.FRAME_KIND_SELECT_TILE


def test_jonah_keeps_the_third_brick_wall():
    """The third Brick Wall goes to Jonah, or back into the box (Rulebook: Setup)."""
    with_jonah = game([pb.CHARACTER_JONAH, pb.CHARACTER_LOLA])
    without = game([pb.CHARACTER_ADELINE, pb.CHARACTER_LOLA])
    assert with_jonah.players[0].holds_brick_wall and with_jonah.boxed_brick_walls == 0
    assert without.boxed_brick_walls == 1


def test_extended_version_drops_the_pillar():
    """Without the Pillar 5 cubes of each type are needed (Rulebook: Setup: The Characters)."""
    assert needed(game([1, 2, 3], extended=True)) == 5
    assert needed(game([1, 2, 3])) == 4


def test_bad_options_are_refused():
    """Seat counts outside 2-7 and repeated characters are refused (Rulebook: Setup)."""
    with pytest.raises(InvalidOptions):
        GAME.new_state(pb.Options(), 1, 0)
    with pytest.raises(InvalidOptions):
        GAME.new_state(pb.Options(characters=[1, 1]), 2, 0)
    with pytest.raises(InvalidOptions):
        GAME.new_state(pb.Options(first_seat=5), 3, 0)
