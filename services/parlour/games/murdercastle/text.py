"""The words: action labels from the seat's View, past-tense event text, and the table
(`describe_view`) in the rulebook's names (see names.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from parlour.engine.text import item, owner, seat, section, subject, table
from parlour.engine.v1.table_pb2 import TableText
from parlour.games.murdercastle import components, prompts
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.components import DISCARD, KEEP
from parlour.games.murdercastle.cubes import COLOURS
from parlour.games.murdercastle.hooks import MODES
from parlour.games.murdercastle.names import (
    LEVEL_NAMES,
    POTION_NAMES,
    SIDE_NAMES,
    SPOT_NAMES,
    ability_name,
    action_tile_name,
    automa_name,
    card_name,
    card_text,
    character_ability,
    character_name,
    cubes,
    evidence,
    junction_name,
    movement_name,
    objective_name,
    ordinal,
    room,
    slot_name,
    tile_name,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

#: Actions on one of several identical components (two copies of an Event Card, two Brick
#: Walls): labelled "the first", "the second" in the order offered.
COPIES = ("play", "discard", "give", "pick", "junction")
FLOORS = {-1: "the basement", 0: "the main floor", 1: "the 2nd Story"}
#: What a pass was, by the decision it ended (Passed.frame).
PASSED = {
    pb.FRAME_KIND_ACT: "skipped the action",
    pb.FRAME_KIND_EVENT_WINDOW: "played no Event Card",
    pb.FRAME_KIND_DEFEND: "did not defend",
    pb.FRAME_KIND_BLACK_CLOSET: "drew no extra card in the Black Closet",
    pb.FRAME_KIND_ESCAPE: "stayed put",
    pb.FRAME_KIND_EVENT_MOVE: "stopped moving",
    pb.FRAME_KIND_HOLMES_WALK: "stopped Holmes",
    pb.FRAME_KIND_ASSIGN_CARDS: "put out no more Holmes' Action Cards",
}


def unlocks(slot: int) -> str:
    """The Holmes' Action Card a placeholder belongs to."""
    for card, slots in components.panel().needs.items():
        if slot in slots:
            return automa_name(card)
    return "nothing"


def describe_action(action: pb.Action) -> str:
    """One line for an action, out of context, in the imperative; copies of one card or
    tile are told apart by their copy in the box ("discard Barter (copy 2 of 3)")."""
    return _words(action) + _copy(action)


def _copy(action: pb.Action) -> str:
    """Which copy of a card or tile an action names ("" when the box has one)."""
    kind = action.WhichOneof("kind")
    if kind in ("play", "discard", "give"):
        card = getattr(action, kind).card
        same = sorted(c for c in catalogue().events if card_name(c) == card_name(card))
    elif kind == "pick":
        card = action.pick.tile
        same = sorted(catalogue().brick_walls) if card in catalogue().brick_walls else [card]
    else:
        return ""
    return f" (copy {same.index(card) + 1} of {len(same)})" if len(same) > 1 else ""


