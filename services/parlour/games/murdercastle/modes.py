"""Murder Castle's modes as plugins (parlour.engine.modes): the Extended Version, The 2nd
Story, Automa, Play as Holmes and the Castle Junction Cards (with Holmes' Ability Cards), in
the order their setup draws from the RNG and their variants are listed. Each replaces the rule
points of `hooks` it changes and adds its decisions, steps and setup; the standard rules ask
`hooks.rules(state)` instead of asking which mode is on. `game` imports this module, which
installs the modes."""

from __future__ import annotations

from collections import Counter

from parlour.engine import rating
from parlour.engine.game import InvalidOptions, Outcome, Variant
from parlour.engine.rng import Rng
from parlour.engine.text import seat as seat_name
from parlour.engine.text import subject
from parlour.games.murdercastle import (
    automa,
    cards,
    castle_junction,
    holmes,
    holmes_abilities,
    holmes_cards,
    play_as_holmes,
    second_story,
)
from parlour.games.murdercastle.board import place_of
from parlour.games.murdercastle.catalogue import Room
from parlour.games.murdercastle.hooks import MODES, Points
from parlour.games.murdercastle.setup import MAX_SEATS, MIN_SEATS
from parlour.games.murdercastle.stack import (
    NOBODY,
    Out,
    holmes_seat,
    investigators,
    pop,
    public,
    push,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

#: Holmes' end of round in Play as Holmes: the Control Panel cube, then cards on the tiles.
HOLMES_ROUND_END = (pb.FRAME_KIND_PANEL_CUBE, pb.FRAME_KIND_ASSIGN_CARDS)
#: Rooms each walking Holmes' Action Card moves Holmes (the planner's odds in Automa).
WALKS = {"move_1": 1, "move_2": 2, "move_2_lock_2": 2}
#: Holmes' Action Cards by how little they change a planner's score, calmest first.
CALM = ("plant_10", "plant_15", "lock_door", "seal_pathways", "destroy_1", "destroy_2",
        "destroy_all")
#: Rounds the Extended Version's test configuration plays (4 seats), as the standard game's.
EXTENDED_ROUNDS = 2
#: The same for The 2nd Story (shorter: the full-length games are in tests/test_playouts.py).
SECOND_STORY_ROUNDS = {2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1}
#: The same for Automa, at every difficulty.
AUTOMA_ROUNDS = 4
#: The same for Play as Holmes (2 rounds where the cards unlocked from the start can act).
PLAY_AS_HOLMES_ROUNDS = {4: 2, 5: 2, 6: 1, 7: 1}


# -- the Extended Version -------------------------------------------------------------------
class Extended(Points):
    """The Extended Version: the Pillar is left out (4 of each evidence, not 5)."""

    name = "extended"

    def active(self, options: pb.Options) -> bool:
        return options.extended

    def pillar(self, state: pb.State) -> bool:
        return False

    def title(self, options: pb.Options) -> str:
        return "Extended Version"

    def variants(self) -> list[Variant]:
        return [Variant("extended", "Extended Version", pb.Options(extended=True))]

    def test_configurations(self) -> list[tuple[pb.Options, int]]:
        return [(pb.Options(extended=True, round_limit=EXTENDED_ROUNDS), 4)]


# -- The 2nd Story ------------------------------------------------------------------------
def _potion_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return [pb.Action(potion=pb.PickPotion(spot=s)) for s in second_story.spots(state)]


def _potion(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    second_story.pick_potion(state, frame, action.potion.spot, out)


class SecondStory(Points):
    """The 2nd Story: the Laboratory Shelf (its rooms, stairs and cards come through the
    piles of `second_story`)."""

    name = "second-story"
    decisions = {pb.FRAME_KIND_PICK_POTION: (_potion_options, _potion)}

    def active(self, options: pb.Options) -> bool:
        return second_story.playing(options)

    def setup(self, state: pb.State) -> None:
        second_story.new_shelf(state)

    def round_over(self, state: pb.State, out: Out) -> None:
        second_story.refill_shelf(state, out)

    def title(self, options: pb.Options) -> str | None:
        return "The 2nd Story" if options.second_story else None  # not when a mode brings it

    def variants(self) -> list[Variant]:
        return [Variant("second-story", "The 2nd Story", pb.Options(second_story=True))]

    def test_configurations(self) -> list[tuple[pb.Options, int]]:
        return [(pb.Options(second_story=True, round_limit=SECOND_STORY_ROUNDS[n]), n)
                for n in range(MIN_SEATS, MAX_SEATS + 1)]

    def room_pile(self, options: pb.Options) -> list[int]:
        return second_story.pile(options)

    def all_tiles(self, options: pb.Options) -> frozenset[int]:
        return second_story.tiles(options)

    def movement_cards(self, options: pb.Options) -> list[int]:
        return second_story.movement(options)

    def stairs_must_face(self, state: pb.State, origin: pb.PlacedTile, room: Room) -> bool:
        return second_story.stairs_must_face(origin, room)

    def levels(self, state: pb.State, origin: pb.PlacedTile, tile: int) -> list[int]:
        return second_story.levels(state, origin, tile)

    def after_placing(self, state: pb.State, placed: pb.PlacedTile) -> None:
        second_story.finish_placing(state, placed)

    def fill_on_explore(self, state: pb.State, seat: int, place: int, out: Out) -> int | None:
        return second_story.fill_on_explore(state, seat, place, out)

    def fill_source(self, state: pb.State, place: int) -> int:
        return second_story.fill_source(state, place)

    def collect_blocked(self, state: pb.State, seat: int) -> bool:
        return second_story.potion_blocked(state, seat)

    def potion_spots(self, state: pb.State) -> list[int]:
        return second_story.spots(state)

    def pathway_tokens(self, state: pb.State) -> int:
        return second_story.pathway_tokens(state)

    def built_in_trapdoor(self, state: pb.State, place: int) -> int | None:
        return second_story.built_in_trapdoor(state, place)

    def strike_modifier(self, state: pb.State, seat: int, out: Out) -> int | None:
        return second_story.strike_modifier(state, seat, out)

    def check(self, state: pb.State) -> None:
        second_story.check(state)

    check_off = check


# -- Automa ---------------------------------------------------------------------------------
class Automa(Points):
    """Automa: one seat, the Automa and Destruction decks, the Automa card each round, Holmes
    winning with 5 strikes."""

    name = "automa"
    automatic = {pb.FRAME_KIND_AUTOMA: automa.step}

    def active(self, options: pb.Options) -> bool:
        return bool(options.automa)

    def seat_range(self, options: pb.Options) -> tuple[int, int]:
        return (1, 1)

    def check_options(self, options: pb.Options, seats: int) -> None:
        if options.automa not in automa.LEVELS:
            raise InvalidOptions("automa", f"no Automa difficulty {options.automa}")
        if seats != 1:
            raise InvalidOptions("seats", f"Automa is played by 1 seat, not {seats}")

    def play_title(self, options: pb.Options) -> str:
        return f"Automa ({automa.LEVELS[options.automa].capitalize()})"

    def default_options(self, seats: int) -> pb.Options | None:
        """A single seat plays Automa at the Beginner level."""
        return pb.Options(automa=pb.AUTOMA_LEVEL_BEGINNER) if seats == 1 else None

    def variants(self) -> list[Variant]:
        return [Variant(f"automa-{name}", f"Automa ({name.capitalize()})", pb.Options(automa=level))
                for level, name in automa.LEVELS.items()]

    def test_configurations(self) -> list[tuple[pb.Options, int]]:
        return [(pb.Options(automa=level, round_limit=AUTOMA_ROUNDS), 1) for level in automa.LEVELS]

    def rating_sides(self, options: pb.Options, outcome: Outcome) -> rating.Sides:
        """The investigator against the Automa."""
        return rating.one_against((automa.SOLO,), ("Automa",), automa.SOLO in outcome.winners)

    def fixed_characters(self, options: pb.Options) -> list[int]:
        if options.characters:
            raise InvalidOptions("characters", "Automa uses no characters")
        return [pb.CHARACTER_GUEST]

    def before_setup(self, state: pb.State) -> None:
        automa.plant_setup(state)

    def boxes_brick_wall(self, options: pb.Options) -> bool:
        return False

    def event_cards(self, options: pb.Options) -> list[int]:
        return automa.event_cards(options)

    def pillar(self, state: pb.State) -> bool:
        return False

    def selection_bonus(self, state: pb.State) -> bool:
        return False  # "The selection bonuses are not used"

    def calm_sample(self, state: pb.State) -> None:
        """The calmest Holmes' Action Card on top of the deck."""
        if not state.automa_deck:
            return
        cards = automa.data().cards
        for kind in CALM:
            for i, card in enumerate(state.automa_deck):
                if cards[card].kind == kind:
                    state.automa_deck[i], state.automa_deck[-1] = state.automa_deck[-1], card
                    return

    def strikes_to_lose(self, state: pb.State) -> int:
        return int(automa.data().raw["strikes_to_lose"])

    def holmes_distances(self, state: pb.State) -> dict[int, int]:
        return automa.distances(state)

    def walk_odds(self, state: pb.State) -> dict[int, float]:
        """The Automa deck's walking cards left."""
        cards = automa.data().cards
        deck = list(state.automa_deck) or list(state.automa_discard)
        walks = Counter(WALKS.get(cards[c].kind, 0) for c in deck)
        n = len(deck) or 1
        return {1: (walks[1] + walks[2]) / n, 2: walks[2] / n}

    def setup(self, state: pb.State) -> None:
        automa.setup(state)

    def end_round(self, state: pb.State, frame: pb.Frame, out: Out) -> bool:
        if frame.bonus:
            return False
        frame.bonus = True  # after the movement card and any rampage (Rulebook: Automa Gameplay)
        automa.reveal(state, out)
        return True

    def drawn(self, state: pb.State, seat: int, card: int, out: Out) -> bool:
        """The Trapdoor "automatically sends you to Basement #3"; only Player Dexterity or
        Disarm a Trapdoor prevent the fall."""
        if cards.kind_of(card).kind != "trapdoor":
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
        if room != automa.PHARMACY_PLACE:  # never into the Pharmacy, as in every mode
            holmes.enter(state, room, NOBODY, out)
        return True

    def holmes_targets(self, state: pb.State, rooms: list[int]) -> list[int]:
        return automa.targets(state, rooms)

    def maze_sides(self, state: pb.State, sides: list[int]) -> list[int]:
        return automa.maze_side(state, sides)

    def encounter_window(self, state: pb.State) -> bool:
        return False  # not "to evade Holmes"

    def game_over(self, state: pb.State) -> tuple[tuple[int, ...], str] | None:
        if automa.holmes_wins(state):
            return (), "Holmes won: the Evidence Board holds all 5 Holmes Strikes!"
        return None

    def check(self, state: pb.State) -> None:
        automa.check(state)

    def check_off(self, state: pb.State) -> None:
        if not play_as_holmes.on(state):  # the only other mode with Fake Evidence
            automa.check_unused(state)


# -- Play as Holmes ---------------------------------------------------------------------------
def _cube_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return play_as_holmes.cube_options(state)


def _cube(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    pop(state)
    play_as_holmes.place_cube(state, action.panel.slot, out)


def _assign_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return play_as_holmes.assign_options(state)


def _assign(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    if action.WhichOneof("kind") == "pass":
        out.append(public(pb.Event(passed=pb.Passed(seat=seat, frame=frame.kind))))
        pop(state)
    else:
        play_as_holmes.assign(state, action.assign.card, action.assign.tile, out)


def _walk_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return holmes_cards.walk_options(state, frame)


def _walk(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    holmes_cards.walk(state, frame, action, out)


class PlayAsHolmes(Points):
    """Play as Holmes: the Holmes seat, the Control Panel, Holmes' Action Cards on the tiles,
    Holmes winning with the Tracker at 10."""

    name = "play-as-holmes"
    decisions = {
        pb.FRAME_KIND_PANEL_CUBE: (_cube_options, _cube),
        pb.FRAME_KIND_ASSIGN_CARDS: (_assign_options, _assign),
        pb.FRAME_KIND_HOLMES_WALK: (_walk_options, _walk),
    }
    automatic = {pb.FRAME_KIND_HOLMES_CARD: holmes_cards.step}

    def active(self, options: pb.Options) -> bool:
        return play_as_holmes.playing(options)

    def seat_range(self, options: pb.Options) -> tuple[int, int]:
        return play_as_holmes.seat_range()

    def check_options(self, options: pb.Options, seats: int) -> None:
        play_as_holmes.check_options(options, seats)

    def variants(self) -> list[Variant]:
        return [Variant("play-as-holmes", "Play as Holmes",
                        pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=0)))]

    def test_configurations(self) -> list[tuple[pb.Options, int]]:
        low, high = play_as_holmes.seat_range()
        return [(pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=(n - 1) * (n % 2)),
                            round_limit=PLAY_AS_HOLMES_ROUNDS[n]), n)
                for n in range(low, high + 1)]

    def rating_sides(self, options: pb.Options, outcome: Outcome) -> rating.Sides:
        """Holmes against every investigator (they win or lose together against him)."""
        holmes = options.play_as_holmes.seat
        others = tuple(s for s in range(len(outcome.scores)) if s != holmes)
        return rating.one_against((holmes,), others, holmes in outcome.winners)

    def holmes_seat_of(self, options: pb.Options) -> int | None:
        return options.play_as_holmes.seat

    def play_title(self, options: pb.Options) -> str:
        return f"Play as Holmes ({subject(options.play_as_holmes.seat, 'plays', 'play')} Holmes)"

    def walk_odds(self, state: pb.State) -> dict[int, float]:
        return {1: 0.35, 2: 0.15}  # a fixed guess: his cards on the tiles walk him

    def resample_decks(self, state: pb.State, seat: int | None, rng: Rng) -> None:
        play_as_holmes.resample(state, seat, rng)

    def holmes_score(self, state: pb.State) -> int:
        return play_as_holmes.score(state)

    def holmes_outcome(self, state: pb.State) -> tuple[tuple[int, ...], str] | None:
        if not state.holmes_won:
            return None
        holmes = holmes_seat(state)
        return (holmes,), f"Holmes ({seat_name(holmes)}) won: the Holmes Tracker reached 10."

    def score_note(self) -> str:
        return ("; Holmes scores his Holmes Tracker counted on the same scale (10 on the"
                " Tracker equals a full Evidence Board).")

    def setup(self, state: pb.State) -> None:
        play_as_holmes.setup(state)
        state.key = play_as_holmes.first_key(state)

    def end_round(self, state: pb.State, frame: pb.Frame, out: Out) -> bool:
        if frame.count >= len(HOLMES_ROUND_END):
            return False
        # "Once all Holmes' movement is completed": the cube, then the cards on the tiles
        frame.count += 1
        push(state, HOLMES_ROUND_END[frame.count - 1], holmes_seat(state))
        return True

    def game_over(self, state: pb.State) -> tuple[tuple[int, ...], str] | None:
        if play_as_holmes.holmes_wins(state):
            return (holmes_seat(state),), "Holmes won: the Holmes Tracker reached 10"
        return None

    def view(self, state: pb.State, seat: int | None, view: pb.View) -> None:
        play_as_holmes.view_into(state, seat, view)

    def deathtrap_tokens(self) -> int:
        return int(play_as_holmes.panel().raw["deathtraps"])

    def alerted_keep_blocked(self, state: pb.State) -> bool:
        """The window after Holmes entered a room, where Holmes is Alerted (Keep) "does not
        help you avoid a Holmes Strike! if Holmes enters your room"."""
        window = state.frames[-1] if state.frames else None
        return (window is not None and window.kind == pb.FRAME_KIND_EVENT_WINDOW
                and bool(window.place))

    def holmes_chooser(self, state: pb.State) -> int | None:
        return holmes_seat(state)  # "The player playing as Holmes chooses Holmes' movement"

    def holmes_hider(self, state: pb.State) -> int | None:
        return holmes_seat(state)

    def after_holmes_card(self, state: pb.State, cancelled: bool, out: Out) -> None:
        play_as_holmes.move_after(state, cancelled, out)

    def track(self, state: pb.State, seat: int, reason: str, out: Out) -> None:
        play_as_holmes.track(state, seat, reason, out)

    def tile_selected(self, state: pb.State, tile: int, out: Out) -> None:
        holmes_cards.reveal_on(state, tile, out)

    def check(self, state: pb.State) -> None:
        play_as_holmes.check(state)


# -- Castle Junction Cards and Holmes' Ability Cards ----------------------------------------
class CastleJunction(Points):
    """The Castle Junction Cards (objectives checked after every action, the discard vote)
    and Holmes' Ability Cards, which come with Play as Holmes."""

    name = "castle-junction"
    decisions = {**castle_junction.DECISIONS, **holmes_abilities.DECISIONS}
    automatic = dict(holmes_abilities.AUTOMATIC)

    def active(self, options: pb.Options) -> bool:
        return play_as_holmes.playing(options)

    def setup(self, state: pb.State) -> None:
        castle_junction.setup(state)
        holmes_abilities.setup(state, state.options.play_as_holmes.seat)

    def after_action(self, state: pb.State, out: Out) -> None:
        castle_junction.check(state, out)

    def pending_seats(self, state: pb.State, frame: pb.Frame) -> list[int] | None:
        if frame.kind == pb.FRAME_KIND_JUNCTION_VOTE:
            return castle_junction.vote_pending(state, frame)
        return None

    def window_joiners(self, state: pb.State) -> list[int]:
        return castle_junction.blockers(state)

    def window_actions(self, state: pb.State, seat: int, place: int) -> list[pb.Action]:
        return castle_junction.window_actions(state, seat, place)

    def holmes_window_actions(self, state: pb.State) -> list[pb.Action]:
        return holmes_abilities.use_actions(state, investigators(state))

    def holmes_in_window(self, state: pb.State) -> bool:
        return holmes_abilities.may_use(state)

    def window_seats(self, state: pb.State) -> list[int]:
        return holmes_abilities.window_seats(state)

    def window_act(self, state: pb.State, seat: int, action: pb.Action, out: Out) -> None:
        kind = action.WhichOneof("kind")
        if kind == "junction":
            castle_junction.play(state, seat, action.junction.card, out)
        elif kind == "propose":
            castle_junction.propose(state, seat, action.propose.slot, out)
        else:
            holmes_abilities.use(state, seat, out)

    def view(self, state: pb.State, seat: int | None, view: pb.View) -> None:
        view.junction.CopyFrom(castle_junction.view(state, seat))
        view.junction.ability = holmes_abilities.seen(state, seat, holmes_seat(state))
        view.junction.ability_used = state.junction.ability_used

    def resample(self, state: pb.State, seat: int | None, rng: Rng) -> None:
        castle_junction.resample(state, seat, rng)
        holmes_abilities.resample(state, seat, holmes_seat(state), rng)

    def check(self, state: pb.State) -> None:
        castle_junction.check_conserved(state)

    check_off = check


MODES.install([Extended(), SecondStory(), Automa(), PlayAsHolmes(), CastleJunction()])
