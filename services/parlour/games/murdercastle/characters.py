"""The characters' once-per-game abilities (Rulebook: Characters).

Adeline's is offered when Holmes enters her room (see holmes.enter); the others
may be used whenever their owner may play an Event Card (a window or the start of
an action) and run as EFFECT frames with `character` set.
"""

from __future__ import annotations

from parlour.engine.rng import state_rng
from parlour.games.murdercastle import cards
from parlour.games.murdercastle.board import STEPS as STEPS_XY
from parlour.games.murdercastle.board import Castle
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.defence import DEFENCES
from parlour.games.murdercastle.pieces import reveal_tile
from parlour.games.murdercastle.stack import Out, investigators, pop, private, public, push
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb


def wall_place(tile: int) -> int:
    """The choice id that stands for destroying a Brick Wall tile."""
    return tile * 2


def can_mimic(state: pb.State, seat: int, frame: pb.Frame | None) -> bool:
    """Lola may mimic the last card played or discarded (never a defence outside a defence)."""
    player = state.players[seat]
    if player.character != pb.CHARACTER_LOLA or player.ability_used or not state.event_discard:
        return False
    card = state.event_discard[-1]
    kind = cards.kind_of(card)
    if kind.kind in DEFENCES:
        return False
    if not kind.keep:
        return True
    return cards.playable(state, seat, card, frame)


def hoyt_targets(state: pb.State, seat: int) -> list[int]:
    """Players Hoyt can trade with (he needs a card, they need one)."""
    if not state.players[seat].keep:
        return []
    return [s for s in investigators(state) if s != seat and state.players[s].keep]


def jonah_choices(state: pb.State, seat: int) -> list[int]:
    """Rooms Jonah can wall off a doorway of, and Brick Walls beside his room he can destroy."""
    player = state.players[seat]
    castle = Castle(state)
    found = []
    if player.holds_brick_wall:
        found += [p for p in castle.places() if castle.explorable(p)]
    for side in castle.sides(player.place):
        other = castle.neighbour_tile(player.place, side)
        if other is not None and catalogue().is_brick_wall(other.tile):
            found.append(wall_place(other.tile))
    return sorted(set(found))


def _jeremiah_ok(state: pb.State, seat: int) -> bool:
    return bool(state.room_pile) and bool(Castle(state).explorable(state.players[seat].place))


def available(state: pb.State, seat: int, frame: pb.Frame | None) -> bool:
    """Whether the seat's ability can be used now."""
    player = state.players[seat]
    if player.ability_used:
        return False
    character = player.character
    if character == pb.CHARACTER_ABRAHAM:
        return True
    if character == pb.CHARACTER_LOLA:
        return can_mimic(state, seat, frame)
    if character == pb.CHARACTER_HOYT:
        return bool(hoyt_targets(state, seat))
    if character == pb.CHARACTER_JEREMIAH:
        return _jeremiah_ok(state, seat)
    if character == pb.CHARACTER_JONAH:
        return bool(jonah_choices(state, seat))
    return False


def ability_actions(state: pb.State, seat: int, frame: pb.Frame | None) -> list[pb.Action]:
    """[UseAbility] when the ability is available now."""
    return [pb.Action(ability=pb.UseAbility())] if available(state, seat, frame) else []


def use(state: pb.State, seat: int, out: Out, frame: pb.Frame | None = None) -> None:
    """Turn the Character Ability Token over and start the ability."""
    player = state.players[seat]
    player.ability_used = True
    out.append(public(pb.Event(ability=pb.AbilityUsed(seat=seat, character=player.character))))
    if player.character == pb.CHARACTER_LOLA:
        card = state.event_discard[-1]
        out.append(public(pb.Event(played=pb.EventPlayed(seat=seat, card=card, mimic=True))))
        cards.start_effect(state, seat, card, frame, mimic=True)
        return
    push(state, pb.FRAME_KIND_EFFECT, seat, source=seat, character=player.character)


def spare_adeline(state: pb.State, seat: int, out: Out) -> None:
    """Adeline avoids the strike and partners with Holmes."""
    player = state.players[seat]
    player.ability_used = True
    player.partnered = True
    out.append(public(pb.Event(ability=pb.AbilityUsed(seat=seat, character=player.character))))
    out.append(public(pb.Event(spared=pb.Spared(seat=seat, reason="Adeline"))))


