"""What each seat may see, and the hidden-information resampler."""

from __future__ import annotations

from parlour.engine.game import copy_message
from parlour.engine.rng import Rng
from parlour.engine.zones import take_top
from parlour.games.murdercastle.cubes import needed
from parlour.games.murdercastle.hooks import MODES, rules
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb


def _peeking(state: pb.State, seat: int | None) -> bool:
    """Whether `seat` is Jeremiah choosing among the room tiles he peeked at."""
    return bool(state.frames) and seat is not None and (
        state.frames[-1].kind == pb.FRAME_KIND_PICK_ROOM_TILE and state.frames[-1].seat == seat)


def _picked_secretly(frame: pb.Frame, seat: int | None) -> bool:
    """Jeremiah's picked tile, before it is placed, is his alone."""
    return frame.character == pb.CHARACTER_JEREMIAH and frame.seat != seat


def view(state: pb.State, seat: int | None) -> pb.View:
    """Everything public, plus the viewer's own Keep cards (and Jeremiah's peek)."""
    out = pb.View(
        room_pile_size=len(state.room_pile), unloading=state.unloading,
        event_deck_size=len(state.event_deck), holmes_deck_size=len(state.holmes_deck),
        holmes=state.holmes, explore_flipped=state.explore_flipped, key=state.key,
        round=state.round, winner=state.winner, finished=state.finished,
        current=state.current, selector=state.selector, needed=needed(state),
        holmes_revealed=state.holmes_revealed,
    )
    out.holmes_won = state.holmes_won
    if seat is not None:
        out.hand.extend(sorted(state.players[seat].keep))
    out.tiles.MergeFrom(state.tiles)
    out.bag.CopyFrom(state.bag)
    out.gondolas.MergeFrom(state.gondolas)
    out.event_discard.MergeFrom(state.event_discard)
    out.holmes_discard.MergeFrom(state.holmes_discard)
    out.tiles_open.MergeFrom(state.tiles_open)
    out.pathways.MergeFrom(state.pathways)
    out.trapdoors.MergeFrom(state.trapdoors)
    out.options.CopyFrom(state.options)
    for player in state.players:
        seen = out.players.add(
            character=player.character, place=player.place, strikes=player.strikes,
            keep_count=len(player.keep), ability_used=player.ability_used,
            top_hat=player.top_hat, blind_progress=player.blind_progress,
            partnered=player.partnered, has_hidden=player.hiding != pb.HIDING_SPOT_UNSPECIFIED,
            holds_brick_wall=player.holds_brick_wall,
        )
        seen.board.CopyFrom(player.board)
    for frame in state.frames:
        shown = out.frames.add(
            kind=frame.kind, seat=frame.seat, count=frame.count, place=frame.place,
            card=0 if frame.character else frame.card,
            tile=0 if _picked_secretly(frame, seat) else frame.tile,
            action=frame.action, target=frame.target,
        )
        if frame.kind == pb.FRAME_KIND_PLACE_ROOM:
            shown.x, shown.y, shown.side = frame.x, frame.y, frame.side
        shown.seats.MergeFrom(frame.seats)
        shown.places.MergeFrom(frame.places)
    if _peeking(state, seat):
        out.peeked.extend(state.room_pile)
    MODES.view(state, seat, out)
    return out


def resample_hidden(state: pb.State, seat: int | None, rng: Rng) -> pb.State:
    """A copy that differs only in what `seat` cannot see: pile and deck orders, others' hands
    and hiding spots (Holmes' too), and what the modes hide (their face-down pieces, decks and
    cards)."""
    other = copy_message(state)
    if not _peeking(state, seat):
        rng.shuffle(other.room_pile)
    rules(other).resample_face_down(other, seat, rng)
    for frame in other.frames:
        if _picked_secretly(frame, seat) and frame.tile:
            frame.tile = rng.choice(list(other.room_pile))
    rng.shuffle(other.holmes_deck)
    rules(other).resample_decks(other, seat, rng)
    hidden = [s for s in range(state.seats) if s != seat]
    pool = list(other.event_deck)
    for s in hidden:
        pool += other.players[s].keep
    rng.shuffle(pool)
    other.event_deck[:] = take_top(pool, len(state.event_deck))
    for s in hidden:
        other.players[s].keep[:] = take_top(pool, len(state.players[s].keep))
        if other.players[s].hiding:
            other.players[s].hiding = rng.choice((pb.HIDING_SPOT_BED, pb.HIDING_SPOT_BATHROOM))
    MODES.resample(other, seat, rng)
    return other