def _words(action: pb.Action) -> str:
    kind = action.WhichOneof("kind")
    if kind is None:
        return "do nothing"
    body = getattr(action, kind)
    text = {
        "select": lambda: f"select {action_tile_name(body.tile)}",
        "pass": lambda: "pass",
        "explore": lambda: f"explore through the {SIDE_NAMES[body.side]} doorway",
        "rotate": lambda: f"turn the new room {body.rotation * 90}°"
                          + (f" {LEVEL_NAMES[body.level]}" if body.level else ""),
        "cube": lambda: f"choose {evidence(body.colour)}",
        "collect": lambda: (f"collect {evidence(body.colour)}" if body.colour
                            else "search the Blind Room"),
        "move": lambda: f"move to {room(body.place)}",
        "draw": lambda: "draw an Event Card",
        "reveal": lambda: "reveal a Holmes' Movement Card",
        "place": lambda: f"choose {room(body.place)}",
        "target": lambda: f"choose {seat(body.seat)}",
        "play": lambda: f"play {card_name(body.card)}",
        "discard": lambda: f"discard {card_name(body.card)}",
        "hide": lambda: f"hide {SPOT_NAMES.get(body.spot, 'somewhere')}",
        "ability": lambda: "use the character ability",
        "pick": lambda: f"pick {tile_name(body.tile)}",
        "turn_wheel": lambda: "advance the Ferris Wheel",
        "give": lambda: f"give {card_name(body.card)}",
        "potion": lambda: f"turn over the {ordinal(body.spot + 1)} potion on the shelf",
        "panel": lambda: f"place Holmes' cube in {slot_name(body.slot)} ({unlocks(body.slot)})",
        "assign": lambda: (f"put {automa_name(body.card)} face down on "
                           f"{action_tile_name(body.tile)}"),
        "junction": lambda: f"play the Castle Junction Card {junction_name(body.card)}",
        "propose": lambda: (f"propose discarding the {ordinal(body.slot + 1)} Castle Junction "
                            "objective"),
        "vote": lambda: "vote to discard" if body.discard else "vote to keep",
        "choose_ability": lambda: f"keep {ability_name(body.ability)}",
        "holmes_ability": lambda: "play Holmes' Ability Card",
        "junction_target": lambda: (f"remove Holmes' cube from {slot_name(body.slot)}"
                                    if body.slot else
                                    f"take the Holmes' Action Card off "
                                    f"{action_tile_name(body.tile)}"),
    }[kind]
    return text()


def label_actions(view: pb.View, me: int, actions: Sequence[pb.Action]) -> list[str]:
    """Each legal action's label, from the seat's View alone, no two the same."""
    labels = [_label(view, me, a) for a in actions]
    if any(a.WhichOneof("kind") == "rotate" and a.rotate.level for a in actions):
        labels = [f"{lab} {LEVEL_NAMES[a.rotate.level]}" if a.WhichOneof("kind") == "rotate"
                  and not a.rotate.level else lab for lab, a in zip(labels, actions, strict=True)]
    counts, seen = Counter(labels), Counter()
    out = []
    for label, action in zip(labels, actions, strict=True):
        if counts[label] > 1 and action.WhichOneof("kind") in COPIES:
            seen[label] += 1
            label = f"{label} (the {ordinal(seen[label])})"
        out.append(label)
    return out


def _label(view: pb.View, me: int, action: pb.Action) -> str:
    kind = action.WhichOneof("kind")
    body = getattr(action, kind) if kind else None
    if kind == "propose":
        return (f"propose discarding the {ordinal(body.slot + 1)} objective, "
                f"“{_objective(view, body.slot)}”")
    if kind == "vote":
        top = view.frames[-1] if view.frames else None
        what = _objective(view, top.target) if top is not None else "the objective"
        return f"vote to {'discard' if body.discard else 'keep'} “{what}”"
    if kind == "holmes_ability" and view.junction.ability:
        return f"play {ability_name(view.junction.ability)}"
    if kind == "rotate":
        level = f" {LEVEL_NAMES[body.level]}" if body.level else ""
        return prompts.rotate_label(view, body) + level
    if kind == "cube":
        return prompts.cube_label(view, body.colour)
    if kind == "pass":
        return prompts.pass_label(view)
    if kind == "select":
        return prompts.select_label(view, me, body.tile)
    return _words(action)


def _objective(view: pb.View, slot: int) -> str:
    face_up = view.junction.open
    return objective_name(face_up[slot]) if slot < len(face_up) else "an objective"


# -- events -------------------------------------------------------------------------------
def describe_event(event: pb.Event) -> str:
    """One past-tense line for an event, seats as {seat:N}."""
    kind = event.WhichOneof("kind")
    e = getattr(event, kind) if kind else None
    simple = _SIMPLE.get(kind)
    if simple is not None:
        return simple(e)
    return _describe_junction(kind, e)


