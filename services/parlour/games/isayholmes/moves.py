"""The moves of each decision (Rulebook 4, 5 and 7): which are legal now, and the checks a
move must pass before the rules modules apply it."""

from __future__ import annotations

from collections.abc import Callable

from parlour.engine.game import Emitted, IllegalAction
from parlour.games.isayholmes.catalogue import KINDS, VILLAINS
from parlour.games.isayholmes.defence import choose_pass, decline, defend
from parlour.games.isayholmes.effects import (
    choose_extra_arrest,
    defences_against,
    flee,
    give,
    highest_cards,
    name_target,
    show,
)
from parlour.games.isayholmes.ending import accuse, finish_turn, suspects
from parlour.games.isayholmes.piles import can_draw
from parlour.games.isayholmes.turns import (
    draw_card,
    escape,
    must_escape,
    pass_turn,
    play,
    playable,
    suitable_in_hand,
)
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

A = pb.Action


def legal(state: pb.State, seat: int) -> list[pb.Action]:
    """Every move `seat` may make in the decision it owes."""
    return _LEGAL[state.phase](state, seat)


def apply(state: pb.State, seat: int, action: pb.Action) -> list[Emitted]:
    """Check a move against the decision owed and the rules, then apply it."""
    kind = action.WhichOneof("kind")
    if kind is None:
        raise IllegalAction("EMPTY_ACTION", "the action names no move")
    allowed = _MOVES.get(state.phase, {})
    if kind not in allowed:
        raise IllegalAction(
            "WRONG_DECISION", f"{kind} is not a move now (expected {sorted(allowed)})"
        )
    out: list[Emitted] = []
    allowed[kind](state, seat, action, out)
    return out


def _opponents(state: pb.State, seat: int) -> list[int]:
    return [s for s in range(state.seats) if s != seat]


# -- legal moves, per phase ----------------------------------------------------------
def _hand_kinds(state: pb.State, seat: int) -> list[int]:
    return sorted(set(state.hands[seat].cards))


def _turn_moves(state: pb.State, seat: int) -> list[pb.Action]:
    if must_escape(state, seat):
        return [A(escape=pb.Escape())]
    moves = [A(play=pb.PlayCard(card=c)) for c in sorted(playable(state, seat))]
    if not suitable_in_hand(state, seat):
        moves.append(A(draw=pb.DrawCard()) if can_draw(state) else A(pass_turn=pb.PassTurn()))
    return moves


def _opponent_moves(state: pb.State, seat: int) -> list[pb.Action]:
    return [A(target=pb.ChooseTarget(seat=s)) for s in _opponents(state, seat)]


def _target_moves(state: pb.State, seat: int) -> list[pb.Action]:
    declines = [A(decline=pb.Decline())] if KINDS[state.effect.card].optional else []
    return declines + _opponent_moves(state, seat)


def _defence_moves(state: pb.State, seat: int) -> list[pb.Action]:
    held = defences_against(state) & set(state.hands[seat].cards)
    return [A(decline=pb.Decline())] + [A(defend=pb.Defend(card=c)) for c in sorted(held)]


def _show_moves(state: pb.State, seat: int) -> list[pb.Action]:
    return [A(show=pb.ShowCard(card=c)) for c in highest_cards(state, seat)]


def _give_moves(state: pb.State, seat: int) -> list[pb.Action]:
    return [A(give=pb.GiveCard(card=c)) for c in _hand_kinds(state, seat)]


def _flee_moves(state: pb.State, seat: int) -> list[pb.Action]:
    villains = [c for c in _hand_kinds(state, seat) if c in VILLAINS]
    discards = [A(discard_villain=pb.DiscardVillain(card=c)) for c in villains]
    return [A(decline=pb.Decline())] + discards


def _pass_moves(state: pb.State, seat: int) -> list[pb.Action]:
    return [A(pass_left=pb.PassLeft(card=c)) for c in _hand_kinds(state, seat)]


def _extra_arrest_moves(state: pb.State, seat: int) -> list[pb.Action]:
    return [A(decline=pb.Decline())] + _opponent_moves(state, seat)


def _accuse_moves(state: pb.State, seat: int) -> list[pb.Action]:
    return [A(target=pb.ChooseTarget(seat=s)) for s in suspects(state)]


_LEGAL: dict[int, Callable[[pb.State, int], list[pb.Action]]] = {
    pb.PHASE_TURN: _turn_moves,
    pb.PHASE_TARGET: _target_moves,
    pb.PHASE_RESPOND: _defence_moves,
    pb.PHASE_SHOW: _show_moves,
    pb.PHASE_GIVE: _give_moves,
    pb.PHASE_FLEE: _flee_moves,
    pb.PHASE_PASS_LEFT: _pass_moves,
    pb.PHASE_EXTRA_ARREST: _extra_arrest_moves,
    pb.PHASE_ACCUSE: _accuse_moves,
}


