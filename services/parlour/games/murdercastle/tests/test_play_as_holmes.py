"""Play as Holmes: one seat plays Holmes against everyone else (Rulebook: Play as Holmes:
Introduction, Setup, Play as Holmes Winning, Play as Holmes Gameplay, Play as Holmes Event Card
Clarifications, Other Clarifications; issue 15)."""

from __future__ import annotations

import pytest

from parlour.engine.game import InvalidOptions
from parlour.engine.rng import Rng
from parlour.games.murdercastle import flow, holmes
from parlour.games.murdercastle.board import place_of
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.modes import automa, holmes_cards, play_as_holmes
from parlour.games.murdercastle.setup import new_state
from parlour.games.murdercastle.stack import key_order
from parlour.games.murdercastle.tests.positions import (
    PHARMACY_PLACE,
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
    take_from_bag,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

U, A, B, L, H, J, W = (pb.CHARACTER_UNSPECIFIED, pb.CHARACTER_ADELINE, pb.CHARACTER_ABRAHAM,
                       pb.CHARACTER_LOLA, pb.CHARACTER_HOYT, pb.CHARACTER_JEREMIAH,
                       pb.CHARACTER_JONAH)
PASS = {"pass": pb.Pass()}
ATRIUM, WHITECHAPEL, BACK_ROOM, ALE_PUB, STEEL_VAULT = 6, 27, 4, 9, 10
NOBODY_HOME = [0, 0, 0, 0, 0]
TILES = (pb.ACTION_TILE_MOVE_ONE, pb.ACTION_TILE_MOVE_TWO, pb.ACTION_TILE_COLLECT)


def holmes_game(characters: list[int], holmes_at: int = 0, seed: int = 1) -> pb.State:
    """A settled Play as Holmes game; the Holmes seat's entry in `characters` is U."""
    options = pb.Options(characters=characters,
                         play_as_holmes=pb.PlayAsHolmes(seat=holmes_at))
    state = new_state(options, len(characters), seed)
    flow.settle(state, [])
    first = GAME.legal_actions(state, holmes_at)[0]  # his Ability Card (holmes_abilities.py)
    GAME.apply(state, holmes_at, first)
    return state


def test_setup_of_the_holmes_seat_and_his_components():
    """4 to 7 seats, one of them Holmes: no character, no room, no Evidence Board; all 2nd Story
    components; a Fake Evidence cube as the Holmes Tracker, all other Fake Evidence in the Fake
    Evidence Bag; every Evidence Destruction card; Add a Deathtrap and Seal All Hidden Bookcase
    Pathways in the unlocked supply (Rulebook: Play as Holmes: Introduction; Holmes' Control
    Panel; Evidence; The Holmes' Action Cards / Automa Deck (Play as Holmes Setup))."""
    assert GAME.seat_range(pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=2))) == (4, 7)
    for seats in range(4, 8):
        state = GAME.new_state(pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=seats - 1)),
                               seats, seats)
        GAME.check_conservation(state)
        me = state.players[seats - 1]
        assert me.character == U and me.place == 0 and sum(me.board.counts) == 0
        assert all(p.character and p.place == PHARMACY_PLACE for p in state.players[:-1])
        assert len({p.character for p in state.players}) == seats
        assert pb.CHARACTER_GUEST not in [p.character for p in state.players]
        assert {21, 22, 23, 24, 25} <= set(state.room_pile) and len(state.shelf) == 5
        assert state.fake_supply == 142 and state.bag.fake == 0 and state.holmes_tracker == 0
        cards = [automa.data().destruction[c] for c in state.destruction_deck]
        assert len(cards) == 15 and sum(len(c) == 5 for c in cards) == 5
        supply = sorted(automa.data().cards[c].kind for c in state.holmes_supply)
        assert supply == ["add_deathtrap", "seal_pathways"]
        assert not state.automa_deck and not state.panel and not state.tile_cards
        # "Holmes is not considered a 'player'": 7 Action Tiles only with 6 investigators
        assert len(state.tiles_open) == (7 if seats == 7 else 6)
        assert state.key != seats - 1 and frame(state).seat == seats - 1  # his Ability Card


def test_bad_play_as_holmes_options_are_refused():
    """Fewer than 4 or more than 7 seats, a Holmes seat outside the match, Automa, or a
    character for the Holmes seat are refused (Rulebook: Play as Holmes: Introduction)."""
    holmes_at = pb.PlayAsHolmes(seat=0)
    for options, seats in (
        (pb.Options(play_as_holmes=holmes_at), 3),
        (pb.Options(play_as_holmes=holmes_at), 8),
        (pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=4)), 4),
        (pb.Options(play_as_holmes=holmes_at, automa=pb.AUTOMA_LEVEL_BEGINNER), 4),
        (pb.Options(play_as_holmes=holmes_at, characters=[A, B, L, H]), 4),
        (pb.Options(play_as_holmes=holmes_at, characters=[U, B, B, H]), 4),
    ):
        with pytest.raises(InvalidOptions):
            new_state(options, seats, 1)


