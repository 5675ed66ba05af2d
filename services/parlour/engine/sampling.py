"""Hidden information for a bot's search, sampled without handing the bot the true state.

A client knows only its View and its events, but `Game.resample_hidden` needs a State.
The sample is therefore made where the state lives and handed out in a form that carries
no more than the seat's own view:

- every game's `resample_hidden` deals the cards a seat cannot see at random among the
  places it cannot see into, so the sample's distribution depends only on what the seat
  sees (tests/test_table_sampling.py checks this by non-interference: two states the seat
  cannot tell apart give samples with the same statistics of the hidden part);
- the sample's RNG word is replaced: the true one would predict every future shuffle;
- the sample is refused unless the seat's view of it equals its view of the truth.
"""

from __future__ import annotations

from google.protobuf.message import Message

from parlour.engine import runtime
from parlour.engine.game import Game
from parlour.engine.rng import Rng


def sample_hidden(game: Game, state: Message, seat: int, seed: int) -> Message:
    """One state `seat` cannot tell from `state`, its hidden part dealt afresh from `seed`."""
    rng = Rng.from_seed(seed)
    sample = game.resample_hidden(state, seat, rng)
    sample.rng = rng.next64()
    seen = runtime.serialize(runtime.view(game, state, seat))
    if runtime.serialize(runtime.view(game, sample, seat)) != seen:
        raise AssertionError(f"{game.name}: resample_hidden changed what seat {seat} sees")
    return sample


class LocalSampler:
    """Samples for one seat of an in-process match: the seat's search sees only samples."""

    def __init__(self, game: Game, match, seat: int) -> None:
        self._game = game
        self._match = match
        self.seat = seat

    def __call__(self, seed: int) -> Message:
        return sample_hidden(self._game, self._match.state, self.seat, seed)
