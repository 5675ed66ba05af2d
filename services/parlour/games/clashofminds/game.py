"""Clash of Minds: Holmes vs Moriarty as a parlour Game: dispatch, outcome, conservation.

Seat 0 is Holmes, seat 1 is Moriarty. The rules live in small modules: setup (Preparing
the Crime, Establishing the Course of Events), rounds (Start of the Investigation), turns
(Course and Final Turn), targets and effects (card effects), influence (values), summary
(Conclusion, Archiving); views (what each seat sees); names and text (the words).
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.engine.game import Decision, Emitted, Game, IllegalAction, Outcome, Variant
from parlour.engine.rng import Rng
from parlour.games.clashofminds import (
    reference,
    rounds,
    setup,
    summary,
    targets,
    text,
    turns,
    views,
)
from parlour.games.clashofminds.agents import MODES  # installs the modes
from parlour.games.clashofminds.catalogue import (
    CATALOGUE,
    DEDUCTION_TOKENS,
    DISTRACTION_TOKENS,
    HOLMES,
    MORIARTY,
)
from parlour.games.clashofminds.hooks import added, rules, words
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

Handler = Callable[[pb.State, int, pb.Action], list[Emitted]]

DECISIONS = {
    pb.PHASE_PREPARING_CRIME: "arrange_crime",
    pb.PHASE_INITIAL_SETUP: "place_setup_card",
    pb.PHASE_COURSE: "turn",
    pb.PHASE_FINAL_PLACEMENT: "place_action_card",
    pb.PHASE_FINAL_REVEAL: "reveal_action_card",
    pb.PHASE_ARCHIVING: "discard_from_hand",
}

TURN_HANDLERS: dict[str, Handler] = {
    "play_influence": lambda s, seat, a: turns.play_influence(s, seat, a.play_influence),
    "draw_influence": lambda s, seat, a: turns.draw_influence(s, seat, a.draw_influence),
    "use_influence": lambda s, seat, a: turns.use_influence(s, seat, a.use_influence),
    "add_support": lambda s, seat, a: turns.add_support(s, seat, a.add_support),
    "remove_support": lambda s, seat, a: turns.remove_support(s, seat, a.remove_support),
}
COURSE_HANDLERS: dict[str, Handler] = {
    **TURN_HANDLERS,
    "pass_mandatory": lambda s, seat, a: turns.pass_mandatory(s, seat),
    "end_turn": lambda s, seat, a: turns.end_turn(s, seat),
}
FINAL_HANDLERS: dict[str, Handler] = {
    **TURN_HANDLERS,
    "reveal_action_card": lambda s, seat, a: turns.reveal_action_card(
        s, seat, a.reveal_action_card),
    "skip_action": lambda s, seat, a: turns.skip_action(s, seat),
}
HANDLERS: dict[int, dict[str, Handler]] = {
    pb.PHASE_PREPARING_CRIME: {
        "arrange_crime": lambda s, seat, a: setup.arrange_crime(s, a.arrange_crime)},
    pb.PHASE_INITIAL_SETUP: {
        "place_setup_card": lambda s, seat, a: rounds.place_setup_card(
            s, seat, a.place_setup_card)},
    pb.PHASE_COURSE: COURSE_HANDLERS,
    pb.PHASE_FINAL_PLACEMENT: {
        "place_action_card": lambda s, seat, a: turns.place_action_card(
            s, seat, a.place_action_card)},
    pb.PHASE_FINAL_REVEAL: FINAL_HANDLERS,
    pb.PHASE_ARCHIVING: {
        "discard_card": lambda s, seat, a: summary.discard_from_hand(s, seat, a.discard_card),
        "keep_hand": lambda s, seat, a: summary.keep_hand(s, seat)},
}
#: The phases the modes add (installed by the import of MODES above): (decision, actions).
PHASES = added("phases")
DECISIONS |= {phase: kind for phase, (kind, _) in PHASES.items()}
MOVES = added("moves")
HANDLERS = {phase: {**HANDLERS.get(phase, {}), **MOVES.get(phase, {})}
            for phase in [*HANDLERS, *(p for p in MOVES if p not in HANDLERS)]}
DECK = sorted(CATALOGUE.deck())
CRIME_CARDS = sorted(CATALOGUE.crime)
SITES = sorted(CATALOGUE.sites)
TARGET_KINDS = {"move_card", "target_card", "target_thread", "discard_card"}


class ClashOfMinds(Game):
    """Clash of Minds: Holmes (seat 0) vs Moriarty (seat 1), with or without its modes."""

    name = "clashofminds"
    display_name = "Clash of Minds: Holmes vs Moriarty"
    min_seats = 2
    max_seats = 2
    reasons = {**reference.REASONS, **words("reasons")}
    decision_kinds = {**reference.DECISION_KINDS, **words("decisions")}
    #: 2: only words changed since 1 (whose card, by seat; issue 43), so 1 plays unchanged.
    rules_version = 2
    plays_unchanged = frozenset({1})
    max_actions = 3000

    def new_state(self, options: pb.Options, seats: int, seed: int) -> pb.State:
        return setup.new_state(options, seats, seed)

    def variants(self) -> list[Variant]:
        """The base game and its modes' variants."""
        return [Variant("standard", "Base game", pb.Options()), *MODES.variants()]

    def test_configurations(self) -> list[tuple[pb.Options, int]]:
        return [(pb.Options(), 2), *MODES.test_configurations()]

    # -- play ------------------------------------------------------------------
    def pending(self, state: pb.State) -> list[Decision]:
        if state.phase == pb.PHASE_OVER:
            return []
        if state.HasField("effect"):
            return [Decision(state.effect.seat, "choose_target")]
        kind = DECISIONS[state.phase]
        if state.phase == pb.PHASE_FINAL_REVEAL and turns.open_slot(state, state.turn):
            kind = "resolve_action_card"
        return [Decision(state.turn, kind)]

    def legal_actions(self, state: pb.State, seat: int) -> list[pb.Action]:
        if state.HasField("effect"):
            return targets.targets(state)
        phase = state.phase
        if phase == pb.PHASE_PREPARING_CRIME:
            return setup.arrangements(state)
        if phase in PHASES:
            return PHASES[phase][1](state, seat)
        if phase == pb.PHASE_INITIAL_SETUP:
            return rounds.setup_placements(state, seat)
        if phase == pb.PHASE_FINAL_PLACEMENT:
            return turns.placement_actions(state, seat)
        if phase == pb.PHASE_FINAL_REVEAL and not turns.open_slot(state, seat):
            return turns.reveal_actions(state, seat)
        if phase == pb.PHASE_ARCHIVING:
            return summary.archiving_actions(state, seat)
        return turns.turn_actions(state, seat)

    def apply(self, state: pb.State, seat: int, action: pb.Action) -> list[Emitted]:
        kind = action.WhichOneof("kind")
        if kind is None:
            raise IllegalAction("EMPTY_ACTION", "the action names no move")
        if state.HasField("effect"):
            if kind not in TARGET_KINDS:
                raise IllegalAction("CHOOSE_EFFECT_TARGET", "answer the pending effect first")
            events = targets.resolve(state, action)
        else:
            handler = HANDLERS[state.phase].get(kind)
            if handler is None:
                raise IllegalAction("WRONG_PHASE", f"{kind} is not possible now")
            events = handler(state, seat, action)
        if state.phase == pb.PHASE_FINAL_REVEAL and not state.HasField("effect"):
            events += turns.advance_final(state)
        return events

    def view(self, state: pb.State, seat: int | None) -> pb.View:
        return views.view(state, seat)

    def outcome(self, state: pb.State) -> Outcome | None:
        if state.phase != pb.PHASE_OVER:
            return None
        line = f"{text.RESULTS[state.result]}. Scores are 1 for the winner, else 0."
        if state.result == pb.RESULT_HOLMES_VICTORY:
            return Outcome((1, 0), (HOLMES,), line)
        if state.result == pb.RESULT_MORIARTY_VICTORY:
            return Outcome((0, 1), (MORIARTY,), line)
        return Outcome((0, 0), (), line)

    # -- checks --------------------------------------------------------------------
    def check_conservation(self, state: pb.State) -> None:
        placed: list[list[int]] = [[], []]
        tokens = distracted = 0
        for thread in state.threads:
            tokens += thread.deduction_token
            assert not (thread.deduction_token and thread.revealed), "token on a revealed card"
            for seat, side in enumerate(thread.sides):
                cards = side.cards
                placed[seat] += [card.card for card in cards]
                distracted += sum(card.distracted for card in cards)
        for seat, player in enumerate(state.players):
            cards = [*player.hand, *player.deck, *player.discard, *rules(state).supports(player)]
            assert sorted(cards + placed[seat]) == DECK, f"seat {seat} Influence Cards"
            slots = [s.card for s in player.final_slots]
            assert len(set(slots)) == len(slots) <= 4, f"seat {seat} Action Cards"
        crime = [*state.crime_box, *state.crime_drawn, *(t.crime_card for t in state.threads)]
        assert sorted(c for c in crime if c) == CRIME_CARDS, "Crime Plan Cards"
        assert state.deduction_supply + tokens == DEDUCTION_TOKENS, "Deduction Tokens"
        assert state.distraction_supply + distracted == DISTRACTION_TOKENS, "Distraction Tokens"
        sites = [*state.site_deck, *state.site_discard, *([state.site] if state.site else [])]
        assert sorted(sites) == SITES, "Investigation Sites"
        MODES.check(state)

    def resample_hidden(self, state: pb.State, seat: int | None, rng: Rng) -> pb.State:
        return views.resample_hidden(state, seat, rng)


GAME = ClashOfMinds()
