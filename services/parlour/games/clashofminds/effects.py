"""Card effects as small named code keyed by catalogue key.

Three families: an Influence Card's effect when used, a Crime Plan Card's
effect when revealed, and an Agent's ability when activated. Effects that
need a choice leave a PendingEffect; `targets` lists its legal answers and
`resolve` applies one.
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.engine.game import Emitted, IllegalAction
from parlour.games.clashofminds.catalogue import CARD_ID, CATALOGUE, HOLMES, MORIARTY, THREADS
from parlour.games.clashofminds.table import (
    PUBLIC,
    discard_random,
    discarded,
    draw,
    move_clock,
    only,
    opponent,
)
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

Effect = Callable[[pb.State, int, int, int], list[Emitted]]
INFLUENCE = pb.EFFECT_SOURCE_INFLUENCE
AGENT = pb.EFFECT_SOURCE_AGENT


# -- Influence Cards: when used -------------------------------------------------------
def _no_use_effect(state: pb.State, seat: int, thread: int, index: int) -> list[Emitted]:
    """Constant-effect cards (Fingerprints, Footprints) do nothing more when used."""
    return []


def _informant(state: pb.State, seat: int, thread: int, index: int) -> list[Emitted]:
    """Draw 1 Influence Card."""
    return draw(state, seat, 1)


def _bribe(state: pb.State, seat: int, thread: int, index: int) -> list[Emitted]:
    """The opponent discards 1 random card from hand."""
    events = discard_random(state, opponent(seat), 1, "bribe")
    return events or _fizzled(seat, INFLUENCE, CARD_ID["bribe"])


def _cipher(state: pb.State, seat: int, thread: int, index: int) -> list[Emitted]:
    """The opponent discards the top card of his Influence Deck."""
    rival = state.players[opponent(seat)]
    if not rival.deck:
        return _fizzled(seat, INFLUENCE, CARD_ID["cipher"])
    card = rival.deck.pop()
    rival.discard.append(card)
    return [discarded(opponent(seat), [card], "cipher")]


def _telegram(state: pb.State, seat: int, thread: int, index: int) -> list[Emitted]:
    """Draw 2 Influence Cards, then discard 1 from hand (a pending choice)."""
    events = draw(state, seat, 2)
    return events + _wait_or_fizzle(state, seat, INFLUENCE, CARD_ID["telegram"], thread, index)


def _targeted(key: str) -> Effect:
    def start(state: pb.State, seat: int, thread: int, index: int) -> list[Emitted]:
        return _wait_or_fizzle(state, seat, INFLUENCE, CARD_ID[key], thread, index)

    start.__doc__ = f"{key}: choose a target (a pending effect)."
    return start


USE_EFFECTS: dict[str, Effect] = {
    "fingerprints": _no_use_effect,
    "footprints": _no_use_effect,
    "informant": _informant,
    "bribe": _bribe,
    "cipher": _cipher,
    "telegram": _telegram,
    "street_urchin": _targeted("street_urchin"),
    "witness": _targeted("witness"),
    "disguise": _targeted("disguise"),
    "forged_letter": _targeted("forged_letter"),
}


def on_use(state: pb.State, seat: int, thread: int, index: int) -> list[Emitted]:
    """Resolve the effect of the Influence Card just used."""
    card = state.threads[thread].sides[seat].cards[index].card
    return USE_EFFECTS[CATALOGUE.influence[card].key](state, seat, thread, index)


# -- Agents: when activated ----------------------------------------------------------
def _agent_draw_two(state: pb.State, seat: int) -> list[Emitted]:
    """Mrs. Hudson / John Clay: draw 2 Influence Cards."""
    return draw(state, seat, 2)


def _agent_constant(state: pb.State, seat: int) -> list[Emitted]:
    """Dr. Watson / Sebastian Moran / Inspector Lestrade act while in play (Summary)."""
    return []


def _milverton(state: pb.State, seat: int) -> list[Emitted]:
    """Holmes discards 2 random cards from his hand."""
    return discard_random(state, HOLMES, 2, "milverton") or _fizzled(
        seat, AGENT, state.players[seat].agent.agent)


def _agent_targeted(state: pb.State, seat: int) -> list[Emitted]:
    """Mycroft Holmes / Fred Porlock: choose a Crime Thread (a pending effect)."""
    return _wait_or_fizzle(state, seat, AGENT, state.players[seat].agent.agent, 0, 0)


AGENT_ABILITIES: dict[str, Callable[[pb.State, int], list[Emitted]]] = {
    "watson": _agent_constant,
    "moran": _agent_constant,
    "lestrade": _agent_constant,
    "mrs_hudson": _agent_draw_two,
    "john_clay": _agent_draw_two,
    "milverton": _milverton,
    "mycroft": _agent_targeted,
    "porlock": _agent_targeted,
}


def on_activate(state: pb.State, seat: int) -> list[Emitted]:
    """Resolve the ability of the Agent just activated."""
    return AGENT_ABILITIES[CATALOGUE.agents[state.players[seat].agent.agent].key](state, seat)


# -- Crime Plan Cards: when revealed -------------------------------------------------
def _crime_passive(state: pb.State, thread: int) -> list[Emitted]:
    """The Prime Minister, Blackmail, Robbery, The Air Gun act "from now on" (see table.py)."""
    return []


def _duchess(state: pb.State, thread: int) -> list[Emitted]:
    """Move the Time Marker back 1 hour."""
    return [move_clock(state, -1, "duchess")]


def _dynamite(state: pb.State, thread: int) -> list[Emitted]:
    """Add 1 hour to the clock."""
    return [move_clock(state, 1, "dynamite")]


def _banker(state: pb.State, thread: int) -> list[Emitted]:
    """Holmes draws 2 Influence Cards."""
    return draw(state, HOLMES, 2)


def _poison(state: pb.State, thread: int) -> list[Emitted]:
    """Holmes discards 2 random cards from his hand."""
    return discard_random(state, HOLMES, 2, "poison")


def _kidnapping(state: pb.State, thread: int) -> list[Emitted]:
    """Both players discard all their Support Cards in this Crime Thread."""
    events = []
    for seat in (HOLMES, MORIARTY):
        side = state.threads[thread].sides[seat]
        supports = [c.card for c in side.cards if c.support]
        if supports:
            kept = [c for c in side.cards if not c.support]
            del side.cards[:]
            side.cards.extend(kept)
            state.players[seat].discard.extend(supports)
            events.append(discarded(seat, supports, "kidnapping"))
    return events


CRIME_EFFECTS: dict[str, Callable[[pb.State, int], list[Emitted]]] = {
    "prime_minister": _crime_passive,
    "blackmail": _crime_passive,
    "robbery": _crime_passive,
    "air_gun": _crime_passive,
    "duchess": _duchess,
    "dynamite": _dynamite,
    "banker": _banker,
    "poison": _poison,
    "kidnapping": _kidnapping,
}


def reveal_crime(state: pb.State, thread: int) -> list[Emitted]:
    """Turn a Crime Plan Card face up and resolve its effect immediately."""
    crime_thread = state.threads[thread]
    crime_thread.revealed = True
    if crime_thread.deduction_token:
        crime_thread.deduction_token = False
        state.deduction_supply += 1
    events = [Emitted(pb.Event(crime_card_revealed=pb.CrimeCardRevealed(
        thread=thread, crime_card=crime_thread.crime_card)))]
    return events + CRIME_EFFECTS[CATALOGUE.crime[crime_thread.crime_card].key](state, thread)


# -- pending effects: targets and resolution -----------------------------------------
def _fizzled(seat: int, source: int, card: int) -> list[Emitted]:
    return [Emitted(pb.Event(effect_fizzled=pb.EffectFizzled(seat=seat, source=source, card=card)))]


def _wait_or_fizzle(
    state: pb.State, seat: int, source: int, card: int, thread: int, index: int
) -> list[Emitted]:
    """Leave a pending effect if it has a target, else record that it fizzled."""
    state.effect.CopyFrom(pb.PendingEffect(
        seat=seat, source=source, card=card, thread=thread, index=index))
    if targets(state):
        return []
    state.ClearField("effect")
    return _fizzled(seat, source, card)


def effect_key(effect: pb.PendingEffect) -> str:
    """The catalogue key of a pending effect's source."""
    table = CATALOGUE.influence if effect.source == INFLUENCE else CATALOGUE.agents
    return table[effect.card].key


