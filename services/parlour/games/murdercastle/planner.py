"""A purposeful player for Murder Castle (issue 32): it plans each Action Tile to its end on
a sample of what it cannot see, and scores where that leaves it.

The score counts the evidence still needed and how close the nearest cubes of each needed
colour lie (a route for the evidence, never through Holmes' room), the strikes Holmes is
expected to land before the player acts again (his predicted path: the movement cards left
and, in Automa, the Holmes' Action Cards left that walk him 1 or 2 rooms towards you), and
once the board is complete the way back to the Pharmacy. It never calls Holmes with the Move
Holmes tile. The Holmes seat of Play as Holmes plays the greedy heuristic.
"""

from __future__ import annotations

import time
from collections import Counter, deque
from collections.abc import Callable

from parlour.engine.game import IllegalAction, copy_message
from parlour.engine.rng import Rng
from parlour.games.murdercastle import strategy
from parlour.games.murdercastle.board import PHARMACY, Castle, place_of
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import COLOURS, needed
from parlour.games.murdercastle.flow import apply, options, pending_seats
from parlour.games.murdercastle.hooks import MODES, rules
from parlour.games.murdercastle.stack import holmes_seat
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

#: Own decisions played out after a candidate before the position is scored.
ROLLOUT = 24
#: Seconds a decision may spend playing candidates out (a bot's property; past it the
#: remaining candidates are scored as they stand).
BUDGET = 0.8
#: What a strike costs beyond the cubes it drops (the fifth, in Automa, loses the game).
STRIKE, LAST_STRIKE = 120.0, 3000.0


def purposeful(view: pb.View, actions: list[pb.Action], seat: int, rng: Rng,
               sample: Callable[[int], pb.State]) -> pb.Action:
    """The legal action whose tile, played out on a sample, leaves the best position."""
    if len(actions) == 1:
        return actions[0]
    if seat == MODES.rules(view.options).holmes_seat_of(view.options):
        return strategy.greedy(view, actions, seat, rng)
    calm = [a for a in actions if a.select.tile != pb.ACTION_TILE_MOVE_HOLMES]
    state = sample(rng.next64())
    _quiet_holmes(state)
    scored = []
    deadline = time.perf_counter() + BUDGET
    for action in calm or actions:
        child = copy_message(state)
        if _apply(child, seat, action):
            _play_out(child, seat, deadline)
        else:  # scored as the sample stands
            child = copy_message(state)
        scored.append((worth(child, seat), rng.next64(), action))
    return max(scored, key=lambda s: (s[0], s[1]))[2]


def _apply(state: pb.State, seat: int, action: pb.Action) -> bool:
    """Apply on the sample; False when the sample refuses it (a sample may differ from the
    match in what the seat cannot see)."""
    try:
        apply(state, seat, action)
    except IllegalAction:
        return False
    return True


def _play_out(state: pb.State, seat: int, deadline: float) -> None:
    """Finish the current tile (own decisions only, each by a one-step score) and stop at the
    next tile selection, another seat's decision, the next round, or the deadline."""
    start = state.round
    for _ in range(ROLLOUT):
        if state.finished or state.round != start or not state.frames:
            return
        if time.perf_counter() > deadline:
            return
        if state.frames[-1].kind == pb.FRAME_KIND_SELECT_TILE:
            return
        if pending_seats(state) != [seat]:
            return
        legal = options(state, seat)
        best, best_worth = legal[0], None
        for action in legal:
            child = copy_message(state)
            _apply(child, seat, action)
            value = worth(child, seat)
            if best_worth is None or value > best_worth:
                best, best_worth = action, value
        _apply(state, seat, best)


def _quiet_holmes(state: pb.State) -> None:
    """In the sample only: no movement card this round, and a mode's Holmes card changes
    nothing the score reads, so a position is scored as the player leaves it (the score
    itself predicts Holmes)."""
    state.junction.skip_movement = True
    rules(state).calm_sample(state)


# -- the score ---------------------------------------------------------------------------------
def worth(state: pb.State, seat: int) -> float:
    """How good the position is for `seat` (higher is better)."""
    if state.finished:
        return 1e6 if state.winner == seat + 1 else -1e6
    player = state.players[seat]
    need = needed(state)
    castle = Castle(state)
    walk = _distances(castle, player.place, blocked=state.holmes)
    if state.holmes == player.place:  # no collecting with Holmes in the room
        walk[player.place] = 1
    missing = {c: max(0, need - player.board.counts[c - 1]) for c in COLOURS}
    progress = sum(need - m for m in missing.values())
    value = 100.0 * progress + _within_reach(state, castle, walk, missing)
    if not any(missing.values()):
        value += 500.0 - 60.0 * walk.get(place_of(PHARMACY), 12)
    value -= _expected_strikes(state, castle, seat) * _strike_cost(state, player)
    return value - 40.0 * player.strikes