def step(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """The next stage of an ability."""
    STEPS[frame.character](state, frame, out)


def _abraham(state: pb.State, frame: pb.Frame, out: Out) -> None:
    seat = frame.source
    if frame.count == 0:
        frame.count = 1
        push(state, pb.FRAME_KIND_CHOOSE_SEAT, seat,
             seats=[s for s in investigators(state) if s != seat])
        return
    pop(state)
    state.players[seat].top_hat = 1
    state.players[frame.target].top_hat = -1
    out.append(public(pb.Event(top_hats=pb.TopHats(seat=seat, target=frame.target))))


def _hoyt(state: pb.State, frame: pb.Frame, out: Out) -> None:
    seat = frame.source
    if frame.count == 0:
        frame.count = 1
        push(state, pb.FRAME_KIND_CHOOSE_SEAT, seat, seats=hoyt_targets(state, seat))
        return
    if frame.count == 1:
        frame.count = 2
        push(state, pb.FRAME_KIND_GIVE_CARD, seat)
        return
    pop(state)
    mine, theirs = state.players[seat], state.players[frame.target]
    taken = []
    with state_rng(state) as rng:
        for _ in range(min(2, len(theirs.keep))):
            card = theirs.keep[rng.below(len(theirs.keep))]
            theirs.keep.remove(card)
            taken.append(card)
    mine.keep.remove(frame.card)
    theirs.keep.append(frame.card)
    mine.keep.extend(taken)
    pair = {seat, frame.target}
    gave = pb.CardsTraded(from_seat=seat, to_seat=frame.target, cards=[frame.card], count=1)
    got = pb.CardsTraded(from_seat=frame.target, to_seat=seat, cards=taken, count=len(taken))
    out.extend(private(pair, pb.Event(traded=gave),
                       pb.Event(traded=pb.CardsTraded(from_seat=seat, to_seat=frame.target,
                                                      count=1))))
    out.extend(private(pair, pb.Event(traded=got),
                       pb.Event(traded=pb.CardsTraded(from_seat=frame.target, to_seat=seat,
                                                      count=len(taken)))))
    limit = catalogue().rules["keep_limit"]
    for who in (frame.target, seat):
        if len(state.players[who].keep) > limit:
            push(state, pb.FRAME_KIND_HAND_LIMIT, who)


def _jeremiah(state: pb.State, frame: pb.Frame, out: Out) -> None:
    seat = frame.source
    place = state.players[seat].place
    if frame.count == 0:
        frame.count = 1
        out.extend(private({seat},
                           pb.Event(peeked=pb.RoomsPeeked(seat=seat, tiles=state.room_pile)),
                           pb.Event(peeked=pb.RoomsPeeked(seat=seat))))
        push(state, pb.FRAME_KIND_PICK_ROOM_TILE, seat, place=place)
        return
    if frame.count == 1:
        frame.count = 2
        push(state, pb.FRAME_KIND_CHOOSE_DOOR, seat, place=place,
             places=Castle(state).explorable(place))
        return
    pop(state)
    state.room_pile.remove(frame.tile)
    reveal_tile(state, seat, place, frame.side, frame.tile, out)


def _jonah(state: pb.State, frame: pb.Frame, out: Out) -> None:
    seat = frame.source
    if frame.count == 0:
        frame.count = 1
        push(state, pb.FRAME_KIND_CHOOSE_PLACE, seat, places=jonah_choices(state, seat))
        return
    chosen = frame.places[0]
    castle = Castle(state)
    if catalogue().is_brick_wall(chosen // 2):
        pop(state)
        wall = castle.placed[chosen // 2]
        out.append(public(pb.Event(brick_wall=pb.BrickWallChanged(seat=seat, tile=wall,
                                                                  built=False))))
        index = next(i for i, t in enumerate(state.tiles) if t.tile == wall.tile)
        del state.tiles[index]
        state.boxed_brick_walls += 1
        return
    if frame.count == 1:
        frame.count = 2
        push(state, pb.FRAME_KIND_CHOOSE_DOOR, seat, place=chosen,
             places=castle.explorable(chosen))
        return
    pop(state)
    origin = castle.placed[chosen // 2]
    dx, dy = STEPS_XY[frame.side]
    wall = state.tiles.add(tile=catalogue().jonah_brick_wall, x=origin.x + dx, y=origin.y + dy,
                           level=origin.level)
    state.players[seat].holds_brick_wall = False
    out.append(public(pb.Event(brick_wall=pb.BrickWallChanged(seat=seat, tile=wall, built=True))))


STEPS = {
    pb.CHARACTER_ABRAHAM: _abraham,
    pb.CHARACTER_HOYT: _hoyt,
    pb.CHARACTER_JEREMIAH: _jeremiah,
    pb.CHARACTER_JONAH: _jonah,
}
