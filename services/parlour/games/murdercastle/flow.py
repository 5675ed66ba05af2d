"""The round and the decision stack: who owes what, what they may do, and settling after it.

When the stack is empty the round driver pushes the next decision: the next seat
to perform the current Action Tile, an Event Card window after each Action Tile
phase, the next Action Tile selection, or the end-of-round Holmes' Movement card.
Automatic frames (rampage, encounter, effects…) run until a seat owes a decision.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from parlour.engine.game import IllegalAction
from parlour.games.murdercastle import (
    actions,
    cards,
    characters,
    defence,
    effects,
    holmes,
)
from parlour.games.murdercastle.actions import PASS
from parlour.games.murdercastle.board import PHARMACY, Castle, place_of, room_special
from parlour.games.murdercastle.catalogue import action_tiles
from parlour.games.murdercastle.cubes import complete, needed, total
from parlour.games.murdercastle.hooks import MODES, declared, rules
from parlour.games.murdercastle.pieces import move_player
from parlour.games.murdercastle.setup import selections_per_round
from parlour.games.murdercastle.stack import (
    Out,
    clockwise,
    holmes_seat,
    investigators,
    key_order,
    pop,
    private,
    public,
    push,
    top,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

Options = Callable[[pb.State, pb.Frame, int], list[pb.Action]]
Apply = Callable[[pb.State, pb.Frame, int, pb.Action, Out], None]
#: Frames whose only option may be taken for the seat: their options never depend on a hand
#: (with those the modes declare).
PUBLIC_CHOICES = {
    pb.FRAME_KIND_PLACE_ROOM, pb.FRAME_KIND_HOLMES_ROOM, pb.FRAME_KIND_ESCAPE,
    pb.FRAME_KIND_CHOOSE_PLACE, pb.FRAME_KIND_CHOOSE_SEAT, pb.FRAME_KIND_CHOOSE_COLOUR,
    pb.FRAME_KIND_CHOOSE_DOOR, pb.FRAME_KIND_PICK_ROOM_TILE, pb.FRAME_KIND_EVENT_MOVE,
    pb.FRAME_KIND_SELECT_TILE, pb.FRAME_KIND_BLACK_CLOSET,
}
#: Each action kind's refusal reason (with those the modes declare).
REASONS = {
    "select": "TILE_NOT_OPEN", "pass": "DECISION_REQUIRED", "explore": "DOORWAY_NOT_EXPLORABLE",
    "rotate": "ROTATION_DOES_NOT_CONNECT", "cube": "CUBE_NOT_AVAILABLE",
    "collect": "CANNOT_COLLECT", "move": "ROOM_NOT_REACHABLE", "draw": "CANNOT_DRAW",
    "reveal": "CANNOT_MOVE_HOLMES", "place": "ROOM_NOT_OFFERED", "target": "SEAT_NOT_OFFERED",
    "play": "CARD_NOT_PLAYABLE", "discard": "CARD_NOT_IN_HAND", "hide": "NOT_HIDING_NOW",
    "ability": "ABILITY_NOT_AVAILABLE", "pick": "TILE_NOT_IN_PILE",
    "turn_wheel": "BONUS_NOT_AVAILABLE", "give": "CARD_NOT_IN_HAND",
}


# -- who owes what ---------------------------------------------------------------
def pending_seats(state: pb.State) -> list[int]:
    """Seats that owe the decision on top of the stack."""
    frame = top(state)
    if frame is None or state.finished:
        return []
    if frame.kind == pb.FRAME_KIND_HIDE:
        return holmes.hide_pending(state, frame)
    found = rules(state).pending_seats(state, frame)
    if found is not None:
        return found
    if frame.kind == pb.FRAME_KIND_EVENT_WINDOW:
        return list(frame.seats[:1])
    return [frame.seat]


def options(state: pb.State, seat: int) -> list[pb.Action]:
    """Every action the seat may take now."""
    frame = top(state)
    if frame is None or seat not in pending_seats(state):
        return []
    return decisions()[frame.kind][0](state, frame, seat)


def apply(state: pb.State, seat: int, action: pb.Action) -> Out:
    """Check an action against the options, perform it and settle the stack."""
    kind = action.WhichOneof("kind")
    if kind is None:
        raise IllegalAction("EMPTY_ACTION", "the action names no move")
    legal = options(state, seat)
    if action not in legal:
        kinds = {a.WhichOneof("kind") for a in legal}
        if kind not in kinds:
            raise IllegalAction("WRONG_DECISION", f"{kind} is not a choice now")
        reason = REASONS.get(kind) or declared("reasons")[kind]
        raise IllegalAction(reason, f"{kind} is not allowed now")
    out: Out = []
    frame = top(state)
    assert frame is not None
    decisions()[frame.kind][1](state, frame, seat, action, out)
    settle(state, out)
    MODES.after_action(state, out)
    return out


# -- settling ------------------------------------------------------------------------
def settle(state: pb.State, out: Out) -> None:
    """Run automatic steps until some seat owes a decision or the game is over."""
    while not state.finished and not _won(state, out):
        frame = top(state)
        if frame is None:
            _drive(state, out)
            continue
        automatic = automatic_steps().get(frame.kind)
        if automatic is not None:
            automatic(state, frame, out)
            continue
        if frame.kind == pb.FRAME_KIND_ACT and _finished_act(frame):
            actions.end_action(state, frame)
            continue
        if frame.kind == pb.FRAME_KIND_FILL_SAFE and actions.fill_forced(state, frame, out):
            continue
        if frame.kind == pb.FRAME_KIND_DROP_EVIDENCE and actions.drop_forced(state, frame, out):
            continue
        if frame.kind == pb.FRAME_KIND_EVENT_WINDOW:
            _trim_window(state, frame)
        seats = pending_seats(state)
        if not seats:
            pop(state)
            continue
        legal = decisions()[frame.kind][0](state, frame, seats[0])
        if not legal:
            pop(state)
            continue
        if len(legal) == 1 and _may_decide_for(state, frame, legal[0]):
            decisions()[frame.kind][1](state, frame, seats[0], legal[0], out)
            continue
        return


def _finished_act(frame: pb.Frame) -> bool:
    """An action that has begun and has no steps or bonus left."""
    return frame.started and not frame.count and not frame.bonus


def _may_decide_for(state: pb.State, frame: pb.Frame, only: pb.Action) -> bool:
    if frame.kind in PUBLIC_CHOICES or frame.kind in declared("public_choices"):
        return True
    if frame.kind == pb.FRAME_KIND_ACT:
        return frame.started or not state.players[frame.seat].keep
    return False


def _trim_window(state: pb.State, frame: pb.Frame) -> None:
    """Drop seats from a window that cannot act, judged on public facts only (a window that
    answers Holmes entering a room also drops the seats no longer there with him, and first
    takes in the seats a mode adds, `window_joiners`)."""
    if frame.place and not frame.started:
        frame.started = True
        frame.seats.extend(s for s in rules(state).window_joiners(state) if s not in frame.seats)
    while frame.seats and not _in_window(state, frame, frame.seats[0]):
        frame.seats.pop(0)


def _in_window(state: pb.State, frame: pb.Frame, seat: int) -> bool:
    if seat == holmes_seat(state):
        return rules(state).holmes_in_window(state)
    added = bool(rules(state).window_actions(state, seat, frame.place))
    if frame.place and not holmes.exposed(state, seat, frame.place):
        return added
    return added or _may_play(state, seat)


def _may_play(state: pb.State, seat: int) -> bool:
    return bool(state.players[seat].keep) or characters.available(state, seat, None)


def _won(state: pb.State, out: Out) -> bool:
    """The first player back in the Pharmacy with all evidence wins (Rulebook: Winning), unless
    a mode's win comes first (`game_over`)."""
    holmes_won = MODES.game_over(state)
    if holmes_won is not None:
        winners, reason = holmes_won
        state.holmes_won = True
        if winners:
            state.winner = winners[0] + 1
        _finish(state, winners, reason, out)
        return True
    home = place_of(PHARMACY)
    need = needed(state)
    if not any(p.place == home and min(p.board.counts) >= need for p in state.players):
        return False
    for seat in key_order(state):
        player = state.players[seat]
        if player.place == home and complete(state, player.board):
            state.winner = seat + 1
            _finish(state, (seat,), "escaped the castle with all the evidence", out)
            return True
    return False


