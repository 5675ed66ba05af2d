"""The Game: Crimes in History: H. H. Holmes' Murder Castle, the standard multiplayer game."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine import rating
from parlour.engine.game import Decision, Emitted, Game, Outcome, Variant
from parlour.engine.rng import Rng
from parlour.engine.text import owner, seat
from parlour.games.murdercastle import flow, reference, views
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import COLOURS, total
from parlour.games.murdercastle.hooks import declared
from parlour.games.murdercastle.modes import MODES  # installs the modes
from parlour.games.murdercastle.setup import MAX_SEATS, MIN_SEATS, new_state
from parlour.games.murdercastle.stack import holmes_seat
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

#: Rounds each test configuration plays before the most evidence wins (Variant: short game).
TEST_ROUNDS = {2: 3, 3: 3, 4: 2, 5: 2, 6: 1, 7: 1}
CUBES = [catalogue().rules["cubes_per_colour"]] * len(COLOURS)
DECISION_NAMES = {
    value: name.removeprefix("FRAME_KIND_").lower() for name, value in pb.FrameKind.items()
}


class MurderCastle(Game):
    """H. H. Holmes' Murder Castle: explore, collect evidence, dodge Holmes, escape."""

    name = "murdercastle"
    display_name = "Crimes in History: H. H. Holmes' Murder Castle"
    min_seats = 1
    max_seats = MAX_SEATS
    reasons = {**reference.REASONS, **declared("reason_texts")}
    decision_kinds = {**reference.DECISION_KINDS, **declared("decision_texts")}
    #: 2: Explore the Castle is offered only from a room with a doorway to explore (issue 43;
    #: RULES.md), so version 1 matches move to 2 when the host migrates them.
    rules_version = 2
    migrates_from = frozenset({1})
    max_actions = 100_000

    def default_options(self, seats: int) -> pb.Options:
        """The standard game, or a mode's default for this many seats (1: Automa)."""
        found = MODES.default_options(seats)
        return found if found is not None else pb.Options()

    def variants(self) -> list[Variant]:
        """The standard game, the Extended Version, The 2nd Story, Automa at each difficulty
        and Play as Holmes (which brings the Castle Junction Cards; the Holmes seat first)."""
        return [Variant("standard", self.display_name, pb.Options()), *MODES.variants()]

    def seat_range(self, options: pb.Options) -> tuple[int, int]:
        """Automa takes 1 seat, Play as Holmes 4 to 7, every other mode 2 to 7."""
        return MODES.seat_range(options, (MIN_SEATS, MAX_SEATS))

    def new_state(self, options: pb.Options, seats: int, seed: int) -> pb.State:
        state = new_state(options, seats, seed)
        flow.settle(state, [])
        return state

    def pending(self, state: pb.State) -> list[Decision]:
        if not state.frames:
            return []
        kind = DECISION_NAMES[state.frames[-1].kind]
        return [Decision(s, kind) for s in flow.pending_seats(state)]

    def migrate(self, state: pb.State, from_version: int) -> None:
        """1 -> 2 changes no State: from 2 on, a selector only sees fewer Action Tiles (never
        none), so the decisions owed stay the same."""

    def legal_actions(self, state: pb.State, seat: int) -> list[pb.Action]:
        return flow.options(state, seat)

    def apply(self, state: pb.State, seat: int, action: pb.Action) -> list[Emitted]:
        return flow.apply(state, seat, action)

    def view(self, state: pb.State, seat: int | None) -> pb.View:
        return views.view(state, seat)

    def outcome(self, state: pb.State) -> Outcome | None:
        if not state.finished:
            return None
        points = MODES.rules(state.options)
        holmes = holmes_seat(state)
        scores = tuple(points.holmes_score(state) if s == holmes else total(p.board)
                       for s, p in enumerate(state.players))
        holmes_won = points.holmes_outcome(state)
        winners: tuple[int, ...]
        if holmes_won is not None:
            winners, summary = holmes_won
        elif state.winner:
            winners = (state.winner - 1,)
            summary = (f"{seat(state.winner - 1)} escaped the castle with all the evidence "
                       "and won.")
        elif state.holmes_won:
            winners = ()
            struck = [s for s, p in enumerate(state.players) if p.strikes >= 5]
            board = f"{owner(struck[0])} Evidence Board" if struck else "an Evidence Board"
            summary = f"Holmes won: {board} holds all 5 Holmes Strikes!"
        else:
            winners = flow.leaders(state)
            names = " and ".join(seat(w) for w in winners)
            summary = f"The castle closed; {names} won with the most evidence collected."
        summary += " Scores are the evidence each investigator collected" + points.score_note()
        return Outcome(scores, winners, summary)

    def rating_sides(self, options: pb.Options, outcome: Outcome) -> rating.Sides:
        """Automa: the investigator against the Automa; Play as Holmes: Holmes against every
        investigator (they win or lose together against him); otherwise every seat for
        itself (RULES.md "How a match is rated")."""
        found = MODES.rating_sides(options, outcome)
        return found if found is not None else super().rating_sides(options, outcome)

    def rated_variant(self, options: pb.Options) -> str | None:
        """Not rated: a test-only short game (round_limit)."""
        return None if options.round_limit else super().rated_variant(options)

    def check_conservation(self, state: pb.State) -> None:
        piles = [state.bag.counts, *(g.counts for g in state.gondolas)]
        piles += [p.board.counts for p in state.players]
        piles += [safe.counts for tile in state.tiles for safe in tile.safes]
        counts = [sum(c) for c in zip(*piles, strict=True)]
        assert counts == CUBES, f"cubes not conserved: {counts}"
        tiles = list(state.room_pile) + [t.tile for t in state.tiles]
        tiles += [f.tile for f in state.frames if f.kind == pb.FRAME_KIND_PLACE_ROOM]
        walls = state.boxed_brick_walls + sum(p.holds_brick_wall for p in state.players)
        points = MODES.rules(state.options)
        every = points.all_tiles(state.options)
        assert len(tiles) + walls == len(every), "tiles not conserved"
        assert len(set(tiles)) == len(tiles) and every.issuperset(tiles), "a tile twice"
        events = list(state.event_deck) + list(state.event_discard)
        for player in state.players:
            events += player.keep
        every = points.event_cards(state.options)
        assert sorted(events) == every, "Event Cards lost"
        assert len(set(events)) == len(events), "an Event Card twice"
        movement = sorted([*state.holmes_deck, *state.holmes_discard])
        assert movement == points.movement_cards(state.options), "Holmes' Movement cards lost"
        MODES.check(state)

    def resample_hidden(self, state: pb.State, seat: int | None, rng: Rng) -> pb.State:
        return views.resample_hidden(state, seat, rng)

    def test_configurations(self) -> Sequence[tuple[pb.Options, int]]:
        configs = [(pb.Options(round_limit=TEST_ROUNDS[n]), n)
                   for n in range(MIN_SEATS, MAX_SEATS + 1)]
        return configs + MODES.test_configurations()


GAME = MurderCastle()