def _within_reach(state: pb.State, castle: Castle, walk: dict[int, int],
                  missing: dict[int, int]) -> float:
    """Needed cubes on the castle, each worth less the further away it lies."""
    if not any(missing.values()):
        return 0.0
    by_colour: dict[int, list[int]] = {c: [] for c in COLOURS if missing[c]}
    for place, far in walk.items():
        safe = castle.safe(place)
        for colour, lst in by_colour.items():
            lst.extend([far] * safe.counts[colour - 1])
    value = 0.0
    for colour, lst in by_colour.items():
        for far in sorted(lst)[:missing[colour]]:
            value += 45.0 * 0.6 ** far
    unexplored = castle.any_explorable() and state.room_pile
    return value + (4.0 if unexplored else 0.0)


def _distances(castle: Castle, start: int, blocked: int = -1) -> dict[int, int]:
    """Doorway steps from `start` to every room, never through `blocked` (Holmes' room)."""
    far = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for nxt in castle.neighbours(here):
            if nxt not in far and nxt != blocked:
                far[nxt] = far[here] + 1
                queue.append(nxt)
    return far


def _strike_cost(state: pb.State, player: pb.Player) -> float:
    """What the next strike costs: the cubes it drops, and the game at the last one."""
    progression = catalogue().rules["strike_progression"]
    drop = progression[min(player.strikes, len(progression) - 1)]
    limit = rules(state).strikes_to_lose(state)
    last = limit is not None and player.strikes + 1 >= limit
    return STRIKE + 80.0 * drop + (LAST_STRIKE if last else 0.0)


def _expected_strikes(state: pb.State, castle: Castle, seat: int) -> float:
    """Strikes Holmes is expected to land at the end of this round: the movement cards left,
    then (Automa) the Holmes' Action Cards left that walk him towards you."""
    mine = state.players[seat].place
    far = rules(state).holmes_distances(state)
    if far is None:
        far = _distances(castle, mine)
    reach = _walk_odds(state)
    if mine == place_of(PHARMACY):  # Holmes never walks into the Pharmacy
        reach = {}
    cards = catalogue().movement
    deck = Counter(state.holmes_deck) if state.holmes_deck else Counter(state.holmes_discard)
    total = sum(deck.values()) or 1
    explored = set(castle.places())
    expected = 0.0
    for card, copies in deck.items():
        printed = cards[card]
        if printed.special == "lights_out":
            land = state.holmes
        elif printed.special == "rampage":
            expected += copies / total * 0.3
            continue
        else:
            rooms = [p for r in printed.rooms for p in (place_of(r), place_of(r, 1))
                     if p in explored]
            land = _landing(state, far, rooms, mine)
        if land == mine and state.holmes != mine:
            expected += copies / total
        elif land != mine:
            expected += copies / total * reach.get(far.get(land, 99), 0.0)
    return expected


def _landing(state: pb.State, far: dict[int, int], rooms: list[int], mine: int) -> int:
    """Where a movement card sends Holmes (Automa: your room if listed, else the closest; Play
    as Holmes: as close to you as he can, the worst case)."""
    if not rooms:
        return state.holmes
    if mine in rooms:
        return mine
    return min(rooms, key=lambda r: (far.get(r, 99), r))


def _walk_odds(state: pb.State) -> dict[int, float]:
    """The chance Holmes walks into your room from 1 or 2 rooms away after the movement card:
    the Automa deck's walking cards left; in Play as Holmes a fixed guess (his cards on the
    tiles walk him)."""
    return rules(state).walk_odds(state)


# -- cheap playouts for IS-MCTS ----------------------------------------------------------------
#: Random actions a playout plays before it is scored by `playout_rewards` (a random game of
#: Murder Castle runs to thousands of actions).
ROLLOUT_ACTIONS = 30


def playout_rewards(state: pb.State) -> list[float]:
    """Each seat's reward in [0, 1] at the end of a playout: 1 for a win, 0 for a loss; cut
    short, alone (Automa) its evidence less its strikes, otherwise its place among the others
    by that mark (the Holmes seat by the Holmes Tracker), ties counting half."""
    if state.finished:
        won = {state.winner - 1} if state.winner else (
            {holmes_seat(state)} if state.holmes_won else set())
        return [1.0 if s in won else 0.0 for s in range(len(state.players))]
    need = needed(state) * len(COLOURS)
    holmes = holmes_seat(state)
    marks = []
    for seat, player in enumerate(state.players):
        if seat == holmes:
            marks.append(state.holmes_tracker / 10)
        else:
            got = sum(min(n, needed(state)) for n in player.board.counts)
            marks.append(got / need - 0.1 * player.strikes)
    if len(marks) == 1:
        return [max(0.0, min(1.0, marks[0]))]
    return [sum(0.5 + 0.5 * ((m > o) - (m < o)) for t, o in enumerate(marks) if t != s)
            / (len(marks) - 1) for s, m in enumerate(marks)]
