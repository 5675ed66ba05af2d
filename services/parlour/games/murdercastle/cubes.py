"""Evidence cubes: counts per colour, the Evidence Bag and the Ferris Wheel."""

from __future__ import annotations

from parlour.engine.rng import Rng
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.hooks import rules
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

_NEEDED = {
    True: catalogue().rules["needed_with_pillar"],
    False: catalogue().rules["needed_without_pillar"],
}
COLOURS = (pb.COLOUR_BLUE, pb.COLOUR_WHITE, pb.COLOUR_GREEN, pb.COLOUR_RED, pb.COLOUR_YELLOW)
FAKE = pb.COLOUR_FAKE


def empty() -> pb.Cubes:
    """No cubes."""
    return pb.Cubes(counts=[0] * len(COLOURS))


def total(cubes: pb.Cubes) -> int:
    """How many cubes (Fake Evidence included)."""
    return sum(cubes.counts) + cubes.fake


def present(cubes: pb.Cubes) -> list[int]:
    """The evidence colours present (enum values; never Fake Evidence)."""
    return [c for c in COLOURS if cubes.counts[c - 1]]


def movable(cubes: pb.Cubes) -> list[int]:
    """The colours present, Fake Evidence too (a fill must move it as well)."""
    return present(cubes) + ([FAKE] if cubes.fake else [])


def move(src: pb.Cubes, dst: pb.Cubes, colour: int, n: int = 1) -> None:
    """Move n cubes of a colour (or Fake Evidence)."""
    if colour == FAKE:
        assert src.fake >= n, "moving fake cubes that are not there"
        src.fake -= n
        dst.fake += n
        return
    assert src.counts[colour - 1] >= n, "moving cubes that are not there"
    src.counts[colour - 1] -= n
    dst.counts[colour - 1] += n


def draw(bag: pb.Cubes, rng: Rng) -> int:
    """Remove a random cube from the bag and return its colour (FAKE for Fake Evidence, 0 if
    the bag is empty)."""
    left = total(bag)
    if not left:
        return 0
    pick = rng.below(left)
    for colour in COLOURS:
        pick -= bag.counts[colour - 1]
        if pick < 0:
            bag.counts[colour - 1] -= 1
            return colour
    bag.fake -= 1
    return FAKE


def fill_from_bag(bag: pb.Cubes, target: pb.Cubes, n: int, rng: Rng) -> pb.Cubes:
    """Draw up to n random cubes from the bag into target; return what was drawn."""
    drawn = empty()
    for _ in range(n):
        colour = draw(bag, rng)
        if not colour:
            break
        if colour == FAKE:
            target.fake += 1
            drawn.fake += 1
            continue
        target.counts[colour - 1] += 1
        drawn.counts[colour - 1] += 1
    return drawn


def unloading(state: pb.State) -> pb.Cubes:
    """The gondola at the unloading zone."""
    return state.gondolas[state.unloading]


def advance_wheel(state: pb.State, rng: Rng) -> pb.WheelTurned:
    """Turn the wheel one gondola clockwise, refilling the gondola left behind if empty."""
    left = state.unloading
    state.unloading = (left + 1) % len(state.gondolas)
    event = pb.WheelTurned(unloading=state.unloading, refilled=len(state.gondolas))
    if not total(state.gondolas[left]):
        size = catalogue().rules["gondola_size"]
        event.refill.CopyFrom(fill_from_bag(state.bag, state.gondolas[left], size, rng))
        event.refilled = left
    return event


def needed(state: pb.State) -> int:
    """Cubes of each type a player must collect (4 with the Pillar, 5 without)."""
    return _NEEDED[rules(state).pillar(state)]


def collectable(state: pb.State, board: pb.Cubes, colour: int) -> bool:
    """Whether a board still has room for a colour (not a completed category)."""
    return board.counts[colour - 1] < needed(state)


def complete(state: pb.State, board: pb.Cubes) -> bool:
    """Whether a board holds every piece of evidence."""
    return min(board.counts) >= needed(state)


def colour_name(colour: int) -> str:
    """The colour's name."""
    if colour == FAKE:
        return "Fake Evidence"
    return catalogue().rules["colours"][colour - 1] if colour else "no colour"