def test_holmes_never_begins_nor_holds_the_skeleton_key():
    """"Holmes is not considered a 'player' and will never begin the game nor receive the
    Skeleton Key": the key starts with the next seat and passes over the Holmes seat; he never
    selects an Action Tile nor performs one (Rulebook: Play as Holmes Gameplay)."""
    state = holmes_game([U, A, B, L])
    assert state.key == 1 and key_order(state) == [1, 2, 3]
    selectors, actors = [], []
    while not state.round:  # a round where everyone passes
        top = frame(state)
        seat = flow.pending_seats(state)[0]
        if top.kind == pb.FRAME_KIND_SELECT_TILE:
            selectors.append(seat)
            play(state, seat, select=pb.SelectTile(tile=TILES[len(selectors) - 1]))
            continue
        if top.kind == pb.FRAME_KIND_ACT:
            actors.append(seat)
        options = legal(state, seat)
        play(state, seat, **PASS) if pb.Action(**PASS) in options else GAME.apply(
            state, seat, options[0])
    assert selectors == [1, 2, 3] and 0 not in actors
    assert state.key == 2
    state = holmes_game([A, B, L, U, H], holmes_at=3)
    state.key = 2
    end_round(state)
    play(state, 3, panel=pb.PlaceCube(slot=slots("1a")[0]))
    play(state, 3, **PASS)
    assert state.key == 4  # seat 3 plays Holmes: the key skips him


def test_the_atrium_example_moves_the_tracker_to_4():
    """"If there are 4 people in The Atrium and Holmes enters The Atrium, all players would take
    a Holmes Strikes! and Holmes would move the Holmes Tracker cube to the number 4" (Rulebook:
    Play as Holmes Winning: Example)."""
    state = holmes_game([U, A, B, L, H])
    add_room(state, ATRIUM, 0, -1)
    for seat in range(1, 5):
        state.players[seat].place = place_of(ATRIUM)
        state.players[seat].ability_used = True  # Adeline does not partner with Holmes
        set_board(state, seat, NOBODY_HOME)
    stack_holmes(state, movement_card((ATRIUM,)))
    start_tile(state, 1, pb.ACTION_TILE_MOVE_HOLMES)
    events = play(state, 1, reveal=pb.RevealHolmes())
    if frame(state).kind == pb.FRAME_KIND_ESCAPE:  # the selector's bonus: he stays
        events += play(state, 1, **PASS)
    assert state.holmes_tracker == 4
    assert [p.strikes for p in state.players] == [0, 1, 1, 1, 1]
    moved = [e.event.tracker.tracker for e in events if e.event.HasField("tracker")]
    assert moved == [1, 2, 3, 4]
    assert GAME.view(state, 2).holmes_tracker == 4


def test_a_tonic_blocked_strike_does_not_move_the_tracker_a_poison_strike_does():
    """A Tonic token: no strike and no Tracker step; a Poison token: a strike, one more cube,
    and a Tracker step (Rulebook: Other Clarifications)."""
    state = holmes_game([U, A, B, L])
    state.players[1].tonic = True
    state.players[2].poison = True
    set_board(state, 2, [1, 1, 0, 0, 0])
    out: list = []
    holmes.strike(state, 1, out)
    assert state.holmes_tracker == 0 and state.players[1].strikes == 0
    holmes.strike(state, 2, out)
    assert state.holmes_tracker == 1 and state.players[2].strikes == 1
    assert frame(state).kind == pb.FRAME_KIND_DROP_EVIDENCE and frame(state).count == 2


def test_holmes_wins_when_the_tracker_reaches_10():
    """"Holmes wins if the Holmes Tracker is moved to 10 … before any player reaches the
    Pharmacy with all of their collected evidence": the outcome names the Holmes seat, whose
    score is the Tracker on the scale of a complete board (Rulebook: Play as Holmes
    Winning)."""
    state = holmes_game([A, U, B, L], holmes_at=1)
    state.holmes_tracker = 9
    add_room(state, ATRIUM, 0, -1)
    state.players[2].place = place_of(ATRIUM)
    state.players[2].ability_used = True
    set_board(state, 2, NOBODY_HOME)
    stack_holmes(state, movement_card((ATRIUM,)))
    start_tile(state, 0, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 0, reveal=pb.RevealHolmes())
    assert state.finished and state.holmes_won and state.winner == 2
    outcome = GAME.outcome(state)
    assert outcome.winners == (1,) and outcome.scores[1] == 20  # 10 on a board's scale
    assert "Holmes Tracker" in outcome.summary


def test_an_investigator_escaping_wins_as_usual():
    """"The first player to collect all of their evidence and move back to the Pharmacy wins"
    (Rulebook: Play as Holmes Winning)."""
    state = holmes_game([U, A, B, L])
    state.holmes_tracker = 9
    set_board(state, 3, [4, 4, 4, 4, 4])
    start_tile(state, 1, pb.ACTION_TILE_DRAW)
    assert state.finished and state.winner == 4 and not state.holmes_won
    assert GAME.outcome(state).winners == (3,)


