"""Course of the Investigation: turns of Action Cards, the Final Turn triggers, the Final Turn.

A normal turn offers every unused Action Card; a revealed Final Turn card
offers only its own actions, applied to the thread it was placed in. Both go
through the same `Context` so each action is checked once, in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.engine.game import Emitted, IllegalAction
from parlour.engine.zones import remove_one
from parlour.games.clashofminds import effects
from parlour.games.clashofminds.catalogue import CATALOGUE, HOLMES, THREADS
from parlour.games.clashofminds.hooks import rules
from parlour.games.clashofminds.rounds import order_of_play, start_turn
from parlour.games.clashofminds.summary import conclude
from parlour.games.clashofminds.table import (
    at_site,
    can_draw,
    crime_in_force,
    discarded,
    draw,
    influence_limit,
    only,
    opponent,
)
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

MANDATORY = pb.ACTION_CARD_MANDATORY
ACTION_CARDS = tuple(sorted(CATALOGUE.actions))


@dataclass(frozen=True, slots=True)
class Context:
    """Which Action Cards a player may use now, and in which thread (None: any)."""

    cards: tuple[int, ...]
    thread: int | None
    final: bool


def context(state: pb.State, seat: int) -> Context:
    """The Action Cards available to the acting player."""
    if state.phase == pb.PHASE_FINAL_REVEAL:
        slot = open_slot(state, seat)
        return Context((slot.card,) if slot else (), slot.thread if slot else None, True)
    used = set(state.players[seat].used_actions)
    return Context(tuple(c for c in ACTION_CARDS if c not in used), None, False)


def open_slot(state: pb.State, seat: int) -> pb.FinalSlot | None:
    """The player's revealed Final Turn card still to use or skip."""
    return next((s for s in state.players[seat].final_slots if s.revealed and not s.resolved), None)


def _sides(card: int) -> tuple[str, ...]:
    return CATALOGUE.actions[card].sides


def _require_card(ctx: Context, card: int, side: str) -> None:
    if card not in ctx.cards:
        raise IllegalAction("ACTION_CARD_NOT_AVAILABLE", "that Action Card is not available now")
    if side not in _sides(card):
        raise IllegalAction("NOT_ON_THIS_CARD", f"this Action Card has no '{side}' action")


def _require_thread(ctx: Context, thread: int) -> None:
    if thread >= THREADS:
        raise IllegalAction("NO_SUCH_THREAD", f"thread {thread} does not exist")
    if ctx.thread is not None and thread != ctx.thread:
        raise IllegalAction("WRONG_THREAD", "a Final Turn action applies only to its own thread")


def can_play(state: pb.State, seat: int) -> bool:
    """Whether the player has a card to put into play under the Influence Card Limit."""
    player = state.players[seat]
    return bool(player.hand) and player.played_this_round < influence_limit(state)


def _mark_used(state: pb.State, seat: int, ctx: Context, card: int) -> list[Emitted]:
    if ctx.final:
        open_slot(state, seat).resolved = True
        return []
    state.players[seat].used_actions.append(card)
    return [Emitted(pb.Event(action_card_used=pb.ActionCardUsed(seat=seat, card=card)))]


# -- actions -----------------------------------------------------------------------------
def play_influence(state: pb.State, seat: int, action: pb.PlayInfluence) -> list[Emitted]:
    """Mandatory Action: put one Influence Card into play, face up, in a thread."""
    ctx = context(state, seat)
    _require_card(ctx, MANDATORY, "play")
    _require_thread(ctx, action.thread)
    player = state.players[seat]
    if player.played_this_round >= influence_limit(state):
        raise IllegalAction("INFLUENCE_LIMIT_REACHED", "the site's Influence Card Limit is reached")
    remove_one(player.hand, action.card, "CARD_NOT_IN_HAND")
    state.threads[action.thread].sides[seat].cards.add(card=action.card)
    player.played_this_round += 1
    events = [Emitted(pb.Event(influence_played=pb.InfluencePlayed(
        seat=seat, thread=action.thread, card=action.card)))]
    return _mark_used(state, seat, ctx, MANDATORY) + events