# -- move handlers: check the move against the rules, then apply it ---------------
def _turn_play(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    card = action.play.card
    if must_escape(state, seat):
        raise IllegalAction("MUST_ESCAPE", "a hand of only Villains must escape")
    if card not in state.hands[seat].cards:
        raise IllegalAction("CARD_NOT_IN_HAND", f"card {card} is not in your hand")
    if card not in playable(state, seat):
        raise IllegalAction("NOT_SUITABLE", f"card {card} does not follow the Story Sequence")
    play(state, seat, card, out)


def _turn_draw(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    if must_escape(state, seat):
        raise IllegalAction("MUST_ESCAPE", "a hand of only Villains must escape")
    if suitable_in_hand(state, seat):
        raise IllegalAction("HAS_SUITABLE_CARD", "you hold a Suitable Card and may not draw")
    if not can_draw(state):
        raise IllegalAction("DRAW_PILE_EMPTY", "there is nothing to draw")
    draw_card(state, seat, out)


def _turn_pass(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    if must_escape(state, seat):
        raise IllegalAction("MUST_ESCAPE", "a hand of only Villains must escape")
    if suitable_in_hand(state, seat):
        raise IllegalAction("HAS_SUITABLE_CARD", "you hold a Suitable Card")
    if can_draw(state):
        raise IllegalAction("MUST_DRAW", "without a Suitable Card you must draw")
    pass_turn(state, seat, out)


def _turn_escape(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    if not must_escape(state, seat):
        raise IllegalAction("NOT_ONLY_VILLAINS", "only a hand of nothing but Villains escapes")
    escape(state, seat, out)


def _checked_opponent(state: pb.State, seat: int, target: int) -> int:
    if target == seat or target >= state.seats:
        raise IllegalAction("BAD_TARGET", f"seat {target} is not one of your opponents")
    return target


def _name_opponent(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    name_target(state, _checked_opponent(state, seat, action.target.seat), out)


def _target_decline(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    if not KINDS[state.effect.card].optional:
        raise IllegalAction("MUST_NAME_OPPONENT", "this card must name an opponent")
    out.append(Emitted(pb.Event(declined=pb.Declined(seat=seat, phase=state.phase))))
    finish_turn(state, seat, out)


def _respond_decline(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    decline(state, out)


def _respond_defend(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    card = action.defend.card
    if card not in defences_against(state):
        raise IllegalAction("DEFENCE_NOT_ALLOWED", f"card {card} cannot block this card")
    if card not in state.hands[seat].cards:
        raise IllegalAction("CARD_NOT_IN_HAND", f"card {card} is not in your hand")
    defend(state, card, out)


def _show(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    card = action.show.card
    if card not in state.hands[seat].cards:
        raise IllegalAction("CARD_NOT_IN_HAND", f"card {card} is not in your hand")
    if card not in highest_cards(state, seat):
        raise IllegalAction("NOT_HIGHEST_CARD", "Disguise makes you show your highest-valued card")
    show(state, card, out)


def _give(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    give(state, action.give.card, out)


def _flee_keep(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    out.append(Emitted(pb.Event(declined=pb.Declined(seat=seat, phase=state.phase))))
    flee(state, pb.CARD_UNSPECIFIED, out)


def _flee_discard(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    card = action.discard_villain.card
    if card not in VILLAINS:
        raise IllegalAction("NOT_A_VILLAIN", f"card {card} is not a Villain")
    flee(state, card, out)


def _pass_left(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    choose_pass(state, seat, action.pass_left.card, out)


def _extra_arrest(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    choose_extra_arrest(state, _checked_opponent(state, seat, action.target.seat), out)


def _extra_arrest_decline(
    state: pb.State, seat: int, action: pb.Action, out: list[Emitted]
) -> None:
    out.append(Emitted(pb.Event(declined=pb.Declined(seat=seat, phase=state.phase))))
    finish_turn(state, seat, out)


def _accuse(state: pb.State, seat: int, action: pb.Action, out: list[Emitted]) -> None:
    target = action.target.seat
    if target not in suspects(state):
        raise IllegalAction("BAD_TARGET", f"seat {target} cannot be accused in this chain")
    accuse(state, target, out)


_Handler = Callable[[pb.State, int, pb.Action, list[Emitted]], None]
_MOVES: dict[int, dict[str, _Handler]] = {
    pb.PHASE_TURN: {
        "play": _turn_play,
        "draw": _turn_draw,
        "pass_turn": _turn_pass,
        "escape": _turn_escape,
    },
    pb.PHASE_TARGET: {"target": _name_opponent, "decline": _target_decline},
    pb.PHASE_RESPOND: {"decline": _respond_decline, "defend": _respond_defend},
    pb.PHASE_SHOW: {"show": _show},
    pb.PHASE_GIVE: {"give": _give},
    pb.PHASE_FLEE: {"decline": _flee_keep, "discard_villain": _flee_discard},
    pb.PHASE_PASS_LEFT: {"pass_left": _pass_left},
    pb.PHASE_EXTRA_ARREST: {"target": _extra_arrest, "decline": _extra_arrest_decline},
    pb.PHASE_ACCUSE: {"target": _accuse},
}
