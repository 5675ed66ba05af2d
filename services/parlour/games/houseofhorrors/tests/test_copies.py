"""Copies of one card are alike, so a choice among them is offered once (RULES.md: Copies;
Rulebook: Gameplay, The Spoils)."""

from __future__ import annotations

import pytest

from parlour.engine import runtime
from parlour.engine.game import IllegalAction
from parlour.games.houseofhorrors import GAME
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

from .positions import act, names, play_round, position


def test_two_copies_in_hand_are_one_choice_and_only_the_first_is_taken():
    """Two Ghost Hunters in hand give one "play" and one "discard" (Rulebook: Gameplay, "Each
    player may play one Mortal or Horror card … a player may discard one card")."""
    hands = {0: ["Ghost Hunter", "Ghost Hunter"]}
    state = position(3, hands=hands, room="Kitchen", battle=pb.BATTLE_STRENGTH)
    first, second = sorted(state.hands[0].cards)
    actions = runtime.legal_actions(GAME, state, 0)
    assert [a.play_character.card for a in actions if a.HasField("play_character")] == [first]
    assert [a.discard.card for a in actions if a.HasField("discard")] == [first]
    for move in ({"play_character": pb.PlayCharacter(card=second)},
                 {"discard": pb.DiscardCard(card=second)}):
        with pytest.raises(IllegalAction) as refusal:
            act(state, 0, **move)
        assert refusal.value.reason == "NOT_FIRST_COPY"
    state, _ = act(state, 0, play_character=pb.PlayCharacter(card=first))
    assert list(state.hands[0].cards) == [second]


def test_two_copies_among_the_spoils_are_one_choice():
    """Two Zombies among the spoils are one choice for the leader, and only the first copy is
    taken (Rulebook: The Spoils, "gets first choice of one spoil card")."""
    hands = {0: ["Zombie", "Zombie"], 1: ["Strongman"], 2: ["Groundskeeper"]}
    state = position(3, hands=hands, room="Crypt", battle=pb.BATTLE_STRENGTH, table=["Midnight"])
    plays = {0: ["Zombie", "Zombie"], 1: ["Strongman"], 2: ["Groundskeeper"]}
    state, _ = play_round(state, plays)  # Mortals 7, Horrors 4: seat 1 leads, seat 2 is owed
    assert state.phase == pb.PHASE_SPOILS and state.spoils_leader == 1
    first, second = sorted(c for c in state.spoils_pool if names([c]) == ["Zombie"])
    actions = runtime.legal_actions(GAME, state, 1)
    assert sorted(names(a.take_spoil.card for a in actions)) == ["Midnight", "Zombie"]
    assert first in [a.take_spoil.card for a in actions]
    with pytest.raises(IllegalAction) as refusal:
        act(state, 1, take_spoil=pb.TakeSpoil(card=second))
    assert refusal.value.reason == "NOT_FIRST_COPY"
