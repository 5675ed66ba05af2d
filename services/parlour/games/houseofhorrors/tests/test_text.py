"""Readable one-line descriptions of every action and event (DESIGN: the demo feed)."""

from __future__ import annotations

from parlour.engine import runtime
from parlour.engine.conformance import play_random
from parlour.games.houseofhorrors import GAME
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb


def test_every_action_and_event_of_a_game_reads_as_one_line():
    """A whole seeded game describes each move and event on one line (Rulebook: Gameplay)."""
    record = play_random(GAME, GAME.default_options(4), 4, seed=3)
    state = GAME.new_state(GAME.default_options(4), 4, 3)
    seen = set()
    for seat, action in record.actions:
        line = GAME.describe_action(action)
        assert line and "\n" not in line
        state, events = runtime.apply(GAME, state, seat, action)
        for emitted in events:
            text = GAME.describe_event(emitted.event)
            assert text and "\n" not in text
            seen.add(emitted.event.WhichOneof("kind"))
    assert {
        "revealed",
        "room_chosen",
        "battle_declared",
        "played",
        "resolved",
        "drawn",
        "ended",
    } <= seen


def test_sample_lines():
    """Descriptions name cards, seats and sides (Rulebook: Gameplay)."""
    assert GAME.describe_action(
        pb.Action(declare_battle=pb.DeclareBattle(battle=pb.BATTLE_BLOODBATH))
    ) == ("declares Bloodbath")
    played = pb.Event(played=pb.CardPlayed(seat=1, card=1, side=pb.SIDE_MORTAL))
    assert GAME.describe_event(played) == "seat 1 played Psychic Kid for the Mortals"
    drawn = pb.Event(drawn=pb.CardsDrawn(seat=2, count=2))
    assert GAME.describe_event(drawn) == "seat 2 drew 2 card(s)"
