"""Readable one-line descriptions of every action and event (DESIGN: the demo feed)."""

from __future__ import annotations

from parlour.engine import runtime
from parlour.engine.conformance import play_random
from parlour.games.houseofhorrors import GAME
from parlour.games.houseofhorrors.catalogue import card_name
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

from .positions import act, held, position


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


def test_the_first_reveal_reaches_the_feed_with_the_butlers_choice():
    """The first Butler reveals during setup, which emits no events, so the choice of Room names
    every card revealed (Rulebook: Gameplay, "The Butler draws cards … faceup")."""
    state = GAME.new_state(GAME.default_options(4), 4, 5)
    shown = [card_name(c) for c in state.revealed]
    room = state.revealed_rooms[0]
    state, events = runtime.apply(GAME, state, 0, pb.Action(choose_room=pb.ChooseRoom(room=room)))
    line = GAME.describe_event(events[0].event)
    assert line.startswith(f"seat 0 chose {card_name(room)}")
    assert line.endswith(f"(revealed: {', '.join(shown)})")


def test_a_room_item_from_the_table_reads_as_taken_not_played():
    """A Room Item comes from the table, not the hand: "She may also take and play one Room Item
    … from the table" (Rulebook: Gameplay)."""
    state = position(
        3,
        hands={0: ["Werewolf"]},
        room="Kitchen",
        battle=pb.BATTLE_STRENGTH,
        table=["Rusty Chains"],
    )
    state, _ = act(state, 0, play_character=pb.PlayCharacter(card=held(state, 0, "Werewolf")))
    state, events = act(state, 0, take_room_item=pb.TakeRoomItem(card=state.table[0]))
    assert GAME.describe_event(events[0].event) == (
        "seat 0 took Rusty Chains from the table for the Horrors"
    )