def test_holmes_chooses_the_room_of_every_movement_card():
    """"The player playing as Holmes chooses Holmes' movement instead of the player with the
    Skeleton Key when Holmes' Movement Cards are revealed. Additionally, Holmes chooses where to
    move when the Move Holmes Action Tile is selected": the selector reveals the card, Holmes
    picks the room, and the selector keeps the escape bonus (Rulebook: Play as Holmes
    Gameplay)."""
    state = holmes_game([U, A, B, L])
    add_room(state, ATRIUM, 0, -1)
    add_room(state, WHITECHAPEL, 1, -1, rotation=3)
    state.players[1].ability_used = True
    state.players[1].place = place_of(ATRIUM)
    set_board(state, 1, NOBODY_HOME)
    stack_holmes(state, movement_card((ATRIUM, WHITECHAPEL)))
    start_tile(state, 1, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 1, reveal=pb.RevealHolmes())
    assert frame(state).kind == pb.FRAME_KIND_HOLMES_ROOM and flow.pending_seats(state) == [0]
    assert not legal(state, 1)
    play(state, 0, place=pb.ChoosePlace(place=place_of(ATRIUM)))
    assert frame(state).kind == pb.FRAME_KIND_ESCAPE and frame(state).seat == 1
    play(state, 1, move=pb.Move(place=PHARMACY_PLACE))
    assert state.players[1].strikes == 0 and state.holmes_tracker == 0
    # the end-of-round card too: the key holder reveals it, Holmes chooses
    del state.frames[:]
    state.selections = 3
    state.current = pb.ACTION_TILE_UNSPECIFIED
    del state.to_act[:]
    stack_holmes(state, movement_card((ATRIUM, WHITECHAPEL)))
    flow.settle(state, [])
    assert frame(state).kind == pb.FRAME_KIND_HOLMES_ROOM and flow.pending_seats(state) == [0]


def test_holmes_is_alerted_play_now_lets_holmes_choose_the_room():
    """Holmes is Alerted (Play Now): "Holmes chooses which room to move to", the drawer's room
    too (Rulebook: Play as Holmes Event Card Clarifications)."""
    state = holmes_game([U, A, B, L])
    add_room(state, ATRIUM, 0, -1)
    state.players[2].place = place_of(ATRIUM)
    set_board(state, 2, NOBODY_HOME)
    stack_events(state, card_of("holmes_alerted_now"))
    start_tile(state, 2, pb.ACTION_TILE_DRAW)
    play(state, 2, draw=pb.Draw())
    assert frame(state).kind == pb.FRAME_KIND_CHOOSE_PLACE and flow.pending_seats(state) == [0]
    assert pb.Action(place=pb.ChoosePlace(place=place_of(ATRIUM))) in legal(state, 0)
    play(state, 0, place=pb.ChoosePlace(place=place_of(ATRIUM)))
    assert state.holmes == place_of(ATRIUM) and state.players[2].strikes == 1
    assert state.holmes_tracker == 1


def test_holmes_is_alerted_keep_moves_holmes_but_never_evades_him():
    """Holmes is Alerted (Keep) "does not help you avoid a Holmes Strike! if Holmes enters your
    room, but allows players to move Holmes": the player who plays it chooses among the card's
    rooms, and it is not offered in the window when Holmes enters your room (Rulebook: Play as
    Holmes Event Card Clarifications)."""
    state = holmes_game([U, A, B, L])
    add_room(state, ATRIUM, 0, -1)
    add_room(state, WHITECHAPEL, 1, -1, rotation=3)
    keep = card_of("holmes_alerted_keep")
    give(state, 1, keep)
    state.players[1].ability_used = True
    state.players[1].place = place_of(ATRIUM)
    set_board(state, 1, NOBODY_HOME)
    stack_holmes(state, movement_card((ATRIUM,)))
    start_tile(state, 2, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 2, reveal=pb.RevealHolmes())
    assert frame(state).kind == pb.FRAME_KIND_EVENT_WINDOW and frame(state).place
    assert legal(state, 1) == [pb.Action(**PASS)]
    play(state, 1, **PASS)
    assert state.players[1].strikes == 1
    state.holmes = place_of(1)
    stack_holmes(state, movement_card((ATRIUM, WHITECHAPEL)))
    del state.frames[:]
    state.frames.add(kind=pb.FRAME_KIND_EVENT_WINDOW, seat=1, seats=[1])
    play(state, 1, play=pb.PlayEvent(card=keep))
    assert frame(state).kind == pb.FRAME_KIND_HOLMES_ROOM and flow.pending_seats(state) == [1]


def test_holmes_hides_in_the_whitechapel_suite_at_the_same_time_as_the_players():
    """"All players and Holmes will reveal their selection at the same time": the Holmes seat
    chooses his spot while the hiders choose theirs (several seats pending at once), and nobody
    sees another's spot before the reveal (Rulebook: Special Room Effects: The Whitechapel
    Suite; Play as Holmes)."""
    state = holmes_game([U, A, B, L])
    add_room(state, WHITECHAPEL, 0, -1, rotation=2)
    for seat in (1, 2):
        state.players[seat].place = place_of(WHITECHAPEL)
        state.players[seat].ability_used = True
        set_board(state, seat, NOBODY_HOME)
    stack_holmes(state, movement_card((WHITECHAPEL,)))
    start_tile(state, 3, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 3, reveal=pb.RevealHolmes())
    assert sorted(d.seat for d in GAME.pending(state)) == [0, 1, 2]
    events = play(state, 0, hide=pb.Hide(spot=pb.HIDING_SPOT_BED))
    assert all(not e.visible_to(1) or not e.event.hid.spot for e in events)
    assert GAME.view(state, 1).players[0].has_hidden
    assert sorted(d.seat for d in GAME.pending(state)) == [1, 2]
    play(state, 1, hide=pb.Hide(spot=pb.HIDING_SPOT_BED))
    events = play(state, 2, hide=pb.Hide(spot=pb.HIDING_SPOT_BATHROOM))
    revealed = [e.event.hiding for e in events if e.event.HasField("hiding")][0]
    assert revealed.holmes == pb.HIDING_SPOT_BED
    assert state.players[1].strikes == 1 and state.players[2].strikes == 0
    assert state.holmes_tracker == 1 and not state.players[0].hiding


