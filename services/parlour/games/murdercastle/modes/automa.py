"""Automa, the solo mode, switched on by `Options.automa` (Rulebook: Automa Mode): one seat
against Holmes, who follows the player room by room and resolves an Automa card each round.

Holmes' steps are automatic; every choice the rulebook gives "you" (ties between rooms,
which evidence he destroys, which doorway he locks) is a decision of the one seat. `Automa`,
the plugin, replaces the rule points of `hooks` the mode changes and declares its words.
"""

from __future__ import annotations

from collections import Counter, deque
from functools import cache

from parlour.engine import rating
from parlour.engine.game import InvalidOptions, Outcome, Variant
from parlour.engine.rng import Rng, state_rng
from parlour.games.murdercastle import holmes
from parlour.games.murdercastle.board import PHARMACY, Castle, place_of, tile_of
from parlour.games.murdercastle.cards import kind_of
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import move, present
from parlour.games.murdercastle.hooks import Points
from parlour.games.murdercastle.modes.components import LEVELS, data, deck_cards
from parlour.games.murdercastle.modes.names import automa_name
from parlour.games.murdercastle.names import SIDE_NAMES, evidence, room
from parlour.games.murdercastle.stack import NOBODY, Out, holmes_seat, pop, public, push
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

SOLO = 0
PHARMACY_PLACE = place_of(PHARMACY)


def on(state: pb.State) -> bool:
    """Whether the match is an Automa game."""
    return bool(state.options.automa)


def chooser(state: pb.State) -> int:
    """Who makes the choices a Holmes' Action Card leaves open: "you" in Automa, the Holmes
    seat in Play as Holmes ("Holmes chooses which evidence to destroy if multiple options
    exist")."""
    seat = holmes_seat(state)
    return SOLO if seat == NOBODY else seat


def level(options: pb.Options) -> str:
    """The difficulty's name."""
    return LEVELS[options.automa]


def destruction_cards(options: pb.Options) -> list[int]:
    """The Evidence Destruction deck: the 10 two-colour cards and the difficulty's wilds."""
    d = data()
    wilds = d.raw["wilds_in_deck"][level(options)]
    plain = [i for i, c in d.destruction.items() if len(c) == 2]
    return plain + [i for i, c in d.destruction.items() if len(c) > 2][:wilds]


def event_cards(options: pb.Options) -> list[int]:
    """The Event Cards in play: all, or only those marked for Automa."""
    return list(_event_cards(bool(options.automa)))


@cache
def _event_cards(solo: bool) -> tuple[int, ...]:
    events = catalogue().events
    kinds = set(data().raw["events"])
    return tuple(sorted(i for i, k in events.items() if not solo or k.kind in kinds))


def plant_setup(state: pb.State) -> None:
    """Fake Evidence into the Evidence Bag before the basements and the Ferris Wheel are filled
    ("may now include Fake Evidence"), the rest into the Fake Evidence Bag (Rulebook: Automa
    Setup: Difficulty Levels)."""
    d = data()
    fake = d.raw["fake_in_bag"][level(state.options)]
    state.bag.fake = fake
    state.fake_supply = d.raw["fake_cubes"] - fake


def setup(state: pb.State) -> None:
    """The Automa and Destruction decks (Rulebook: Automa Setup)."""
    d = data()
    name = level(state.options)
    state.automa_deck.extend(deck_cards(d.cards, name))
    state.destruction_deck.extend(destruction_cards(state.options))
    with state_rng(state) as rng:
        rng.shuffle(state.automa_deck)
        rng.shuffle(state.destruction_deck)


def holmes_wins(state: pb.State) -> bool:
    """"Holmes wins if your Evidence Board fills up with all 5 Holmes Strikes!"."""
    return on(state) and state.players[SOLO].strikes >= data().raw["strikes_to_lose"]


# -- Holmes moves to you ---------------------------------------------------------------
def distances(state: pb.State) -> dict[int, int]:
    """Doorway-path distance from every room to the player's (padlocks and walls respected,
    stairs, the Dumbwaiter and Hidden Bookcase Pathways used), on the paths Holmes can walk:
    never through the Pharmacy, where he never is (issue 32)."""
    castle = Castle(state)
    start = state.players[SOLO].place
    far = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == PHARMACY_PLACE and here != start:
            continue
        for nxt in castle.neighbours(here):
            if nxt not in far:
                far[nxt] = far[here] + 1
                queue.append(nxt)
    return far


