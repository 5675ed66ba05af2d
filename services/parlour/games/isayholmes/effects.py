"""Every card's special rule (Rulebook 2 Card Notes, 7 Specific Cards), keyed by `effect`."""

from __future__ import annotations

from collections.abc import Callable

from parlour.engine.game import Emitted, told
from parlour.engine.rng import state_rng
from parlour.engine.zones import move_one, remove_one, take_top
from parlour.games.isayholmes.catalogue import KINDS, Kind, value
from parlour.games.isayholmes.ending import arrest, finish_turn
from parlour.games.isayholmes.piles import draw_into_hand, left, reshuffle, right
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb


def start_effect(
    state: pb.State,
    seat: int,
    card: int,
    on_scotland_yard: bool,
    out: list[Emitted],
    *,
    drawn: bool = False,
) -> None:
    """A card has just gone onto the Discard Pile: begin its special rule, or end the turn."""
    kind = KINDS[card]
    state.effect.CopyFrom(
        pb.Effect(card=card, actor=seat, on_scotland_yard=on_scotland_yard, drawn=drawn)
    )
    if kind.victim == "OPPONENT":
        state.phase = pb.PHASE_TARGET
    elif kind.victim:
        neighbour = right if kind.victim == "PREVIOUS_OPPONENT" else left
        name_target(state, neighbour(state, seat), out)
    elif kind.effect:
        EFFECTS[kind.effect](state, kind, out)
    else:
        finish_turn(state, seat, out)


def name_target(state: pb.State, target: int, out: list[Emitted]) -> None:
    """The opponent the card hits is known: open its defence window, or resolve at once."""
    effect = state.effect
    effect.target = target
    named = pb.TargetNamed(seat=effect.actor, card=effect.card, target=target)
    out.append(Emitted(pb.Event(target_named=named)))
    if defences_against(state):
        state.phase = pb.PHASE_RESPOND
    else:
        resolve(state, out)


def defences_against(state: pb.State) -> frozenset[int]:
    """The defence cards that can block the threat being resolved."""
    card = pb.CARD_ARREST if state.effect.extra_arrest else state.effect.card
    return KINDS[card].defences


def resolve(state: pb.State, out: list[Emitted]) -> None:
    """Nobody defended: carry out the card's penalty or action on its target."""
    effect = state.effect
    if effect.extra_arrest:
        arrest(state, effect.actor, effect.target, pb.CARD_ARREST, True, out)
        return
    kind = KINDS[effect.card]
    EFFECTS[kind.effect](state, kind, out)


# -- the special rules, one function per `effect` name in the data -------------------
def _arrest(state: pb.State, kind: Kind, out: list[Emitted]) -> None:
    """Arrest, Holmes, Watson: Arrest the named opponent (Rulebook 5, Arrest)."""
    effect = state.effect
    arrest(state, effect.actor, effect.target, kind.id, kind.unlawful_arrest_penalty, out)


def _draw(state: pb.State, kind: Kind, out: list[Emitted]) -> None:
    """Boat, Foot Chase, I Suspect, Scotland Yard, Inspector: the victim draws `count` cards."""
    effect = state.effect
    draw_into_hand(state, effect.target, kind.count, kind.id, out)
    if inspector_may_still_arrest(state):
        state.phase = pb.PHASE_EXTRA_ARREST
    else:
        finish_turn(state, effect.actor, out)


def inspector_may_still_arrest(state: pb.State) -> bool:
    """Whether the Inspector's Arrest on a Scotland Yard is still to come: after the draw, or
    after an Alibi, which prevents only the draw (Rulebook 7, Inspector; Alibi)."""
    effect = state.effect
    return effect.card == pb.CARD_INSPECTOR and effect.on_scotland_yard and not effect.extra_arrest


