"""One readable line per action and per event, for logs and the demo feed."""

from __future__ import annotations

from parlour.games.isayholmes.catalogue import VILLAINS, title
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

REGIONS = {pb.REGION_LONDON: "London", pb.REGION_COUNTRY: "the Country"}
DECLINES = {
    pb.PHASE_TARGET: "makes no Arrest",
    pb.PHASE_RESPOND: "does not defend",
    pb.PHASE_FLEE: "discards no Villain",
    pb.PHASE_EXTRA_ARREST: "makes no extra Arrest",
}
ENDS = {
    pb.ROUND_END_ARREST: "an Arrest",
    pb.ROUND_END_ESCAPE: "an Escape",
    pb.ROUND_END_NO_VILLAIN: "no Villain found",
    pb.ROUND_END_STALEMATE: "a stalemate",
}


def _titles(cards) -> str:
    return ", ".join(title(c) for c in cards) or "nothing"


def describe_action(act: pb.Action) -> str:
    """One line for an action."""
    kind = act.WhichOneof("kind")
    if kind == "play":
        return f"plays {title(act.play.card)}"
    if kind == "target":
        return f"names seat {act.target.seat}"
    if kind == "defend":
        return f"defends with {title(act.defend.card)}"
    if kind == "show":
        return f"shows {title(act.show.card)}"
    if kind == "give":
        return f"gives {title(act.give.card)}"
    if kind == "discard_villain":
        return f"discards {title(act.discard_villain.card)}"
    if kind == "pass_left":
        return f"passes {title(act.pass_left.card)} left"
    return {
        "draw": "draws a card",
        "pass_turn": "passes",
        "escape": "escapes with the Villains",
        "decline": "declines",
    }.get(kind or "", "does nothing")


def _round_started(e: pb.RoundStarted) -> str:
    hand = f"; your hand: {_titles(e.hand)}" if e.hand else ""
    return f"round {e.round}: seat {e.opener} opens with The Game is Afoot!{hand}"


def _played(e: pb.CardPlayed) -> str:
    how = "draws and plays" if e.drawn else "plays"
    return f"seat {e.seat} {how} {title(e.card)} (chit: {REGIONS.get(e.location, '?')})"


def _drawn(e: pb.CardsDrawn) -> str:
    why = f" ({title(e.penalty)})" if e.penalty else ""
    what = f": {_titles(e.cards)}" if e.cards else ""
    return f"seat {e.seat} draws {e.count} card(s){why}{what}"


def _seen(e: pb.CardsSeen) -> str:
    what = f": {_titles(e.cards)}" if e.cards else ""
    return f"seat {e.seat} looks at {e.count} of seat {e.target}'s cards ({title(e.source)}){what}"


def _given(e: pb.CardGiven) -> str:
    what = f" ({title(e.card)})" if e.card else ""
    return f"seat {e.seat} secretly gives seat {e.target} a card{what}"


def _traded(e: pb.HandsTraded) -> str:
    what = f"; you now hold {_titles(e.hand)}" if e.hand else ""
    return f"seat {e.seat} trades hands with seat {e.target}{what}"


def _arrested(e: pb.Arrested) -> str:
    verdict = "Guilty!" if e.guilty else "Not Guilty"
    taken = f"; seat {e.seat} takes {e.taken} card(s)" if e.taken else ""
    what = f": {_titles(e.cards)}" if e.cards else ""
    return f"seat {e.seat} arrests seat {e.target}: {verdict}{taken}{what}"


def _round_ended(e: pb.RoundEnded) -> str:
    """How the round ended, whose Villains were caught or escaped, every revealed hand, points."""
    r = e.result
    how = ENDS.get(r.end, "?")
    villains = _titles(c for c in r.hands[r.villain_seat].cards if c in VILLAINS) if r.hands else ""
    who = {
        pb.ROUND_END_ARREST: f": seat {r.arrester} catches seat {r.villain_seat} with {villains}",
        pb.ROUND_END_ESCAPE: f": seat {r.villain_seat} escapes with {villains}",
    }.get(r.end, "")
    hands = "; ".join(f"seat {s}: {_titles(sorted(h.cards))}" for s, h in enumerate(r.hands))
    return (
        f"round {r.round} ends with {how}{who}; hands shown: {hands}; "
        f"points {list(r.points)}, totals {list(e.scores)}"
    )


def describe_event(ev: pb.Event) -> str:
    """One line for an event."""
    kind = ev.WhichOneof("kind")
    if kind is None:
        return "nothing happens"
    e = getattr(ev, kind)
    simple = {
        "turn_passed": lambda: f"seat {e.seat} can neither play nor draw and passes",
        "target_named": lambda: f"seat {e.seat} names seat {e.target} ({title(e.card)})",
        "defended": lambda: f"seat {e.seat} plays {title(e.card)} against {title(e.against)}",
        "declined": lambda: f"seat {e.seat} {DECLINES.get(e.phase, 'declines')}",
        "score_changed": lambda: f"seat {e.seat} scores {e.delta:+d} ({title(e.card)})",
        "villain_discarded": lambda: f"seat {e.seat} discards {title(e.card)} while fleeing",
        "pass_chosen": lambda: f"seat {e.seat} has chosen a card to pass left",
        "passed_left": lambda: (
            "every seat passes a card left"
            + (f"; you receive {title(e.received)}" if e.received else "")
        ),
        "passed_right": lambda: (
            "every hand passes right" + (f"; you receive {_titles(e.hand)}" if e.hand else "")
        ),
        "redealt": lambda: (
            f"Thick Fog: hands re-dealt, sizes {list(e.hand_sizes)}"
            + (f"; you hold {_titles(e.hand)}" if e.hand else "")
        ),
        "reshuffled": lambda: (
            f"{'The plot thickens' if e.plot_thickens else 'The Draw Pile ran out'}: "
            f"{e.draw_pile} cards in the new Draw Pile"
        ),
        "went_out": lambda: f"seat {e.seat} went out and must make an Arrest",
        "escaped": lambda: f"seat {e.seat} escapes with {_titles(e.villains)}",
        "match_ended": lambda: f"match over: totals {list(e.scores)}, winner(s) {list(e.winners)}",
    }
    if kind in simple:
        return simple[kind]()
    formatters = {
        "round_started": _round_started,
        "played": _played,
        "drawn": _drawn,
        "seen": _seen,
        "given": _given,
        "traded": _traded,
        "arrested": _arrested,
        "round_ended": _round_ended,
    }
    return formatters[kind](e)
