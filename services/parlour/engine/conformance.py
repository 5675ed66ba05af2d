"""The generic checks every registered game must pass, played over seeded random games.

Cheap checks run at every step of every playout; the costly ones (illegal
actions, byte round trips, non-interference, replay) run on every step of
one playout in `deep_every`, so thousands of playouts stay affordable.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from google.protobuf.message import Message

from parlour.engine import runtime
from parlour.engine.game import Emitted, Game, IllegalAction
from parlour.engine.rng import Rng
from parlour.engine.simulate import steps


@dataclass
class Playout:
    """What one random game did."""

    seed: int
    actions: list[tuple[int, Message]] = field(default_factory=list)
    final: Message | None = None


def play_random(
    game: Game,
    options: Message,
    seats: int,
    seed: int,
    *,
    deep: bool = False,
    pool: list[Message] | None = None,
) -> Playout:
    """Play one seeded random game, asserting the contract at every step."""
    chooser = Rng.from_seed(seed ^ 0x5EED)
    state = game.new_state(options, seats, seed)
    game.check_conservation(state)
    record = Playout(seed)
    pool = pool if pool is not None else []
    for step in steps(game, state, chooser, legal=check_legal_actions):
        state, seat, action = step.before, step.seat, step.action
        pending_seats = {d.seat for d in step.decisions}
        legal = {s: check_legal_actions(game, state, s) for s in range(seats) if s != seat}
        legal[seat] = step.actions
        for s in range(seats):
            assert bool(legal[s]) == (s in pending_seats), (
                f"seed {seed}: seat {s} pending={s in pending_seats} but has "
                f"{len(legal[s])} legal actions"
            )
        if deep:
            check_refusals(game, state, seat, legal, pool)
            check_round_trip(game, state)
            check_non_interference(game, state, seat, action, chooser)
        if len(pool) < 400:
            pool.append(action)
        else:
            pool[chooser.below(len(pool))] = action
        state = step.after
        game.check_conservation(state)
        record.actions.append((seat, action))
    assert not runtime.pending(game, state), f"seed {seed}: no end after {game.max_actions} actions"
    outcome = game.outcome(state)
    assert outcome is not None, f"seed {seed}: nobody owes a decision but the game is not over"
    assert len(outcome.scores) == seats and set(outcome.winners) <= set(range(seats))
    check_rating_sides(game, options, seats, outcome)
    for s in range(seats):
        assert runtime.legal_actions(game, state, s) == [], "legal actions after the end"
    record.final = state
    if deep:
        check_replay(game, options, seats, record)
    return record


def check_rating_sides(game: Game, options: Message, seats: int, outcome) -> None:
    """Game.rating_sides (issue 36): every seat on exactly one side, a place per side from
    1, first place taken, and every winner's side first."""
    rated = game.rating_sides(options, outcome)
    on_sides = [m for side in rated.sides for m in side if isinstance(m, int)]
    assert sorted(on_sides) == list(range(seats)), f"sides {rated.sides} for {seats} seats"
    assert len(rated.places) == len(rated.sides) >= 2 or seats == len(rated.sides) == 1
    assert min(rated.places) == 1 and max(rated.places) <= len(rated.sides)
    for place, side in zip(rated.places, rated.sides, strict=True):
        assert place == 1 or not set(side) & set(outcome.winners), f"a winner placed {place}"


def check_legal_actions(game: Game, state: Message, seat: int) -> list[Message]:
    """The seat's legal actions, asserting they are well typed and distinct."""
    actions = runtime.legal_actions(game, state, seat)
    keys = [runtime.serialize(a) for a in actions]
    assert len(set(keys)) == len(keys), f"duplicate legal actions for seat {seat}"
    assert all(isinstance(a, game.action_type) for a in actions)
    return actions


def check_refusals(
    game: Game, state: Message, seat: int, legal: dict[int, list[Message]], pool: list[Message]
) -> None:
    """Actions that are not legal now are refused and change nothing."""
    before = runtime.serialize(state)
    legal_keys = {runtime.serialize(a) for a in legal[seat]}
    candidates = [a for a in pool if runtime.serialize(a) not in legal_keys][:8]
    candidates.append(game.action_type())
    tries = [(seat, a) for a in candidates]
    tries += [(s, legal[seat][0]) for s in legal if not legal[s]]
    for actor, action in tries:
        try:
            runtime.apply(game, state, actor, action)
        except IllegalAction as refusal:
            assert refusal.reason and refusal.reason.upper() == refusal.reason, refusal.reason
        else:
            raise AssertionError(
                f"seat {actor} was allowed an action not in its legal list: {action}"
            )
        assert runtime.serialize(state) == before, "a refused action changed the state"


def check_round_trip(game: Game, state: Message) -> None:
    """State survives a trip through bytes."""
    data = runtime.serialize(state)
    again = game.state_type.FromString(data)
    assert runtime.serialize(again) == data and again == state


def check_non_interference(
    game: Game, state: Message, actor: int, action: Message, rng: Rng
) -> None:
    """States that differ only in what a viewer cannot see look the same to it.

    For every seat and a spectator: the views match, and if the same action
    (when legal in both) leaves the viewer's views still equal, the events it
    saw were equal too, so no event carries what the view hides.
    """
    for viewer in [None, *range(game.seat_count(state))]:
        twin = game.resample_hidden(state, viewer, rng)
        assert runtime.serialize(game.view(state, viewer)) == runtime.serialize(
            game.view(twin, viewer)
        ), f"viewer {viewer} can tell apart two states that differ only in what it cannot see"
        twin_legal = {runtime.serialize(a) for a in runtime.legal_actions(game, twin, actor)}
        if runtime.serialize(action) not in twin_legal:
            continue
        after, events = runtime.apply(game, state, actor, action)
        twin_after, twin_events = runtime.apply(game, twin, actor, action)
        if runtime.serialize(game.view(after, viewer)) != runtime.serialize(
            game.view(twin_after, viewer)
        ):
            continue
        assert _seen(events, viewer) == _seen(twin_events, viewer), (
            f"viewer {viewer} saw events that depend on hidden information"
        )


def _seen(events: list[Emitted], viewer: int | None) -> list[bytes]:
    return [runtime.serialize(e.event) for e in events if e.visible_to(viewer)]


def check_replay(game: Game, options: Message, seats: int, record: Playout) -> None:
    """The same seed and actions give byte-identical states."""
    state = game.new_state(options, seats, record.seed)
    for seat, action in record.actions:
        state, _ = runtime.apply(game, state, seat, action)
    assert record.final is not None
    assert runtime.serialize(state) == runtime.serialize(record.final), "replay diverged"
