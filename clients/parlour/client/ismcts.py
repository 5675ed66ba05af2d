"""Information-set Monte Carlo tree search (single observer) over sampled determinizations.

The search never sees the true state: each iteration asks `sample(seed)` for a state the
bot cannot tell from the truth (see parlour.engine.sampling), walks one tree shared by all
samples, restricted to the moves legal in that sample, with UCB1 corrected by how often a
move was available, plays the rest at random and credits every mover with the fraction of
the other seats it finished ahead of. The move played is the root move visited most often.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from google.protobuf.message import Message

from parlour.engine.game import Game
from parlour.engine.rng import Rng


def _bytes(action: Message) -> bytes:
    return action.SerializeToString(deterministic=True)


class Node:
    """A move in the tree: statistics for the seat that made it."""

    __slots__ = ("seat", "children", "visits", "reward", "available")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.children: dict[tuple[int, bytes], Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0

    def ucb(self, exploration: float) -> float:
        return self.reward / self.visits + exploration * math.sqrt(
            math.log(self.available) / self.visits
        )


def rewards(game: Game, state: Message) -> list[float]:
    """Each seat's fraction of the other seats it finished ahead of (ties count half).

    "Ahead" follows the winners: higher scores are better unless a winner has the lowest.
    A playout that never ended counts as a tie for everyone.
    """
    outcome = game.outcome(state)
    seats = game.seat_count(state)
    if outcome is None or seats < 2:
        return [0.5] * seats
    scores = outcome.scores
    sign = -1 if outcome.winners and scores[outcome.winners[0]] < max(scores) else 1
    return [
        sum(0.5 + 0.5 * _compare(sign * scores[s], sign * scores[t])
            for t in range(seats) if t != s) / (seats - 1)
        for s in range(seats)
    ]


def _compare(a: int, b: int) -> int:
    return (a > b) - (a < b)


def _mover(game: Game, state: Message) -> int | None:
    pending = game.pending(state) if game.outcome(state) is None else []
    return pending[0].seat if pending else None


def search(
    game: Game,
    seat: int,
    legal: list[Message],
    sample: Callable[[int], Message],
    rng: Rng,
    iterations: int = 64,
    exploration: float = 0.7,
    rollout_limit: int = 2_000,
    budget: float | None = None,
    evaluate: Callable[[Message], list[float]] | None = None,
) -> Message:
    """The move `seat` should make among `legal`, by `iterations` sampled playouts, or as many
    as fit in `budget` seconds (at least one). `evaluate`, when given, scores every playout
    (rewards per seat in [0, 1]), also one cut off at `rollout_limit` actions; without it a
    cut-off playout counts as a tie."""
    if len(legal) == 1:
        return legal[0]
    allowed = {_bytes(a): a for a in legal}
    root = Node(seat)
    deadline = None if budget is None else time.perf_counter() + budget
    for done in range(iterations):
        if deadline is not None and done and time.perf_counter() > deadline:
            break
        state = sample(rng.next64())
        node, path = root, []
        expanded = False
        while not expanded:
            mover = seat if node is root else _mover(game, state)
            if mover is None:
                break
            moves = game.legal_actions(state, mover)
            if node is root:
                moves = [m for m in moves if _bytes(m) in allowed]
            keyed = [((mover, _bytes(m)), m) for m in moves]
            untried = []
            for key, move in keyed:
                child = node.children.get(key)
                if child is None:
                    untried.append((key, move))
                else:
                    child.available += 1
            if untried:
                key, move = untried[rng.below(len(untried))]
                child = node.children[key] = Node(mover)
                child.available = 1
                expanded = True
            else:
                key, move = max(keyed, key=lambda km: node.children[km[0]].ucb(exploration))
                child = node.children[key]
            game.apply(state, mover, move)
            path.append(child)
            node = child
        for _ in range(rollout_limit):
            mover = _mover(game, state)
            if mover is None:
                break
            moves = game.legal_actions(state, mover)
            game.apply(state, mover, moves[rng.below(len(moves))])
        reward = rewards(game, state) if evaluate is None else evaluate(state)
        for child in path:
            child.visits += 1
            child.reward += reward[child.seat]
    tried = [k for k in root.children if k[1] in allowed]
    if not tried:
        return legal[0]
    best = max(tried, key=lambda k: (root.children[k].visits, root.children[k].reward, k[1]))
    return allowed[best[1]]
