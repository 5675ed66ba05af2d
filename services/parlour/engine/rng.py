"""A small seeded RNG (SplitMix64) whose whole state is one uint64 kept in State."""

from __future__ import annotations

from collections.abc import Iterator, MutableSequence, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64: fast, deterministic across platforms, state is a single integer."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """An RNG whose first outputs are well mixed even for small seeds."""
        rng = cls(seed)
        rng.next64()
        return rng

    def next64(self) -> int:
        """The next 64 random bits."""
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def roll(self, sides: int = 6) -> int:
        """A die roll in [1, sides]."""
        return self.below(sides) + 1

    def choice(self, items: Sequence[T]) -> T:
        """A uniformly chosen item."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Fisher–Yates in place (works on protobuf repeated fields too)."""
        values = list(items)
        for i in range(len(values) - 1, 0, -1):
            j = self.below(i + 1)
            values[i], values[j] = values[j], values[i]
        items[:] = values


@contextmanager
def state_rng(state: Any) -> Iterator[Rng]:
    """Borrow the RNG stored in `state.rng` and write its new state back on exit."""
    rng = Rng(state.rng)
    try:
        yield rng
    finally:
        state.rng = rng.state