def _moved(e) -> str:
    how = {"follow": " following Holmes", "fall": " through a Trapdoor"}.get(e.how, "")
    return f"{seat(e.seat)} moved{how} to {room(e.to_place)}"


def _ended(e) -> str:
    """The end in one line: Holmes' win names its cause; an escape or the round limit names
    the winners (the reason never repeats who won)."""
    names = " and ".join(seat(w) for w in e.winners)
    if e.reason.startswith("Holmes won"):
        return f"the game ended: {e.reason}"
    if e.reason.startswith("round limit"):
        limit = e.reason.split(":", 1)[0]
        return f"the game ended at the {limit}: {names} won with the most evidence"
    return f"the game ended: {names} {e.reason}"


def _cube(e) -> str:
    """Where one cube went, from where (CubePlaced.source)."""
    if e.source == "snake oil":
        return (f"Snake Oil: {owner(e.seat)} {evidence(e.colour)} went back into the "
                "Evidence Bag")
    where = {"bag": "the Evidence Bag", "gondola": "the Ferris Wheel",
             "board": f"{owner(e.seat)} Evidence Board"}.get(e.source, "the Evidence Bag")
    return f"{evidence(e.colour)} went from {where} into the safe of {room(e.place)}"


_SIMPLE = {
    "selected": lambda e: f"{seat(e.seat)} selected {action_tile_name(e.tile)}",
    "passed": lambda e: f"{seat(e.seat)} {PASSED.get(e.frame, 'passed')}",
    "revealed": lambda e: f"{seat(e.seat)} revealed {tile_name(e.tile)}",
    "room": lambda e: f"{seat(e.seat)} placed {tile_name(e.tile.tile)} in the castle",
    "cube": _cube,
    "collected": lambda e: (f"{seat(e.seat)} collected {evidence(e.colour)}" if e.colour
                            else f"{seat(e.seat)} searched {room(e.place)}"),
    "moved": _moved,
    "wheel": lambda e: "the Ferris Wheel turned one gondola",
    "drawn": lambda e: (f"{seat(e.seat)} drew {card_name(e.card)}" if e.card
                        else f"{seat(e.seat)} drew an Event Card"),
    "played": lambda e: f"{seat(e.seat)} {'mimicked' if e.mimic else 'played'} "
                        f"{card_name(e.card)}",
    "discarded": lambda e: f"{seat(e.seat)} discarded {card_name(e.card)}",
    "cancelled": lambda e: f"{seat(e.seat)} cancelled "
                           f"{card_name(e.card) if e.card else 'a Trapdoor'}",
    "holmes_card": lambda e: f"{seat(e.seat)} revealed the Holmes' Movement Card: "
                             f"{movement_name(e.card)}",
    "holmes_moved": lambda e: f"Holmes moved to {room(e.to_place)}",
    "reshuffled": lambda e: f"the Holmes' Movement Cards were reshuffled ({e.size} cards)",
    "struck": lambda e: (f"Holmes Strikes! {seat(e.seat)} (strike {e.strikes}, "
                         f"{e.drop} evidence to drop)"),
    "spared": lambda e: f"{seat(e.seat)} avoided Holmes ({e.reason})",
    "hiding": lambda e: f"Holmes looked {SPOT_NAMES.get(e.holmes, 'somewhere')}",
    "hid": lambda e: f"{seat(e.seat)} hid {SPOT_NAMES.get(e.spot, 'somewhere')}",
    "flipped": lambda e: "Explore the Castle was flipped to Explore the Room",
    "trapdoor": lambda e: (f"a Trapdoor was {'placed in' if e.placed else 'removed from'} "
                           f"{room(e.trapdoor.room)}"),
    "pathway": lambda e: (f"a Hidden Bookcase Pathway joined {room(e.pathway.a)} and "
                          f"{room(e.pathway.b)}"),
    "brick_wall": lambda e: f"{seat(e.seat)} {'built' if e.built else 'destroyed'} a Brick Wall",
    "ability": lambda e: f"{owner(e.seat)} character ability was used",
    "traded": lambda e: (f"{seat(e.from_seat)} gave {e.count} Event "
                         f"{'Card' if e.count == 1 else 'Cards'} to {seat(e.to_seat)}"),
    "top_hats": lambda e: (f"{seat(e.seat)} placed the Top Hats "
                           f"({subject(e.target, 'drops', 'drop')} 1 more)"),
    "peeked": lambda e: f"{seat(e.seat)} peeked at the room tiles",
    "round_ended": lambda e: f"round {e.round} ended; {seat(e.key)} took the Skeleton Key",
    "potion": lambda e: f"{seat(e.seat)} drew {POTION_NAMES.get(e.potion, 'a potion')} "
                        "from the Laboratory Shelf",
    "shelf": lambda e: "the potions went back face down on the Laboratory Shelf",
    "gondola": lambda e: "an empty gondola of the Ferris Wheel was refilled",
    "automa": lambda e: f"Holmes revealed the Holmes' Action Card {automa_name(e.card)}",
    "destruction": lambda e: "Holmes revealed an Evidence Destruction Card: " + ", ".join(
        evidence(c) for c in components.data().destruction[e.card]),
    "destroyed": lambda e: f"Holmes destroyed {evidence(e.colour)} in {room(e.place)}",
    "planted": lambda e: f"Holmes planted {e.count} Fake Evidence in the Evidence Bag",
    "sealed": lambda e: "Holmes sealed every Hidden Bookcase Pathway",
    "locked": lambda e: f"Holmes padlocked the {SIDE_NAMES[e.side]} doorway of {room(e.place)}",
    "tracker": lambda e: f"the Holmes Tracker moved to {e.tracker} ({e.reason}, {seat(e.seat)})",
    "panel": lambda e: f"Holmes placed a cube in {slot_name(e.slot)}" + (
        f", unlocking {automa_name(e.unlocked)}" if e.unlocked else ""),
    "assigned": lambda e: (f"Holmes put {automa_name(e.card) if e.card else 'a Holmes Action Card'}"
                           f" face down on {action_tile_name(e.tile)}"),
    "tile_card": lambda e: f"Holmes turned over {automa_name(e.card)} on "
                           f"{action_tile_name(e.tile)}",
    "returned": lambda e: f"{automa_name(e.card)} went back to Holmes' supply ({e.reason})",
    "ended": _ended,
}


