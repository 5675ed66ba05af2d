"""Build exact positions for rule tests: a seeded setup, then tiles, players and cubes by hand."""

from __future__ import annotations

from parlour.games.murdercastle import flow
from parlour.games.murdercastle.board import PHARMACY, place_of
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.setup import new_state
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

PHARMACY_PLACE = place_of(PHARMACY)
BLUE, WHITE, GREEN, RED, YELLOW = (pb.COLOUR_BLUE, pb.COLOUR_WHITE, pb.COLOUR_GREEN,
                                   pb.COLOUR_RED, pb.COLOUR_YELLOW)


def game(characters: list[int], seed: int = 1, **options: object) -> pb.State:
    """A settled game with the given characters (seat order), waiting for the first selection."""
    state = new_state(pb.Options(characters=characters, **options), len(characters), seed)
    flow.settle(state, [])
    return state


def add_room(state: pb.State, tile: int, x: int, y: int, rotation: int = 0,
             cubes: dict[int, int] | None = None, level: int = 0) -> pb.PlacedTile:
    """Put a room tile from the pile onto the grid (with cubes in its first safe)."""
    state.room_pile.remove(tile)
    room = catalogue().rooms[tile]
    placed = state.tiles.add(tile=tile, x=x, y=y, rotation=rotation, level=level)
    if room.stairs >= 0:
        placed.stairs = (room.stairs + rotation) % 4 + 1
    for _ in room.halves:
        placed.safes.add(counts=[0] * 5)
    for colour, n in (cubes or {}).items():
        take_from_bag(state, placed.safes[0], colour, n)
    return placed


def take_from_bag(state: pb.State, target: pb.Cubes, colour: int, n: int = 1) -> None:
    """Move cubes of a colour from the bag into a pile."""
    state.bag.counts[colour - 1] -= n
    target.counts[colour - 1] += n


def set_gondola(state: pb.State, cubes: dict[int, int]) -> None:
    """Empty the unloading gondola into the bag and fill it with exactly these cubes."""
    gondola = state.gondolas[state.unloading]
    for i, n in enumerate(gondola.counts):
        state.bag.counts[i] += n
        gondola.counts[i] = 0
    for colour, n in cubes.items():
        take_from_bag(state, gondola, colour, n)


def set_board(state: pb.State, seat: int, counts: list[int]) -> None:
    """Set a seat's collected evidence, trading cubes with the bag."""
    board = state.players[seat].board
    for i, n in enumerate(counts):
        state.bag.counts[i] += board.counts[i] - n
        board.counts[i] = n


def put_on_pile(state: pb.State, tile: int) -> None:
    """Move a room tile to the top of the room pile."""
    state.room_pile.remove(tile)
    state.room_pile.append(tile)


def stack_events(state: pb.State, *cards: int) -> None:
    """Put Event Cards on top of the deck, the first named drawn first."""
    for card in reversed(cards):
        _pull(state, card)
        state.event_deck.append(card)


def give(state: pb.State, seat: int, *cards: int) -> None:
    """Put Event Cards into a seat's hand."""
    for card in cards:
        _pull(state, card)
        state.players[seat].keep.append(card)


def stack_holmes(state: pb.State, *cards: int) -> None:
    """Put Holmes' Movement cards on top of the deck, the first named revealed first."""
    for card in reversed(cards):
        if card in state.holmes_deck:
            state.holmes_deck.remove(card)
        else:
            state.holmes_discard.remove(card)
        state.holmes_deck.append(card)


def _pull(state: pb.State, card: int) -> None:
    if card in state.event_deck:
        state.event_deck.remove(card)
    elif card in state.event_discard:
        state.event_discard.remove(card)
    else:
        for player in state.players:
            if card in player.keep:
                player.keep.remove(card)


def card_of(kind: str, copy: int = 0) -> int:
    """The id of the n-th copy of an Event Card kind."""
    ids = [i for i, k in sorted(catalogue().events.items()) if k.kind == kind]
    return ids[copy]


def movement_card(rooms: tuple[int, ...] = (), special: str = "") -> int:
    """The id of a Holmes' Movement card by its rooms or special."""
    for i, card in sorted(catalogue().movement.items()):
        if card.rooms == rooms and card.special == special:
            return i
    raise KeyError(rooms or special)


def play(state: pb.State, seat: int, **action: object) -> list:
    """Apply one action (keyword = the Action oneof field) and return the events."""
    if "pass_" in action:
        action = {"pass": action.pop("pass_")}
    events = GAME.apply(state, seat, pb.Action(**action))
    GAME.check_conservation(state)
    return events


def frame(state: pb.State) -> pb.Frame:
    """The decision on top of the stack."""
    return state.frames[-1]


def legal(state: pb.State, seat: int) -> list[pb.Action]:
    """The seat's legal actions."""
    return GAME.legal_actions(state, seat) if seat in flow.pending_seats(state) else []


def start_tile(state: pb.State, seat: int, tile: int) -> None:
    """Make `seat` hold the Skeleton Key and select an Action Tile now."""
    del state.frames[:]
    del state.to_act[:]
    state.current = pb.ACTION_TILE_UNSPECIFIED
    state.key = seat
    state.selections = 0
    if tile not in state.tiles_open:
        state.tiles_open.append(tile)
    state.frames.add(kind=pb.FRAME_KIND_SELECT_TILE, seat=seat)
    play(state, seat, select=pb.SelectTile(tile=tile))


def empty_pile(state: pb.State) -> None:
    """Lay every remaining pile tile far away, all doorways padlocked (nothing left to explore)."""
    for i, tile in enumerate(list(state.room_pile)):
        placed = add_room(state, tile, 100 + 2 * i, 100) if tile in catalogue().rooms else None
        if placed is None:
            state.room_pile.remove(tile)
            state.tiles.add(tile=tile, x=100 + 2 * i, y=100)
        else:
            placed.padlocked.extend([0, 1, 2, 3])


def open_window(state: pb.State, key: int = 0) -> None:
    """Play a Move into 1 Room phase where everyone passes, up to the Event Card window after it."""
    start_tile(state, key, pb.ACTION_TILE_MOVE_ONE)
    while frame(state).kind == pb.FRAME_KIND_ACT:
        play(state, frame(state).seat, **{"pass": pb.Pass()})
    assert frame(state).kind == pb.FRAME_KIND_EVENT_WINDOW