def test_lucky_break_fake_evidence_goes_back_into_the_bag():
    """Lucky Break: "If Fake Evidence is selected, place the Fake Evidence back into the Evidence
    Bag and consider it an unlucky break" (Rulebook: Play as Holmes Event Card
    Clarifications)."""
    state = holmes_game([U, A, B, L])
    for i, n in enumerate(state.bag.counts):  # only Fake Evidence left in the bag
        state.gondolas[1].counts[i] += n
        state.bag.counts[i] = 0
    state.fake_supply -= 5
    state.bag.fake = 5
    board = list(state.players[1].board.counts)
    give(state, 1, card_of("lucky_break"))
    del state.frames[:]
    state.frames.add(kind=pb.FRAME_KIND_EVENT_WINDOW, seat=1, seats=[1])
    play(state, 1, play=pb.PlayEvent(card=card_of("lucky_break")))
    assert state.bag.fake == 5 and list(state.players[1].board.counts) == board


def deathtrap_in(state: pb.State, room: int, landing: int) -> None:
    """Lay a Deathtrap in a room and its Deathtrap Landing Zone in another."""
    state.trapdoors.add(room=room, landing=landing, deathtrap=True)


def test_a_deathtrap_fall_moves_the_tracker_without_a_strike():
    """"If a player collects evidence over a Deathtrap, they will fall to the corresponding
    Deathtrap Landing Zone. The player will not take a Holmes Strike! but Holmes can increase
    the Holmes Tracker by 1"; the Deathtrap goes once its room is empty (Rulebook: The Holmes'
    Action Cards (Play as Holmes): Add a Deathtrap)."""
    state = holmes_game([U, A, B, L])
    room = add_room(state, ATRIUM, 0, -1)
    take_from_bag(state, room.safes[0], pb.COLOUR_BLUE, 2)
    deathtrap_in(state, place_of(ATRIUM), place_of(2))
    state.players[1].place = place_of(ATRIUM)
    set_board(state, 1, NOBODY_HOME)
    start_tile(state, 1, pb.ACTION_TILE_COLLECT)
    events = play(state, 1, collect=pb.Collect(colour=pb.COLOUR_BLUE))
    assert state.players[1].place == place_of(2) and state.players[1].strikes == 0
    assert state.holmes_tracker == 1
    assert [e.event.moved.how for e in events if e.event.HasField("moved")] == ["deathtrap"]
    assert state.trapdoors  # one cube left: the Deathtrap stays
    state.players[2].place = place_of(ATRIUM)
    start_tile(state, 2, pb.ACTION_TILE_COLLECT)
    play(state, 2, collect=pb.Collect(colour=pb.COLOUR_BLUE))
    assert not state.trapdoors and state.holmes_tracker == 2


def test_disarm_a_trapdoor_disarms_a_deathtrap():
    """"Disarm a Trapdoor - This Event Card can be used to disarm a Deathtrap", played to avoid
    the fall (as in the 5-Door Room) or to remove it (Rulebook: Play as Holmes Event Card
    Clarifications)."""
    state = holmes_game([U, A, B, L])
    room = add_room(state, ATRIUM, 0, -1)
    take_from_bag(state, room.safes[0], pb.COLOUR_BLUE, 2)
    deathtrap_in(state, place_of(ATRIUM), place_of(2))
    disarm = card_of("disarm_trapdoor")
    give(state, 1, disarm)
    state.players[1].place = place_of(ATRIUM)
    set_board(state, 1, NOBODY_HOME)
    start_tile(state, 1, pb.ACTION_TILE_COLLECT)
    play(state, 1, collect=pb.Collect(colour=pb.COLOUR_BLUE))
    assert frame(state).kind == pb.FRAME_KIND_DEFEND
    play(state, 1, play=pb.PlayEvent(card=disarm))
    assert state.players[1].place == place_of(ATRIUM) and state.holmes_tracker == 0
    disarm = card_of("disarm_trapdoor", 1)
    give(state, 2, disarm)
    del state.frames[:]
    state.frames.add(kind=pb.FRAME_KIND_EVENT_WINDOW, seat=2, seats=[2])
    play(state, 2, play=pb.PlayEvent(card=disarm))  # the only Trapdoor: chosen for her
    assert not state.trapdoors


def test_holmes_does_not_see_the_investigators_event_cards_nor_they_his_hiding_spot():
    """Hidden from Holmes: every investigator's Event Cards; hidden from investigators: Holmes'
    Whitechapel spot until the reveal (issue 15: Hidden information)."""
    state = holmes_game([U, A, B, L])
    give(state, 1, card_of("lucky_break"))
    state.players[0].hiding = pb.HIDING_SPOT_BED
    holmes_view = GAME.view(state, 0)
    assert not holmes_view.hand and holmes_view.players[1].keep_count == 1
    twin = GAME.resample_hidden(state, 1, Rng.from_seed(3))
    assert GAME.view(twin, 1) == GAME.view(state, 1)
    spots = {GAME.resample_hidden(state, 1, Rng.from_seed(s)).players[0].hiding
             for s in range(20)}
    assert spots == {pb.HIDING_SPOT_BED, pb.HIDING_SPOT_BATHROOM}
    hands = {tuple(GAME.resample_hidden(state, 0, Rng.from_seed(s)).players[1].keep)
             for s in range(20)}
    assert len(hands) > 1