def _describe_junction(kind: str | None, e) -> str:
    """One line for a Castle Junction or Holmes' Ability Card event."""
    if kind == "junction_completed":
        return (f"{seat(e.seat)} kept the Castle Junction Card {junction_name(e.card)} "
                "(objective completed)")
    if kind == "junction_dealt":
        return f"a Castle Junction objective was turned face up: {objective_name(e.objective)}"
    if kind == "junction_played":
        return f"{seat(e.seat)} played the Castle Junction Card {junction_name(e.card)}"
    if kind == "proposed":
        return (f"{seat(e.seat)} proposed discarding the {ordinal(e.slot + 1)} Castle Junction "
                "objective")
    if kind == "voted":
        verdict = {DISCARD: " to discard", KEEP: " to keep"}.get(e.vote, "")
        return f"{seat(e.seat)} voted{verdict}"
    if kind == "counted":
        verdict = "discarded" if e.discarded else "kept"
        return f"{len(e.yes)} to {len(e.no)}: the Castle Junction objective was {verdict}"
    if kind == "ability_chosen":
        return ("Holmes kept " + ability_name(e.ability)) if e.ability else \
            "Holmes chose his Ability Card"
    if kind == "holmes_ability":
        return f"Holmes played {ability_name(e.ability)}"
    if kind == "junction_removed":
        return f"a Castle Junction Card removed {'a cube' if e.slot else 'a card'} from Holmes"
    return "nothing happened"


