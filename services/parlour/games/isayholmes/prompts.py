"""What each decision is for, in words (issue 43): the prompt above a seat's choices, in
the rulebook's terms, from the seat's View alone."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.text import seat
from parlour.games.isayholmes.text import in_force, name, the
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb


def prompt(view: pb.View, viewer: int, actions: Sequence[pb.Action]) -> str:
    """What the seat's decision is for (issue 43), one sentence from its View."""
    effect, phase = view.effect, view.phase
    what = the(effect.card) if effect.card else "the card"
    if phase == pb.PHASE_TURN:
        force = name(in_force(view)) if view.discard_pile else "the story"
        return (f"Your turn: play a card that may follow {force} (or an I Say), or draw; "
                "the lowest score wins.")
    return {
        pb.PHASE_TARGET: f"Name the opponent {what} is played against.",
        pb.PHASE_RESPOND: f"{seat(effect.actor)} played {what} against you: defend with an "
                          "Alibi or Mastermind, or let it happen.",
        pb.PHASE_SHOW: f"Disguise: show {seat(effect.actor)} your highest card.",
        pb.PHASE_GIVE: f"Constabulary: choose the card you give {seat(effect.target)}.",
        pb.PHASE_FLEE: "Fleeing: choose a Villain to discard, or keep them.",
        pb.PHASE_EXTRA_ARREST: "The Inspector: arrest another opponent too, or not.",
        pb.PHASE_ACCUSE: "Arrest: name the opponent you accuse of holding a Villain.",
        pb.PHASE_PASS_LEFT: "Alibi: choose the card you pass to the player on your left.",
    }.get(phase, "")