def targets(state: pb.State) -> list[pb.Action]:
    """Every legal answer to the pending effect."""
    effect = state.effect
    seat, thread, index = effect.seat, effect.thread, effect.index
    key = effect_key(effect)
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
    if key == "mycroft":
        return [pb.Action(target_thread=pb.TargetThread(thread=t))
                for t, ct in enumerate(state.threads) if not ct.revealed and not ct.seen_by_holmes]
    if key == "porlock":
        return [pb.Action(target_thread=pb.TargetThread(thread=t))
                for t, ct in enumerate(state.threads) if ct.deduction_token]
    raise AssertionError(f"no targets for {key}")


def resolve(state: pb.State, action: pb.Action) -> list[Emitted]:
    """Apply the chosen target of the pending effect and clear it."""
    if action not in targets(state):
        raise IllegalAction("NOT_A_TARGET", "that is not a legal target for the pending effect")
    effect = pb.PendingEffect()
    effect.CopyFrom(state.effect)
    state.ClearField("effect")
    return RESOLVERS[effect_key(effect)](state, effect, action)


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


def _look(state: pb.State, effect: pb.PendingEffect, action: pb.Action) -> list[Emitted]:
    """Mycroft Holmes: Holmes looks at a face-down Crime Plan Card."""
    thread = action.target_thread.thread
    crime_thread = state.threads[thread]
    crime_thread.seen_by_holmes = True
    return [
        Emitted(pb.Event(crime_card_seen=pb.CrimeCardSeen(thread=thread)), to=PUBLIC),
        Emitted(pb.Event(crime_card_seen=pb.CrimeCardSeen(
            thread=thread, crime_card=crime_thread.crime_card)), to=only(HOLMES)),
    ]


def _unmask(state: pb.State, effect: pb.PendingEffect, action: pb.Action) -> list[Emitted]:
    """Fred Porlock: a Deduction Token goes back to the supply."""
    thread = action.target_thread.thread
    state.threads[thread].deduction_token = False
    state.deduction_supply += 1
    return [Emitted(pb.Event(deduction_token_removed=pb.DeductionTokenRemoved(thread=thread)))]


RESOLVERS = {
    "street_urchin": _move,
    "forged_letter": _swap,
    "witness": _return,
    "disguise": _distract,
    "telegram": _telegram_discard,
    "mycroft": _look,
    "porlock": _unmask,
}