def pass_mandatory(state: pb.State, seat: int) -> list[Emitted]:
    """Mandatory Action with nothing to play: it simply ends."""
    ctx = context(state, seat)
    _require_card(ctx, MANDATORY, "play")
    if can_play(state, seat):
        raise IllegalAction("MUST_PLAY_A_CARD", "you have a card you can put into play")
    state.mandatory_empty = True
    return _mark_used(state, seat, ctx, MANDATORY) + [
        Emitted(pb.Event(mandatory_passed=pb.MandatoryPassed(seat=seat)))]


def draw_influence(state: pb.State, seat: int, action: pb.DrawInfluence) -> list[Emitted]:
    """Optional action: draw one Influence Card."""
    ctx = context(state, seat)
    _require_card(ctx, action.action_card, "draw")
    if at_site(state, "diogenes_club"):
        raise IllegalAction("DRAW_FORBIDDEN_HERE", "The Diogenes Club forbids drawing")
    if not can_draw(state, seat):
        raise IllegalAction("NOTHING_TO_DRAW", "your deck and discard pile are empty")
    return _mark_used(state, seat, ctx, action.action_card) + draw(state, seat, 1)


def usable(state: pb.State, seat: int, thread: int, index: int) -> bool:
    """Whether a card on the player's side can be used (turned horizontally)."""
    cards = state.threads[thread].sides[seat].cards
    if index >= len(cards):
        return False
    card = cards[index]
    return not (card.support or card.used or card.face_down)


def use_influence(state: pb.State, seat: int, action: pb.UseInfluence) -> list[Emitted]:
    """Optional action: use one of your Influence Cards in play and resolve its effect."""
    ctx = context(state, seat)
    _require_card(ctx, action.action_card, "use")
    _require_thread(ctx, action.thread)
    if not usable(state, seat, action.thread, action.index):
        raise IllegalAction("CARD_NOT_USABLE", "no unused Influence Card of yours there")
    card = state.threads[action.thread].sides[seat].cards[action.index]
    card.used = True
    events = _mark_used(state, seat, ctx, action.action_card)
    events.append(Emitted(pb.Event(card_used=pb.CardUsed(
        seat=seat, thread=action.thread, card=card.card))))
    return events + effects.on_use(state, seat, action.thread, action.index)


def keeps_last_card(state: pb.State, seat: int, ctx: Context) -> bool:
    """"During his turn the player must place one Influence Card": the last card in hand
    cannot become a Support while the Mandatory Action could still put it into play."""
    return (not ctx.final and MANDATORY in ctx.cards and len(state.players[seat].hand) == 1
            and can_play(state, seat))


def support_context(state: pb.State, seat: int, action: pb.AddSupport) -> Context:
    """What every Add one Support Card checks first: its Action Card, and the last card in
    hand kept for the Mandatory Action."""
    ctx = context(state, seat)
    _require_card(ctx, action.action_card, "support")
    if keeps_last_card(state, seat, ctx):
        raise IllegalAction("KEEP_A_CARD_TO_PLAY", "your last card must go into play first")
    return ctx


def supported(
    state: pb.State, seat: int, ctx: Context, action: pb.AddSupport, where: pb.SupportAdded
) -> list[Emitted]:
    """A Support Card placed: its Action Card used; where it went for all, the card for its
    owner."""
    secret = pb.SupportAdded()
    secret.CopyFrom(where)
    secret.card = action.card
    return _mark_used(state, seat, ctx, action.action_card) + [
        Emitted(pb.Event(support_added=where), hidden_from=only(seat)),
        Emitted(pb.Event(support_added=secret), to=only(seat)),
    ]


def add_support(state: pb.State, seat: int, action: pb.AddSupport) -> list[Emitted]:
    """Optional action: a card from hand goes face down into a thread as a Support Card
    (value 1)."""
    ctx = support_context(state, seat, action)
    _require_thread(ctx, action.thread)
    remove_one(state.players[seat].hand, action.card, "CARD_NOT_IN_HAND")
    state.threads[action.thread].sides[seat].cards.add(card=action.card, support=True)
    return supported(state, seat, ctx, action, pb.SupportAdded(seat=seat, thread=action.thread))


