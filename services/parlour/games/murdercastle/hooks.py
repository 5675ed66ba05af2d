"""The rule points Murder Castle's modes may replace (parlour.engine.modes), each method the
standard game's answer, and the tables a mode adds its own entries to (its frames' words,
prompts and public choices, its actions' refusal reasons ...); `modes` installs the game's
modes over them. The standard modules
ask `rules(state)` at these points and `declared(table)` for the modes' entries, and never
which mode is on."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from parlour.engine.game import Emitted
from parlour.engine.modes import Mode, Modes
from parlour.engine.rng import Rng
from parlour.games.murdercastle.catalogue import Room, catalogue
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

Out = list[Emitted]


class Points(Mode):
    """The standard rules at each point a mode replaces, and the mode's entries in the
    standard tables (`declared`: none in the standard game)."""

    #: Frames the mode pushes whose only option may be taken for the seat (flow).
    public_choices: frozenset[int] = frozenset()
    #: Its action kinds' refusal reasons (flow), and each reason described (reference).
    reasons: Mapping[str, str] = {}
    reason_texts: Mapping[str, str] = {}
    #: Its frames described as decision kinds, by name (reference).
    decision_texts: Mapping[str, str] = {}
    #: Its frames' prompts, what passing them means and what a pass was (prompts, text).
    prompts: Mapping[int, str] = {}
    pass_labels: Mapping[int, str] = {}
    passed: Mapping[int, str] = {}
    #: Words for its actions (body -> words), their labels from a View ((view, body) ->
    #: label) and its events (body -> past tense), by kind (text).
    action_words: Mapping[str, Callable[[Any], str]] = {}
    action_labels: Mapping[str, Callable[[pb.View, Any], str]] = {}
    event_words: Mapping[str, Callable[[Any], str]] = {}
    #: Its action kinds naming one of several identical cards (text.COPIES).
    copies: tuple[str, ...] = ()
    #: What its special rooms do, by `Room.special` (prompts).
    room_effects: Mapping[str, str] = {}
    #: Its levels of the castle, by level: (the floor, where a room is on it) (text).
    floors: Mapping[int, tuple[str, str]] = {}
    #: Its special rooms whose every doorway reaches every level (board).
    any_level_rooms: frozenset[str] = frozenset()
    #: Its special rooms whose safe takes any number of cubes from the bag, as the
    #: Pharmacy's (effects).
    unbounded_rooms: frozenset[str] = frozenset()

    # -- the table: every active mode's part, in order ---------------------------------------
    def table(self, view: pb.View, me: int | None) -> list[tuple[str, list]]:
        """The mode's sections of the table, (title, items), after the standard ones."""
        return []

    def holmes_lines(self, view: pb.View) -> tuple[list[str], list[str]]:
        """The mode's lines in the table's Holmes section: before the Evidence Bag, after it."""
        return [], []

    def player_words(self, player: pb.SeatView) -> list[str]:
        """The mode's words about a player, after the standard ones."""
        return []

    # -- setup: seats, characters, components -----------------------------------------------
    def holmes_seat_of(self, options: pb.Options) -> int | None:
        """The seat that plays Holmes (None: Holmes is no seat's)."""
        return None

    def fixed_characters(self, options: pb.Options) -> list[int] | None:
        """The characters of every seat when the mode deals none (None: the standard deal)."""
        return None

    def before_setup(self, state: pb.State) -> None:
        """Before the basements and gondolas fill from the bag."""

    def room_pile(self, options: pb.Options) -> list[int]:
        """Room tiles and Brick Walls shuffled into the pile (not yet shuffled)."""
        cat = catalogue()
        return list(cat.game.pile) + [w for w in cat.game.brick_walls if w != cat.jonah_brick_wall]

    def all_tiles(self, options: pb.Options) -> frozenset[int]:
        """Every tile of the match: rooms and Brick Walls."""
        cat = catalogue()
        return frozenset({s.number for s in cat.start} | set(cat.game.pile)
                         | set(cat.game.brick_walls))

    def boxes_brick_wall(self, options: pb.Options) -> bool:
        """Whether Jonah's Brick Wall goes back in the box when nobody plays Jonah."""
        return True

    def event_cards(self, options: pb.Options) -> list[int]:
        """The Event Cards in play."""
        return sorted(catalogue().events)

    def movement_cards(self, options: pb.Options) -> list[int]:
        """The Holmes' Movement cards in play."""
        return sorted(catalogue().game.movement)

    # -- evidence and the selection bonus -----------------------------------------------------
    def pillar(self, state: pb.State) -> bool:
        """Whether the Pillar of evidence is played (5 of each colour, not 4)."""
        return state.seats != 2

    def selection_bonus(self, state: pb.State) -> bool:
        """Whether the seat that selected an Action Tile takes its bonus."""
        return True

    # -- the end -------------------------------------------------------------------------------
    def holmes_score(self, state: pb.State) -> int:
        """The Holmes seat's score (`holmes_seat_of`)."""
        return 0

    def holmes_outcome(self, state: pb.State) -> tuple[tuple[int, ...], str] | None:
        """A win by a Holmes seat: (winners, summary), else None."""
        return None

    # -- the planner's samples and the seats' views ------------------------------------------
    def calm_sample(self, state: pb.State) -> None:
        """In a planner's sample only: the mode's Holmes card changes nothing the score reads."""

    def strikes_to_lose(self, state: pb.State) -> int | None:
        """Strikes that lose the game (None: strikes only drop evidence)."""
        return None

    def holmes_distances(self, state: pb.State) -> dict[int, int] | None:
        """How far Holmes walks to each room (None: by doorway path from the player)."""
        return None

    def walk_odds(self, state: pb.State) -> dict[int, float]:
        """The chance Holmes walks into a room 1 or 2 rooms away after the movement card."""
        return {}

    def resample_face_down(self, state: pb.State, seat: int | None, rng: Rng) -> None:
        """Shuffle, in a copy, the mode's face-down pieces, after the room pile."""

    def resample_decks(self, state: pb.State, seat: int | None, rng: Rng) -> None:
        """Redeal, in a copy, the mode's cards `seat` cannot see, after the standard decks."""

    def play_title(self, options: pb.Options) -> str:
        """What a match plays, in its title line (a mode's additions follow it: `titles`)."""
        return "the standard game"

    def score_note(self) -> str:
        """How the outcome's scores read, after "the evidence each investigator collected"."""
        return "."

    # -- exploring: placing a new tile and filling its safe --------------------------------
    def stairs_must_face(self, state: pb.State, origin: pb.PlacedTile, room: Room) -> bool:
        """Whether the new room's stairs must meet the explored doorway."""
        return False

    def levels(self, state: pb.State, origin: pb.PlacedTile, tile: int) -> list[int]:
        """Levels a new tile may take: the level of the room explored from."""
        return [origin.level]

    def after_placing(self, state: pb.State, placed: pb.PlacedTile) -> None:
        """A new tile is on the grid (before its safe fills)."""

    def fill_on_explore(self, state: pb.State, seat: int, place: int, out: Out) -> int | None:
        """A new room's own way of filling its safe (None: the standard fill)."""
        return None

    def fill_source(self, state: pb.State, place: int) -> int:
        """The gondola (1 + index; 0: the unloading one) a room's safe fills from."""
        return 0

    # -- collecting -------------------------------------------------------------------------
    def collect_blocked(self, state: pb.State, seat: int) -> bool:
        """Whether the seat may not collect in its room at all."""
        return False

    def collected(self, state: pb.State, frame: pb.Frame, place: int, colour: int) -> None:
        """A cube went from a room's safe onto the collector's board (before its effects)."""

    def action_over(self, state: pb.State, frame: pb.Frame) -> None:
        """A seat's action is over (its window pushed), before any Trapdoor fall."""

    def pathway_tokens(self, state: pb.State) -> int:
        """Hidden Bookcase Pathway tokens."""
        return int(catalogue().rules["pathway_tokens"])

    def deathtrap_tokens(self) -> int:
        """Deathtrap tokens."""
        return 0

    def built_in_trapdoor(self, state: pb.State, place: int) -> int | None:
        """Where a collector in this room always falls (None: no built-in Trapdoor)."""
        return None

    # -- Event Cards --------------------------------------------------------------------------
    def drawn(self, state: pb.State, seat: int, card: int, out: Out) -> bool:
        """A drawn Event Card resolved the mode's own way (True), before the standard draw."""
        return False

    def alerted_now(self, state: pb.State, frame: pb.Frame, out: Out) -> bool:
        """Holmes is Alerted (Play Now) resolved the mode's own way (True)."""
        return False

    def alerted_keep_blocked(self, state: pb.State) -> bool:
        """Whether Holmes is Alerted (Keep) may not be played now."""
        return False

    # -- Holmes --------------------------------------------------------------------------------
    def holmes_chooser(self, state: pb.State) -> int | None:
        """The seat that makes Holmes' choices (None: whoever revealed the card)."""
        return None

    def holmes_targets(self, state: pb.State, rooms: list[int]) -> list[int]:
        """The rooms Holmes may go to among a card's explored rooms."""
        return rooms

    def maze_sides(self, state: pb.State, sides: list[int]) -> list[int]:
        """The Maze's sides Holmes may enter."""
        return sides

    def holmes_leaves(self, state: pb.State) -> None:
        """Holmes is about to move from his room into another."""

    def card_waiting(self, state: pb.State) -> bool:
        """Whether a card of the mode waits for the next movement card (`after_holmes_card`)."""
        return False

    def after_holmes_card(self, state: pb.State, cancelled: bool, out: Out) -> None:
        """The movement card after a card that waits for one (`card_waiting`)."""

    def encounter_window(self, state: pb.State) -> bool:
        """Whether players in the room Holmes enters may play cards to evade him."""
        return True

    def holmes_hider(self, state: pb.State) -> int | None:
        """The seat that hides for Holmes in the Whitechapel Suite (None: a random side)."""
        return None

    def strike_modifier(self, state: pb.State, seat: int, out: Out) -> int | None:
        """Cubes more (or fewer) a strike drops; None: the strike is blocked."""
        return 0

    def track(self, state: pb.State, seat: int, reason: str, out: Out) -> None:
        """A strike or a Deathtrap fall was taken."""

    def tile_selected(self, state: pb.State, tile: int, out: Out) -> None:
        """An Action Tile was selected, before the selector acts."""

    # -- the round and its windows ------------------------------------------------------------
    def pending_seats(self, state: pb.State, frame: pb.Frame) -> list[int] | None:
        """Seats owing a mode's frame decided by several at once (None: the frame's seat)."""
        return None

    def window_joiners(self, state: pb.State) -> list[int]:
        """Seats joining a window answering Holmes entering a room."""
        return []

    def window_actions(self, state: pb.State, seat: int, place: int) -> list[pb.Action]:
        """An investigator's choices in an Event Card window besides cards and abilities."""
        return []

    def holmes_window_actions(self, state: pb.State) -> list[pb.Action]:
        """The Holmes seat's choices in an Event Card window."""
        return []

    def holmes_in_window(self, state: pb.State) -> bool:
        """Whether the Holmes seat may still act in Event Card windows."""
        return False

    def window_seats(self, state: pb.State) -> list[int]:
        """Seats other than investigators asked in the window between phases."""
        return []

    def window_act(self, state: pb.State, seat: int, action: pb.Action, out: Out) -> None:
        """A window choice the mode added (`window_actions`, `holmes_window_actions`)."""
        raise AssertionError(f"no mode plays {action.WhichOneof('kind')} in a window")


MODES: Modes[Points] = Modes(Points)


def rules(state: pb.State) -> Points:
    """The rule points of this match's modes."""
    return MODES.rules(state.options)


@cache
def declared(table: str) -> dict:
    """Every installed mode's entries in one of the tables of `Points` (public_choices,
    reasons, passed ...), merged: a mode's frame or action only arises while it is on."""
    assert MODES.all, "the modes are not installed yet (modes/__init__.py installs them)"
    found: dict = {}
    for mode in MODES.all:
        entries = getattr(mode, table)
        found.update(dict.fromkeys(entries) if isinstance(entries, frozenset | tuple)
                     else entries)
    return found