# -- the Control Panel and Holmes' Action Cards ------------------------------------------
def slots(*names: str) -> list[int]:
    """Slot numbers of printed placeholder names."""
    return [play_as_holmes.panel().slot(n) for n in names]


def card_kind(kind: str, copy: int = 0) -> int:
    """The Play as Holmes card of a kind (its n-th copy in the Play as Holmes deck)."""
    return [c for c in play_as_holmes.panel().deck if holmes_cards.kind(c) == kind][copy]


def end_round(state: pb.State) -> None:
    """Finish the round's selections; the end-of-round movement card lists an unexplored room."""
    del state.frames[:]
    del state.to_act[:]
    state.selections = len(key_order(state))
    state.current = pb.ACTION_TILE_UNSPECIFIED
    stack_holmes(state, movement_card((STEEL_VAULT,)))
    flow.settle(state, [])


def test_control_panel_example_1_the_next_cube_follows_each_section_order():
    """"Holmes has a cube placed in 1a, 1b, 2a, and 4a. … Holmes' next cube can be placed in
    either 1c, 2b, 3a, or 4b. … Holmes' next cube cannot be placed in 2c" (Rulebook: Play as
    Holmes Gameplay: Example 1)."""
    state = holmes_game([U, A, B, L])
    state.panel.extend(slots("1a", "1b", "2a", "4a"))
    assert play_as_holmes.open_slots(state) == slots("1c", "2b", "3a", "4b")
    assert slots("2c")[0] not in play_as_holmes.open_slots(state)


def test_control_panel_example_2_the_two_cube_card_needs_1c_and_2c():
    """"Holmes has a cube placed in 1a and 1b, and 2a, 2b, and 2c. Only if Holmes places a cube
    in 1c will the Move up to 2 Rooms and Lock up to 2 Unexplored Doors along the Path Action
    Card be unlocked" (Rulebook: Play as Holmes Gameplay: Example 2)."""
    state = holmes_game([U, A, B, L])
    two_cube = card_kind("move_2_lock_2")
    state.panel.extend(slots("1a", "1b", "2a", "2b"))
    state.holmes_supply.extend(sorted(play_as_holmes.unlocked_by_panel(state) - set(
        state.holmes_supply)))
    play_as_holmes.place_cube(state, slots("2c")[0], [])
    assert two_cube not in state.holmes_supply
    state.fake_supply += 1  # the cube comes back from the supply for the next placement
    events: list = []
    play_as_holmes.place_cube(state, slots("1c")[0], events)
    assert two_cube in state.holmes_supply
    assert events[-1].event.panel.unlocked == two_cube


def test_the_deck_has_13_cards_12_placeholders_and_11_to_unlock():
    """"Remove the 10 cards that do not display the Play as Holmes indicator"; "There are 12
    cube placeholders and 11 Holmes' Action Cards that can be unlocked", besides the 2 in the
    supply from the start: 23 - 10 = 13 (Rulebook: The Holmes' Action Cards / Automa Deck (Play
    as Holmes Setup); Play as Holmes Gameplay)."""
    layout = play_as_holmes.panel()
    assert len(layout.deck) == 13 and len(layout.names) == 12 and len(layout.needs) == 11
    kinds = sorted(holmes_cards.kind(c) for c in layout.deck)
    assert kinds.count("add_deathtrap") == 2 and "holmes_moves_after" in kinds
    assert set(kinds) == {c.kind for c in automa.data().cards.values()}
    for level, size in (("beginner", 17), ("intermediate", 19), ("menacing", 18)):
        assert len(automa.deck_cards(automa.data().cards, level)) == size  # Automa untouched


def test_the_end_of_round_cube_unlocks_a_card_and_holmes_places_cards_face_down():
    """"Once all Holmes' movement is completed, Holmes gains a Fake Evidence Cube … to place onto
    the Holmes' Control Panel"; the card it unlocks joins the supply; then Holmes places any
    number of unlocked cards face down, only 1 per Action Tile; then the Skeleton Key passes
    (Rulebook: Play as Holmes Gameplay)."""
    state = holmes_game([U, A, B, L])
    assert not state.tile_cards and state.round == 0  # the start cards wait for round 2
    end_round(state)
    assert frame(state).kind == pb.FRAME_KIND_PANEL_CUBE and flow.pending_seats(state) == [0]
    assert {a.panel.slot for a in legal(state, 0)} == set(slots("1a", "2a", "3a", "4a"))
    play(state, 0, panel=pb.PlaceCube(slot=slots("1a")[0]))
    assert state.fake_supply == 141 and card_kind("lock_door") in state.holmes_supply
    assert frame(state).kind == pb.FRAME_KIND_ASSIGN_CARDS and state.round == 0
    seal = card_kind("seal_pathways")
    events = play(state, 0, assign=pb.AssignCard(card=seal, tile=pb.ACTION_TILE_EXPLORE))
    assert [e for e in events if e.visible_to(1)][0].event.assigned.card == 0
    assert all(a.assign.tile != pb.ACTION_TILE_EXPLORE for a in legal(state, 0)
               if a.HasField("assign"))
    play(state, 0, assign=pb.AssignCard(card=card_kind("add_deathtrap"),
                                        tile=pb.ACTION_TILE_DRAW))
    play(state, 0, **PASS)
    assert state.round == 1 and state.key == 2
    seen = GAME.view(state, 1)
    assert [(t.tile, t.card) for t in seen.tile_cards] == [
        (pb.ACTION_TILE_EXPLORE, 0), (pb.ACTION_TILE_DRAW, 0)]
    assert list(seen.unlocked) == sorted(play_as_holmes.unlocked(state)) and not seen.holmes_supply
    mine = GAME.view(state, 0)
    assert {t.card for t in mine.tile_cards} == {seal, card_kind("add_deathtrap")}
    assert list(mine.holmes_supply) == [card_kind("lock_door")]
    twins = {tuple(t.card for t in GAME.resample_hidden(state, 1, Rng.from_seed(s)).tile_cards)
             for s in range(30)}
    assert len(twins) > 1  # which card lies on which tile is hidden from investigators
    twin = GAME.resample_hidden(state, 0, Rng.from_seed(1))
    assert list(twin.tile_cards) == list(state.tile_cards)


