"""Play as Holmes, switched on by `Options.play_as_holmes` (Rulebook: Play as Holmes): one seat
plays Holmes against every other seat, with The 2nd Story, the Evidence Destruction deck, Fake
Evidence and the Holmes' Action Cards of Automa.

The Holmes seat has a `Player` entry like every seat (so seat numbers stay indices) but no
character, no room (place 0) and no Evidence Board; `stack.key_order` and
`stack.investigators` leave it out. This module holds the mode's state rules: the Holmes
Tracker, the Control Panel, the unlocked supply and the cards face down on Action Tiles, and
its plugin, `PlayAsHolmes`, with its words. Resolving a card is `holmes_cards.py`.
"""

from __future__ import annotations

from parlour.engine import rating
from parlour.engine.game import InvalidOptions, Outcome, Variant
from parlour.engine.rng import Rng, state_rng
from parlour.engine.text import item, subject
from parlour.engine.text import seat as seat_name
from parlour.games.murdercastle.actions import PASS
from parlour.games.murdercastle.catalogue import action_tiles
from parlour.games.murdercastle.cubes import COLOURS, needed
from parlour.games.murdercastle.hooks import Points
from parlour.games.murdercastle.modes import automa, holmes_cards
from parlour.games.murdercastle.modes.components import abilities, panel
from parlour.games.murdercastle.modes.names import automa_name, slot_name
from parlour.games.murdercastle.names import action_tile_name
from parlour.games.murdercastle.stack import (
    Out,
    holmes_seat,
    investigators,
    pop,
    private,
    public,
    push,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb


def on(state: pb.State) -> bool:
    """Whether the match plays Play as Holmes."""
    return playing(state.options)


def playing(options: pb.Options) -> bool:
    """Whether these options play Play as Holmes."""
    return options.HasField("play_as_holmes")


def seat_range() -> tuple[int, int]:
    """"A minimum of 4 players … up to a maximum of 7 players with 1 of the players playing as
    Holmes"."""
    raw = panel().raw
    return raw["min_seats"], raw["max_seats"]


def check_options(options: pb.Options, seats: int) -> None:
    """Refuse options that cannot play Play as Holmes."""
    low, high = seat_range()
    if options.automa:
        raise InvalidOptions("play_as_holmes", "Play as Holmes is not an Automa game")
    if not low <= seats <= high:
        raise InvalidOptions("seats", f"Play as Holmes takes {low} to {high} seats, not {seats}")
    if options.play_as_holmes.seat >= seats:
        raise InvalidOptions("play_as_holmes",
                             f"seat {options.play_as_holmes.seat} is not in a {seats}-seat match")
    chosen = list(options.characters)
    if len(chosen) == seats and chosen[options.play_as_holmes.seat] != pb.CHARACTER_UNSPECIFIED:
        raise InvalidOptions("characters", "the Holmes seat plays no character")


def first_key(state: pb.State) -> int:
    """The first Skeleton Key holder: `first_seat`, or the next investigator clockwise when
    that is the Holmes seat ("Holmes … will never begin the game nor receive the Skeleton Key")."""
    first = state.options.first_seat
    return first if first != holmes_seat(state) else (first + 1) % state.seats


def setup(state: pb.State) -> None:
    """A Fake Evidence cube below the Control Panel as the Holmes Tracker, all Fake Evidence in
    the Fake Evidence Bag, the Destruction deck with every card, the two cards unlocked from the
    start in the supply (Rulebook: Play as Holmes: Holmes' Control Panel; Evidence; The Holmes'
    Action Cards / Automa Deck (Play as Holmes Setup))."""
    state.fake_supply = automa.data().raw["fake_cubes"] - panel().raw["tracker_cubes"]
    state.destruction_deck.extend(sorted(automa.data().destruction))
    with state_rng(state) as rng:
        rng.shuffle(state.destruction_deck)
    state.holmes_supply.extend(panel().start)


# -- the Holmes Tracker -------------------------------------------------------------------
def track(state: pb.State, seat: int, reason: str, out: Out) -> None:
    """Move the Holmes Tracker one step ("each instance a player was issued a Holmes Strike!")."""
    if not on(state):
        return
    state.holmes_tracker += 1
    out.append(public(pb.Event(tracker=pb.TrackerMoved(tracker=state.holmes_tracker, seat=seat,
                                                       reason=reason))))


def holmes_wins(state: pb.State) -> bool:
    """"Holmes wins if the Holmes Tracker is moved to 10"."""
    return on(state) and state.holmes_tracker >= panel().raw["tracker_to_win"]


def score(state: pb.State) -> int:
    """The Holmes seat's score: the Tracker on the scale of a complete Evidence Board (10 on the
    Tracker scores as 20 cubes), so that his win outscores every investigator who has not
    escaped, as an escape does."""
    return state.holmes_tracker * needed(state) * len(COLOURS) // panel().raw["tracker_to_win"]


# -- the Control Panel -------------------------------------------------------------------
def open_slots(state: pb.State) -> list[int]:
    """Placeholders the next cube may go on: the first empty one of each section, "from top to
    bottom … and left to right"."""
    filled = set(state.panel)
    found = []
    for section in panel().sections:
        empty = [s for s in section if s not in filled]
        if empty:
            found.append(empty[0])
    return found


def unlocked_by_panel(state: pb.State) -> set[int]:
    """Cards the Control Panel unlocks now: the two start cards and every card whose
    placeholders all hold a cube."""
    filled = set(state.panel)
    return set(panel().start) | {c for c, slots in panel().needs.items() if set(slots) <= filled}


def locked(state: pb.State) -> list[int]:
    """Cards still to the left of the Control Panel (not unlocked, not removed)."""
    out_of_box = set(state.holmes_supply) | {t.card for t in state.tile_cards}
    out_of_box |= {state.after_card} | set(state.holmes_boxed)
    return [c for c in panel().deck if c not in out_of_box]


def place_cube(state: pb.State, slot: int, out: Out) -> None:
    """The end-of-round cube goes on a placeholder; a card whose placeholders are all filled
    moves to the unlocked supply."""
    state.fake_supply -= 1
    state.panel.append(slot)
    freed = [c for c in locked(state) if c in unlocked_by_panel(state)]
    state.holmes_supply.extend(freed)
    out.append(public(pb.Event(panel=pb.PanelCubePlaced(slot=slot,
                                                        unlocked=freed[0] if freed else 0))))


def cube_options(state: pb.State) -> list[pb.Action]:
    """Where the end-of-round cube may go (none once the supply or the panel is exhausted)."""
    if not state.fake_supply:
        return []
    return [pb.Action(panel=pb.PlaceCube(slot=s)) for s in open_slots(state)]


# -- cards on Action Tiles -----------------------------------------------------------------
def unlocked(state: pb.State) -> list[int]:
    """The unlocked cards in the supply or face down on a tile (public as one set)."""
    return sorted([*state.holmes_supply, *(t.card for t in state.tile_cards)])


def free_tiles(state: pb.State) -> list[int]:
    """Action Tiles in play carrying no Holmes' Action Card."""
    taken = {t.tile for t in state.tile_cards}
    return [t for t in action_tiles(len(investigators(state))) if t not in taken]


def assign_options(state: pb.State) -> list[pb.Action]:
    """One face-down card per free tile, a card of each kind in the supply, or stop."""
    kinds: dict[str, int] = {}
    for card in sorted(state.holmes_supply):
        kinds.setdefault(automa.data().cards[card].kind, card)
    found = [pb.Action(assign=pb.AssignCard(card=c, tile=t))
             for c in sorted(kinds.values()) for t in free_tiles(state)]
    return [*found, PASS]


def assign(state: pb.State, card: int, tile: int, out: Out) -> None:
    """Put a card from the supply face down on a tile."""
    state.holmes_supply.remove(card)
    state.tile_cards.add(tile=tile, card=card)
    out.extend(private({holmes_seat(state)},
                       pb.Event(assigned=pb.CardAssigned(tile=tile, card=card)),
                       pb.Event(assigned=pb.CardAssigned(tile=tile))))


def take_from_tile(state: pb.State, tile: int) -> int:
    """Remove the card lying on a tile and return it (0: none)."""
    for i, placed in enumerate(state.tile_cards):
        if placed.tile == tile:
            card = placed.card
            del state.tile_cards[i]
            return card
    return 0


def return_card(state: pb.State, card: int, reason: str, out: Out) -> None:
    """A played card goes back into the unlocked supply."""
    state.holmes_supply.append(card)
    out.append(public(pb.Event(returned=pb.CardReturned(card=card, reason=reason))))


def reveal_on(state: pb.State, tile: int, out: Out) -> None:
    """A selected tile carrying a card: Holmes turns it over and resolves it before the
    selector's action; it goes back to the supply ("Holmes Moves up to 2 Rooms After a Holmes'
    Movement Card" goes on top of the movement deck instead)."""
    if not on(state):
        return
    card = take_from_tile(state, tile)
    if not card:
        return
    state.holmes_played.append(card)
    out.append(public(pb.Event(tile_card=pb.TileCardRevealed(tile=tile, card=card))))
    if holmes_cards.kind(card) == "holmes_moves_after":
        state.after_card = card
        return
    return_card(state, card, "played", out)
    start(state, card, optional=False)


def start(state: pb.State, card: int, optional: bool) -> None:
    """Push the frame resolving a card (`optional`: every step of its walk may be declined)."""
    steps, locks = holmes_cards.WALKS.get(holmes_cards.kind(card), (0, 0))
    push(state, pb.FRAME_KIND_HOLMES_CARD, holmes_seat(state), card=card, count=steps,
         target=locks, bonus=optional, source=holmes_seat(state))


def move_after(state: pb.State, cancelled: bool, out: Out) -> None:
    """The movement card after "Holmes Moves up to 2 Rooms After a Holmes' Movement Card is
    Drawn" was revealed: Holmes may walk up to 2 rooms, unless it was Lights Out ("Holmes will
    not be able to perform the action"); the card goes back to the supply either way."""
    card = state.after_card
    state.after_card = 0
    return_card(state, card, "lights out" if cancelled else "played", out)
    if not cancelled:
        start(state, card, optional=True)


# -- what each seat sees -------------------------------------------------------------------
def view_into(state: pb.State, seat: int | None, view: pb.View) -> None:
    """The Tracker, the panel, the unlocked cards and the tiles carrying one; the cards'
    identities on the tiles and the supply only for the Holmes seat."""
    view.holmes_tracker = state.holmes_tracker
    view.panel.extend(state.panel)
    view.unlocked.extend(unlocked(state))
    view.after_card = state.after_card
    view.holmes_boxed.extend(state.holmes_boxed)
    view.holmes_played.extend(state.holmes_played)
    mine = on(state) and seat == holmes_seat(state)
    for placed in sorted(state.tile_cards, key=lambda t: t.tile):
        view.tile_cards.add(tile=placed.tile, card=placed.card if mine else 0)
    if mine:
        view.holmes_supply.extend(sorted(state.holmes_supply))


def resample(state: pb.State, seat: int | None, rng: Rng) -> None:
    """For anyone but the Holmes seat: which unlocked cards lie on which tile, and which wait in
    the supply."""
    if not on(state) or seat == holmes_seat(state):
        return
    cards = unlocked(state)
    rng.shuffle(cards)
    for placed in state.tile_cards:
        placed.card = cards.pop()
    state.holmes_supply[:] = sorted(cards)


def check(state: pb.State) -> None:
    """Conservation of Fake Evidence (the Tracker and the panel cubes too), the Destruction
    deck and the 13 Holmes' Action Cards."""
    fake = automa.fake_count(state) + len(state.panel) + panel().raw["tracker_cubes"]
    assert fake == automa.data().raw["fake_cubes"], "Fake Evidence not conserved"
    cards = sorted([*state.destruction_deck, *state.destruction_discard])
    assert cards == sorted(automa.data().destruction), "Destruction cards lost"
    placed = [*state.holmes_supply, *(t.card for t in state.tile_cards), *state.holmes_boxed]
    placed += [state.after_card] if state.after_card else []
    assert len(set(placed)) == len(placed) and set(placed) <= set(panel().deck), "Action Cards"
    assert len({t.tile for t in state.tile_cards}) == len(state.tile_cards), "2 cards on a tile"
    assert set(state.holmes_supply) <= unlocked_by_panel(state), "a locked card in the supply"
    assert not state.automa_deck and not state.automa_discard


# -- words ---------------------------------------------------------------------------------
def unlocks(slot: int) -> str:
    """The Holmes' Action Card a placeholder belongs to."""
    for card, slots in panel().needs.items():
        if slot in slots:
            return automa_name(card)
    return "nothing"


ACTION_WORDS = {
    "panel": lambda body: f"place Holmes' cube in {slot_name(body.slot)} ({unlocks(body.slot)})",
    "assign": lambda body: (f"put {automa_name(body.card)} face down on "
                            f"{action_tile_name(body.tile)}"),
}
EVENT_WORDS = {
    "tracker": lambda e: (f"the Holmes Tracker moved to {e.tracker} ({e.reason}, "
                          f"{seat_name(e.seat)})"),
    "panel": lambda e: f"Holmes placed a cube in {slot_name(e.slot)}" + (
        f", unlocking {automa_name(e.unlocked)}" if e.unlocked else ""),
    "assigned": lambda e: (f"Holmes put {automa_name(e.card) if e.card else 'a Holmes Action Card'}"
                           f" face down on {action_tile_name(e.tile)}"),
    "tile_card": lambda e: f"Holmes turned over {automa_name(e.card)} on "
                           f"{action_tile_name(e.tile)}",
    "returned": lambda e: f"{automa_name(e.card)} went back to Holmes' supply ({e.reason})",
}
PROMPTS = {
    pb.FRAME_KIND_PANEL_CUBE: "As Holmes, put the end-of-round cube on a Control Panel "
                              "placeholder; each choice says what it unlocks.",
    pb.FRAME_KIND_ASSIGN_CARDS: "As Holmes, put an unlocked Holmes' Action Card face down "
                                "on an Action Tile; it resolves when that tile is "
                                "selected.",
    pb.FRAME_KIND_HOLMES_WALK: "As Holmes, move one room through a doorway.",
}


def panel_lines(view: pb.View) -> list:
    """The table's Control Panel: the Tracker, the cubes, the cards unlocked and on the tiles,
    and Holmes' Ability Card."""
    lines = [f"Holmes Tracker: {view.holmes_tracker} of {panel().raw['tracker_to_win']}"]
    lines.append("Cubes in " + (", ".join(slot_name(s) for s in sorted(view.panel)) or "no "
                                "placeholder"))
    lines += [f"Unlocked: {automa_name(c)}" for c in view.unlocked]
    for placed in view.tile_cards:
        what = automa_name(placed.card) if placed.card else "a Holmes' Action Card"
        lines.append(f"{what} face down on {action_tile_name(placed.tile)}")
    if view.after_card:
        lines.append(f"{automa_name(view.after_card)} on the Holmes' Movement Cards")
    if view.junction.ability:
        ability = abilities()[view.junction.ability]
        lines.append(item(f"Holmes' Ability Card: {ability.name}"
                          + (" (played)" if view.junction.ability_used else ""), ability.text))
    elif view.junction.ability_used:
        lines.append("Holmes' Ability Card: played")
    return lines


#: Rounds the engine's property tests play Play as Holmes (2 rounds where the cards unlocked
#: from the start can act).
PLAY_AS_HOLMES_ROUNDS = {4: 2, 5: 2, 6: 1, 7: 1}
#: Holmes' end of round: the Control Panel cube, then cards on the tiles.
HOLMES_ROUND_END = (pb.FRAME_KIND_PANEL_CUBE, pb.FRAME_KIND_ASSIGN_CARDS)


#: Refusal reasons of the mode's action kinds (`hooks.Points.reasons`).
REASONS = {"panel": "PLACEHOLDER_NOT_OPEN", "assign": "CARD_NOT_ASSIGNABLE"}


# -- the plugin ---------------------------------------------------------------------------------
def _cube_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return cube_options(state)


def _cube(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    pop(state)
    place_cube(state, action.panel.slot, out)


def _assign_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return assign_options(state)


def _assign(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    if action.WhichOneof("kind") == "pass":
        out.append(public(pb.Event(passed=pb.Passed(seat=seat, frame=frame.kind))))
        pop(state)
    else:
        assign(state, action.assign.card, action.assign.tile, out)


class PlayAsHolmes(Points):
    """Play as Holmes: the Holmes seat, the Control Panel, Holmes' Action Cards on the tiles,
    Holmes winning with the Tracker at 10."""

    name = "play-as-holmes"
    reason_texts = {
        "CARD_NOT_ASSIGNABLE": "That Holmes' Action Card cannot go on that Action Tile now.",
        "PLACEHOLDER_NOT_OPEN": "That Control Panel placeholder cannot take the cube now.",
    }
    decision_texts = {
        "panel_cube": "Play as Holmes: put the end-of-round cube on a Control Panel placeholder.",
        "assign_cards": "Play as Holmes: put unlocked Holmes' Action Cards face down on Action "
                        "Tiles, one at a time, or stop.",
        "holmes_card": "Play as Holmes: a Holmes' Action Card resolves (automatic between Holmes' "
                       "choices).",
        "holmes_walk": "Play as Holmes: move Holmes one room through a doorway, or stop when the "
                       "move is optional.",
    }
    decisions = {
        pb.FRAME_KIND_PANEL_CUBE: (_cube_options, _cube),
        pb.FRAME_KIND_ASSIGN_CARDS: (_assign_options, _assign),
        pb.FRAME_KIND_HOLMES_WALK: (holmes_cards.walk_options, holmes_cards.walk),
    }
    automatic = {pb.FRAME_KIND_HOLMES_CARD: holmes_cards.step}
    public_choices = frozenset(
        {pb.FRAME_KIND_PANEL_CUBE, pb.FRAME_KIND_ASSIGN_CARDS, pb.FRAME_KIND_HOLMES_WALK})
    reasons = REASONS
    prompts = PROMPTS
    pass_labels = {pb.FRAME_KIND_ASSIGN_CARDS: "stop putting cards out",
                   pb.FRAME_KIND_HOLMES_WALK: "stop Holmes here"}
    passed = {pb.FRAME_KIND_HOLMES_WALK: "stopped Holmes",
              pb.FRAME_KIND_ASSIGN_CARDS: "put out no more Holmes' Action Cards"}
    action_words = ACTION_WORDS
    event_words = EVENT_WORDS

    def active(self, options: pb.Options) -> bool:
        return playing(options)

    def seat_range(self, options: pb.Options) -> tuple[int, int]:
        return seat_range()

    def check_options(self, options: pb.Options, seats: int) -> None:
        check_options(options, seats)

    def variants(self) -> list[Variant]:
        return [Variant("play-as-holmes", "Play as Holmes",
                        pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=0)))]

    def test_configurations(self) -> list[tuple[pb.Options, int]]:
        low, high = seat_range()
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
        automa.shuffle_decks(state, rng)
        resample(state, seat, rng)

    def holmes_score(self, state: pb.State) -> int:
        return score(state)

    def holmes_outcome(self, state: pb.State) -> tuple[tuple[int, ...], str] | None:
        if not state.holmes_won:
            return None
        holmes = holmes_seat(state)
        return (holmes,), f"Holmes ({seat_name(holmes)}) won: the Holmes Tracker reached 10."

    def score_note(self) -> str:
        return ("; Holmes scores his Holmes Tracker counted on the same scale (10 on the"
                " Tracker equals a full Evidence Board).")

    def setup(self, state: pb.State) -> None:
        setup(state)
        state.key = first_key(state)

    def end_round(self, state: pb.State, frame: pb.Frame, out: Out) -> bool:
        if frame.count >= len(HOLMES_ROUND_END):
            return False
        # "Once all Holmes' movement is completed": the cube, then the cards on the tiles
        frame.count += 1
        push(state, HOLMES_ROUND_END[frame.count - 1], holmes_seat(state))
        return True

    def game_over(self, state: pb.State) -> tuple[tuple[int, ...], str] | None:
        if holmes_wins(state):
            return (holmes_seat(state),), "Holmes won: the Holmes Tracker reached 10"
        return None

    def view(self, state: pb.State, seat: int | None, view: pb.View) -> None:
        automa.decks_into(state, view)
        view_into(state, seat, view)

    def holmes_lines(self, view: pb.View) -> tuple[list[str], list[str]]:
        return automa.deck_lines(view), []

    def deathtrap_tokens(self) -> int:
        return int(panel().raw["deathtraps"])

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

    def card_waiting(self, state: pb.State) -> bool:
        return bool(state.after_card)

    def after_holmes_card(self, state: pb.State, cancelled: bool, out: Out) -> None:
        move_after(state, cancelled, out)

    def track(self, state: pb.State, seat: int, reason: str, out: Out) -> None:
        track(state, seat, reason, out)

    def tile_selected(self, state: pb.State, tile: int, out: Out) -> None:
        reveal_on(state, tile, out)

    def table(self, view: pb.View, me: int | None) -> list[tuple[str, list]]:
        return [("Holmes' Control Panel", panel_lines(view))]

    def check(self, state: pb.State) -> None:
        check(state)

    def check_off(self, state: pb.State) -> None:
        if not automa.on(state):  # the only other mode with Fake Evidence
            automa.check_unused(state)
