"""The round: Skeleton Key, Action Tile selection, the action for everyone, end of round
(Rulebook: Standard Multiplayer Game: Overview; Winning the Game)."""

from __future__ import annotations

from parlour.games.murdercastle.board import place_of
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.tests.positions import (
    PHARMACY_PLACE,
    add_room,
    frame,
    game,
    legal,
    movement_card,
    play,
    set_board,
    stack_holmes,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

A, B, L, H = (pb.CHARACTER_ADELINE, pb.CHARACTER_ABRAHAM, pb.CHARACTER_LOLA,
              pb.CHARACTER_HOYT)
PASS = {"pass": pb.Pass()}


def finish_phase(state: pb.State) -> None:
    """Everyone passes until the next Action Tile selection (or end of round)."""
    while state.frames and frame(state).kind not in (pb.FRAME_KIND_SELECT_TILE,):
        seat = GAME.pending(state)[0].seat
        options = legal(state, seat)
        passes = [a for a in options if a.HasField("pass")]
        play(state, seat, **{a.WhichOneof("kind"): getattr(a, a.WhichOneof("kind"))
                             for a in (passes or options)[:1]})


def test_selection_goes_clockwise_from_the_skeleton_key():
    """The key holder selects first, then each player clockwise; the selector acts first, then the
    others clockwise, without the bonus (Rulebook: Overview)."""
    state = game([A, H, L])
    add_room(state, 4, 0, -1)  # somewhere to go: the Back Room north of the Pharmacy
    assert state.key == 0 and frame(state).seat == 0
    play(state, 0, select=pb.SelectTile(tile=pb.ACTION_TILE_MOVE_TWO))
    assert frame(state).seat == 0 and frame(state).count == 3  # selector: bonus, 3 rooms
    play(state, 0, **PASS)
    assert frame(state).seat == 1 and frame(state).count == 2
    play(state, 1, **PASS)
    assert frame(state).seat == 2 and frame(state).count == 2
    play(state, 2, **PASS)
    assert frame(state).kind == pb.FRAME_KIND_SELECT_TILE and frame(state).seat == 1
    assert pb.ACTION_TILE_MOVE_TWO not in state.tiles_open


def test_two_players_select_two_tiles_each_and_the_key_passes():
    """In a 2-player game each player selects 2 Action Tiles; the key holder reveals a Holmes'
    Movement card at the end of the round and the key passes clockwise (Rulebook: Overview)."""
    state = game([A, H])
    stack_holmes(state, movement_card((2,)))
    selectors = []
    while state.round == 0:
        if frame(state).kind == pb.FRAME_KIND_SELECT_TILE:
            selectors.append(frame(state).seat)
            tile = next(t for t in state.tiles_open if t != pb.ACTION_TILE_MOVE_HOLMES)
            play(state, frame(state).seat, select=pb.SelectTile(tile=tile))
        else:
            finish_phase(state)
    assert selectors == [0, 1, 0, 1]
    assert state.holmes == place_of(2)  # the end-of-round card moved Holmes
    assert state.key == 1 and frame(state).seat == 1
    assert len(state.tiles_open) == 6


def test_the_skeleton_key_passes_clockwise_with_three_players():
    """With 3 players the key passes to the next player clockwise (seat + 1), who starts the
    next round and reveals its end-of-round card, and selection follows clockwise from it
    (Rulebook: Overview)."""
    state = game([A, H, L], first_seat=1)
    assert state.key == 1 and frame(state).seat == 1
    selectors = []
    while state.round == 0:
        if frame(state).kind == pb.FRAME_KIND_SELECT_TILE:
            selectors.append(frame(state).seat)
            tile = next(t for t in state.tiles_open if t != pb.ACTION_TILE_MOVE_HOLMES)
            play(state, frame(state).seat, select=pb.SelectTile(tile=tile))
        else:
            finish_phase(state)
    assert selectors == [1, 2, 0]
    assert state.key == 2 and frame(state).seat == 2


def test_only_the_selector_moves_holmes():
    """Only the player who selects Move Holmes moves him (Rulebook: Move Holmes)."""
    state = game([A, H, L])
    stack_holmes(state, movement_card((2,)))
    play(state, 0, select=pb.SelectTile(tile=pb.ACTION_TILE_MOVE_HOLMES))
    assert [a.WhichOneof("kind") for a in legal(state, 0)] == ["reveal", "pass"]
    play(state, 0, reveal=pb.RevealHolmes())
    assert state.holmes == place_of(2)
    assert frame(state).kind == pb.FRAME_KIND_SELECT_TILE and frame(state).seat == 1


def test_move_into_one_room_bonus_advances_the_wheel():
    """The Move into 1 Room selector may advance the Ferris Wheel; others may not (Rulebook:
    Move into 1 Room)."""
    state = game([A, H, L])
    add_room(state, 4, 0, -1)
    gondolas = [list(g.counts) for g in state.gondolas]
    play(state, 0, select=pb.SelectTile(tile=pb.ACTION_TILE_MOVE_ONE))
    assert any(a.HasField("turn_wheel") for a in legal(state, 0))
    play(state, 0, turn_wheel=pb.TurnWheel())
    assert state.unloading == 1
    assert [list(g.counts) for g in state.gondolas] == gondolas  # nothing refilled
    play(state, 0, **PASS)
    assert not any(a.HasField("turn_wheel") for a in legal(state, 1))


def test_crowd_tile_in_six_and_seven_player_games():
    """6-7 players use the 7th Action Tile, whose bonus moves up to 2 rooms (Rulebook: Setup:
    The Action Tiles; Move into 1 Room)."""
    state = game([1, 2, 3, 4, 5, 6])
    add_room(state, 4, 0, -1)
    assert pb.ACTION_TILE_MOVE_ONE_CROWD in state.tiles_open
    play(state, 0, select=pb.SelectTile(tile=pb.ACTION_TILE_MOVE_ONE_CROWD))
    assert frame(state).count == 2
    assert pb.ACTION_TILE_MOVE_ONE_CROWD not in game([1, 2, 3, 4, 5]).tiles_open


def test_first_back_in_the_pharmacy_with_all_evidence_wins():
    """The winner is the first player to collect all evidence and move back to the Pharmacy
    (Rulebook: Winning the Game)."""
    state = game([A, H, L])
    add_room(state, 4, 0, -1)  # Back Room: doors N and S, south door meets the Pharmacy
    state.players[1].place = place_of(4)
    set_board(state, 1, [4, 4, 4, 4, 4])
    state.key = 1
    frame(state).seat = 1
    play(state, 1, select=pb.SelectTile(tile=pb.ACTION_TILE_MOVE_ONE))
    play(state, 1, move=pb.Move(place=PHARMACY_PLACE))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1,)
    assert GAME.pending(state) == []


def test_round_limit_variant_gives_the_win_to_the_most_evidence():
    """Variant (short game): after the round limit the player with most evidence wins (RULES.md:
    Variants)."""
    state = game([A, H], round_limit=1)
    set_board(state, 1, [4, 4, 4, 3, 3])
    while state.round == 0:
        if frame(state).kind == pb.FRAME_KIND_SELECT_TILE:
            play(state, frame(state).seat, select=pb.SelectTile(tile=state.tiles_open[0]))
        else:
            finish_phase(state)
        if state.finished:
            break
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1,)
    assert state.winner == 0 and "most evidence" in outcome.summary
