"""Setup: start tiles, the room pile, characters, evidence, the Ferris Wheel and the decks."""

from __future__ import annotations

from parlour.engine.game import InvalidOptions
from parlour.engine.rng import Rng, state_rng
from parlour.games.murdercastle import automa, play_as_holmes, second_story
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
    """Action Tiles selected in a round: one each, two each in a 2-player or Automa game."""
    return 2 * players if players <= 2 else players


def check_options(options: pb.Options, seats: int) -> list[int]:
    """Validate options and return the character of each seat (empty: deal at random)."""
    if options.automa not in automa.LEVELS and options.automa:
        raise InvalidOptions("automa", f"no Automa difficulty {options.automa}")
    if options.automa and seats != 1:
        raise InvalidOptions("seats", f"Automa is played by 1 seat, not {seats}")
    if play_as_holmes.playing(options):
        play_as_holmes.check_options(options, seats)
    elif not options.automa and not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions("seats", f"Murder Castle takes 2 to 7 seats, not {seats}")
    if options.first_seat >= seats:
        raise InvalidOptions("first_seat",
                             f"seat {options.first_seat} is not in a {seats}-seat match")
    chosen = list(options.characters)
    if options.automa:
        if chosen:
            raise InvalidOptions("characters", "Automa uses no characters")
        return [pb.CHARACTER_GUEST]
    if chosen:
        if len(chosen) != seats:
            raise InvalidOptions("characters", f"name one character per seat ({seats})")
        if play_as_holmes.playing(options):
            del chosen[options.play_as_holmes.seat]
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
    state = pb.State(seats=seats, rng=Rng.from_seed(seed).state, options=options)
    state.bag.CopyFrom(pb.Cubes(counts=[rules["cubes_per_colour"]] * len(COLOURS)))
    if options.automa:
        automa.plant_setup(state)
    with state_rng(state) as rng:
        players = seats - play_as_holmes.playing(options)
        if not chosen:
            pool = list(CHARACTERS)
            rng.shuffle(pool)
            chosen = pool[:players] if players <= len(pool) else [*pool, pb.CHARACTER_GUEST]
        if play_as_holmes.playing(options):  # the Holmes seat: no character, no room
            chosen.insert(options.play_as_holmes.seat, pb.CHARACTER_UNSPECIFIED)
        for start in cat.start:
            room = cat.rooms[start.number]
            tile = state.tiles.add(tile=start.number, x=start.x, y=start.y, level=start.level)
            for _ in room.halves:
                tile.safes.add().CopyFrom(empty())
        pile = second_story.pile(options)
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
        if pb.CHARACTER_JONAH not in chosen and not options.automa:
            state.boxed_brick_walls = 1
        state.event_deck.extend(automa.event_cards(options))
        rng.shuffle(state.event_deck)
        state.holmes_deck.extend(second_story.movement(options))
        rng.shuffle(state.holmes_deck)
    state.holmes = place_of(HOLMES_START)
    state.key = options.first_seat
    MODES.setup(state)
    state.tiles_open.extend(action_tiles(players))
    return state