# -- the table ----------------------------------------------------------------------------
def describe_view(view: pb.View, me: int | None) -> TableText:
    """The View as the table: the round, your hand, the players' Evidence Boards, the castle
    floor by floor, the Ferris Wheel, Holmes and his decks, the Control Panel and the Castle
    Junction Cards."""
    return table(
        section("The game", _game_lines(view)),
        section("Your hand", [item(card_name(c), card_text(c)) for c in view.hand]),
        section("Players", _players(view)),
        *(section(f"The castle: {FLOORS[level]}", _rooms(view, level)) for level in (-1, 0, 1)),
        section("The Ferris Wheel", _wheel(view)),
        section("Holmes", _holmes(view)),
        section("Holmes' Control Panel", _panel(view, me)),
        section("Castle Junction Cards", _junction(view)),
    )


def _game_lines(view: pb.View) -> list:
    options = view.options
    mode = MODES.rules(options).play_title(options)
    extras = MODES.titles(options)
    lines = [f"Playing {mode}" + "".join(f", {x}" for x in extras),
             f"Round {view.round + 1}; {subject(view.key, 'holds', 'hold')} the Skeleton Key",
             f"Evidence needed: {view.needed} of each type"]
    if view.current:
        lines.append(f"{seat(view.selector)} selected {action_tile_name(view.current)}")
    if view.tiles_open:
        lines.append("Action Tiles still open: " + ", ".join(
            action_tile_name(t) for t in view.tiles_open))
    lines.append(f"Room tiles left: {view.room_pile_size}; Event Cards in the deck: "
                 f"{view.event_deck_size}")
    if view.event_discard:
        lines.append(f"Last Event Card discarded: {card_name(view.event_discard[-1])}")
    if view.finished:
        lines.append("The game is over" + (": Holmes won" if view.holmes_won else ""))
    return lines


def _players(view: pb.View) -> list:
    holmes = MODES.rules(view.options).holmes_seat_of(view.options)
    found = []
    for n, p in enumerate(view.players):
        if n == holmes:
            found.append(f"{subject(n, 'plays', 'play')} Holmes")
            continue
        parts = [f"{seat(n)}: {character_name(p.character)} in {room(p.place)}",
                 "Evidence Board " + ", ".join(
                     f"{evidence(c)} {n}/{view.needed}"
                     for c, n in zip(COLOURS, p.board.counts, strict=False)),
                 f"Holmes Strikes! {p.strikes}", f"Event Cards kept: {p.keep_count}"]
        if p.ability_used:
            parts.append("ability used")
        if p.partnered:
            parts.append("partnered with Holmes")
        if p.holds_brick_wall:
            parts.append("holds a Brick Wall")
        if p.tonic or p.poison:
            parts.append("drank " + " and ".join(
                x for x, on in (("a Tonic", p.tonic), ("Poison", p.poison)) if on))
        found.append(item("; ".join(parts), character_ability(p.character)))
    return found


def _rooms(view: pb.View, level: int) -> list:
    here: dict[int, list[str]] = {}
    for n, p in enumerate(view.players):
        if p.place and n != MODES.rules(view.options).holmes_seat_of(view.options):
            here.setdefault(p.place, []).append(seat(n))
    here.setdefault(view.holmes, []).insert(0, "Holmes")
    found = []
    for placed in view.tiles:
        if placed.level != level or placed.tile not in catalogue().rooms:
            continue
        for half, safe in enumerate(placed.safes):
            place = placed.tile * 2 + half
            parts = [room(place), f"safe: {cubes(safe, 'empty')}"]
            if here.get(place):
                parts.append("here: " + ", ".join(here[place]))
            if placed.padlocked:
                parts.append("padlocked " + ", ".join(SIDE_NAMES[s] for s in placed.padlocked))
            parts += [f"{'Deathtrap' if t.deathtrap else 'Trapdoor'} to {room(t.landing)}"
                      for t in view.trapdoors if t.room == place]
            parts += [f"Hidden Bookcase Pathway to {room(w.b if w.a == place else w.a)}"
                      for w in view.pathways if place in (w.a, w.b)]
            effect = prompts.room_effect(place)
            if effect:
                parts.append(f"special: {effect}")
            found.append(item("; ".join(parts), effect))
    return found