def maze_side(state: pb.State, sides: list[int]) -> list[int]:
    """The Maze's sides Holmes may enter: yours if you occupy The Maze ("Holmes always move to
    your side of The Maze"), else both (Rulebook: Automa Special Room Effect Clarifications)."""
    mine = state.players[SOLO].place
    return [mine] if on(state) and mine in sides else sides


def targets(state: pb.State, rooms: list[int]) -> list[int]:
    """Where Holmes goes among a card's explored rooms: yours if listed, else the closest by
    doorway path (ties for the player to choose); The Maze: your side if you are in it."""
    mine = state.players[SOLO].place
    if mine in rooms:
        return [mine]
    far = distances(state)
    reachable = [r for r in rooms if r in far]
    if not reachable:
        return rooms
    best = min(far[r] for r in reachable)
    return [r for r in reachable if far[r] == best]


def steps_towards(state: pb.State) -> list[int]:
    """Rooms one doorway step from Holmes on a shortest path to the player, never the Pharmacy
    (no rule of the multiplayer game puts Holmes there, and Automa adds none: issue 32)."""
    far = distances(state)
    here = state.holmes
    if here not in far or far[here] == 0:
        return []
    return [n for n in Castle(state).neighbours(here)
            if far.get(n) == far[here] - 1 and n != PHARMACY_PLACE]


# -- the Automa deck ---------------------------------------------------------------------
def reveal(state: pb.State, out: Out) -> None:
    """Reveal the top Automa card and start resolving it."""
    if not state.automa_deck:
        _reshuffle(state.automa_deck, state.automa_discard, state)
    card = state.automa_deck.pop()
    state.automa_discard.append(card)
    out.append(public(pb.Event(automa=pb.AutomaRevealed(card=card))))
    kind = data().cards[card].kind
    moves = {"move_1": 1, "move_2": 2, "move_2_lock_2": 2}.get(kind, 0)
    push(state, pb.FRAME_KIND_AUTOMA, SOLO, card=card, count=moves,
         target=2 if kind == "move_2_lock_2" else 0)


def _reshuffle(deck, discard, state: pb.State) -> None:
    deck.extend(discard)
    del discard[:]
    with state_rng(state) as rng:
        rng.shuffle(deck)


