"""Play as Holmes: Holmes' Action Cards resolving on a selected Action Tile, and Holmes walking
through doorways where he chooses (Rulebook: Play as Holmes Gameplay; The Holmes' Action Cards /
Automa Deck (Play as Holmes)).

A card resolves as a HOLMES_CARD frame (automatic between the Holmes seat's choices). The cards
shared with Automa reuse `automa.STEPS`, with the Holmes seat making every choice; the movement
cards become HOLMES_WALK decisions, one room at a time.
"""

from __future__ import annotations

from parlour.games.murdercastle import automa, effects, holmes, play_as_holmes
from parlour.games.murdercastle.board import PHARMACY, Castle, place_of
from parlour.games.murdercastle.stack import NOBODY, Out, pop, public, push
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb


def reveal_on(state: pb.State, tile: int, out: Out) -> None:
    """A selected tile carrying a card: Holmes turns it over and resolves it before the
    selector's action; it goes back to the supply ("Holmes Moves up to 2 Rooms After a Holmes'
    Movement Card" goes on top of the movement deck instead)."""
    if not play_as_holmes.on(state):
        return
    card = play_as_holmes.take_from_tile(state, tile)
    if not card:
        return
    state.holmes_played.append(card)
    out.append(public(pb.Event(tile_card=pb.TileCardRevealed(tile=tile, card=card))))
    kind = play_as_holmes.kind(card)
    if kind == "holmes_moves_after":
        state.after_card = card
        return
    play_as_holmes.return_card(state, card, "played", out)
    play_as_holmes.start(state, card, optional=False)


def step(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """The next stage of the card on top of the stack."""
    kind = play_as_holmes.kind(frame.card)
    if kind in play_as_holmes.WALKS:
        _walk(state, frame, out)
    elif kind == "add_deathtrap":
        _deathtrap(state, frame, out)
    else:
        automa.STEPS[kind](state, frame, out)


# -- walking ---------------------------------------------------------------------------------
def walk_rooms(state: pb.State) -> list[int]:
    """Rooms one doorway (stairs, pathway) from Holmes, never the Pharmacy."""
    return [p for p in Castle(state).neighbours(state.holmes) if p != place_of(PHARMACY)]


def _company(state: pb.State) -> bool:
    """Whether an investigator is in Holmes' room (he "cannot move past you")."""
    return any(holmes.exposed(state, s, state.holmes) for s in range(state.seats))


def _walk(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """Lock the first unexplored doorways on the way, then one room at a time, stopping in a
    room with an investigator."""
    if frame.target and automa.lock_first(state, out):
        frame.target -= 1
        return
    automa_card = play_as_holmes.kind(frame.card) != "holmes_moves_after"
    if not frame.count or ((frame.started or automa_card) and _company(state)):
        pop(state)  # "Holmes does not move if Holmes occupies your room" (an Automa card)
        return
    frame.count -= 1
    push(state, pb.FRAME_KIND_HOLMES_WALK, frame.seat, places=walk_rooms(state),
         bonus=frame.bonus or frame.started)
    frame.started = True


def walk_options(state: pb.State, frame: pb.Frame) -> list[pb.Action]:
    """The rooms Holmes may step into, and stopping when the step is optional."""
    found = [pb.Action(place=pb.ChoosePlace(place=p)) for p in frame.places]
    return [*found, pb.Action(**{"pass": pb.Pass()})] if frame.bonus and found else found


def walk(state: pb.State, frame: pb.Frame, action: pb.Action, out: Out) -> None:
    """Step into the chosen room, or stop the walk (its Padlocks are still placed)."""
    pop(state)
    if action.WhichOneof("kind") == "pass":
        state.frames[-1].count = 0
        return
    holmes.enter(state, action.place.place, NOBODY, out)


# -- Add a Deathtrap ----------------------------------------------------------------------
def deathtrap_rooms(state: pb.State) -> list[int]:
    """Rooms a Deathtrap may go in: the Trapdoor rules, with a Landing Zone left for it."""
    return [r for r in effects.trapdoor_rooms(state, deathtrap=True)
            if effects.landing_rooms(state, r)]


def _deathtrap(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """Choose the Deathtrap's room, then its Landing Zone, then lay them."""
    if frame.count == 0:
        rooms = deathtrap_rooms(state)
        if not rooms:
            pop(state)
            return
        frame.count = 1
        push(state, pb.FRAME_KIND_CHOOSE_PLACE, frame.seat, places=rooms)
    elif frame.count == 1:
        frame.count = 2
        push(state, pb.FRAME_KIND_CHOOSE_PLACE, frame.seat,
             places=effects.landing_rooms(state, frame.places[0]))
    else:
        pop(state)
        trap = pb.Trapdoor(room=frame.places[0], landing=frame.places[1], deathtrap=True)
        state.trapdoors.append(trap)
        out.append(public(pb.Event(trapdoor=pb.TrapdoorChanged(trapdoor=trap, placed=True))))
