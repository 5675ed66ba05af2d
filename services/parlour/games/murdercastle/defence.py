"""Defending against attacks: who is asked, with which cards, and cancelling the effect.

A targeted seat owes a DEFEND decision whenever it holds any Keep card (or Lola can
mimic a matching defence), judged on public facts only so the question leaks nothing.
"""

from __future__ import annotations

from parlour.games.murdercastle.board import PHARMACY, place_of, room_special
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.stack import Out, pop, public, push
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

DEFENCES = ("not_so_fast", "player_dexterity", "barter")
#: The attack card of a DEFEND frame that answers a Trapdoor fall.
TRAPDOOR_FALL = 0


def gasping(state: pb.State, seat: int) -> bool:
    """Whether a seat is in the Asphyxiation Chamber (no Keep cards may be played)."""
    return room_special(state.players[seat].place) == "asphyxiation"



def defence_cards(state: pb.State, seat: int, category: str, attack: int = 0,
                  attacker: int = 0) -> list[int]:
    """Cards in hand that cancel an attack of this category (never in the Asphyxiation Chamber);
    a Snitch also answers a Snitch when Holmes could be sent to the attacker instead."""
    if gasping(state, seat):
        return []
    retaliate = (bool(attack) and catalogue().event(attack).kind == "snitch"
                 and state.players[attacker].place not in (place_of(PHARMACY), state.holmes))
    found: dict[str, int] = {}
    for card in sorted(state.players[seat].keep):
        kind = catalogue().event(card)
        answers = category in kind.defends or (retaliate and kind.kind == "snitch")
        if answers and kind.kind not in found:
            found[kind.kind] = card
    return sorted(found.values())


def can_mimic_defence(state: pb.State, seat: int, category: str) -> bool:
    """Lola may answer an attack by mimicking a matching defence on top of the discard pile."""
    player = state.players[seat]
    if player.character != pb.CHARACTER_LOLA or player.ability_used or not state.event_discard:
        return False
    return category in catalogue().event(state.event_discard[-1]).defends


def may_be_asked(state: pb.State, seat: int, category: str) -> bool:
    """Whether a target owes a defend-or-decline decision (decided from public facts only)."""
    if can_mimic_defence(state, seat, category):
        return True
    return bool(state.players[seat].keep) and not gasping(state, seat)


def ask_defence(state: pb.State, effect: pb.Frame, target: int, category: str) -> bool:
    """Push a DEFEND frame for a target when it may defend; True if pushed."""
    effect.target = target
    effect.cancelled = False
    if effect.bonus or not may_be_asked(state, target, category):
        return False
    push(state, pb.FRAME_KIND_DEFEND, target, card=effect.card, source=effect.source,
         tile=category_code(category))
    return True


CATEGORIES = ("player", "room", "play_now", "five_door")


def category_code(category: str) -> int:
    """The category of an attack as stored in a DEFEND frame's `tile`."""
    return CATEGORIES.index(category) + 1


def defend_category(frame: pb.Frame) -> str:
    """The category of the attack a DEFEND frame answers."""
    return CATEGORIES[frame.tile - 1]


def defend_options(state: pb.State, frame: pb.Frame) -> list[pb.Action]:
    """Defence cards (and Lola's mimic) the target may use, or decline."""
    category = defend_category(frame)
    found = [pb.Action(play=pb.PlayEvent(card=c))
             for c in defence_cards(state, frame.seat, category, frame.card, frame.source)]
    if can_mimic_defence(state, frame.seat, category):
        found.append(pb.Action(ability=pb.UseAbility()))
    return [*found, pb.Action(**{"pass": pb.Pass()})]


def defend(state: pb.State, frame: pb.Frame, card: int, out: Out) -> None:
    """Cancel the attack for this target (card 0: Lola's mimic)."""
    seat = frame.seat
    if card:
        state.players[seat].keep.remove(card)
        state.event_discard.append(card)
        out.append(public(pb.Event(played=pb.EventPlayed(seat=seat, card=card,
                                                         target=frame.source + 1))))
    out.append(public(pb.Event(cancelled=pb.EventCancelled(seat=seat, card=frame.card,
                                                           defence=card))))
    pop(state)
    state.frames[-1].cancelled = True
    if card and catalogue().event(card).kind == "snitch":
        push(state, pb.FRAME_KIND_EFFECT, seat, card=card, source=seat, count=1,
             target=frame.source)

