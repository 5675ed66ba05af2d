"""Holmes' Ability Cards, Play as Holmes (Rulebook: Play as Holmes: Holmes' Control Panel:
"Holmes will read through each of the 3 Holmes' Ability Cards to all players and then
secretly select 1"; Play as Holmes Gameplay: "Holmes can play a Holmes' Ability Card at any
time and Event Cards or player abilities cannot be used to stop a Holmes' Ability Card").

The rulebook never prints the three cards: `data/holmes_abilities.json` reconstructs them
(an invention written down in RULES.md). Holmes chooses one as his first decision; it stays
hidden from the investigators until he plays it, once, in any Event Card window.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.rng import Rng
from parlour.games.murdercastle import effects, holmes
from parlour.games.murdercastle.board import PHARMACY, Castle, place_of
from parlour.games.murdercastle.cubes import move, present, total
from parlour.games.murdercastle.modes.components import abilities
from parlour.games.murdercastle.stack import (
    Out,
    holmes_seat,
    investigators,
    pop,
    private,
    public,
    push,
)
from parlour.games.murdercastle.v1 import junction_pb2 as jpb
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb


# -- choosing at setup --------------------------------------------------------------------
def setup(state: pb.State, holmes: int) -> None:
    """Holmes' first decision: choose one of the 3 cards, secretly."""
    push(state, pb.FRAME_KIND_CHOOSE_HOLMES_ABILITY, holmes)


def choose_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    """One choice per card."""
    return [pb.Action(choose_ability=jpb.ChooseHolmesAbility(ability=a)) for a in abilities()]


def choose(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    """Keep the chosen card face down; the others go back in the box."""
    pop(state)
    state.junction.ability = action.choose_ability.ability
    out.extend(private({seat}, pb.Event(ability_chosen=jpb.HolmesAbilityChosen(
        ability=state.junction.ability)), pb.Event(ability_chosen=jpb.HolmesAbilityChosen())))


# -- playing it --------------------------------------------------------------------------
def targets(state: pb.State, ability: int, seats: Sequence[int]) -> list[int]:
    """The rooms a card can be aimed at (never the Pharmacy): The Alarm System any explored
    room but Holmes' own; Acid and Quicklime a room holding evidence; The Gas Fixtures a room
    where an investigator holds evidence."""
    castle = Castle(state)
    rooms = [p for p in castle.places() if p != place_of(PHARMACY)]
    if ability == jpb.HOLMES_ABILITY_ALARM:
        return [p for p in rooms if p != state.holmes]
    if ability == jpb.HOLMES_ABILITY_ACID:
        return [p for p in rooms if present(castle.safe(p))]
    return [p for p in rooms if gassed(state, p, seats)]


def gassed(state: pb.State, place: int, seats: Sequence[int]) -> list[int]:
    """Investigators in a room who hold evidence, in seat order."""
    return [s for s in seats if state.players[s].place == place
            and not state.players[s].partnered and total(state.players[s].board)]


def may_use(state: pb.State) -> bool:
    """Whether Holmes still holds his card (public: whether it is played, not which it is)."""
    return bool(state.junction.ability) and not state.junction.ability_used


def window_seats(state: pb.State) -> list[int]:
    """The Holmes seat, asked in every Event Card window between phases while he holds it."""
    return [holmes_seat(state)] if may_use(state) else []


def use_actions(state: pb.State, seats: Sequence[int]) -> list[pb.Action]:
    """[UseHolmesAbility] while the chosen card is unplayed and has a room to aim at."""
    if not may_use(state) or not targets(state, state.junction.ability, seats):
        return []
    return [pb.Action(holmes_ability=jpb.UseHolmesAbility())]


def use(state: pb.State, seat: int, out: Out) -> None:
    """Turn the card face up; it cannot be stopped (no defence is ever asked)."""
    junction = state.junction
    junction.ability_used = True
    out.append(public(pb.Event(holmes_ability=jpb.HolmesAbilityUsed(ability=junction.ability))))
    push(state, pb.FRAME_KIND_HOLMES_ABILITY, seat, card=junction.ability)


def step(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """Ask Holmes for the room, then resolve the card there."""
    seats = investigators(state)
    if not frame.started:
        frame.started = True
        push(state, pb.FRAME_KIND_CHOOSE_PLACE, frame.seat,
             places=targets(state, frame.card, seats))
        return
    pop(state)
    place = frame.places[0]
    if frame.card == jpb.HOLMES_ABILITY_ALARM:
        holmes.enter(state, place, holmes.NOBODY, out, answerable=False)
    elif frame.card == jpb.HOLMES_ABILITY_ACID:
        _acid(state, place, out)
    else:
        for victim in reversed(gassed(state, place, seats)):
            push(state, pb.FRAME_KIND_DROP_EVIDENCE, victim, count=1, place=place)


def _acid(state: pb.State, place: int, out: Out) -> None:
    """Every evidence cube of the room back into the Evidence Bag (Fake Evidence stays); an
    emptied room loses its Trapdoor."""
    safe = Castle(state).safe(place)
    for colour in present(safe):
        for _ in range(safe.counts[colour - 1]):
            move(safe, state.bag, colour)
            out.append(public(pb.Event(destroyed=pb.EvidenceDestroyed(place=place,
                                                                      colour=colour))))
    if not total(safe):
        effects.remove_trapdoor(state, place, out)


# -- hidden information -------------------------------------------------------------------
def seen(state: pb.State, seat: int | None, holmes: int) -> int:
    """The chosen card as a viewer sees it: Holmes always, everyone once it is played."""
    junction = state.junction
    return junction.ability if seat == holmes or junction.ability_used else 0


def resample(state: pb.State, seat: int | None, holmes: int, rng: Rng) -> None:
    """Another card Holmes may have chosen, for anyone who cannot see his."""
    if state.junction.ability and not seen(state, seat, holmes):
        state.junction.ability = rng.choice(sorted(abilities()))


DECISIONS = {pb.FRAME_KIND_CHOOSE_HOLMES_ABILITY: (choose_options, choose)}
AUTOMATIC = {pb.FRAME_KIND_HOLMES_ABILITY: step}