def remove_support(state: pb.State, seat: int, action: pb.RemoveSupport) -> list[Emitted]:
    """The Prime Minister: instead of adding a Support, Holmes discards one of his Supports."""
    ctx = context(state, seat)
    _require_card(ctx, action.action_card, "support")
    if seat != HOLMES or not crime_in_force(state, "prime_minister"):
        raise IllegalAction("NEEDS_PRIME_MINISTER", "only Holmes, after The Prime Minister")
    _require_thread(ctx, action.thread)
    cards = state.threads[action.thread].sides[seat].cards
    if action.index >= len(cards) or not cards[action.index].support:
        raise IllegalAction("NOT_A_SUPPORT", "no Support Card of yours there")
    card = cards[action.index].card
    del cards[action.index]
    state.players[seat].discard.append(card)
    return _mark_used(state, seat, ctx, action.action_card) + [
        discarded(seat, [card], "prime_minister")]


def count_empty_turns(state: pb.State, seat: int) -> int:
    """Final Turn case 2: consecutive turns ended with an empty Mandatory Action and an empty
    hand, counted only while the other hand is empty too (a Witness may have refilled it)."""
    if not state.mandatory_empty or state.players[seat].hand:
        return 0
    if state.players[opponent(seat)].hand:
        return 1
    return state.empty_turns + 1


def end_turn(state: pb.State, seat: int) -> list[Emitted]:
    """End the turn; check the two Final Turn triggers; pass to the opponent."""
    if MANDATORY not in state.players[seat].used_actions:
        raise IllegalAction("MANDATORY_ACTION_FIRST", "use the Mandatory Action before ending")
    events = [Emitted(pb.Event(turn_ended=pb.TurnEnded(seat=seat)))]
    rival = opponent(seat)
    state.empty_turns = count_empty_turns(state, seat)
    if state.last_turn or state.empty_turns >= 2:
        return events + begin_final(state)
    if state.players[seat].played_this_round >= influence_limit(state):
        state.last_turn = True
        events.append(Emitted(pb.Event(last_turn_began=pb.LastTurnBegan(seat=rival))))
    start_turn(state, rival)
    return events


# -- the Final Turn ------------------------------------------------------------------
def begin_final(state: pb.State) -> list[Emitted]:
    """Both players will place their 4 Action Cards face down, First Player first."""
    state.phase = pb.PHASE_FINAL_PLACEMENT
    state.turn = state.first_player
    for player in state.players:
        del player.used_actions[:]
    return [Emitted(pb.Event(final_turn_began=pb.FinalTurnBegan(round=state.round)))]


def unplaced(state: pb.State, seat: int) -> list[int]:
    """Action Cards the player has not yet placed in the Final Turn."""
    placed = {s.card for s in state.players[seat].final_slots}
    return [c for c in ACTION_CARDS if c not in placed]


def place_action_card(state: pb.State, seat: int, action: pb.PlaceActionCard) -> list[Emitted]:
    """Place one Action Card face down in a thread; alternate until all 8 are placed."""
    if action.card not in unplaced(state, seat):
        raise IllegalAction("ACTION_CARD_NOT_AVAILABLE", "that Action Card is already placed")
    if action.thread >= THREADS:
        raise IllegalAction("NO_SUCH_THREAD", f"thread {action.thread} does not exist")
    state.players[seat].final_slots.add(card=action.card, thread=action.thread)
    events = [
        Emitted(pb.Event(action_card_placed=pb.ActionCardPlaced(seat=seat, thread=action.thread)),
                hidden_from=only(seat)),
        Emitted(pb.Event(action_card_placed=pb.ActionCardPlaced(
            seat=seat, thread=action.thread, card=action.card)), to=only(seat)),
    ]
    rival = opponent(seat)
    if unplaced(state, rival):
        state.turn = rival
    elif not unplaced(state, seat):
        state.phase = pb.PHASE_FINAL_REVEAL
        state.turn = state.first_player
    return events


def hidden_slots(state: pb.State, seat: int) -> list[pb.FinalSlot]:
    """The player's placed Action Cards not yet revealed."""
    return [s for s in state.players[seat].final_slots if not s.revealed]


def reveal_action_card(state: pb.State, seat: int, action: pb.RevealActionCard) -> list[Emitted]:
    """Reveal one of your placed Action Cards; you then use it or skip it."""
    if open_slot(state, seat):
        raise IllegalAction("RESOLVE_REVEALED_CARD", "use or skip the revealed card first")
    slot = next((s for s in hidden_slots(state, seat) if s.card == action.card), None)
    if slot is None:
        raise IllegalAction("ACTION_CARD_NOT_PLACED", "no such face-down Action Card of yours")
    slot.revealed = True
    return [Emitted(pb.Event(action_card_revealed=pb.ActionCardRevealed(
        seat=seat, thread=slot.thread, card=slot.card)))]


