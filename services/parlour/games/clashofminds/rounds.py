"""Start of the Investigation: the site, Initiating Contacts, Initial Setup."""

from __future__ import annotations

from parlour.engine.game import Emitted, IllegalAction
from parlour.engine.rng import state_rng
from parlour.engine.zones import remove_one
from parlour.games.clashofminds.catalogue import CATALOGUE, SETUP_CARDS, THREADS
from parlour.games.clashofminds.hooks import rules
from parlour.games.clashofminds.table import draw_up_to, move_clock, only, opponent
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb


def order_of_play(state: pb.State) -> tuple[int, int]:
    """The First Player, then the other."""
    return state.first_player, opponent(state.first_player)


def start_round(state: pb.State) -> list[Emitted]:
    """Start of the Investigation: reveal a site, add its hours, draw to 5, then a mode's step
    or Initial Setup."""
    state.round += 1
    events: list[Emitted] = []
    if not state.site_deck:
        state.site_deck.extend(state.site_discard)
        del state.site_discard[:]
        with state_rng(state) as rng:
            rng.shuffle(state.site_deck)
    state.site = state.site_deck.pop()
    revealed = pb.SiteRevealed(round=state.round, site=state.site)
    events.append(Emitted(pb.Event(site_revealed=revealed)))
    events.append(move_clock(state, CATALOGUE.sites[state.site].hours, "site"))
    state.last_turn = False
    state.empty_turns = 0
    for player in state.players:
        player.played_this_round = 0
        del player.final_slots[:]
        del player.used_actions[:]
    for seat in order_of_play(state):
        events += draw_up_to(state, seat, initiating=True)
    after = rules(state).after_contacts(state)
    return events + (begin_setup(state) if after is None else after)


# -- Initial Setup ----------------------------------------------------------------------
def begin_setup(state: pb.State) -> list[Emitted]:
    """Initial Setup preparation starts with the First Player."""
    state.phase = pb.PHASE_INITIAL_SETUP
    for player in state.players:
        player.setup_left = min(SETUP_CARDS, len(player.hand))
    return next_setup_turn(state, opponent(state.first_player))


def next_setup_turn(state: pb.State, previous: int) -> list[Emitted]:
    """Alternate placements; when both have placed their cards, reveal them."""
    for seat in (opponent(previous), previous):
        if state.players[seat].setup_left:
            state.turn = seat
            return []
    return reveal_setup(state)


def setup_placements(state: pb.State, seat: int) -> list[pb.Action]:
    """Every (card, thread) a player may place face down."""
    return [pb.Action(place_setup_card=pb.PlaceSetupCard(card=card, thread=t))
            for card in sorted(set(state.players[seat].hand)) for t in range(THREADS)]


def place_setup_card(state: pb.State, seat: int, action: pb.PlaceSetupCard) -> list[Emitted]:
    """Place one Influence Card face down in a thread."""
    if action.thread >= THREADS:
        raise IllegalAction("NO_SUCH_THREAD", f"thread {action.thread} does not exist")
    player = state.players[seat]
    remove_one(player.hand, action.card, "CARD_NOT_IN_HAND")
    state.threads[action.thread].sides[seat].cards.add(card=action.card, face_down=True)
    player.setup_left -= 1
    player.played_this_round += 1
    events = [
        Emitted(pb.Event(setup_card_placed=pb.SetupCardPlaced(seat=seat, thread=action.thread)),
                hidden_from=only(seat)),
        Emitted(pb.Event(setup_card_placed=pb.SetupCardPlaced(
            seat=seat, thread=action.thread, card=action.card)), to=only(seat)),
    ]
    return events + next_setup_turn(state, seat)


def reveal_setup(state: pb.State) -> list[Emitted]:
    """Initial Setup Reveal, then both draw back to 5, then the First Player's turn."""
    events = []
    for t, thread in enumerate(state.threads):
        for seat, side in enumerate(thread.sides):
            for card in side.cards:
                if card.face_down:
                    card.face_down = False
                    events.append(Emitted(pb.Event(setup_card_revealed=pb.SetupCardRevealed(
                        seat=seat, thread=t, card=card.card))))
    for seat in order_of_play(state):
        events += draw_up_to(state, seat, initiating=False)
    state.phase = pb.PHASE_COURSE
    start_turn(state, state.first_player)
    return events


def start_turn(state: pb.State, seat: int) -> None:
    """A turn begins: the player's used Action Cards flip back to their active side."""
    state.turn = seat
    state.mandatory_empty = False
    del state.players[seat].used_actions[:]