def test_a_card_on_a_selected_tile_resolves_before_the_action_and_returns_to_the_supply():
    """"If an Action Tile with a Holmes' Action Card is selected, Holmes must resolve the Holmes'
    Action Card before a player continues with their turn"; then "that Holmes' Action Card is
    placed back into the available Holmes' Action Card supply"; cards on tiles nobody selects
    stay (Rulebook: Play as Holmes Gameplay; Automa Holmes' Action Cards: Seal All Hidden
    Bookcase Pathways)."""
    state = holmes_game([U, A, B, L])
    state.pathways.add(a=place_of(1), b=place_of(2))
    seal, trap = card_kind("seal_pathways"), card_kind("add_deathtrap")
    state.holmes_supply.remove(seal)
    state.holmes_supply.remove(trap)
    state.tile_cards.add(tile=pb.ACTION_TILE_MOVE_ONE, card=seal)
    state.tile_cards.add(tile=pb.ACTION_TILE_DRAW, card=trap)
    events = play(state, 1, select=pb.SelectTile(tile=pb.ACTION_TILE_MOVE_ONE))
    assert not state.pathways and frame(state).kind == pb.FRAME_KIND_ACT
    assert frame(state).seat == 1 and seal in state.holmes_supply
    assert list(state.holmes_played) == [seal]
    assert [e.event.tile_card.card for e in events if e.event.HasField("tile_card")] == [seal]
    assert [(t.tile, t.card) for t in state.tile_cards] == [(pb.ACTION_TILE_DRAW, trap)]


def walk_castle() -> pb.State:
    """Holmes in The Atrium north of the Pharmacy, the Back Room north of it (the investigators
    there), the Ale Pub east of it; a Move up to 2 Rooms card face down on Collect Evidence."""
    state = holmes_game([U, A, B, L])
    add_room(state, ATRIUM, 0, -1)
    add_room(state, BACK_ROOM, 0, -2)
    add_room(state, ALE_PUB, 1, -1)
    state.holmes = place_of(ATRIUM)
    for seat in (1, 2, 3):
        state.players[seat].place = place_of(BACK_ROOM)
        state.players[seat].ability_used = True
        set_board(state, seat, NOBODY_HOME)
    move_2 = card_kind("move_2")
    state.panel.extend(slots("2a"))
    state.fake_supply -= 1
    state.tile_cards.add(tile=pb.ACTION_TILE_COLLECT, card=move_2)
    return state


def test_holmes_chooses_where_he_walks_the_second_room_being_optional():
    """Move up to 2 Rooms using Doorways: "Holmes chooses where to move on the cards with Holmes'
    movement"; the first room is the card's, the second optional ("up to"); never into the
    Pharmacy (Rulebook: The Holmes' Action Cards / Automa Deck (Play as Holmes); Automa Holmes'
    Action Cards)."""
    state = walk_castle()
    play(state, 1, select=pb.SelectTile(tile=pb.ACTION_TILE_COLLECT))
    assert frame(state).kind == pb.FRAME_KIND_HOLMES_WALK and flow.pending_seats(state) == [0]
    options = legal(state, 0)
    assert sorted(a.place.place for a in options) == [place_of(BACK_ROOM), place_of(ALE_PUB)]
    play(state, 0, place=pb.ChoosePlace(place=place_of(ALE_PUB)))
    assert legal(state, 0) == [pb.Action(place=pb.ChoosePlace(place=place_of(ATRIUM))),
                               pb.Action(**PASS)]
    play(state, 0, **PASS)
    assert state.holmes == place_of(ALE_PUB) and frame(state).kind != pb.FRAME_KIND_HOLMES_WALK


def test_holmes_stops_walking_in_a_room_with_investigators():
    """"Holmes will always move towards you, using doorways, but cannot move past you. If Holmes
    enters your room, take a Holmes Strike! as normal": entering the Back Room strikes the three
    investigators there (Tracker 3) and ends the walk (Rulebook: Automa Holmes' Action Cards;
    Play as Holmes Winning)."""
    state = walk_castle()
    play(state, 1, select=pb.SelectTile(tile=pb.ACTION_TILE_COLLECT))
    play(state, 0, place=pb.ChoosePlace(place=place_of(BACK_ROOM)))
    assert state.holmes_tracker == 3 and frame(state).kind != pb.FRAME_KIND_HOLMES_WALK


