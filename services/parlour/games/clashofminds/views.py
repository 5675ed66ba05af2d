"""Hidden information: each seat's View, and states that differ only in what it cannot see.

Hidden from a viewer: the opponent's hand, deck order, face-down cards (Initial
Setup cards, Supports in threads and wherever a mode keeps them), face-down
Final Turn Action Cards; the viewer's own deck order; and, from anyone but
Moriarty, the face-down Crime Plan Cards (unless Holmes has looked at one) and
the cards left in the box. A mode hides its own part (the `view` hook, and
`shuffle_piles` and `redeal` in a resampled copy).
"""

from __future__ import annotations

from parlour.engine.game import copy_message
from parlour.engine.rng import Rng
from parlour.games.clashofminds.catalogue import CATALOGUE, HOLMES, MORIARTY
from parlour.games.clashofminds.hooks import MODES, rules
from parlour.games.clashofminds.turns import ACTION_CARDS
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb


def crime_visible(thread: pb.CrimeThread, seat: int | None) -> bool:
    """Whether the viewer may see this Crime Plan Card."""
    return seat == MORIARTY or thread.revealed or (seat == HOLMES and thread.seen_by_holmes)


def view(state: pb.State, seat: int | None) -> pb.View:
    """What one seat (None: a spectator) may see."""
    out = pb.View(
        phase=state.phase, round=state.round, hours=state.hours, site=state.site,
        site_deck_size=len(state.site_deck), site_discard=state.site_discard,
        first_player=state.first_player, turn=state.turn, last_turn=state.last_turn,
        deduction_supply=state.deduction_supply, distraction_supply=state.distraction_supply,
        result=state.result,
    )
    if seat is not None:
        out.seat = seat
        out.hand.extend(sorted(state.players[seat].hand))
    if seat == MORIARTY:
        out.crime_drawn.extend(state.crime_drawn)
    if state.HasField("effect"):
        out.effect.CopyFrom(state.effect)
    for thread in state.threads:
        shown = out.threads.add()
        shown.CopyFrom(thread)
        if not crime_visible(thread, seat):
            shown.crime_card = 0
        for owner, side in enumerate(shown.sides):
            if owner != seat:
                for card in side.cards:
                    if card.support or card.face_down:
                        card.card = 0
    for owner, player in enumerate(state.players):
        shown = out.players.add(
            hand_size=len(player.hand), deck_size=len(player.deck), discard=player.discard,
            used_actions=player.used_actions, played_this_round=player.played_this_round,
            setup_left=player.setup_left,
        )
        shown.final_slots.extend(player.final_slots)
        if owner != seat:
            for slot in shown.final_slots:
                if not slot.revealed:
                    slot.card = pb.ACTION_CARD_UNSPECIFIED
    MODES.view(state, seat, out)
    return out


def resample_hidden(state: pb.State, seat: int | None, rng: Rng) -> pb.State:
    """A copy that differs from `state` only in what `seat` cannot see, reshuffled at random."""
    other = copy_message(state)
    for owner in (HOLMES, MORIARTY):
        player = other.players[owner]
        rng.shuffle(player.deck)
        rules(other).shuffle_piles(player, rng)
        if owner != seat:
            _reshuffle_influence(other, owner, rng)
            rules(other).redeal(player, rng)
            _reshuffle_final_slots(player, rng)
    if seat != MORIARTY:
        _reshuffle_crime(other, seat, rng)
    return other


def _reshuffle_influence(state: pb.State, owner: int, rng: Rng) -> None:
    """The owner's hand, deck and face-down cards trade places at random."""
    player = state.players[owner]
    face_down = [c for t in state.threads for c in t.sides[owner].cards if c.support or c.face_down]
    kept = rules(state).supports(player)
    pool = [*player.hand, *player.deck, *(c.card for c in face_down), *kept]
    rng.shuffle(pool)
    sizes = (len(player.hand), len(player.deck), len(kept))
    player.hand[:] = pool[: sizes[0]]
    player.deck[:] = pool[sizes[0] : sizes[0] + sizes[1]]
    rest = pool[sizes[0] + sizes[1] :]
    kept[:] = rest[: sizes[2]]
    for card, value in zip(face_down, rest[sizes[2] :], strict=True):
        card.card = value


def _reshuffle_final_slots(player: pb.Player, rng: Rng) -> None:
    """Face-down Final Turn Action Cards trade places with the unplaced ones."""
    revealed = {s.card for s in player.final_slots if s.revealed}
    pool = [c for c in ACTION_CARDS if c not in revealed]
    rng.shuffle(pool)
    for slot in player.final_slots:
        if not slot.revealed:
            slot.card = pool.pop()


def _reshuffle_crime(state: pb.State, seat: int | None, rng: Rng) -> None:
    """Unseen Crime Plan Cards: any card of the same type, in any unseen thread."""
    hidden = [t for t in state.threads if t.crime_card and not crime_visible(t, seat)]
    chosen = [*state.crime_drawn, *(t.crime_card for t in hidden)]
    box = list(state.crime_box)
    picks = []
    for card in chosen:
        kind = CATALOGUE.crime[card].thread
        same = [c for c in [card, *box] if CATALOGUE.crime[c].thread == kind]
        pick = same[rng.below(len(same))]
        if pick != card:
            box.remove(pick)
            box.append(card)
        picks.append(pick)
    if hidden:
        rng.shuffle(picks)
        for thread, card in zip(hidden, picks, strict=True):
            thread.crime_card = card
    else:
        state.crime_drawn[:] = picks
    state.crime_box[:] = sorted(box)
