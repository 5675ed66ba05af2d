"""What the framework adds around every game: terminal and turn checks, atomicity, order."""

from __future__ import annotations

from google.protobuf.message import Message

from parlour.engine.game import Decision, Emitted, Game, IllegalAction, copy_message


def serialize(message: Message) -> bytes:
    """Deterministic bytes for a message (State, Action, View)."""
    return message.SerializeToString(deterministic=True)


def pending(game: Game, state: Message) -> list[Decision]:
    """Decisions owed now; none once the game is over."""
    if game.outcome(state) is not None:
        return []
    return game.pending(state)


def legal_actions(game: Game, state: Message, seat: int) -> list[Message]:
    """The seat's legal actions in canonical (byte) order; empty if it owes nothing."""
    if seat not in {d.seat for d in pending(game, state)}:
        return []
    actions = game.legal_actions(state, seat)
    return sorted(actions, key=serialize)


def check_actor(game: Game, state: Message, seat: int, action: Message) -> None:
    """Refuse, with a reason, actions the framework can judge without the rules."""
    if not isinstance(action, game.action_type):
        raise IllegalAction(
            "WRONG_ACTION_TYPE", f"expected {game.action_type.DESCRIPTOR.full_name}"
        )
    if not 0 <= seat < game.seat_count(state):
        raise IllegalAction("NO_SUCH_SEAT", f"seat {seat} is not in this match")
    if game.outcome(state) is not None:
        raise IllegalAction("GAME_OVER", "the game is over")
    if seat not in {d.seat for d in game.pending(state)}:
        raise IllegalAction("NOT_YOUR_TURN", f"seat {seat} owes no decision now")


def apply(game: Game, state: Message, seat: int, action: Message) -> tuple[Message, list[Emitted]]:
    """The next state and the events, leaving `state` untouched whatever happens."""
    check_actor(game, state, seat, action)
    nxt = copy_message(state)
    events = game.apply(nxt, seat, action)
    return nxt, events


def view(game: Game, state: Message, seat: int | None) -> Message:
    """The view of a seat, or of a spectator when seat is None."""
    return game.view(state, seat)