def skip_action(state: pb.State, seat: int) -> list[Emitted]:
    """Skip the revealed Final Turn Action Card."""
    slot = open_slot(state, seat)
    if slot is None:
        raise IllegalAction("NOTHING_TO_SKIP", "reveal an Action Card first")
    slot.resolved = True
    return [Emitted(pb.Event(action_skipped=pb.ActionSkipped(seat=seat, card=slot.card)))]


def advance_final(state: pb.State) -> list[Emitted]:
    """Once the revealed card is used or skipped, the player behind in reveals goes next (the
    First Player on a tie); after all eight cards, the Summary."""
    if open_slot(state, state.turn):
        return []
    waiting = [seat for seat in order_of_play(state) if hidden_slots(state, seat)]
    if not waiting:
        return conclude(state)
    state.turn = min(waiting, key=lambda seat: len(state.players[seat].final_slots)
                     - len(hidden_slots(state, seat)))
    return []


# -- enumeration -----------------------------------------------------------------------
def turn_actions(state: pb.State, seat: int) -> list[pb.Action]:
    """Every action of a normal turn or of a revealed Final Turn card."""
    ctx = context(state, seat)
    player = state.players[seat]
    threads = range(THREADS) if ctx.thread is None else (ctx.thread,)
    hand = sorted(set(player.hand))
    usable_cards = [(t, i) for t in threads
                    for i in range(len(state.threads[t].sides[seat].cards))
                    if usable(state, seat, t, i)]
    actions: list[pb.Action] = []
    if MANDATORY in ctx.cards:
        if can_play(state, seat):
            actions += [pb.Action(play_influence=pb.PlayInfluence(card=c, thread=t))
                        for c in hand for t in threads]
        elif not ctx.final:
            actions.append(pb.Action(pass_mandatory=pb.PassMandatory()))
    for card in ctx.cards:
        sides = _sides(card)
        if "draw" in sides and not at_site(state, "diogenes_club") and can_draw(state, seat):
            actions.append(pb.Action(draw_influence=pb.DrawInfluence(action_card=card)))
        if "use" in sides:
            actions += [pb.Action(use_influence=pb.UseInfluence(
                action_card=card, thread=t, index=i)) for t, i in usable_cards]
        if "support" in sides:
            actions += support_actions(state, seat, ctx, card, threads)
            if seat == HOLMES and crime_in_force(state, "prime_minister"):
                actions += [pb.Action(remove_support=pb.RemoveSupport(
                    action_card=card, thread=t, index=i)) for t in threads
                    for i, c in enumerate(state.threads[t].sides[seat].cards) if c.support]
    actions += rules(state).turn_actions(state, seat)
    if ctx.final:
        actions.append(pb.Action(skip_action=pb.SkipAction()))
    elif MANDATORY not in ctx.cards:
        actions.append(pb.Action(end_turn=pb.EndTurn()))
    return actions


def support_actions(
    state: pb.State, seat: int, ctx: Context, card: int, threads: range | tuple[int, ...]
) -> list[pb.Action]:
    """Every Add one Support Card with this Action Card: into a thread, or where a mode lets it
    go in a normal turn."""
    if keeps_last_card(state, seat, ctx):
        return []
    hand = sorted(set(state.players[seat].hand))
    actions = [pb.Action(add_support=pb.AddSupport(action_card=card, card=c, thread=t))
               for c in hand for t in threads]
    return actions + ([] if ctx.final else rules(state).support_actions(state, seat, card))


def placement_actions(state: pb.State, seat: int) -> list[pb.Action]:
    """Every (Action Card, thread) the player may place face down."""
    return [pb.Action(place_action_card=pb.PlaceActionCard(card=c, thread=t))
            for c in unplaced(state, seat) for t in range(THREADS)] + rules(state).turn_actions(
        state, seat)


def reveal_actions(state: pb.State, seat: int) -> list[pb.Action]:
    """Every face-down Action Card the player may reveal."""
    return [pb.Action(reveal_action_card=pb.RevealActionCard(card=s.card))
            for s in hidden_slots(state, seat)] + rules(state).turn_actions(state, seat)

