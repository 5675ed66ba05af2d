"""Pending effects: an effect that needs a choice waits for its owner's target.

`wait_or_fizzle` starts one (or records that it has nothing to act on),
`targets` lists the legal answers and `resolve` applies the chosen one.
"""

from __future__ import annotations

from parlour.engine.game import Emitted, IllegalAction
from parlour.games.clashofminds.catalogue import CATALOGUE, THREADS
from parlour.games.clashofminds.hooks import added
from parlour.games.clashofminds.table import discarded, opponent
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

INFLUENCE = pb.EFFECT_SOURCE_INFLUENCE


def fizzled(seat: int, source: int, card: int) -> list[Emitted]:
    return [Emitted(pb.Event(effect_fizzled=pb.EffectFizzled(seat=seat, source=source, card=card)))]


def wait_or_fizzle(
    state: pb.State, seat: int, source: int, card: int, thread: int, index: int
) -> list[Emitted]:
    """Leave a pending effect if it has a target, else record that it fizzled."""
    state.effect.CopyFrom(pb.PendingEffect(
        seat=seat, source=source, card=card, thread=thread, index=index))
    if targets(state):
        return []
    state.ClearField("effect")
    return fizzled(seat, source, card)


def effect_key(effect: pb.PendingEffect) -> str:
    """The catalogue key of a pending effect's source."""
    table = CATALOGUE.influence if effect.source == INFLUENCE else added("sources")[
        effect.source].cards
    return table[effect.card].key


def targets(state: pb.State) -> list[pb.Action]:
    """Every legal answer to the pending effect."""
    effect = state.effect
    seat, thread, index = effect.seat, effect.thread, effect.index
    key = effect_key(effect)
    if effect.source != INFLUENCE:
        return added("sources")[effect.source].targets[key](state)
    own = [(t, i, c) for t in range(THREADS)
           for i, c in enumerate(state.threads[t].sides[seat].cards) if not c.support]
    rivals = list(enumerate(state.threads[thread].sides[opponent(seat)].cards))
    if key == "street_urchin":
        return [pb.Action(move_card=pb.MoveCard(thread=t, index=i, to_thread=to))
                for t, i, _ in own if (t, i) != (thread, index)
                for to in range(THREADS) if to != t]
    if key == "forged_letter":
        return [pb.Action(target_card=pb.TargetCard(thread=t, index=i))
                for t, i, _ in own if t != thread]
    if key == "witness":
        return [pb.Action(target_card=pb.TargetCard(thread=thread, index=i))
                for i, c in rivals if not c.support]
    if key == "disguise":
        if not state.distraction_supply:
            return []
        return [pb.Action(target_card=pb.TargetCard(thread=thread, index=i))
                for i, c in rivals if not c.support and c.used and not c.distracted]
    if key == "telegram":
        return [pb.Action(discard_card=pb.DiscardCard(card=c))
                for c in sorted(set(state.players[seat].hand))]
    raise AssertionError(f"no targets for {key}")


def resolve(state: pb.State, action: pb.Action) -> list[Emitted]:
    """Apply the chosen target of the pending effect and clear it."""
    if action not in targets(state):
        raise IllegalAction("NOT_A_TARGET", "that is not a legal target for the pending effect")
    effect = pb.PendingEffect()
    effect.CopyFrom(state.effect)
    state.ClearField("effect")
    resolvers = RESOLVERS if effect.source == INFLUENCE else added("sources")[
        effect.source].resolvers
    return resolvers[effect_key(effect)](state, effect, action)


def _move(state: pb.State, effect: pb.PendingEffect, action: pb.Action) -> list[Emitted]:
    """Street Urchin: move one of your other cards to another thread."""
    move = action.move_card
    side = state.threads[move.thread].sides[effect.seat].cards
    card = pb.PlacedCard()
    card.CopyFrom(side[move.index])
    del side[move.index]
    state.threads[move.to_thread].sides[effect.seat].cards.append(card)
    return [Emitted(pb.Event(card_moved=pb.CardMoved(
        seat=effect.seat, from_thread=move.thread, to_thread=move.to_thread, card=card.card)))]


def _swap(state: pb.State, effect: pb.PendingEffect, action: pb.Action) -> list[Emitted]:
    """Forged Letter: swap places with one of your cards in another thread."""
    target = action.target_card
    here = state.threads[effect.thread].sides[effect.seat].cards[effect.index]
    there = state.threads[target.thread].sides[effect.seat].cards[target.index]
    letter, other = pb.PlacedCard(), pb.PlacedCard()
    letter.CopyFrom(here)
    other.CopyFrom(there)
    here.CopyFrom(other)
    there.CopyFrom(letter)
    return [
        Emitted(pb.Event(card_moved=pb.CardMoved(seat=effect.seat, from_thread=effect.thread,
                                                 to_thread=target.thread, card=letter.card))),
        Emitted(pb.Event(card_moved=pb.CardMoved(seat=effect.seat, from_thread=target.thread,
                                                 to_thread=effect.thread, card=other.card))),
    ]


def _return(state: pb.State, effect: pb.PendingEffect, action: pb.Action) -> list[Emitted]:
    """Witness: an opposing card goes back to its owner's hand."""
    owner = opponent(effect.seat)
    side = state.threads[effect.thread].sides[owner].cards
    card = side[action.target_card.index]
    if card.distracted:
        state.distraction_supply += 1
    state.players[owner].hand.append(card.card)
    returned = pb.CardReturned(seat=owner, thread=effect.thread, card=card.card)
    del side[action.target_card.index]
    return [Emitted(pb.Event(card_returned=returned))]


def _distract(state: pb.State, effect: pb.PendingEffect, action: pb.Action) -> list[Emitted]:
    """Disguise: an opposing used card gets a Distraction Token."""
    owner = opponent(effect.seat)
    card = state.threads[effect.thread].sides[owner].cards[action.target_card.index]
    card.distracted = True
    state.distraction_supply -= 1
    return [Emitted(pb.Event(card_distracted=pb.CardDistracted(
        seat=owner, thread=effect.thread, card=card.card)))]


def _telegram_discard(
    state: pb.State, effect: pb.PendingEffect, action: pb.Action
) -> list[Emitted]:
    """Telegram: discard the chosen card from hand."""
    player = state.players[effect.seat]
    player.hand.remove(action.discard_card.card)
    player.discard.append(action.discard_card.card)
    return [discarded(effect.seat, [action.discard_card.card], "telegram")]


RESOLVERS = {
    "street_urchin": _move,
    "forged_letter": _swap,
    "witness": _return,
    "disguise": _distract,
    "telegram": _telegram_discard,
}
