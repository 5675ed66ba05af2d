"""Issue 17 items 2-3 in the engine: replays recompute every game from (seed, actions)."""

from __future__ import annotations

import pytest

from parlour.engine import runtime
from parlour.engine.audit import commitment, new_salt, opens
from parlour.engine.game import Emitted
from parlour.engine.registry import games
from parlour.engine.replay import ReplayDiverged, audience, check_events, may_see, replay
from parlour.engine.rng import Rng
from parlour.engine.timeouts import default_action
from parlour.rules.core import pack as packed_action
from parlour.rules.v1 import rules_pb2
from parlour.store.matchstore import StoredEvent, encode_visibility


@pytest.mark.parametrize(
    ("to", "hidden"), [(None, frozenset()), (None, frozenset({1, 2})), (frozenset({0, 3}), ())]
)
def test_audience_is_the_store_encoding(to, hidden):
    """Item 2: a log's audience is spelled exactly as the live stream's visibility."""
    emitted = Emitted(event=None, to=to, hidden_from=frozenset(hidden))
    code = audience(emitted)
    assert code.encode() == encode_visibility(to, frozenset(hidden))
    stored = StoredEvent(1, b"", code.encode(), 0, 2, "")
    for seat in (None, 0, 1, 2, 3):
        assert may_see(code, seat) == stored.visible_to(seat) == emitted.visible_to(seat)


def test_commitment_opens_only_with_its_seed_and_salt():
    """Item 3: the commitment binds seed and salt."""
    salt = new_salt()
    made = commitment(7, salt)
    assert opens(made, 7, salt)
    assert not opens(made, 8, salt) and not opens(made, 7, new_salt())


GAMES = sorted(games().values(), key=lambda g: g.name)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_replay_recomputes_a_random_playout_of_every_game(game):
    """Item 2/3: (options, seats, seed, actions) give back every event of a played match."""
    options, seats = game.test_configurations()[0]
    state = game.new_state(options, seats, 11)
    choose, moves, emitted_all = Rng(5), [], []
    while runtime.pending(game, state) and len(moves) < 400:
        seat = runtime.pending(game, state)[0].seat
        action = choose.choice(runtime.legal_actions(game, state, seat))
        state, emitted = runtime.apply(game, state, seat, action)
        moves.append(rules_pb2.LoggedAction(seat=seat, action=packed_action(action)))
        emitted_all += [(len(moves) + 1, seat, e) for e in emitted]
    again = replay(game, options, seats, 11, moves)
    assert [(e.version, e.actor, e.audience) for e in again.events] == [
        (v, s, audience(e)) for v, s, e in emitted_all
    ]
    check_events(again.events, again.events, None, reveal_all=True)
    with pytest.raises(ReplayDiverged):
        check_events(again.events, again.events[:-1], None, reveal_all=True)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_timeout_default_is_legal_and_leaves_the_state_alone(game):
    """Item 1: the generic default is a legal action drawn from the state's RNG, the same on
    every replica, and drawing it does not advance the state's RNG."""
    options, seats = game.test_configurations()[0]
    state = game.new_state(options, seats, 3)
    decision = runtime.pending(game, state)[0]
    before = runtime.serialize(state)
    picked = default_action(game, state, decision.seat, decision.kind)
    assert runtime.serialize(state) == before
    assert runtime.serialize(picked) in {
        runtime.serialize(a) for a in runtime.legal_actions(game, state, decision.seat)
    }
    assert default_action(game, state, decision.seat, decision.kind) == picked


def test_a_game_may_declare_its_timeout_default():
    """Item 1: a game's timeout_action (e.g. always the first legal action) wins."""
    game = games()["tinycards"]
    declared = type(
        "Declared",
        (type(game),),
        {"timeout_action": lambda self, s, seat, kind: runtime.legal_actions(self, s, seat)[-1]},
    )()
    options, seats = declared.test_configurations()[0]
    state = declared.new_state(options, seats, 3)
    seat = runtime.pending(declared, state)[0].seat
    assert default_action(declared, state, seat, "turn") == runtime.legal_actions(
        declared, state, seat
    )[-1]
