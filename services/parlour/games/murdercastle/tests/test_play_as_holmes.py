"""Play as Holmes: one seat plays Holmes against everyone else (Rulebook: Play as Holmes:
Introduction, Setup, Play as Holmes Winning, Play as Holmes Gameplay, Play as Holmes Event Card
Clarifications, Other Clarifications; issue 15)."""

from __future__ import annotations

import pytest

from parlour.engine.game import InvalidOptions
from parlour.engine.rng import Rng
from parlour.games.murdercastle import automa, flow, holmes
from parlour.games.murdercastle.board import place_of
from parlour.games.murdercastle.rules import GAME
from parlour.games.murdercastle.setup import new_state
from parlour.games.murdercastle.stack import key_order
from parlour.games.murdercastle.tests.scenario import (
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
ATRIUM, WHITECHAPEL = 6, 27
NOBODY_HOME = [0, 0, 0, 0, 0]
TILES = (pb.ACTION_TILE_MOVE_ONE, pb.ACTION_TILE_MOVE_TWO, pb.ACTION_TILE_COLLECT)


def holmes_game(characters: list[int], holmes_at: int = 0, seed: int = 1) -> pb.State:
    """A settled Play as Holmes game; the Holmes seat's entry in `characters` is U."""
    options = pb.Options(characters=characters,
                         play_as_holmes=pb.PlayAsHolmes(seat=holmes_at))
    state = new_state(options, len(characters), seed)
    flow.settle(state, [])
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
        assert state.key != seats - 1 and frame(state).seat == state.key


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
    del state.frames[:]
    flow._end_round(state, state.frames.add(kind=pb.FRAME_KIND_END_ROUND, seat=2), [])
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
    score is the Tracker (Rulebook: Play as Holmes Winning)."""
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
    assert outcome.winners == (1,) and outcome.scores[1] == 10
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
