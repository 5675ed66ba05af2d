"""A recorded playthrough, diffed line by line (CONVENTIONS: golden playthroughs).

Regenerate after an intended rules change with
`python -m parlour.games.isayholmes.tests.test_playthrough`.
"""

from __future__ import annotations

from pathlib import Path

from parlour.engine import LocalMatch
from parlour.engine.rng import Rng
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

GOLDEN = Path(__file__).with_name("playthrough_4p_seed7.txt")


def playthrough() -> list[str]:
    """A seeded random two-round match for 4 players: each move, then what a spectator and
    seat 0 are shown."""
    match = LocalMatch("isayholmes", seats=4, seed=7, options=pb.Options(rounds=2))
    chooser = Rng.from_seed(7)
    lines = []
    while match.outcome is None:
        pending = match.pending
        seat = pending[chooser.below(len(pending))].seat
        legal = match.legal_actions(seat)
        action = legal[chooser.below(len(legal))]
        lines.append(f"seat {seat} {match.game.describe_action(action)}")
        for emitted in match.act(seat, action):
            who = "all" if emitted.to is None else "seats " + ",".join(map(str, sorted(emitted.to)))
            if emitted.to is None or 0 in emitted.to:
                lines.append(f"  [{who}] {match.game.describe_event(emitted.event)}")
    lines.append(f"outcome {list(match.outcome.scores)} winners {list(match.outcome.winners)}")
    return lines


def test_the_recorded_playthrough_is_unchanged():
    """A seeded match plays out exactly as recorded (Rulebook 4-6 end to end)."""
    expected = GOLDEN.read_text().splitlines()
    actual = playthrough()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        assert got == want, f"line {number} of {GOLDEN.name} differs"
    assert len(actual) == len(expected)


if __name__ == "__main__":
    GOLDEN.write_text("\n".join(playthrough()) + "\n")
