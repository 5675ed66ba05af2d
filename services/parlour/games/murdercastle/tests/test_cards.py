"""Event Cards (Rulebook: Draw an Event Card; Event Cards: Overview, Clarifications, Effects;
Trapdoors and Trapdoor Landing Zones; Hidden Bookcase Pathways)."""

from __future__ import annotations

from parlour.games.murdercastle.board import Castle, place_of
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import total
from parlour.games.murdercastle.effects import landing_rooms
from parlour.games.murdercastle.tests.positions import (
    BLUE,
    GREEN,
    PHARMACY_PLACE,
    RED,
    WHITE,
    YELLOW,
    add_room,
    card_of,
    frame,
    game,
    give,
    legal,
    movement_card,
    open_window,
    play,
    set_board,
    set_gondola,
    stack_events,
    stack_holmes,
    start_tile,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

A, H, L, G = (pb.CHARACTER_ADELINE, pb.CHARACTER_HOYT, pb.CHARACTER_LOLA,
              pb.CHARACTER_JEREMIAH)
PASS = {"pass": pb.Pass()}


def plays(state: pb.State, seat: int) -> set[str]:
    return {catalogue().event(a.play.card).kind for a in legal(state, seat) if a.HasField("play")}


def test_drawing_is_clockwise_keep_cards_are_secret_play_now_resolves_at_once():
    """Draws go clockwise from the selector (2 for the selector); a Keep card is seen only by
    its drawer, a Play Now card is resolved at once (Rulebook: Draw an Event Card)."""
    state = game([A, H, L])
    keep, lucky = card_of("pickpocket"), card_of("lucky_break")
    stack_events(state, keep, lucky, card_of("snitch"), card_of("barter"))
    set_board(state, 0, [2, 2, 2, 2, 2])
    start_tile(state, 0, pb.ACTION_TILE_DRAW)
    assert frame(state).count == 2
    events = play(state, 0, draw=pb.Draw())
    assert [e.event.drawn.card for e in events if e.visible_to(1)] == [0]
    assert [e.event.drawn.card for e in events if e.visible_to(0)] == [keep]
    assert [e.event.drawn.card for e in events if e.visible_to(None)] == [0]
    play(state, 0, draw=pb.Draw())
    assert total(state.players[0].board) == 11  # Lucky Break collected a cube from the bag
    play(state, 1, draw=pb.Draw())
    play(state, 2, draw=pb.Draw())
    assert [len(p.keep) for p in state.players] == [1, 1, 1]


def test_a_fourth_keep_card_must_be_played_or_discarded():
    """With a 4th Keep card a player must play or discard one (Rulebook: Event Card
    Overview)."""
    state = game([A, H])
    give(state, 0, card_of("barter"), card_of("not_so_fast"), card_of("secret_passage"))
    add_room(state, 4, 0, -1)
    stack_events(state, card_of("disarm_trapdoor"))
    start_tile(state, 0, pb.ACTION_TILE_DRAW)
    play(state, 0, draw=pb.Draw())
    assert frame(state).kind == pb.FRAME_KIND_HAND_LIMIT
    kinds = {a.WhichOneof("kind") for a in legal(state, 0)}
    assert kinds == {"play", "discard"} and plays(state, 0) == {"secret_passage"}
    play(state, 0, discard=pb.Discard(card=card_of("barter")))
    assert len(state.players[0].keep) == 3 and state.event_discard[-1] == card_of("barter")


def test_lucky_break_in_the_pharmacy_with_no_space():
    """Lucky Break draws a cube; with no space on your board it may go into the Pharmacy
    (Rulebook: Event Card Clarifications: Lucky Break)."""
    state = game([A, H])
    set_board(state, 0, [5, 2, 2, 2, 2])  # 2 players: no Pillar, 5 blue is complete
    others = {c: state.bag.counts[c - 1] for c in (WHITE, GREEN, RED, YELLOW)}
    add_room(state, 29, 50, 50, cubes=others)  # far away: only blue cubes are left in the bag
    blue_in_bag = state.bag.counts[0]
    stack_events(state, card_of("lucky_break"))
    start_tile(state, 0, pb.ACTION_TILE_DRAW)
    play(state, 0, draw=pb.Draw())
    assert state.bag.counts[0] == blue_in_bag - 1
    assert list(Castle(state).safe(PHARMACY_PLACE).counts) == [1, 0, 0, 0, 0]


def test_destined_for_success_fills_your_room_from_the_unloading_gondola():
    """Destined for Success replenishes your room from the gondola at the unloading zone
    (Rulebook: Event Card Clarifications)."""
    state = game([A, H])
    add_room(state, 12, 0, -1, cubes={RED: 1})  # safe 4
    state.players[0].place = place_of(12)
    set_gondola(state, {BLUE: 2, GREEN: 3})
    stack_events(state, card_of("destined_for_success"))
    start_tile(state, 0, pb.ACTION_TILE_DRAW)
    play(state, 0, draw=pb.Draw())
    play(state, 0, cube=pb.ChooseCube(colour=BLUE))
    play(state, 0, cube=pb.ChooseCube(colour=GREEN))
    play(state, 0, cube=pb.ChooseCube(colour=GREEN))
    assert list(Castle(state).safe(place_of(12)).counts) == [1, 0, 2, 1, 0]


def test_holmes_is_alerted_moves_holmes_at_once():
    """Holmes is Alerted (Play Now) sends Holmes at once to a room its drawer chooses (not the
    Pharmacy, not his own room), with no movement card (Rulebook: Automa and Play as Holmes
    Event Card Clarifications: "Holmes will always move to your room", "Holmes chooses which
    room to move to")."""
    state = game([A, H])
    add_room(state, 4, 0, -1)
    revealed = state.holmes_revealed
    stack_events(state, card_of("holmes_alerted_now"))
    start_tile(state, 0, pb.ACTION_TILE_DRAW)
    play(state, 0, draw=pb.Draw())
    assert frame(state).kind == pb.FRAME_KIND_CHOOSE_PLACE
    rooms = {a.place.place for a in legal(state, 0)}
    assert rooms == {place_of(2), place_of(3), place_of(4)}
    play(state, 0, place=pb.ChoosePlace(place=place_of(4)))
    assert state.holmes == place_of(4) and state.holmes_revealed == revealed


def test_not_so_fast_or_player_dexterity_cancel_holmes_is_alerted_play_now():
    """Player Dexterity and Not So Fast "cancel other Play Now or Keep cards": a player in the
    room Holmes is Alerted (Play Now) sends him to may cancel it; Barter may not (it answers
    Keep cards only) (Rulebook: Event Card Clarifications)."""
    for defence, cancels in (("not_so_fast", True), ("player_dexterity", True),
                             ("barter", False)):
        state = game([A, H])
        add_room(state, 4, 0, -1)
        state.players[1].place = place_of(4)
        set_board(state, 1, [2, 0, 0, 0, 0])
        give(state, 1, card_of(defence))
        stack_events(state, card_of("holmes_alerted_now"))
        start_tile(state, 0, pb.ACTION_TILE_DRAW)
        play(state, 0, draw=pb.Draw())
        play(state, 0, place=pb.ChoosePlace(place=place_of(4)))
        assert frame(state).kind == pb.FRAME_KIND_DEFEND and frame(state).seat == 1
        options = {a.play.card for a in legal(state, 1) if a.HasField("play")}
        assert options == ({card_of(defence)} if cancels else set())
        if cancels:
            play(state, 1, play=pb.PlayEvent(card=card_of(defence)))
            assert state.holmes == place_of(1) and state.players[1].strikes == 0
        else:
            play(state, 1, **PASS)
            assert state.holmes == place_of(4) and state.players[1].strikes == 1


def test_snitch_answers_snitch():
    """A Snitch counters a Snitch ("Snitch and Snitch"): Holmes goes to the first snitch's room
    instead, and that player may answer in turn (Rulebook: Castle Junction Card Objectives:
    countering examples; Characters: Lola lists Snitch among cards that combat)."""
    state = game([A, H])
    add_room(state, 4, 0, -1)
    add_room(state, 9, 1, 0)
    state.players[0].place = place_of(9)
    state.players[1].place = place_of(4)
    set_board(state, 0, [2, 0, 0, 0, 0])
    set_board(state, 1, [2, 0, 0, 0, 0])
    give(state, 0, card_of("snitch"))
    give(state, 1, card_of("snitch", 1))
    state.players[0].ability_used = True  # Adeline would avoid the strike
    open_window(state, key=0)
    play(state, 0, play=pb.PlayEvent(card=card_of("snitch")))
    assert frame(state).kind == pb.FRAME_KIND_DEFEND and frame(state).seat == 1
    play(state, 1, play=pb.PlayEvent(card=card_of("snitch", 1)))
    assert state.holmes == place_of(9)
    assert state.players[0].strikes == 1 and state.players[1].strikes == 0


def test_liquid_courage_adds_rooms_to_a_move():
    """Liquid Courage with Move up to 2 Rooms moves 2 extra rooms, on top of the selection bonus
    (Rulebook: Event Card Clarifications: Liquid Courage)."""
    state = game([A, H])
    give(state, 0, card_of("liquid_courage"))
    add_room(state, 4, 0, -1)
    start_tile(state, 0, pb.ACTION_TILE_MOVE_TWO)
    assert "liquid_courage" in plays(state, 0)
    play(state, 0, play=pb.PlayEvent(card=card_of("liquid_courage")))
    assert frame(state).count == 5 and not plays(state, 0)


def test_cards_cannot_be_played_in_the_middle_of_an_action():
    """No Event Card in the middle of an action: only before starting it (Rulebook: Event Card
    Overview)."""
    state = game([A, H])
    give(state, 0, card_of("liquid_courage"))
    add_room(state, 4, 0, -1)
    add_room(state, 13, 0, -2)
    start_tile(state, 0, pb.ACTION_TILE_MOVE_TWO)
    play(state, 0, move=pb.Move(place=place_of(4)))
    assert not plays(state, 0)


def test_no_cards_are_played_during_the_event_draw():
    """No Event Card may be played until every player has drawn (Rulebook: Event Card
    Overview)."""
    state = game([A, H])
    give(state, 1, card_of("secret_passage"))
    add_room(state, 4, 0, -1)
    start_tile(state, 0, pb.ACTION_TILE_DRAW)
    play(state, 0, **PASS)
    assert frame(state).seat == 1 and not plays(state, 1)


def test_window_after_each_action_tile_phase():
    """Once the phase is over any player may play an Event Card; seats holding cards are asked
    in Skeleton Key order; defences cannot be played outside a defence (Rulebook: Event Card
    Overview; RULES.md: windows)."""
    state = game([A, H, L])
    give(state, 2, card_of("not_so_fast"), card_of("secret_passage"))
    give(state, 1, card_of("barter"))
    add_room(state, 4, 0, -1)
    open_window(state, key=0)
    assert list(frame(state).seats) == [1, 2]
    assert plays(state, 1) == set()
    play(state, 1, **PASS)
    assert plays(state, 2) == {"secret_passage"}
    play(state, 2, play=pb.PlayEvent(card=card_of("secret_passage")))
    moves = {a.move.place for a in legal(state, 2) if a.HasField("move")}
    assert moves == {place_of(4), place_of(1)} - {state.holmes}


def test_secret_passage_ignores_doorways():
    """Secret Passage moves up to 2 rooms into adjacent tiles regardless of doorways (RULES.md:
    Event Card effects; Rulebook: The Maze)."""
    state = game([A, H])
    add_room(state, 7, -1, 0)  # Black Closet west of the Pharmacy: its only door is south
    give(state, 0, card_of("secret_passage"))
    open_window(state, key=1)
    play(state, 0, play=pb.PlayEvent(card=card_of("secret_passage")))
    play(state, 0, move=pb.Move(place=place_of(7)))
    assert state.players[0].place == place_of(7)
    assert frame(state).kind == pb.FRAME_KIND_EVENT_MOVE and frame(state).count == 1


def test_hidden_bookcase_pathway_joins_two_rooms():
    """A Hidden Bookcase Pathway joins two adjacent rooms (not diagonally), usable by all
    (Rulebook: Hidden Bookcase Pathways)."""
    state = game([A, H])
    add_room(state, 7, -1, 0)
    give(state, 0, card_of("bookcase_pathway"))
    open_window(state, key=1)
    play(state, 0, play=pb.PlayEvent(card=card_of("bookcase_pathway")))
    first = {a.place.place for a in legal(state, 0)}
    assert place_of(7) in first and PHARMACY_PLACE in first
    play(state, 0, place=pb.ChoosePlace(place=place_of(7)))  # the Pharmacy is its only partner
    assert [(p.a, p.b) for p in state.pathways] == [(place_of(7), PHARMACY_PLACE)]
    assert place_of(7) in Castle(state).neighbours(PHARMACY_PLACE)


def test_trapdoor_drops_the_collector_to_the_landing_zone_and_goes_when_empty():
    """Whoever collects in a Trapdoor room falls to the Landing Zone; the Trapdoor goes once the
    room is empty (Rulebook: Trapdoors and Trapdoor Landing Zones)."""
    state = game([A, H])
    add_room(state, 4, 0, -1, cubes={RED: 1})
    add_room(state, 9, 1, 0)
    give(state, 0, card_of("trapdoor"))
    open_window(state, key=1)
    play(state, 0, play=pb.PlayEvent(card=card_of("trapdoor")))
    play(state, 0, place=pb.ChoosePlace(place=place_of(4)))
    play(state, 0, place=pb.ChoosePlace(place=place_of(9)))
    assert [(t.room, t.landing) for t in state.trapdoors] == [(place_of(4), place_of(9))]
    state.players[1].place = place_of(4)
    set_board(state, 1, [2, 2, 2, 2, 2])
    start_tile(state, 1, pb.ACTION_TILE_COLLECT)
    play(state, 1, collect=pb.Collect(colour=RED))
    assert state.players[1].place == place_of(9)
    assert not state.trapdoors


def test_player_dexterity_avoids_a_trapdoor():
    """Player Dexterity can be used to avoid any Trapdoor (Rulebook: Trapdoors: Note)."""
    state = game([A, H])
    add_room(state, 4, 0, -1, cubes={RED: 2})
    add_room(state, 9, 1, 0)
    state.trapdoors.add(room=place_of(4), landing=place_of(9))
    state.players[1].place = place_of(4)
    give(state, 1, card_of("player_dexterity"))
    set_board(state, 1, [2, 2, 2, 2, 2])
    start_tile(state, 1, pb.ACTION_TILE_COLLECT)
    play(state, 1, collect=pb.Collect(colour=RED))
    assert frame(state).kind == pb.FRAME_KIND_DEFEND
    play(state, 1, play=pb.PlayEvent(card=card_of("player_dexterity")))
    assert state.players[1].place == place_of(4) and len(state.trapdoors) == 1


def test_disarm_a_trapdoor():
    """Disarm a Trapdoor removes a Trapdoor and its Landing Zone (RULES.md: Event Card
    effects)."""
    state = game([A, H])
    add_room(state, 4, 0, -1, cubes={RED: 2})
    state.trapdoors.add(room=place_of(4), landing=place_of(2))
    give(state, 0, card_of("disarm_trapdoor"))
    open_window(state, key=1)
    play(state, 0, play=pb.PlayEvent(card=card_of("disarm_trapdoor")))
    assert not state.trapdoors


def test_peephole_takes_a_cube_from_an_adjacent_room_barter_defends():
    """Peephole works on an adjacent room (any tile around yours, regardless of doorways) with a
    player in it; that player may defend with Barter (Rulebook: Event Card Clarifications)."""
    state = game([A, H, L])
    add_room(state, 7, -1, 0, cubes={WHITE: 1, YELLOW: 1})  # no door towards the Pharmacy
    state.players[1].place = place_of(7)
    state.players[2].place = place_of(7)
    give(state, 0, card_of("peephole"), card_of("peephole", 1))
    give(state, 2, card_of("barter"))
    set_board(state, 0, [2, 2, 2, 2, 2])
    open_window(state, key=0)
    play(state, 0, play=pb.PlayEvent(card=card_of("peephole")))  # the only room: chosen
    assert frame(state).kind == pb.FRAME_KIND_DEFEND and frame(state).seat == 2  # Hoyt: no card
    play(state, 2, **PASS)
    play(state, 0, cube=pb.ChooseCube(colour=YELLOW))
    assert list(state.players[0].board.counts) == [2, 2, 2, 2, 3]
    play(state, 0, play=pb.PlayEvent(card=card_of("peephole", 1)))
    assert frame(state).kind == pb.FRAME_KIND_DEFEND and frame(state).seat == 2
    play(state, 2, play=pb.PlayEvent(card=card_of("barter")))
    assert total(Castle(state).safe(place_of(7))) == 1


def test_pickpocket_and_not_so_fast():
    """Pickpocket takes a cube from a player in your room unless they play Not So Fast; a
    defence cannot be countered (RULES.md: Event Card effects; Rulebook: Event Card
    Clarifications)."""
    state = game([A, H])
    give(state, 0, card_of("pickpocket"), card_of("pickpocket", 1), card_of("not_so_fast"))
    give(state, 1, card_of("not_so_fast", 1))
    set_board(state, 0, [2, 2, 2, 2, 2])
    set_board(state, 1, [4, 0, 0, 0, 0])
    open_window(state, key=0)
    play(state, 0, play=pb.PlayEvent(card=card_of("pickpocket")))
    play(state, 1, play=pb.PlayEvent(card=card_of("not_so_fast", 1)))
    assert frame(state).kind == pb.FRAME_KIND_EVENT_WINDOW and frame(state).seats[0] == 0
    assert "not_so_fast" not in plays(state, 0)
    play(state, 0, play=pb.PlayEvent(card=card_of("pickpocket", 1)))
    assert list(state.players[0].board.counts) == [3, 2, 2, 2, 2]
    assert list(state.players[1].board.counts) == [3, 0, 0, 0, 0]


def test_snitch_sends_holmes_to_a_player():
    """Snitch moves Holmes into another player's room, where he strikes (RULES.md: Event Card
    effects)."""
    state = game([A, H])
    add_room(state, 4, 0, -1)
    state.players[1].place = place_of(4)
    set_board(state, 1, [4, 0, 0, 0, 0])
    give(state, 0, card_of("snitch"))
    open_window(state, key=1)
    play(state, 0, play=pb.PlayEvent(card=card_of("snitch")))
    assert state.holmes == place_of(4) and state.players[1].strikes == 1


def test_ambush_each_target_drops_a_cube_unless_they_defend():
    """Ambush: every other player in your room drops a cube into its safe; Player Dexterity
    prevents it for its player (RULES.md: Event Card effects)."""
    state = game([A, H, L])
    add_room(state, 4, 0, -1)
    for seat in range(3):
        state.players[seat].place = place_of(4)
    set_board(state, 1, [4, 0, 0, 0, 0])
    set_board(state, 2, [0, 4, 0, 0, 0])
    give(state, 0, card_of("ambush"))
    give(state, 1, card_of("player_dexterity"))
    open_window(state, key=0)
    play(state, 0, play=pb.PlayEvent(card=card_of("ambush")))
    assert frame(state).kind == pb.FRAME_KIND_DEFEND and frame(state).seat == 1
    play(state, 1, play=pb.PlayEvent(card=card_of("player_dexterity")))
    # Lola holds no card but could mimic the Player Dexterity just played: she is asked
    assert frame(state).kind == pb.FRAME_KIND_DEFEND and frame(state).seat == 2
    play(state, 2, **PASS)
    assert list(Castle(state).safe(place_of(4)).counts) == [0, 1, 0, 0, 0]
    assert total(state.players[1].board) == 4


def test_no_keep_cards_in_the_asphyxiation_chamber():
    """In the Asphyxiation Chamber you cannot play Keep cards, not even to defend, and a 4th
    Keep card must be discarded (Rulebook: Special Room Effects: The Asphyxiation Chamber)."""
    state = game([A, H])
    add_room(state, 19, 0, -1, rotation=2)
    state.players[0].place = place_of(19)
    state.players[0].ability_used = True
    give(state, 1, card_of("snitch"))
    give(state, 0, card_of("not_so_fast"), card_of("secret_passage"), card_of("barter"))
    set_board(state, 0, [4, 0, 0, 0, 0])
    open_window(state, key=0)
    assert list(frame(state).seats) == [0, 1] and plays(state, 0) == set()
    play(state, 0, **PASS)
    play(state, 1, play=pb.PlayEvent(card=card_of("snitch")))
    assert frame(state).kind == pb.FRAME_KIND_EVENT_WINDOW  # Holmes entered: nothing playable
    assert [a.WhichOneof("kind") for a in legal(state, 0)] == ["pass"]
    play(state, 0, **PASS)
    assert state.players[0].strikes == 1  # no defence was possible
    stack_events(state, card_of("snitch"))
    start_tile(state, 0, pb.ACTION_TILE_DRAW)
    play(state, 0, draw=pb.Draw())
    assert {a.WhichOneof("kind") for a in legal(state, 0)} == {"discard"}


def test_holmes_is_alerted_keep_card_in_a_window():
    """Holmes is Alerted (Keep) is played later to reveal a movement card and move Holmes
    (RULES.md: Event Card effects)."""
    state = game([A, H])
    add_room(state, 4, 0, -1)
    give(state, 0, card_of("holmes_alerted_keep"))
    stack_holmes(state, movement_card((4, 13)))
    open_window(state, key=1)
    play(state, 0, play=pb.PlayEvent(card=card_of("holmes_alerted_keep")))
    assert state.holmes == place_of(4)


def test_a_maze_landing_zone_needs_a_room_beside_its_side():
    """A Landing Zone goes on a side of The Maze only if a room is built beside that side
    (Rulebook: The Maze)."""
    state = game([A, H])
    add_room(state, 5, 0, -1, cubes={RED: 1})  # its south-east side touches the Pharmacy
    add_room(state, 4, 5, 5, cubes={RED: 1})
    landings = landing_rooms(state, place_of(4, 0))
    assert place_of(5, 1) in landings and place_of(5, 0) not in landings


def test_liquid_courage_on_a_trapdoor_collects_two_cubes_before_the_fall():
    """Liquid Courage when collecting on a Trapdoor collects 2 pieces of evidence instead of 1
    (Rulebook: Event Card Clarifications: Liquid Courage)."""
    state = game([A, H, L])
    add_room(state, 4, 0, -1, cubes={RED: 1, GREEN: 2})
    add_room(state, 9, 1, 0)
    state.trapdoors.add(room=place_of(4), landing=place_of(9))
    state.players[1].place = place_of(4)
    set_board(state, 1, [2, 2, 2, 2, 2])
    give(state, 1, card_of("liquid_courage"))
    start_tile(state, 0, pb.ACTION_TILE_COLLECT)  # Adeline has nothing to collect
    play(state, 1, play=pb.PlayEvent(card=card_of("liquid_courage")))
    play(state, 1, collect=pb.Collect(colour=RED))
    assert state.players[1].place == place_of(4)
    play(state, 1, collect=pb.Collect(colour=GREEN))
    assert state.players[1].place == place_of(9)
    assert list(state.players[1].board.counts) == [2, 2, 3, 3, 2]
    without = game([A, H, L])
    add_room(without, 4, 0, -1, cubes={RED: 1, GREEN: 2})
    add_room(without, 9, 1, 0)
    without.trapdoors.add(room=place_of(4), landing=place_of(9))
    without.players[0].place = place_of(4)
    set_board(without, 0, [2, 2, 2, 2, 2])
    start_tile(without, 0, pb.ACTION_TILE_COLLECT)  # the bonus would allow 2
    play(without, 0, collect=pb.Collect(colour=RED))
    assert without.players[0].place == place_of(9) and total(without.players[0].board) == 11


def test_no_effect_cards_and_defences_cannot_be_countered():
    """No Effect cards cannot be countered, and a defence cannot counter a defence: nobody is
    asked to defend against them (Rulebook: Event Card Effects; Clarifications)."""
    state = game([A, H, L])
    add_room(state, 4, 0, -1)
    give(state, 0, card_of("secret_passage"))
    give(state, 1, card_of("not_so_fast"), card_of("barter"))
    give(state, 2, card_of("pickpocket"), card_of("not_so_fast", 1))
    set_board(state, 1, [2, 2, 2, 2, 2])
    set_board(state, 2, [2, 2, 2, 2, 2])
    open_window(state, key=0)
    play(state, 0, play=pb.PlayEvent(card=card_of("secret_passage")))
    assert frame(state).kind == pb.FRAME_KIND_EVENT_MOVE  # Hoyt holds defences: not asked
    play(state, 0, **PASS)
    play(state, 1, **PASS)
    play(state, 2, play=pb.PlayEvent(card=card_of("pickpocket")))
    play(state, 2, target=pb.ChooseSeat(seat=1))
    assert frame(state).kind == pb.FRAME_KIND_DEFEND and frame(state).seat == 1
    play(state, 1, play=pb.PlayEvent(card=card_of("not_so_fast")))
    # Lola holds a Not So Fast too, but nobody may answer a defence
    assert frame(state).kind == pb.FRAME_KIND_EVENT_WINDOW and frame(state).seats[0] == 2
    assert list(state.players[1].board.counts) == [2, 2, 2, 2, 2]


def test_a_third_keep_card_is_kept_only_a_fourth_forces_a_choice():
    """"You can only keep a maximum of 3 Keep cards": a third is simply kept, a fourth must be
    played or discarded (Rulebook: Event Card Overview)."""
    state = game([A, H])
    give(state, 0, card_of("barter"), card_of("not_so_fast"))
    stack_events(state, card_of("player_dexterity"))
    start_tile(state, 1, pb.ACTION_TILE_DRAW)
    play(state, 1, **PASS)
    play(state, 0, draw=pb.Draw())
    assert len(state.players[0].keep) == 3
    assert all(f.kind != pb.FRAME_KIND_HAND_LIMIT for f in state.frames)


def test_a_card_may_be_played_right_after_your_own_movement():
    """"You can move into 1 room to complete your movement and then play an Event Card": once
    your movement is done you may play before the next player acts (Rulebook: Event Card
    Overview)."""
    state = game([A, H, L])
    add_room(state, 4, 0, -1)
    add_room(state, 9, 1, 0)
    state.players[2].place = place_of(9)
    set_board(state, 2, [2, 0, 0, 0, 0])
    give(state, 0, card_of("pickpocket"))
    start_tile(state, 2, pb.ACTION_TILE_MOVE_ONE)
    play(state, 2, **PASS)
    play(state, 0, move=pb.Move(place=place_of(9)))
    assert frame(state).kind == pb.FRAME_KIND_EVENT_WINDOW and list(frame(state).seats) == [0]
    assert plays(state, 0) == {"pickpocket"}
    before = total(state.players[0].board)
    play(state, 0, play=pb.PlayEvent(card=card_of("pickpocket")))
    assert total(state.players[0].board) == before + 1 and total(state.players[2].board) == 1
    assert frame(state).kind == pb.FRAME_KIND_ACT and frame(state).seat == 1  # hand empty


def test_secret_passage_answers_holmes_entering_your_room():
    """In the multiplayer game Event Cards may be played when Holmes moves into your room (only
    Automa forbids it, and only there do Secret Passage and Holmes is Alerted (Keep) not help
    you escape): a Secret Passage out of the room avoids the strike (Rulebook: Automa Gameplay;
    Automa Event Card Clarifications)."""
    state = game([A, H])
    add_room(state, 4, 0, -1)
    state.players[1].place = place_of(4)
    set_board(state, 1, [2, 0, 0, 0, 0])
    give(state, 1, card_of("secret_passage"))
    give(state, 0, card_of("snitch"))
    open_window(state, key=0)
    play(state, 0, play=pb.PlayEvent(card=card_of("snitch")))
    play(state, 1, **PASS)  # no defence against the Snitch …
    assert frame(state).kind == pb.FRAME_KIND_EVENT_WINDOW and list(frame(state).seats) == [1]
    assert state.holmes == place_of(4) and state.players[1].strikes == 0
    play(state, 1, play=pb.PlayEvent(card=card_of("secret_passage")))  # … but a way out
    play(state, 1, move=pb.Move(place=PHARMACY_PLACE))
    play(state, 1, **PASS)
    assert state.players[1].place == PHARMACY_PLACE and state.players[1].strikes == 0


def test_holmes_is_alerted_keep_sends_holmes_away_from_your_room():
    """Holmes is Alerted (Keep), played as Holmes enters your room, moves him on before he
    strikes (Rulebook: Automa Event Card Clarifications, the multiplayer counterpart)."""
    state = game([A, H])
    add_room(state, 4, 0, -1)
    state.players[1].place = place_of(4)
    set_board(state, 1, [2, 0, 0, 0, 0])
    give(state, 1, card_of("holmes_alerted_keep"))
    give(state, 0, card_of("snitch"))
    stack_holmes(state, movement_card((2,)))
    open_window(state, key=0)
    play(state, 0, play=pb.PlayEvent(card=card_of("snitch")))
    play(state, 1, **PASS)
    play(state, 1, play=pb.PlayEvent(card=card_of("holmes_alerted_keep")))
    assert state.holmes == place_of(2) and state.players[1].strikes == 0


def test_a_landing_zone_may_go_in_the_pharmacy():
    """The Landing Zone goes "in any other room", the Pharmacy included (Rulebook: Trapdoors and
    Trapdoor Landing Zones)."""
    state = game([A, H])
    add_room(state, 4, 0, -1, cubes={RED: 1})
    assert PHARMACY_PLACE in landing_rooms(state, place_of(4))
    assert place_of(4) not in landing_rooms(state, place_of(4))