def step(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """The next stage of the Automa card on top of the stack."""
    STEPS[data().cards[frame.card].kind](state, frame, out)


def _seal(state: pb.State, frame: pb.Frame, out: Out) -> None:
    pop(state)
    del state.pathways[:]
    out.append(public(pb.Event(sealed=pb.PathwaysSealed())))


def _plant(state: pb.State, frame: pb.Frame, out: Out) -> None:
    pop(state)
    n = min(15 if data().cards[frame.card].kind == "plant_15" else 10, state.fake_supply)
    state.fake_supply -= n
    state.bag.fake += n
    out.append(public(pb.Event(planted=pb.FakePlanted(count=n))))


def _move(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """Move towards the player, one room at a time, never past them; lock on the way."""
    if frame.target and lock_first(state, out):
        frame.target -= 1
        return
    steps = steps_towards(state) if frame.count else []
    if not steps:
        pop(state)
        return
    frame.count -= 1
    push(state, pb.FRAME_KIND_HOLMES_ROOM, SOLO, places=steps, source=SOLO)


def lock_first(state: pb.State, out: Out) -> bool:
    """Padlock the first unexplored doorway (clockwise from north) of Holmes' room."""
    sides = sorted(Castle(state).explorable(state.holmes))
    if not sides:
        return False
    lock(state, state.holmes, sides[0], out)
    return True


def lock(state: pb.State, place: int, side: int, out: Out) -> None:
    """Put a Padlock on a doorway."""
    Castle(state).placed[tile_of(place)].padlocked.append(side)
    out.append(public(pb.Event(locked=pb.DoorLocked(place=place, side=side))))


def _lock_one(state: pb.State, frame: pb.Frame, out: Out) -> None:
    if not frame.started:
        frame.started = True
        sides = Castle(state).explorable(state.holmes)
        if not sides:
            pop(state)
            return
        push(state, pb.FRAME_KIND_CHOOSE_DOOR, chooser(state), place=state.holmes, places=sides)
        return
    pop(state)
    lock(state, state.holmes, frame.side, out)


def _destroy_all(state: pb.State, frame: pb.Frame, out: Out) -> None:
    pop(state)
    safe = Castle(state).safe(state.holmes)
    for colour in present(safe):
        for _ in range(safe.counts[colour - 1]):
            destroy(state, colour, out)


def destroy(state: pb.State, colour: int, out: Out) -> None:
    """A cube of Holmes' room goes back into the Evidence Bag."""
    move(Castle(state).safe(state.holmes), state.bag, colour)
    out.append(public(pb.Event(destroyed=pb.EvidenceDestroyed(place=state.holmes,
                                                              colour=colour))))


def _destroy(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """Destroy 1 / 2: reveal a Destruction card, destroy matching cubes, the player choosing."""
    safe = Castle(state).safe(state.holmes)
    if not frame.started:
        frame.started = True
        if not present(safe):
            pop(state)
            return
        if not state.destruction_deck:
            _reshuffle(state.destruction_deck, state.destruction_discard, state)
        card = state.destruction_deck.pop()
        state.destruction_discard.append(card)
        out.append(public(pb.Event(destruction=pb.DestructionRevealed(card=card))))
        frame.colours.extend(data().destruction[card])
        frame.count = 2 if data().cards[frame.card].kind == "destroy_2" else 1
    elif frame.colour:
        destroy(state, frame.colour, out)
        frame.colour = pb.COLOUR_UNSPECIFIED
        frame.count -= 1
    matching = [c for c in present(safe) if c in frame.colours]
    cubes = sum(safe.counts[c - 1] for c in matching)
    if not frame.count:
        pop(state)
        return
    if cubes <= frame.count:  # no choice: every matching cube goes
        pop(state)
        for colour in matching:
            for _ in range(safe.counts[colour - 1]):
                destroy(state, colour, out)
        return
    push(state, pb.FRAME_KIND_CHOOSE_COLOUR, chooser(state), colours=matching)


STEPS = {
    "seal_pathways": _seal,
    "plant_10": _plant,
    "plant_15": _plant,
    "move_1": _move,
    "move_2": _move,
    "move_2_lock_2": _move,
    "destroy_all": _destroy_all,
    "destroy_1": _destroy,
    "destroy_2": _destroy,
    "lock_door": _lock_one,
}


def fake_count(state: pb.State) -> int:
    """Fake Evidence cubes in the Fake Evidence Bag, the Evidence Bag, the wheel and the rooms."""
    fake = state.fake_supply + state.bag.fake + sum(g.fake for g in state.gondolas)
    return fake + sum(safe.fake for tile in state.tiles for safe in tile.safes)


def check_unused(state: pb.State) -> None:
    """Without Automa or Play as Holmes: no Fake Evidence and no Holmes' decks."""
    assert fake_count(state) == 0 and not state.automa_deck and not state.destruction_deck


def check(state: pb.State) -> None:
    """Conservation of Fake Evidence and of the Automa and Destruction decks."""
    assert fake_count(state) == data().raw["fake_cubes"], "Fake Evidence not conserved"
    deck = sorted([*state.automa_deck, *state.automa_discard])
    assert deck == deck_cards(data().cards, level(state.options)), "Automa cards not conserved"
    cards = sorted([*state.destruction_deck, *state.destruction_discard])
    assert cards == sorted(destruction_cards(state.options)), "Destruction cards lost"


#: Rounds the engine's property tests play Automa, at every difficulty.
AUTOMA_ROUNDS = 4
#: Rooms each walking Holmes' Action Card moves Holmes (the planner's odds).
WALKS = {"move_1": 1, "move_2": 2, "move_2_lock_2": 2}
#: Holmes' Action Cards by how little they change a planner's score, calmest first.
CALM = ("plant_10", "plant_15", "lock_door", "seal_pathways", "destroy_1", "destroy_2",
        "destroy_all")


# -- what each seat sees, and words ------------------------------------------------------
def decks_into(state: pb.State, view: pb.View) -> None:
    """The Fake Evidence Bag, and the Holmes' Action and Evidence Destruction decks' sizes and
    discards (here and in Play as Holmes)."""
    view.fake_supply = state.fake_supply
    view.automa_deck_size = len(state.automa_deck)
    view.automa_discard.extend(state.automa_discard)
    view.destruction_deck_size = len(state.destruction_deck)
    view.destruction_discard.extend(state.destruction_discard)


def shuffle_decks(state: pb.State, rng: Rng) -> None:
    """Shuffle, in a copy, the Holmes' Action and Evidence Destruction decks."""
    rng.shuffle(state.automa_deck)
    rng.shuffle(state.destruction_deck)


def deck_lines(view: pb.View) -> list[str]:
    """The table's lines about those decks and the Fake Evidence Bag."""
    lines = []
    if view.automa_deck_size or view.automa_discard:
        lines.append(f"Holmes' Action Cards: {view.automa_deck_size} in the deck")
        if view.automa_discard:
            lines.append(f"Last Holmes' Action Card: {automa_name(view.automa_discard[-1])}")
    if view.destruction_deck_size or view.destruction_discard:
        lines.append(f"Evidence Destruction Cards: {view.destruction_deck_size} in the deck")
    if view.fake_supply:
        lines.append(f"Fake Evidence Bag: {view.fake_supply} cubes")
    return lines


#: Holmes' Action Cards' events (here and in Play as Holmes; Acid, a Holmes' Ability Card,
#: destroys evidence too).
EVENT_WORDS = {
    "automa": lambda e: f"Holmes revealed the Holmes' Action Card {automa_name(e.card)}",
    "destruction": lambda e: "Holmes revealed an Evidence Destruction Card: " + ", ".join(
        evidence(c) for c in data().destruction[e.card]),
    "destroyed": lambda e: f"Holmes destroyed {evidence(e.colour)} in {room(e.place)}",
    "planted": lambda e: f"Holmes planted {e.count} Fake Evidence in the Evidence Bag",
    "sealed": lambda e: "Holmes sealed every Hidden Bookcase Pathway",
    "locked": lambda e: f"Holmes padlocked the {SIDE_NAMES[e.side]} doorway of {room(e.place)}",
}


# -- the plugin ---------------------------------------------------------------------------------
class Automa(Points):
    """Automa: one seat, the Automa and Destruction decks, the Automa card each round, Holmes
    winning with 5 strikes."""

    name = "automa"
    decision_texts = {
        "automa": "Holmes resolves an Automa card (Automa; automatic between your choices).",
    }
    automatic = {pb.FRAME_KIND_AUTOMA: step}
    event_words = EVENT_WORDS

    def active(self, options: pb.Options) -> bool:
        return bool(options.automa)

    def seat_range(self, options: pb.Options) -> tuple[int, int]:
        return (1, 1)

    def check_options(self, options: pb.Options, seats: int) -> None:
        if options.automa not in LEVELS:
            raise InvalidOptions("automa", f"no Automa difficulty {options.automa}")
        if seats != 1:
            raise InvalidOptions("seats", f"Automa is played by 1 seat, not {seats}")

    def play_title(self, options: pb.Options) -> str:
        return f"Automa ({LEVELS[options.automa].capitalize()})"

    def default_options(self, seats: int) -> pb.Options | None:
        """A single seat plays Automa at the Beginner level."""
        return pb.Options(automa=pb.AUTOMA_LEVEL_BEGINNER) if seats == 1 else None

    def variants(self) -> list[Variant]:
        return [Variant(f"automa-{name}", f"Automa ({name.capitalize()})", pb.Options(automa=level))
                for level, name in LEVELS.items()]

    def test_configurations(self) -> list[tuple[pb.Options, int]]:
        return [(pb.Options(automa=level, round_limit=AUTOMA_ROUNDS), 1) for level in LEVELS]

    def rating_sides(self, options: pb.Options, outcome: Outcome) -> rating.Sides:
        """The investigator against the Automa."""
        return rating.one_against((SOLO,), ("Automa",), SOLO in outcome.winners)

    def fixed_characters(self, options: pb.Options) -> list[int]:
        if options.characters:
            raise InvalidOptions("characters", "Automa uses no characters")
        return [pb.CHARACTER_GUEST]

    def before_setup(self, state: pb.State) -> None:
        plant_setup(state)

    def boxes_brick_wall(self, options: pb.Options) -> bool:
        return False

    def event_cards(self, options: pb.Options) -> list[int]:
        return event_cards(options)

    def pillar(self, state: pb.State) -> bool:
        return False

    def selection_bonus(self, state: pb.State) -> bool:
        return False  # "The selection bonuses are not used"

    def calm_sample(self, state: pb.State) -> None:
        """The calmest Holmes' Action Card on top of the deck."""
        if not state.automa_deck:
            return
        cards = data().cards
        for kind in CALM:
            for i, card in enumerate(state.automa_deck):
                if cards[card].kind == kind:
                    state.automa_deck[i], state.automa_deck[-1] = state.automa_deck[-1], card
                    return

    def strikes_to_lose(self, state: pb.State) -> int:
        return int(data().raw["strikes_to_lose"])

    def view(self, state: pb.State, seat: int | None, view: pb.View) -> None:
        decks_into(state, view)

    def resample_decks(self, state: pb.State, seat: int | None, rng: Rng) -> None:
        shuffle_decks(state, rng)

    def holmes_lines(self, view: pb.View) -> tuple[list[str], list[str]]:
        return deck_lines(view), []

    def holmes_distances(self, state: pb.State) -> dict[int, int]:
        return distances(state)

    def walk_odds(self, state: pb.State) -> dict[int, float]:
        """The Automa deck's walking cards left."""
        cards = data().cards
        deck = list(state.automa_deck) or list(state.automa_discard)
        walks = Counter(WALKS.get(cards[c].kind, 0) for c in deck)
        n = len(deck) or 1
        return {1: (walks[1] + walks[2]) / n, 2: walks[2] / n}

    def setup(self, state: pb.State) -> None:
        setup(state)

    def end_round(self, state: pb.State, frame: pb.Frame, out: Out) -> bool:
        if frame.bonus:
            return False
        frame.bonus = True  # after the movement card and any rampage (Rulebook: Automa Gameplay)
        reveal(state, out)
        return True

    def drawn(self, state: pb.State, seat: int, card: int, out: Out) -> bool:
        """The Trapdoor "automatically sends you to Basement #3"; only Player Dexterity or
        Disarm a Trapdoor prevent the fall."""
        if kind_of(card).kind != "trapdoor":
            return False
        out.append(public(pb.Event(drawn=pb.EventDrawn(seat=seat, card=card))))
        state.event_discard.append(card)
        out.append(public(pb.Event(played=pb.EventPlayed(seat=seat, card=card))))
        if state.players[seat].place != place_of(3):
            push(state, pb.FRAME_KIND_FALL, seat, place=place_of(3), card=card)
        return True

    def alerted_now(self, state: pb.State, frame: pb.Frame, out: Out) -> bool:
        """"Holmes will always move to your room if this Event Card is drawn"."""
        pop(state)
        room = state.players[frame.source].place
        if room != PHARMACY_PLACE:  # never into the Pharmacy, as in every mode
            holmes.enter(state, room, NOBODY, out)
        return True

    def holmes_targets(self, state: pb.State, rooms: list[int]) -> list[int]:
        return targets(state, rooms)

    def maze_sides(self, state: pb.State, sides: list[int]) -> list[int]:
        return maze_side(state, sides)

    def encounter_window(self, state: pb.State) -> bool:
        return False  # not "to evade Holmes"

    def game_over(self, state: pb.State) -> tuple[tuple[int, ...], str] | None:
        if holmes_wins(state):
            return (), "Holmes won: the Evidence Board holds all 5 Holmes Strikes!"
        return None

    def check(self, state: pb.State) -> None:
        check(state)