def _add_score(state: pb.State, kind: Kind, out: list[Emitted]) -> None:
    """Telegram: the named opponent adds `count` (10) points to their score."""
    change_score(state, state.effect.target, kind.count, kind.id, out)
    finish_turn(state, state.effect.actor, out)


def _look_at_random(state: pb.State, kind: Kind, out: list[Emitted]) -> None:
    """Clue: look at `count` (2) cards of the opponent chosen at random (fewer if it has fewer)."""
    effect = state.effect
    cards = list(state.hands[effect.target].cards)
    with state_rng(state) as rng:
        rng.shuffle(cards)
    record_peek(state, effect.actor, kind.id, effect.target, cards[: kind.count], out)
    finish_turn(state, effect.actor, out)


def _look_at_hand(state: pb.State, kind: Kind, out: list[Emitted]) -> None:
    """Deduction: a free look at the opponent's whole hand."""
    effect = state.effect
    record_peek(
        state, effect.actor, kind.id, effect.target, list(state.hands[effect.target].cards), out
    )
    finish_turn(state, effect.actor, out)


def _show_highest(state: pb.State, kind: Kind, out: list[Emitted]) -> None:
    """Disguise: the opponent must choose which of its highest cards to show (none if empty)."""
    effect = state.effect
    if state.hands[effect.target].cards:
        state.phase = pb.PHASE_SHOW
        return
    record_peek(state, effect.actor, kind.id, effect.target, [], out)
    finish_turn(state, effect.actor, out)


def _give_card(state: pb.State, kind: Kind, out: list[Emitted]) -> None:
    """Constabulary: the player chooses a card to pass (nothing if its hand is empty)."""
    if state.hands[state.effect.actor].cards:
        state.phase = pb.PHASE_GIVE
    else:
        finish_turn(state, state.effect.actor, out)


def _trade_hands(state: pb.State, kind: Kind, out: list[Emitted]) -> None:
    """Mycroft: trade hands with the named opponent."""
    trade_hands(state, state.effect.actor, state.effect.target, out)
    finish_turn(state, state.effect.actor, out)


def _redeal(state: pb.State, kind: Kind, out: list[Emitted]) -> None:
    """Thick Fog: every hand is pooled and dealt back, each player as many cards as before."""
    redeal(state, state.effect.actor, out)
    finish_turn(state, state.effect.actor, out)


def _reshuffle(state: pb.State, kind: Kind, out: list[Emitted]) -> None:
    """Plot Thickens: the discards (and this card) go back into the Draw Pile."""
    reshuffle(state, out, plot_thickens=True)
    finish_turn(state, state.effect.actor, out)


def _flee(state: pb.State, kind: Kind, out: list[Emitted]) -> None:
    """Fleeing: the player may discard a Villain (asked even without one, to keep hands secret)."""
    state.phase = pb.PHASE_FLEE


EFFECTS: dict[str, Callable[[pb.State, Kind, list[Emitted]], None]] = {
    "ARREST": _arrest,
    "DRAW": _draw,
    "ADD_SCORE": _add_score,
    "LOOK_AT_RANDOM": _look_at_random,
    "LOOK_AT_HAND": _look_at_hand,
    "SHOW_HIGHEST": _show_highest,
    "GIVE_CARD": _give_card,
    "TRADE_HANDS": _trade_hands,
    "REDEAL": _redeal,
    "RESHUFFLE": _reshuffle,
    "FLEE": _flee,
}


def change_score(state: pb.State, seat: int, delta: int, card: int, out: list[Emitted]) -> None:
    """Add points to a seat's running score (Telegram, I Say, Fleeing)."""
    state.scores[seat] += delta
    out.append(Emitted(pb.Event(score_changed=pb.ScoreChanged(seat=seat, delta=delta, card=card))))


