"""Claiming cards with the Vampire, the Witch Hunter and the Stake (Rulebook: Special Cases,
Claiming Cards)."""

from __future__ import annotations

import pytest

from parlour.engine import runtime
from parlour.engine.game import IllegalAction
from parlour.games.houseofhorrors import GAME
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

from .positions import act, held, kinds, names, play_round, position, resolved, rigged_rng


def _after_plays(hands, plays, room="Kitchen", battle=pb.BATTLE_STRENGTH):
    """Seats 0.. play `plays` (name lists) in order, ending each turn except the last."""
    state = position(len(hands), hands=hands, room=room, battle=battle)
    for seat, names_ in enumerate(plays):
        for name in names_:
            c = held(state, seat, name)
            move = (
                {"play_character": pb.PlayCharacter(card=c)}
                if name not in ("Stake",)
                else {"play_item": pb.PlayItem(card=c, side=pb.SIDE_MORTAL)}
            )
            state, _ = act(state, seat, **move)
        if seat < len(plays) - 1:
            state, _ = act(state, seat, end_turn=pb.EndTurn())
    return state


def _play_with_roll(state, seat, name, roll, **side):
    state.rng = rigged_rng(roll)
    c = held(state, seat, name)
    if side:
        return act(state, seat, play_item=pb.PlayItem(card=c, **side))
    return act(state, seat, play_character=pb.PlayCharacter(card=c))


def test_vampire_on_four_or_more_claims_a_visible_female_mortal():
    """Vampire: roll 4+ and claim a visible female Mortal into your spoils (Rulebook: Claiming
    Cards)."""
    state = _after_plays(
        {0: ["Nurse"], 1: ["Detective"], 2: ["Vampire"]}, [["Nurse"], ["Detective"]]
    )
    state, _ = act(state, 1, end_turn=pb.EndTurn())
    state, events = _play_with_roll(state, 2, "Vampire", 4)
    assert events[-1].event.claim_rolled.success and state.phase == pb.PHASE_CLAIM
    nurse = state.showings[0].characters[0]
    legal = runtime.legal_actions(GAME, state, 2)
    assert legal == sorted(
        [pb.Action(decline_claim=pb.DeclineClaim()), pb.Action(claim=pb.ClaimCard(card=nurse))],
        key=lambda a: a.SerializeToString(deterministic=True),
    )
    state, events = act(state, 2, claim=pb.ClaimCard(card=nurse))
    assert events[-1].event.claimed.from_seat == 0
    assert names(state.spoils[2].cards) == ["Nurse"] and not state.showings[0].characters
    assert state.phase == pb.PHASE_PLAY and state.turn == 2


def test_vampire_below_four_claims_nothing():
    """A Vampire roll under 4 claims nothing (Rulebook: Claiming Cards)."""
    state = _after_plays({0: ["Nurse"], 1: ["Vampire"], 2: ["Ghoul"]}, [["Nurse"]])
    state, _ = act(state, 0, end_turn=pb.EndTurn())
    state, events = _play_with_roll(state, 1, "Vampire", 3)
    assert events[-1].event.claim_rolled.roll == 3 and not events[-1].event.claim_rolled.success
    assert state.phase == pb.PHASE_PLAY


def test_vampire_is_out_of_luck_when_no_female_mortal_is_visible_yet():
    """Only cards visible on your turn can be claimed, not ones played later (Rulebook: Claiming
    Cards)."""
    state = position(
        3, hands={0: ["Vampire"], 1: ["Nurse"]}, room="Kitchen", battle=pb.BATTLE_STRENGTH
    )
    state, events = _play_with_roll(state, 0, "Vampire", 6)
    assert not events[-1].event.claim_rolled.success and state.phase == pb.PHASE_PLAY
    state, _ = act(state, 0, end_turn=pb.EndTurn())
    state, _ = act(state, 1, play_character=pb.PlayCharacter(card=held(state, 1, "Nurse")))
    assert names(state.showings[1].characters) == ["Nurse"]


