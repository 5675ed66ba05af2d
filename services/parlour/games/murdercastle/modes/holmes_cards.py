"""Play as Holmes: Holmes' Action Cards resolving on a selected Action Tile, and Holmes walking
through doorways where he chooses (Rulebook: Play as Holmes Gameplay; The Holmes' Action Cards /
Automa Deck (Play as Holmes)).

A card resolves as a HOLMES_CARD frame (automatic between the Holmes seat's choices). The cards
shared with Automa reuse `automa.STEPS`, with the Holmes seat making every choice; the movement
cards become HOLMES_WALK decisions, one room at a time.
"""

from __future__ import annotations

from parlour.games.murdercastle import effects, flow, holmes
from parlour.games.murdercastle.actions import PASS
from parlour.games.murdercastle.board import PHARMACY, Castle, place_of
from parlour.games.murdercastle.modes import automa
from parlour.games.murdercastle.stack import NOBODY, Out, pop, public, push
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

#: Rooms Holmes may walk on each movement card, and Padlocks it adds on the way.
WALKS = {"move_1": (1, 0), "move_2": (2, 0), "move_2_lock_2": (2, 2), "holmes_moves_after": (2, 0)}


def kind(card: int) -> str:
    """A Holmes' Action Card's kind."""
    return automa.data().cards[card].kind


def step(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """The next stage of the card on top of the stack."""
    what = kind(frame.card)
    if what in WALKS:
        _walk(state, frame, out)
    elif what == "add_deathtrap":
        _deathtrap(state, frame, out)
    else:
        automa.STEPS[what](state, frame, out)


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
    automa_card = kind(frame.card) != "holmes_moves_after"
    if not frame.count or ((frame.started or automa_card) and _company(state)):
        pop(state)  # "Holmes does not move if Holmes occupies your room" (an Automa card)
        return
    frame.count -= 1
    push(state, pb.FRAME_KIND_HOLMES_WALK, frame.seat, places=walk_rooms(state),
         bonus=frame.bonus or frame.started)
    frame.started = True


def walk_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    """The rooms Holmes may step into (a choice of place, as the flow's), and stopping when
    the step is optional."""
    found = flow.place_options(state, frame, seat)
    return [*found, PASS] if frame.bonus and found else found


def walk(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
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