def _wheel(view: pb.View) -> list:
    return [f"Gondola {i + 1}{' (at the unloading zone)' if i == view.unloading else ''}: "
            f"{cubes(g, 'empty')}" for i, g in enumerate(view.gondolas)]


def _holmes(view: pb.View) -> list:
    lines = [f"Holmes is in {room(view.holmes)}",
             f"Holmes' Movement Cards: {view.holmes_deck_size} in the deck"]
    if view.holmes_discard:
        lines.append(f"Last Holmes' Movement Card: {movement_name(view.holmes_discard[-1])}")
    if view.automa_deck_size or view.automa_discard:
        lines.append(f"Holmes' Action Cards: {view.automa_deck_size} in the deck")
        if view.automa_discard:
            lines.append(f"Last Holmes' Action Card: {automa_name(view.automa_discard[-1])}")
    if view.destruction_deck_size or view.destruction_discard:
        lines.append(f"Evidence Destruction Cards: {view.destruction_deck_size} in the deck")
    if view.fake_supply:
        lines.append(f"Fake Evidence Bag: {view.fake_supply} cubes")
    lines.append(f"Evidence Bag: {cubes(view.bag, 'empty')}")
    if view.shelf_face_down:
        lines.append(f"Laboratory Shelf: {sum(view.shelf_face_down)} potions face down")
    return lines


def _panel(view: pb.View, me: int | None) -> list:
    if MODES.rules(view.options).holmes_seat_of(view.options) is None:
        return []  # no Holmes seat: no Control Panel
    lines = [f"Holmes Tracker: {view.holmes_tracker} of "
             f"{components.panel().raw['tracker_to_win']}"]
    lines.append("Cubes in " + (", ".join(slot_name(s) for s in sorted(view.panel)) or "no "
                                "placeholder"))
    lines += [f"Unlocked: {automa_name(c)}" for c in view.unlocked]
    for placed in view.tile_cards:
        what = automa_name(placed.card) if placed.card else "a Holmes' Action Card"
        lines.append(f"{what} face down on {action_tile_name(placed.tile)}")
    if view.after_card:
        lines.append(f"{automa_name(view.after_card)} on the Holmes' Movement Cards")
    if view.junction.ability:
        ability = components.abilities()[view.junction.ability]
        lines.append(item(f"Holmes' Ability Card: {ability.name}"
                          + (" (played)" if view.junction.ability_used else ""), ability.text))
    elif view.junction.ability_used:
        lines.append("Holmes' Ability Card: played")
    return lines


def _junction(view: pb.View) -> list:
    junction = view.junction
    if MODES.rules(view.options).holmes_seat_of(view.options) is None:
        return []  # the Castle Junction Cards come with a Holmes seat
    lines = [f"Objective {i + 1}: {objective_name(o)}" for i, o in enumerate(junction.open)]
    if junction.next:
        lines.append(f"Coming up: {objective_name(junction.next)}")
    lines += [f"{subject(k.seat, 'keeps', 'keep')} {junction_name(k.card)}"
              for k in junction.kept]
    if junction.voted:
        lines.append("Voted so far: " + ", ".join(seat(s) for s in junction.voted))
    if junction.my_vote:
        lines.append(f"Your vote: {'discard' if junction.my_vote == DISCARD else 'keep'}")
    if junction.last_yes or junction.last_no:
        lines.append("Last vote: discard " + (", ".join(seat(s) for s in junction.last_yes)
                                              or "nobody") + "; keep "
                     + (", ".join(seat(s) for s in junction.last_no) or "nobody"))
    if junction.proposed:
        lines.append("Refused proposers this round: "
                     + ", ".join(seat(s) for s in junction.proposed))
    return lines
