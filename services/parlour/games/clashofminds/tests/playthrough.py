"""A recorded playthrough: a seeded random game as the spectator's feed, one line per step."""

from __future__ import annotations

from pathlib import Path

from parlour.engine import runtime
from parlour.engine.conformance import play_random
from parlour.games.clashofminds import GAME
from parlour.games.clashofminds.describe import who
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

GOLDEN = Path(__file__).with_name("golden")
#: The recorded games: file name (ending in the seed) → options.
RECORDED = {"base_seed_7": pb.Options(), "agents_seed_4": pb.Options(agents=True)}


def feed(options: pb.Options, seed: int) -> list[str]:
    """Replay a seeded random game: each action, then the public events it caused."""
    record = play_random(GAME, options, 2, seed)
    state = GAME.new_state(options, 2, seed)
    lines = []
    for seat, action in record.actions:
        state, events = runtime.apply(GAME, state, seat, action)
        lines.append(f"{who(seat)} {GAME.describe_action(action)}")
        lines += [f"  {GAME.describe_event(e.event)}" for e in events if e.visible_to(None)]
    return lines


def record() -> None:
    """Rewrite every golden file from the current rules."""
    for name, options in RECORDED.items():
        lines = feed(options, int(name.rsplit("_", 1)[1]))
        (GOLDEN / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    record()