def test_holmes_chooses_which_evidence_to_destroy():
    """Destroy 1 Piece of Evidence: "Holmes chooses which evidence to destroy if multiple
    options exist" (Rulebook: The Holmes' Action Cards / Automa Deck (Play as Holmes))."""
    state = holmes_game([U, A, B, L])
    state.holmes = place_of(2)
    safe = state.tiles[2].safes[0]
    for i, n in enumerate(safe.counts):
        state.bag.counts[i] += n
        safe.counts[i] = 0
    take_from_bag(state, safe, pb.COLOUR_BLUE)
    take_from_bag(state, safe, pb.COLOUR_WHITE)
    wild = next(c for c, colours in automa.data().destruction.items() if len(colours) == 5)
    state.destruction_deck.remove(wild)
    state.destruction_deck.append(wild)
    destroy = card_kind("destroy_1")
    state.panel.extend(slots("3a"))
    state.fake_supply -= 1
    state.tile_cards.add(tile=pb.ACTION_TILE_DRAW, card=destroy)
    play(state, 1, select=pb.SelectTile(tile=pb.ACTION_TILE_DRAW))
    assert frame(state).kind == pb.FRAME_KIND_CHOOSE_COLOUR and flow.pending_seats(state) == [0]
    play(state, 0, cube=pb.ChooseCube(colour=pb.COLOUR_WHITE))
    assert list(safe.counts) == [1, 0, 0, 0, 0]


def after_card_on_deck(state: pb.State) -> int:
    """Turn over "Holmes Moves up to 2 Rooms After a Holmes' Movement Card is Drawn" on the
    Draw an Event Card tile, selected by seat 1 (after `walk_castle`)."""
    after = card_kind("holmes_moves_after")
    state.panel.extend(slots("2b"))
    state.fake_supply -= 1
    state.tile_cards.add(tile=pb.ACTION_TILE_DRAW, card=after)
    play(state, 1, select=pb.SelectTile(tile=pb.ACTION_TILE_DRAW))
    return after


def test_holmes_moves_up_to_2_rooms_after_the_next_movement_card():
    """The card "is revealed to be on top, then move this Holmes' Action Card to the top of the
    Holmes' Movement Card deck"; "After Holmes moves next … Holmes will then be able to move up
    to 2 rooms using doorways. However, this move is optional"; "If Holmes does not move from
    the drawn Holmes' Movement Card, Holmes will still be able to move"; then it goes back to
    the supply (Rulebook: The Holmes' Action Cards / Automa Deck (Play as Holmes))."""
    state = walk_castle()
    after = after_card_on_deck(state)
    assert state.after_card == after and after not in state.holmes_supply
    assert GAME.view(state, 1).after_card == after
    end_round(state)  # the card lists an unexplored room: Holmes stays, then may walk
    assert frame(state).kind == pb.FRAME_KIND_HOLMES_WALK and pb.Action(**PASS) in legal(state, 0)
    play(state, 0, place=pb.ChoosePlace(place=place_of(ALE_PUB)))
    play(state, 0, place=pb.ChoosePlace(place=place_of(ATRIUM)))
    assert state.holmes == place_of(ATRIUM) and frame(state).kind == pb.FRAME_KIND_PANEL_CUBE
    assert not state.after_card and after in state.holmes_supply


def test_lights_out_cancels_holmes_moves_after():
    """"If a Lights Out card is revealed … The Holmes' Action Card is returned to the Holmes'
    Action Card Supply and Holmes will not be able to perform the action" (Rulebook: The Holmes'
    Action Cards / Automa Deck (Play as Holmes))."""
    state = walk_castle()
    after = after_card_on_deck(state)
    del state.frames[:]
    stack_holmes(state, movement_card(special="lights_out"))
    events: list = []
    holmes.reveal(state, 1, False, events)
    flow.settle(state, events)
    assert not state.after_card and after in state.holmes_supply
    assert frame(state).kind != pb.FRAME_KIND_HOLMES_WALK
    assert [e.event.returned.reason for e in events if e.event.HasField("returned")] == [
        "lights out"]


def test_holmes_moves_after_the_first_card_of_a_rampage():
    """"If a rampage card is revealed while this Holmes' Action Card is on the top of the Holmes'
    Movement Card deck, then Holmes will have the option to move after the first Holmes'
    Movement Card is revealed as part of the rampage" (Rulebook: The Holmes' Action Cards /
    Automa Deck (Play as Holmes))."""
    state = walk_castle()
    after_card_on_deck(state)
    del state.frames[:]
    stack_holmes(state, movement_card(special="rampage"), movement_card((ALE_PUB,)),
                 movement_card((STEEL_VAULT,)), movement_card((11,)))
    holmes.reveal(state, 1, False, [])
    flow.settle(state, [])
    assert state.holmes == place_of(ALE_PUB) and frame(state).kind == pb.FRAME_KIND_HOLMES_WALK
    assert not state.after_card
    play(state, 0, **PASS)
    assert frame(state).kind != pb.FRAME_KIND_HOLMES_WALK and state.holmes == place_of(ALE_PUB)