def _finish(state: pb.State, winners: tuple[int, ...], reason: str, out: Out) -> None:
    state.finished = True
    del state.frames[:]
    evidence = [total(p.board) for p in state.players]
    out.append(public(pb.Event(ended=pb.GameEnded(winners=winners, evidence=evidence,
                                                  reason=reason))))


def leaders(state: pb.State) -> tuple[int, ...]:
    """Investigators with the most evidence collected, fewest strikes breaking ties."""
    rank = {s: (total(state.players[s].board), -state.players[s].strikes)
            for s in investigators(state)}
    best = max(rank.values())
    return tuple(s for s, r in rank.items() if r == best)


def _step_effect(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """The next stage of an Event Card effect or of a character ability."""
    if frame.character:
        characters.step(state, frame, out)
    else:
        effects.step_effect(state, frame, out)


def _drive(state: pb.State, out: Out) -> None:
    """Push the next decision of the round (Rulebook: Overview)."""
    if state.to_act:
        actions.start_action(state, state.to_act.pop(0))
        return
    if state.current:
        state.current = pb.ACTION_TILE_UNSPECIFIED
        seats = [s for s in key_order(state) if _may_play(state, s)
                 or rules(state).window_actions(state, s, 0)]
        seats += rules(state).window_seats(state)
        if seats:
            push(state, pb.FRAME_KIND_EVENT_WINDOW, seats[0], seats=seats)
        return
    players = key_order(state)
    if state.selections < selections_per_round(len(players)):
        actions.maybe_flip(state, out)
        push(state, pb.FRAME_KIND_SELECT_TILE, players[state.selections % len(players)])
        return
    push(state, pb.FRAME_KIND_END_ROUND, state.key)
    if not skips_movement(state):
        holmes.reveal(state, state.key, False, out)


def skips_movement(state: pb.State) -> bool:
    """Whether this round ends without a Holmes' Movement Card (a mode's reward or a planner's
    sample sets the flag; it is spent)."""
    skip = state.junction.skip_movement
    state.junction.skip_movement = False
    return skip


def _end_round(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """A mode's end-of-round steps first (`end_round`); Black Closet draws; then the Skeleton
    Key passes clockwise."""
    if MODES.end_round(state, frame, out):
        return
    if not frame.started:
        frame.started = True
        frame.seats.extend(s for s in key_order(state)
                           if room_special(state.players[s].place) == "black_closet")
    if frame.seats:
        push(state, pb.FRAME_KIND_BLACK_CLOSET, frame.seats.pop(0))
        return
    pop(state)
    MODES.round_over(state, out)
    state.round += 1
    state.key = clockwise(state, (state.key + 1) % state.seats)[0]
    state.selections = 0
    del state.tiles_open[:]
    state.tiles_open.extend(action_tiles(len(investigators(state))))
    out.append(public(pb.Event(round_ended=pb.RoundEnded(round=state.round, key=state.key))))
    limit = state.options.round_limit
    if limit and state.round >= limit:
        _finish(state, leaders(state), f"round limit {limit}: most evidence wins", out)


# -- decisions: options and appliers ---------------------------------------------------
def _select_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return [pb.Action(select=pb.SelectTile(tile=t)) for t in actions.selectable(state, seat)]


def _select(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    actions.select(state, seat, action.select.tile, out)


def _act_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return actions.act_options(state, frame)


def _act(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    actions.act(state, frame, action, out)


def _rotate_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return actions.rotation_options(state, frame)


def _rotate(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    actions.place_room(state, frame, action.rotate, out)


def _fill_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return actions.fill_options(state, frame)


def _fill(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    actions.fill(state, frame, action.cube.colour, out)


def _holmes_room(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action,
                 out: Out) -> None:
    holmes.choose_room(state, frame, action.place.place, out)


def _escape_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    found = [pb.Action(move=pb.Move(place=p)) for p in holmes.escape_options(state, frame)]
    if frame.escape_ready:
        found.append(pb.Action(ability=pb.UseAbility()))
    return [*found, PASS]


def _escape(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    pop(state)
    kind = action.WhichOneof("kind")
    if kind == "move":
        move_player(state, seat, action.move.place, "escape", out)
        out.append(public(pb.Event(spared=pb.Spared(seat=seat, reason="escape"))))
        holmes.escaped(state)
    elif kind == "ability":
        characters.spare_adeline(state, seat, out)


def _drop_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return actions.drop_options(state, frame)


def _drop(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    actions.drop(state, frame, action.cube.colour, out)


def _limit_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return cards.hand_limit_options(state, seat)


def _limit(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    pop(state)
    if action.WhichOneof("kind") == "play":
        cards.play(state, seat, action.play.card, out)
    else:
        cards.discard(state, seat, action.discard.card, out)


def _window_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    if seat == holmes_seat(state):
        return [*rules(state).holmes_window_actions(state), PASS]
    found = rules(state).window_actions(state, seat, frame.place)
    if not frame.place or holmes.exposed(state, seat, frame.place):
        found = [*cards.plays(state, seat), *characters.ability_actions(state, seat, None),
                 *found]
    return [*found, PASS]


def _window(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    kind = action.WhichOneof("kind")
    if kind == "play":
        cards.play(state, seat, action.play.card, out)
    elif kind == "ability":
        characters.use(state, seat, out)
    elif kind == "pass":
        out.append(public(pb.Event(passed=pb.Passed(seat=seat, frame=frame.kind))))
        frame.seats.pop(0)
    else:
        rules(state).window_act(state, seat, action, out)


def _closet_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    drawable = bool(state.event_deck or state.event_discard)
    return [pb.Action(draw=pb.Draw()), PASS] if drawable else []


def _closet(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    pop(state)
    if action.WhichOneof("kind") == "draw":
        cards.draw(state, seat, out)
    else:
        out.append(public(pb.Event(passed=pb.Passed(seat=seat, frame=frame.kind))))


def place_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    """A choice among the rooms the frame offers (Holmes' room, a card's room ...)."""
    return [pb.Action(place=pb.ChoosePlace(place=p)) for p in frame.places]


def _choose_place(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action,
                  out: Out) -> None:
    pop(state)
    state.frames[-1].places.append(action.place.place)


def _seat_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return [pb.Action(target=pb.ChooseSeat(seat=s)) for s in frame.seats]


def _choose_seat(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action,
                 out: Out) -> None:
    pop(state)
    state.frames[-1].target = action.target.seat


def _colour_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return [pb.Action(cube=pb.ChooseCube(colour=c)) for c in frame.colours]


def _choose_colour(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action,
                   out: Out) -> None:
    pop(state)
    state.frames[-1].colour = action.cube.colour


def _door_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return [pb.Action(explore=pb.Explore(side=s)) for s in frame.places]


def _choose_door(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action,
                 out: Out) -> None:
    pop(state)
    state.frames[-1].side = action.explore.side


def _pick_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return [pb.Action(pick=pb.PickTile(tile=t)) for t in sorted(set(state.room_pile))]


def _pick(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    pop(state)
    state.frames[-1].tile = action.pick.tile


def _give_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return [pb.Action(give=pb.GiveCard(card=c)) for c in sorted(set(state.players[seat].keep))]


def _give(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    pop(state)
    state.frames[-1].card = action.give.card


def _defend_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return defence.defend_options(state, frame)


def _defend(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    kind = action.WhichOneof("kind")
    if kind == "play":
        defence.defend(state, frame, action.play.card, out)
    elif kind == "ability":
        player = state.players[seat]
        player.ability_used = True
        out.append(public(pb.Event(ability=pb.AbilityUsed(seat=seat, character=player.character))))
        defence.defend(state, frame, 0, out)
    else:
        out.append(public(pb.Event(passed=pb.Passed(seat=seat, frame=frame.kind))))
        pop(state)


def _hide_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return [pb.Action(hide=pb.Hide(spot=s)) for s in (pb.HIDING_SPOT_BED, pb.HIDING_SPOT_BATHROOM)]


def _hide(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    state.players[seat].hiding = action.hide.spot
    out.extend(private({seat}, pb.Event(hid=pb.Hidden(seat=seat, spot=action.hide.spot)),
                       pb.Event(hid=pb.Hidden(seat=seat))))
    if not holmes.hide_pending(state, frame):
        holmes.reveal_hiding(state, frame, out)


def _event_move_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    if frame.card:
        rooms = effects.passage_moves(state, seat)
    else:
        castle = Castle(state)
        rooms = [p for p in castle.neighbours(state.players[seat].place) if p != state.holmes]
    found = [pb.Action(move=pb.Move(place=p)) for p in rooms]
    return [*found, PASS] if frame.bonus else found


def _event_move(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action,
                out: Out) -> None:
    if action.WhichOneof("kind") == "pass":
        pop(state)
        return
    how = "secret passage" if frame.card else "escape"
    move_player(state, seat, action.move.place, how, out)
    frame.count -= 1
    if not frame.count:
        pop(state)


DECISIONS: dict[int, tuple[Options, Apply]] = {
    pb.FRAME_KIND_SELECT_TILE: (_select_options, _select),
    pb.FRAME_KIND_ACT: (_act_options, _act),
    pb.FRAME_KIND_PLACE_ROOM: (_rotate_options, _rotate),
    pb.FRAME_KIND_FILL_SAFE: (_fill_options, _fill),
    pb.FRAME_KIND_HOLMES_ROOM: (place_options, _holmes_room),
    pb.FRAME_KIND_ESCAPE: (_escape_options, _escape),
    pb.FRAME_KIND_DROP_EVIDENCE: (_drop_options, _drop),
    pb.FRAME_KIND_HAND_LIMIT: (_limit_options, _limit),
    pb.FRAME_KIND_EVENT_WINDOW: (_window_options, _window),
    pb.FRAME_KIND_CHOOSE_PLACE: (place_options, _choose_place),
    pb.FRAME_KIND_CHOOSE_SEAT: (_seat_options, _choose_seat),
    pb.FRAME_KIND_CHOOSE_COLOUR: (_colour_options, _choose_colour),
    pb.FRAME_KIND_CHOOSE_DOOR: (_door_options, _choose_door),
    pb.FRAME_KIND_PICK_ROOM_TILE: (_pick_options, _pick),
    pb.FRAME_KIND_GIVE_CARD: (_give_options, _give),
    pb.FRAME_KIND_DEFEND: (_defend_options, _defend),
    pb.FRAME_KIND_HIDE: (_hide_options, _hide),
    pb.FRAME_KIND_EVENT_MOVE: (_event_move_options, _event_move),
    pb.FRAME_KIND_BLACK_CLOSET: (_closet_options, _closet),
}
AUTOMATIC: dict[int, Callable[[pb.State, pb.Frame, Out], None]] = {
    pb.FRAME_KIND_RAMPAGE: holmes.step_rampage,
    pb.FRAME_KIND_ENCOUNTER: holmes.step_encounter,
    pb.FRAME_KIND_FOLLOW: holmes.step_follow,
    pb.FRAME_KIND_EFFECT: _step_effect,
    pb.FRAME_KIND_FALL: effects.step_fall,
    pb.FRAME_KIND_END_ROUND: _end_round,
}


@cache
def decisions() -> dict[int, tuple[Options, Apply]]:
    """The standard decisions and those the modes add."""
    return {**DECISIONS, **MODES.decisions()}


@cache
def automatic_steps() -> dict[int, Callable[[pb.State, pb.Frame, Out], None]]:
    """The standard automatic steps and those the modes add."""
    return {**AUTOMATIC, **MODES.automatic()}
