"""The Game: Crimes in History: H. H. Holmes' Murder Castle, the standard multiplayer game."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine import rating
from parlour.engine.game import Decision, Emitted, Game, Outcome, Variant
from parlour.engine.rng import Rng
from parlour.engine.text import owner, seat
from parlour.games.murdercastle import (
    automa,
    flow,
    play_as_holmes,
    reference,
    second_story,
    views,
)
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import COLOURS, total
from parlour.games.murdercastle.modes import MODES  # installs the modes
from parlour.games.murdercastle.setup import MAX_SEATS, MIN_SEATS, new_state
from parlour.games.murdercastle.stack import holmes_seat
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

#: Rounds each test configuration plays before the most evidence wins (Variant: short game).
TEST_ROUNDS = {2: 3, 3: 3, 4: 2, 5: 2, 6: 1, 7: 1}
#: The same for The 2nd Story (shorter: the full-length games are in tests/test_playouts.py).
SECOND_STORY_ROUNDS = {2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1}
#: The same for Automa, at every difficulty.
AUTOMA_ROUNDS = 4
#: The same for Play as Holmes (2 rounds where the cards unlocked from the start can act).
PLAY_AS_HOLMES_ROUNDS = {4: 2, 5: 2, 6: 1, 7: 1}
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
    reasons = reference.REASONS
    decision_kinds = reference.DECISION_KINDS
    #: 2: Explore the Castle is offered only from a room with a doorway to explore (issue 43;
    #: RULES.md), so version 1 matches move to 2 when the host migrates them.
    rules_version = 2
    migrates_from = frozenset({1})
    max_actions = 100_000

    def default_options(self, seats: int) -> pb.Options:
        """The standard game; a single seat plays Automa at the Beginner level."""
        return pb.Options(automa=pb.AUTOMA_LEVEL_BEGINNER) if seats == 1 else pb.Options()

    def variants(self) -> list[Variant]:
        """The standard game, the Extended Version, The 2nd Story, Automa at each difficulty
        and Play as Holmes (which brings the Castle Junction Cards; the Holmes seat first)."""
        return [
            Variant("standard", self.display_name, pb.Options()),
            Variant("extended", "Extended Version", pb.Options(extended=True)),
            Variant("second-story", "The 2nd Story", pb.Options(second_story=True)),
            *(Variant(f"automa-{name}", f"Automa ({name.capitalize()})", pb.Options(automa=level))
              for level, name in automa.LEVELS.items()),
            Variant("play-as-holmes", "Play as Holmes",
                    pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=0))),
        ]

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
        holmes = holmes_seat(state)
        scores = tuple(play_as_holmes.score(state) if s == holmes else total(p.board)
                       for s, p in enumerate(state.players))
        if state.holmes_won and play_as_holmes.on(state):
            winners: tuple[int, ...] = (holmes,)
            summary = f"Holmes ({seat(holmes)}) won: the Holmes Tracker reached 10."
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
        summary += (" Scores are the evidence each investigator collected"
                    + ("; Holmes scores his Holmes Tracker counted on the same scale (10 on"
                       " the Tracker equals a full Evidence Board)."
                       if play_as_holmes.on(state) else "."))
        return Outcome(scores, winners, summary)

    def rating_sides(self, options: pb.Options, outcome: Outcome) -> rating.Sides:
        """Automa: the investigator against the Automa; Play as Holmes: Holmes against every
        investigator (they win or lose together against him); otherwise every seat for
        itself (RULES.md "How a match is rated")."""
        if options.automa:
            return rating.one_against((automa.SOLO,), ("Automa",), automa.SOLO in outcome.winners)
        if options.HasField("play_as_holmes"):
            holmes = options.play_as_holmes.seat
            others = tuple(s for s in range(len(outcome.scores)) if s != holmes)
            return rating.one_against((holmes,), others, holmes in outcome.winners)
        return super().rating_sides(options, outcome)

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
        every = second_story.tiles(state.options)
        assert len(tiles) + walls == len(every), "tiles not conserved"
        assert len(set(tiles)) == len(tiles) and every.issuperset(tiles), "a tile twice"
        events = list(state.event_deck) + list(state.event_discard)
        for player in state.players:
            events += player.keep
        every = automa.event_cards(state.options)
        assert sorted(events) == every, "Event Cards lost"
        assert len(set(events)) == len(events), "an Event Card twice"
        movement = sorted([*state.holmes_deck, *state.holmes_discard])
        assert movement == second_story.movement(state.options), "Holmes' Movement cards lost"
        MODES.check(state)

    def resample_hidden(self, state: pb.State, seat: int | None, rng: Rng) -> pb.State:
        return views.resample_hidden(state, seat, rng)

    def test_configurations(self) -> Sequence[tuple[pb.Options, int]]:
        configs = [(pb.Options(round_limit=TEST_ROUNDS[n]), n)
                   for n in range(MIN_SEATS, MAX_SEATS + 1)]
        configs.append((pb.Options(extended=True, round_limit=TEST_ROUNDS[4]), 4))
        configs += [(pb.Options(second_story=True, round_limit=SECOND_STORY_ROUNDS[n]), n)
                    for n in range(MIN_SEATS, MAX_SEATS + 1)]
        configs += [(pb.Options(automa=level, round_limit=AUTOMA_ROUNDS), 1)
                    for level in automa.LEVELS]
        low, high = play_as_holmes.seat_range()
        configs += [(pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=(n - 1) * (n % 2)),
                                round_limit=PLAY_AS_HOLMES_ROUNDS[n]), n)
                    for n in range(low, high + 1)]
        return configs


GAME = MurderCastle()
