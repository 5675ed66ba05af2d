"""Setup: start tiles, the room pile, characters, evidence, the Ferris Wheel and the decks."""

from __future__ import annotations

from parlour.engine.game import InvalidOptions
from parlour.engine.rng import Rng, state_rng
from parlour.games.murdercastle.board import PHARMACY, place_of
from parlour.games.murdercastle.catalogue import action_tiles, catalogue
from parlour.games.murdercastle.cubes import COLOURS, empty, fill_from_bag
from parlour.games.murdercastle.hooks import MODES
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

MIN_SEATS = 2
MAX_SEATS = 7
HOLMES_START = 1
CHARACTERS = (
    pb.CHARACTER_ADELINE, pb.CHARACTER_ABRAHAM, pb.CHARACTER_LOLA,
    pb.CHARACTER_HOYT, pb.CHARACTER_JEREMIAH, pb.CHARACTER_JONAH,
)


def selections_per_round(players: int) -> int:
    """Action Tiles selected in a round: one each, two each with 1 or 2 players."""
    return 2 * players if players <= 2 else players


def check_options(options: pb.Options, seats: int) -> list[int]:
    """Validate options and return the character of each seat (empty: deal at random)."""
    MODES.check_options(options, seats)  # each mode's own refusals first, in order
    low, high = MODES.seat_range(options, (MIN_SEATS, MAX_SEATS))
    if not low <= seats <= high:
        raise InvalidOptions("seats", f"Murder Castle takes {low} to {high} seats, not {seats}")
    if options.first_seat >= seats:
        raise InvalidOptions("first_seat",
                             f"seat {options.first_seat} is not in a {seats}-seat match")
    rules = MODES.rules(options)
    fixed = rules.fixed_characters(options)
    if fixed is not None:
        return fixed
    chosen = list(options.characters)
    holmes = rules.holmes_seat_of(options)
    if chosen:
        if len(chosen) != seats:
            raise InvalidOptions("characters", f"name one character per seat ({seats})")
        if holmes is not None:
            del chosen[holmes]
        if len(set(chosen)) != len(chosen) or pb.CHARACTER_UNSPECIFIED in chosen:
            raise InvalidOptions("characters", "each seat needs a different character")
        if pb.CHARACTER_GUEST in chosen and len(chosen) < MAX_SEATS:
            raise InvalidOptions("characters", "the Hotel Guest only fills a 7th seat")
    return chosen


def new_state(options: pb.Options, seats: int, seed: int) -> pb.State:
    """The castle, players, cubes and decks after setup (Rulebook: Setup)."""
    chosen = check_options(options, seats)
    cat = catalogue()
    rules = cat.rules
    points = MODES.rules(options)
    holmes = points.holmes_seat_of(options)
    state = pb.State(seats=seats, rng=Rng.from_seed(seed).state, options=options)
    state.bag.CopyFrom(pb.Cubes(counts=[rules["cubes_per_colour"]] * len(COLOURS)))
    points.before_setup(state)
    with state_rng(state) as rng:
        players = seats - (holmes is not None)
        if not chosen:
            pool = list(CHARACTERS)
            rng.shuffle(pool)
            chosen = pool[:players] if players <= len(pool) else [*pool, pb.CHARACTER_GUEST]
        if holmes is not None:  # the Holmes seat: no character, no room
            chosen.insert(holmes, pb.CHARACTER_UNSPECIFIED)
        for start in cat.start:
            room = cat.rooms[start.number]
            tile = state.tiles.add(tile=start.number, x=start.x, y=start.y, level=start.level)
            for _ in room.halves:
                tile.safes.add().CopyFrom(empty())
        pile = points.room_pile(options)
        rng.shuffle(pile)
        state.room_pile.extend(pile)
        setup_cards = list(cat.setup_cards)
        rng.shuffle(setup_cards)
        for seat, character in enumerate(chosen):
            if not character:
                state.players.add(board=empty())
                continue
            board = pb.Cubes(counts=setup_cards[seat])
            for i, n in enumerate(board.counts):
                state.bag.counts[i] -= n
            state.players.add(
                character=character, place=place_of(PHARMACY), board=board,
                holds_brick_wall=character == pb.CHARACTER_JONAH,
            )
        for tile in state.tiles:
            if tile.tile != PHARMACY:
                fill_from_bag(state.bag, tile.safes[0], rules["basement_cubes"], rng)
        for _ in range(rules["gondolas"]):
            fill_from_bag(state.bag, state.gondolas.add(counts=[0] * len(COLOURS)),
                          rules["gondola_size"], rng)
        if pb.CHARACTER_JONAH not in chosen and points.boxes_brick_wall(options):
            state.boxed_brick_walls = 1
        state.event_deck.extend(points.event_cards(options))
        rng.shuffle(state.event_deck)
        state.holmes_deck.extend(points.movement_cards(options))
        rng.shuffle(state.holmes_deck)
    state.holmes = place_of(HOLMES_START)
    state.key = options.first_seat
    MODES.setup(state)
    state.tiles_open.extend(action_tiles(players))
    return state
