"""Hidden information: private hands, face-down spoils, public play (Rulebook: The Spoils;
DESIGN: Hidden information)."""

from __future__ import annotations

import ast
from pathlib import Path

from parlour.engine import runtime
from parlour.engine.rng import Rng
from parlour.games.houseofhorrors import GAME
from parlour.games.houseofhorrors.decks import draw_up
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

from .positions import names, play_round, position

RULES_DIR = Path(__file__).resolve().parent.parent


def _spoiled_state():
    return position(
        4,
        hands={0: ["Ghoul"], 1: ["Nurse"]},
        spoils={1: ["Lich", "Dawn"], 2: ["Vampire"]},
        room="Kitchen",
        battle=pb.BATTLE_STRENGTH,
    )


def test_a_seat_sees_its_own_hand_and_spoils_and_only_counts_of_others():
    """Hands are private; spoils are kept face down: others see only counts (Rulebook: The
    Spoils)."""
    state = _spoiled_state()
    mine = GAME.view(state, 1)
    assert list(mine.hand) == list(state.hands[1].cards)
    assert sorted(mine.spoils) == sorted(state.spoils[1].cards)
    assert list(mine.hand_sizes) == [1, 1, 0, 0] and list(mine.spoils_sizes) == [0, 2, 1, 0]
    spectator = GAME.view(state, None)
    assert not spectator.hand and not spectator.spoils and spectator.hand_limit == 0
    assert not GAME.view(state, 0).spoils


def test_spoils_are_revealed_when_the_game_is_over():
    """After the final round everyone sees every spoils pile to count hourglasses (Rulebook:
    Winning the Game)."""
    state = position(
        3,
        hands={0: ["Ghoul"]},
        spoils={1: ["Lich"]},
        room="Kitchen",
        battle=pb.BATTLE_STRENGTH,
        table=["Midnight"],
    )
    state.final_round = True
    assert not GAME.view(state, 0).final_spoils
    state, _ = play_round(state, {0: ["Ghoul"]})
    assert state.phase == pb.PHASE_OVER
    revealed = GAME.view(state, 0).final_spoils
    assert [names(p.cards) for p in revealed] == [["Midnight"], ["Lich"], []]


def test_drawn_cards_are_told_only_to_the_drawer():
    """Only the drawer learns the cards drawn; others and spectators learn the count (Rulebook:
    Setup)."""
    state = position(3)
    events = draw_up(state, 0)
    for event in events:
        if event.event.drawn.cards:
            assert event.to == frozenset([event.event.drawn.seat])
        else:
            assert event.visible_to(None) and not event.visible_to(event.event.drawn.seat)


def test_resample_shuffles_everything_a_seat_cannot_see():
    """A resampled state keeps the viewer's view but changes other hands, spoils and decks
    (DESIGN: non-interference)."""
    state = GAME.new_state(GAME.default_options(4), 4, seed=5)
    state.spoils[2].cards.extend(state.house_deck[:5])
    del state.house_deck[:5]
    twin = GAME.resample_hidden(state, 1, Rng.from_seed(9))
    assert runtime.serialize(GAME.view(twin, 1)) == runtime.serialize(GAME.view(state, 1))
    assert twin.hands[1] == state.hands[1]
    assert [len(h.cards) for h in twin.hands] == [len(h.cards) for h in state.hands]
    assert any(twin.hands[s] != state.hands[s] for s in (0, 2, 3))
    assert twin.spoils[2] != state.spoils[2] or twin.house_deck != state.house_deck
    assert twin.room_deck != state.room_deck
    GAME.check_conservation(twin)


def test_rules_code_uses_no_random_module_and_no_clock():
    """All randomness goes through the State's RNG; no clock (DESIGN: Randomness and replay)."""
    for path in RULES_DIR.glob("*.py"):
        tree = ast.parse(path.read_text())
        imported = {
            a.name.split(".")[0]
            for n in ast.walk(tree)
            if isinstance(n, ast.Import)
            for a in n.names
        }
        imported |= {
            n.module.split(".")[0]
            for n in ast.walk(tree)
            if isinstance(n, ast.ImportFrom) and n.module
        }
        assert not imported & {"random", "time", "datetime", "grpc", "redis"}, path.name
