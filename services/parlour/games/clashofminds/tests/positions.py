"""Build exact positions for rule tests: a Course-phase table with chosen cards."""

from __future__ import annotations

from parlour.engine import runtime
from parlour.engine.game import Emitted
from parlour.games.clashofminds import GAME
from parlour.games.clashofminds.agents.cards import AGENT_ID
from parlour.games.clashofminds.catalogue import (
    CARD_ID,
    CATALOGUE,
    CRIME_ID,
    HOLMES,
    MORIARTY,
    SITE_ID,
)
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb


def course(
    *,
    site: str = "baker_street",
    crime: tuple[str, str, str] = ("banker", "blackmail", "dynamite"),
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    agents: bool = False,
    turn: int = HOLMES,
    hours: int | None = None,
    seed: int = 1,
) -> pb.State:
    """A Course of the Investigation position: empty table, chosen site, crime and hands."""
    state = GAME.new_state(pb.Options(agents=agents), 2, seed)
    crime_ids = [CRIME_ID[key] for key in crime]
    for thread, card in zip(state.threads, crime_ids, strict=True):
        thread.crime_card = card
    del state.crime_drawn[:]
    state.crime_box[:] = sorted(set(CATALOGUE.crime) - set(crime_ids))
    state.site = SITE_ID[site]
    state.site_deck[:] = [s for s in state.site_deck if s != state.site]
    state.hours = CATALOGUE.sites[state.site].hours if hours is None else hours
    state.round = 1
    state.phase = pb.PHASE_COURSE
    state.first_player = HOLMES
    state.turn = turn
    for seat, keys in enumerate(hands):
        for key in keys:
            give(state, seat, key)
    return state


def give(state: pb.State, seat: int, key: str) -> None:
    """Move one copy of a card from the deck to the hand."""
    player = state.players[seat]
    player.deck.remove(CARD_ID[key])
    player.hand.append(CARD_ID[key])


def place(
    state: pb.State, seat: int, thread: int, key: str, *, used: bool = False,
    support: bool = False, count: bool = True,
) -> int:
    """Move one copy of a card from the deck to the table; returns its index."""
    state.players[seat].deck.remove(CARD_ID[key])
    side = state.threads[thread].sides[seat].cards
    side.add(card=CARD_ID[key], used=used, support=support)
    if count and not support:
        state.players[seat].played_this_round += 1
    return len(side) - 1


def agent(state: pb.State, seat: int, key: str, *, supports: int = 0) -> None:
    """Put an Agent face down in play with some Supports (from the deck) under it."""
    player = state.players[seat]
    player.agent_deck.remove(AGENT_ID[key])
    player.agent.agent = AGENT_ID[key]
    player.agent.in_play = True
    for _ in range(supports):
        player.agent.supports.append(player.deck.pop())


def act(state: pb.State, seat: int, **action) -> tuple[pb.State, list[Emitted]]:
    """Apply one action through the runtime (atomic, checked), returning the new state."""
    GAME.check_conservation(state)
    after, events = runtime.apply(GAME, state, seat, pb.Action(**action))
    GAME.check_conservation(after)
    return after, events


def kinds(events: list[Emitted]) -> list[str]:
    """The kinds of the events, in order."""
    return [e.event.WhichOneof("kind") for e in events]


def legal(state: pb.State, seat: int) -> list[pb.Action]:
    """The seat's legal actions."""
    return runtime.legal_actions(GAME, state, seat)


__all__ = ["CARD_ID", "HOLMES", "MORIARTY", "act", "agent", "course", "give", "kinds", "legal",
           "place"]