def test_witch_hunter_on_five_claims_a_mage_horror():
    """Witch Hunter: roll 5+ and claim a visible Mage Horror (Rulebook: Claiming Cards, Mages)."""
    state = _after_plays({0: ["Lich"], 1: ["Witch Hunter"], 2: ["Ghoul"]}, [["Lich"]], room="Crypt")
    state, _ = act(state, 0, end_turn=pb.EndTurn())
    state, events = _play_with_roll(state, 1, "Witch Hunter", 4)
    assert not events[-1].event.claim_rolled.success
    state = _after_plays({0: ["Lich"], 1: ["Witch Hunter"], 2: ["Ghoul"]}, [["Lich"]], room="Crypt")
    state, _ = act(state, 0, end_turn=pb.EndTurn())
    state, events = _play_with_roll(state, 1, "Witch Hunter", 5)
    state, _ = act(state, 1, claim=pb.ClaimCard(card=state.showings[0].characters[0]))
    assert names(state.spoils[1].cards) == ["Lich"]


def test_stake_on_five_claims_a_visible_vampire():
    """Stake (Item): roll 5+ and claim a visible Vampire (Rulebook: Claiming Cards)."""
    state = _after_plays({0: ["Vampire"], 1: ["Stake"], 2: ["Ghoul"]}, [["Vampire"]])
    state, _ = act(state, 0, end_turn=pb.EndTurn())
    state, events = _play_with_roll(state, 1, "Stake", 5, side=pb.SIDE_MORTAL)
    assert kinds(events) == ["played", "claim_rolled"] and state.phase == pb.PHASE_CLAIM
    vampire = state.showings[0].characters[0]
    state, _ = act(state, 1, claim=pb.ClaimCard(card=vampire))
    assert names(state.spoils[1].cards) == ["Vampire"]


def test_a_claim_may_be_declined():
    """Claiming is optional: 'you may' remove the card (Rulebook: Claiming Cards)."""
    state = _after_plays({0: ["Vampire"], 1: ["Stake"], 2: ["Ghoul"]}, [["Vampire"]])
    state, _ = act(state, 0, end_turn=pb.EndTurn())
    state, _ = _play_with_roll(state, 1, "Stake", 6, side=pb.SIDE_MORTAL)
    state, events = act(state, 1, decline_claim=pb.DeclineClaim())
    assert kinds(events) == ["claim_declined"] and state.phase == pb.PHASE_PLAY
    assert names(state.showings[0].characters) == ["Vampire"]


def test_only_matching_visible_cards_can_be_claimed():
    """A claim takes only a matching card on the table (Rulebook: Claiming Cards)."""
    state = _after_plays(
        {0: ["Nurse"], 1: ["Detective"], 2: ["Vampire"]}, [["Nurse"], ["Detective"]]
    )
    state, _ = act(state, 1, end_turn=pb.EndTurn())
    state, _ = _play_with_roll(state, 2, "Vampire", 5)
    with pytest.raises(IllegalAction) as refusal:
        act(state, 2, claim=pb.ClaimCard(card=state.showings[1].characters[0]))
    assert refusal.value.reason == "NOT_CLAIMABLE"


def test_cards_under_the_room_or_in_spoils_cannot_be_claimed():
    """Cards are never claimed from the spoils or discard pile, nor from under the Room
    (Rulebook: Claiming Cards; RULES.md: Visible cards)."""
    state = position(
        3, hands={0: ["Vampire"]}, room="Kitchen", battle=pb.BATTLE_STRENGTH, spoils={1: ["Nurse"]}
    )
    state.under_mortal.append(
        state.house_deck.pop(
            next(i for i, c in enumerate(state.house_deck) if names([c]) == ["Maid"])
        )
    )
    state.house_discard.append(
        state.house_deck.pop(
            next(i for i, c in enumerate(state.house_deck) if names([c]) == ["Debutante"])
        )
    )
    state, events = _play_with_roll(state, 0, "Vampire", 6)
    assert not events[-1].event.claim_rolled.success


def test_a_claimed_players_empty_showing_earns_no_spoils():
    """A player whose only card was claimed has nothing showing at the end (Rulebook: The
    Spoils)."""
    hands = {0: ["Maid"], 1: ["Vampire"], 2: ["Ghost Hunter"]}
    state = _after_plays(hands, [["Maid"]])
    state, _ = act(state, 0, end_turn=pb.EndTurn())
    state, _ = _play_with_roll(state, 1, "Vampire", 6)
    state, _ = act(state, 1, claim=pb.ClaimCard(card=state.showings[0].characters[0]))
    state, _ = act(state, 1, end_turn=pb.EndTurn())
    state, events = play_round(state, {2: ["Ghost Hunter"]})
    result = resolved(events)
    assert result.winner == pb.SIDE_HORROR and list(result.eligible) == [1]
    assert names(result.spoils) == ["Ghost Hunter"]