def record_peek(
    state: pb.State, seat: int, source: int, target: int, cards: list[int], out: list[Emitted]
) -> None:
    """A seat looked at cards of an opponent: everyone learns how many, only it learns which."""
    cards = sorted(cards)
    state.peeks[seat].CopyFrom(pb.Peek(source=source, target=target, cards=cards))
    seen = pb.CardsSeen(seat=seat, target=target, source=source, count=len(cards))
    private = pb.CardsSeen(seat=seat, target=target, source=source, count=len(cards),
                           cards=cards)
    out += told(pb.Event(seen=seen), [(pb.Event(seen=private), [seat] if cards else [])])


def highest_cards(state: pb.State, seat: int) -> list[int]:
    """The distinct card kinds tied for the highest value in a hand (Disguise)."""
    hand = state.hands[seat].cards
    top = max(value(c) for c in hand)
    return sorted({c for c in hand if value(c) == top})


def show(state: pb.State, card: int, out: list[Emitted]) -> None:
    """Disguise: the target secretly shows one of its highest cards to the player."""
    effect = state.effect
    record_peek(state, effect.actor, effect.card, effect.target, [card], out)
    finish_turn(state, effect.actor, out)


def give(state: pb.State, card: int, out: list[Emitted]) -> None:
    """Constabulary: the player secretly passes a card to the named opponent."""
    effect = state.effect
    move_one(
        state.hands[effect.actor].cards, state.hands[effect.target].cards, card, "CARD_NOT_IN_HAND"
    )
    out += told(pb.Event(given=pb.CardGiven(seat=effect.actor, target=effect.target)), [
        (pb.Event(given=pb.CardGiven(seat=effect.actor, target=effect.target, card=card)),
         [effect.actor, effect.target])])
    finish_turn(state, effect.actor, out)


def flee(state: pb.State, villain: int, out: list[Emitted]) -> None:
    """Fleeing: set aside the chosen Villain (if any), then score -10."""
    seat = state.effect.actor
    if villain:
        remove_one(state.hands[seat].cards, villain, "CARD_NOT_IN_HAND")
        state.set_aside.append(villain)
        out.append(
            Emitted(pb.Event(villain_discarded=pb.VillainDiscarded(seat=seat, card=villain)))
        )
    change_score(state, seat, KINDS[pb.CARD_FLEEING].count, pb.CARD_FLEEING, out)
    finish_turn(state, seat, out)


def trade_hands(state: pb.State, seat: int, target: int, out: list[Emitted]) -> None:
    """Mycroft: the player and the named opponent swap hands."""
    mine, theirs = list(state.hands[seat].cards), list(state.hands[target].cards)
    state.hands[seat].cards[:] = theirs
    state.hands[target].cards[:] = mine
    out += told(pb.Event(traded=pb.HandsTraded(seat=seat, target=target)), [
        (pb.Event(traded=pb.HandsTraded(seat=seat, target=target, hand=sorted(hand))), [who])
        for who, hand in ((seat, theirs), (target, mine))])


def redeal(state: pb.State, seat: int, out: list[Emitted]) -> None:
    """Thick Fog: pool every hand, shuffle, and deal each player back as many cards as they put
    in, starting from the player's left (see RULES.md, Thick Fog)."""
    sizes = [len(h.cards) for h in state.hands]
    pool = [c for hand in state.hands for c in hand.cards]
    with state_rng(state) as rng:
        rng.shuffle(pool)
    for offset in range(1, state.seats + 1):
        hand = state.hands[(seat + offset) % state.seats].cards
        hand[:] = take_top(pool, len(hand))
    out += told(pb.Event(redealt=pb.HandsRedealt(hand_sizes=sizes)), [
        (pb.Event(redealt=pb.HandsRedealt(hand_sizes=sizes, hand=sorted(hand.cards))), [s])
        for s, hand in enumerate(state.hands)])


def choose_extra_arrest(state: pb.State, target: int, out: list[Emitted]) -> None:
    """Inspector on Scotland Yard: the player also Arrests the named opponent."""
    state.effect.extra_arrest = True
    name_target(state, target, out)
