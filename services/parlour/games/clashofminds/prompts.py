"""What each decision is for, in words (issue 43): the prompt above a seat's choices, in
the rulebook's terms, from the seat's View alone."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.text import owner
from parlour.games.clashofminds.hooks import words
from parlour.games.clashofminds.names import (
    ACTION_NAMES,
    effect_key,
    effect_source,
    thread,
)
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

#: What an effect waiting for its owner's target asks, by its card's key.
TARGET_PROMPTS = {
    "street_urchin": "choose one of your other cards in play and the Crime Thread to move it to",
    "forged_letter": "choose one of your cards in another Crime Thread to swap places with it",
    "witness": "choose one of {rival_s} cards in {thread} to return to {rival_s} hand",
    "disguise": "choose one of {rival_s} used cards in {thread} to put a Distraction Token on",
    "telegram": "you drew 2 Influence Cards; choose a card from your hand to discard",
}


def _effect(view: pb.View, me: int) -> str:
    effect = view.effect
    rival = 1 - me
    asked = {**TARGET_PROMPTS, **words("target_prompts")}.get(
        effect_key(effect), "choose its target").format(
        rival_s=owner(rival), thread=thread(effect.thread))
    return f"{effect_source(effect)}: {asked}."


def _unused(view: pb.View, me: int) -> str:
    used = set(view.players[me].used_actions)
    left = [name for card, name in sorted(ACTION_NAMES.items()) if card not in used]
    return ", ".join(left[:-1]) + f" and {left[-1]}" if len(left) > 1 else "".join(left)


def _turn(view: pb.View, me: int, kinds: set[str]) -> str:
    left = _unused(view, me)
    head = (f"Your turn: use your Action Cards one at a time ({left} left)"
            if left else "Your turn: every Action Card is used")
    parts = [head]
    if "play_influence" in kinds or "pass_mandatory" in kinds:
        parts.append("the Mandatory card puts an Influence Card into play and must be used")
    parts += [note for kind, note in words("turn_notes").items() if kind in kinds]
    if "end_turn" in kinds:
        parts.append("end the turn when you are done" if left else "end the turn")
    last = " This is the last turn before the Final Turn." if view.last_turn else ""
    return "; ".join(parts) + "." + last


def _final_reveal(view: pb.View, me: int, kinds: set[str]) -> str:
    if "reveal_action_card" in kinds:
        return "Final Turn: reveal one of your face-down Action Cards."
    slot = next((s for s in view.players[me].final_slots if s.revealed and not s.resolved),
                None)
    if slot is None:
        return "Final Turn: use the revealed Action Card or skip it."
    name = ACTION_NAMES.get(slot.card, "Action Card")
    return (f"Final Turn: use your {name} in {thread(slot.thread)} (only there), or skip it.")


def prompt(view: pb.View, me: int, actions: Sequence[pb.Action]) -> str:
    """What the seat's decision is for, one sentence or two."""
    kinds = {a.WhichOneof("kind") for a in actions}
    if view.HasField("effect"):
        return _effect(view, me)
    phase = view.phase
    mine = view.players[me] if me < len(view.players) else pb.PlayerView()
    if phase == pb.PHASE_PREPARING_CRIME:
        return ("Preparing the Crime: you are Moriarty; lay the three Crime Plan Cards you "
                "drew face down, one per Crime Thread, in the order you choose.")
    added_prompt = words("prompts").get(phase)
    if added_prompt is not None:
        return added_prompt(view, me)
    if phase == pb.PHASE_INITIAL_SETUP:
        return (f"Initial Setup: place an Influence Card from your hand face down in a Crime "
                f"Thread ({mine.setup_left} still to place; they are revealed together).")
    if phase == pb.PHASE_FINAL_PLACEMENT:
        return ("Final Turn: place an Action Card face down in a Crime Thread; it will act "
                "only there when revealed.")
    if phase == pb.PHASE_FINAL_REVEAL:
        return _final_reveal(view, me, kinds)
    if phase == pb.PHASE_ARCHIVING:
        return ("Archiving: discard any cards from your hand you do not want, one at a time, "
                "then keep the rest.")
    if phase == pb.PHASE_COURSE:
        return _turn(view, me, kinds)
    return ""