def test_add_a_deathtrap_follows_the_trapdoor_rules_and_can_be_placed_again():
    """Add a Deathtrap: Holmes places a Deathtrap and its Landing Zone "following the normal
    Trapdoor and Landing Zone rules" (a room with evidence, not the Pharmacy; the Landing Zone
    in another room); removed Deathtraps "can be placed back into the game by Holmes using this
    card" (Rulebook: The Holmes' Action Cards / Automa Deck (Play as Holmes))."""
    state = holmes_game([U, A, B, L])
    trap = card_kind("add_deathtrap")
    state.holmes_supply.remove(trap)
    state.tile_cards.add(tile=pb.ACTION_TILE_MOVE_ONE, card=trap)
    play(state, 1, select=pb.SelectTile(tile=pb.ACTION_TILE_MOVE_ONE))
    assert frame(state).kind == pb.FRAME_KIND_CHOOSE_PLACE and flow.pending_seats(state) == [0]
    rooms = [a.place.place for a in legal(state, 0)]
    assert PHARMACY_PLACE not in rooms and place_of(2) in rooms
    play(state, 0, place=pb.ChoosePlace(place=place_of(2)))
    assert place_of(2) not in [a.place.place for a in legal(state, 0)]
    play(state, 0, place=pb.ChoosePlace(place=place_of(3)))
    assert [(t.room, t.landing, t.deathtrap) for t in state.trapdoors] == [
        (place_of(2), place_of(3), True)]
    assert trap in state.holmes_supply
    state.trapdoors.add(room=place_of(1), landing=PHARMACY_PLACE, deathtrap=True)
    assert not holmes_cards.deathtrap_rooms(state)  # both Deathtraps are in the castle
    del state.trapdoors[0]
    assert holmes_cards.deathtrap_rooms(state)


def test_lock_an_unexplored_door_holmes_chooses_the_doorway():
    """Lock an Unexplored Door: "If multiple doorways exist, choose where to place the Padlock",
    the choice being Holmes' (Rulebook: Automa Holmes' Action Cards; The Holmes' Action Cards /
    Automa Deck (Play as Holmes))."""
    state = holmes_game([U, A, B, L])
    add_room(state, ATRIUM, 0, -1)
    state.holmes = place_of(ATRIUM)
    lock = card_kind("lock_door")
    state.panel.extend(slots("1a"))
    state.fake_supply -= 1
    state.tile_cards.add(tile=pb.ACTION_TILE_MOVE_ONE, card=lock)
    play(state, 1, select=pb.SelectTile(tile=pb.ACTION_TILE_MOVE_ONE))
    assert frame(state).kind == pb.FRAME_KIND_CHOOSE_DOOR and flow.pending_seats(state) == [0]
    play(state, 0, explore=pb.Explore(side=1))
    assert list(state.tiles[-1].padlocked) == [1]


# -- bots on the Holmes seat (issue 15: "A bot can play the Holmes seat") ------------------
def test_the_greedy_heuristic_plays_a_whole_game_on_every_seat():
    """The greedy heuristic plays every seat, the Holmes seat included, to the end of a real
    game: it places cubes and cards and sends Holmes where the investigators are."""
    from parlour.games.murdercastle.strategy import greedy

    state = GAME.new_state(pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=2)), 5, 3)
    rng = Rng.from_seed(3)
    kinds = set()
    for _ in range(GAME.max_actions):
        pending = GAME.pending(state)
        if not pending:
            break
        seat = pending[0].seat
        action = greedy(GAME.view(state, seat), GAME.legal_actions(state, seat), seat, rng)
        if seat == 2:
            kinds.add(action.WhichOneof("kind"))
        GAME.apply(state, seat, action)
    assert state.finished and GAME.outcome(state).winners
    assert {"panel", "assign", "place"} <= kinds


def test_ismcts_chooses_for_the_holmes_seat_from_samples_it_may_see():
    """IS-MCTS plays the Holmes seat's decisions (the Control Panel cube, the cards on the tiles,
    his room) from samples that keep his view (parlour.engine.sampling)."""
    from parlour.client import ismcts
    from parlour.engine.sampling import sample_hidden

    state = GAME.new_state(pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=0)), 4, 5)
    rng = Rng.from_seed(5)
    decided = set()
    for _ in range(3000):
        pending = GAME.pending(state)
        if not pending or len(decided) == 2:
            break
        seat = pending[0].seat
        legal_now = GAME.legal_actions(state, seat)
        if seat == 0 and len(legal_now) > 1:
            action = ismcts.search(GAME, 0, legal_now, lambda s: sample_hidden(GAME, state, 0, s),
                                   rng, iterations=3, rollout_limit=150)
            assert action in legal_now
            decided.add(state.frames[-1].kind)
        else:
            action = legal_now[rng.below(len(legal_now))]
        GAME.apply(state, seat, action)
    assert decided


def test_holmes_does_not_walk_out_of_an_investigators_room():
    """Play as Holmes plays the Automa cards "the same as Automa" except where Holmes moves, and
    Automa says "Holmes does not move if Holmes occupies your room when movement cards are
    revealed": with an investigator in his room, Move up to 2 Rooms moves him nowhere
    (Rulebook: The Holmes' Action Cards / Automa Deck (Play as Holmes); Automa Holmes' Action
    Cards; RULES.md)."""
    state = walk_castle()
    state.players[1].place = place_of(ATRIUM)
    play(state, 1, select=pb.SelectTile(tile=pb.ACTION_TILE_COLLECT))
    assert frame(state).kind != pb.FRAME_KIND_HOLMES_WALK
    assert state.holmes == place_of(ATRIUM)
