"""Event Cards in hand: drawing, the Keep limit, and when each card may be played (Rulebook:
Draw an Event Card; Event Card Overview)."""

from __future__ import annotations

from parlour.engine.rng import state_rng
from parlour.games.murdercastle.catalogue import EventKind, catalogue
from parlour.games.murdercastle.defence import DEFENCES, gasping
from parlour.games.murdercastle.effects import EFFECTS
from parlour.games.murdercastle.hooks import rules
from parlour.games.murdercastle.stack import Out, private, public, push
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

COURAGE = {pb.ACTION_TILE_EXPLORE: 1, pb.ACTION_TILE_COLLECT: 1, pb.ACTION_TILE_MOVE_ONE: 1,
           pb.ACTION_TILE_MOVE_ONE_CROWD: 1, pb.ACTION_TILE_MOVE_TWO: 2}


def kind_of(card: int) -> EventKind:
    """The catalogue kind of a card id."""
    return catalogue().event(card)



# -- drawing -------------------------------------------------------------------
def draw(state: pb.State, seat: int, out: Out) -> None:
    """Draw an Event Card: keep it secretly, or resolve a Play Now card at once."""
    if not state.event_deck:
        state.event_deck.extend(state.event_discard)
        del state.event_discard[:]
        with state_rng(state) as rng:
            rng.shuffle(state.event_deck)
    if not state.event_deck:
        return
    card = state.event_deck.pop()
    if rules(state).drawn(state, seat, card, out):
        return
    if kind_of(card).keep:
        player = state.players[seat]
        player.keep.append(card)
        out.extend(private({seat}, pb.Event(drawn=pb.EventDrawn(seat=seat, card=card)),
                           pb.Event(drawn=pb.EventDrawn(seat=seat))))
        if len(player.keep) > catalogue().rules["keep_limit"]:
            push(state, pb.FRAME_KIND_HAND_LIMIT, seat)
        return
    out.append(public(pb.Event(drawn=pb.EventDrawn(seat=seat, card=card))))
    state.event_discard.append(card)
    out.append(public(pb.Event(played=pb.EventPlayed(seat=seat, card=card))))
    push(state, pb.FRAME_KIND_EFFECT, seat, card=card, source=seat)


# -- when cards may be played ------------------------------------------------------
def playable(state: pb.State, seat: int, card: int, frame: pb.Frame | None = None) -> bool:
    """Whether a seat may play this Keep card now (`frame`: the ACT frame it would join)."""
    kind = kind_of(card)
    if kind.kind in DEFENCES:
        return False
    if kind.kind == "holmes_alerted_keep" and rules(state).alerted_keep_blocked(state):
        return False
    if kind.kind == "liquid_courage":
        return (frame is not None and frame.action in COURAGE and not frame.courage
                and not (frame.action == pb.ACTION_TILE_EXPLORE and state.explore_flipped))
    return EFFECTS[kind.kind][0](state, seat)


def plays(state: pb.State, seat: int, frame: pb.Frame | None = None) -> list[pb.Action]:
    """PlayEvent actions for every distinct playable card in hand."""
    if gasping(state, seat):
        return []
    found: dict[str, int] = {}
    for card in sorted(state.players[seat].keep):
        name = kind_of(card).kind
        if name not in found and playable(state, seat, card, frame):
            found[name] = card
    return [pb.Action(play=pb.PlayEvent(card=c)) for c in sorted(found.values())]


def play(state: pb.State, seat: int, card: int, out: Out, frame: pb.Frame | None = None) -> None:
    """Play a Keep card from hand."""
    player = state.players[seat]
    player.keep.remove(card)
    state.event_discard.append(card)
    out.append(public(pb.Event(played=pb.EventPlayed(seat=seat, card=card))))
    start_effect(state, seat, card, frame, mimic=False)


def start_effect(state: pb.State, seat: int, card: int, frame: pb.Frame | None,
                 mimic: bool) -> None:
    """Begin a card's effect (Liquid Courage joins the ACT frame directly)."""
    if kind_of(card).kind == "liquid_courage":
        assert frame is not None and frame.kind == pb.FRAME_KIND_ACT
        frame.count += COURAGE[frame.action]
        frame.courage = True
        return
    push(state, pb.FRAME_KIND_EFFECT, seat, card=card, source=seat, bonus=mimic)


def discard(state: pb.State, seat: int, card: int, out: Out) -> None:
    """Discard a Keep card (over the limit of 3)."""
    state.players[seat].keep.remove(card)
    state.event_discard.append(card)
    out.append(public(pb.Event(discarded=pb.EventDiscarded(seat=seat, card=card))))


def hand_limit_options(state: pb.State, seat: int) -> list[pb.Action]:
    """Play or discard one of 4 Keep cards (only discard in the Asphyxiation Chamber)."""
    keep = sorted(set(state.players[seat].keep))
    return plays(state, seat) + [pb.Action(discard=pb.Discard(card=c)) for c in keep]


