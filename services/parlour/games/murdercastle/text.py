"""The words: action labels from the seat's View, past-tense event text, and the table
(`describe_view`) in the rulebook's names (see names.py); each mode's own words are its
declared tables (`hooks.Points`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from parlour.engine.text import item, owner, seat, section, subject, table
from parlour.engine.v1.table_pb2 import TableText
from parlour.games.murdercastle import prompts
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import COLOURS
from parlour.games.murdercastle.hooks import MODES, declared
from parlour.games.murdercastle.names import (
    SIDE_NAMES,
    SPOT_NAMES,
    action_tile_name,
    card_name,
    card_text,
    character_ability,
    character_name,
    cubes,
    evidence,
    floors,
    level_name,
    movement_name,
    ordinal,
    room,
    tile_name,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

#: Actions on one of several identical components (two copies of an Event Card, two Brick
#: Walls): labelled "the first", "the second" in the order offered (and the modes' `copies`).
COPIES = ("play", "discard", "give", "pick")
#: What a pass was, by the decision it ended (Passed.frame).
PASSED = {
    pb.FRAME_KIND_ACT: "skipped the action",
    pb.FRAME_KIND_EVENT_WINDOW: "played no Event Card",
    pb.FRAME_KIND_DEFEND: "did not defend",
    pb.FRAME_KIND_BLACK_CLOSET: "drew no extra card in the Black Closet",
    pb.FRAME_KIND_ESCAPE: "stayed put",
    pb.FRAME_KIND_EVENT_MOVE: "stopped moving",
}


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
                          + (f" {level_name(body.level)}" if body.level else ""),
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
    }.get(kind)
    return text() if text is not None else declared("action_words")[kind](body)


def label_actions(view: pb.View, me: int, actions: Sequence[pb.Action]) -> list[str]:
    """Each legal action's label, from the seat's View alone, no two the same."""
    labels = [_label(view, me, a) for a in actions]
    if any(a.WhichOneof("kind") == "rotate" and a.rotate.level for a in actions):
        labels = [f"{lab} {level_name(a.rotate.level)}" if a.WhichOneof("kind") == "rotate"
                  and not a.rotate.level else lab for lab, a in zip(labels, actions, strict=True)]
    counts, seen = Counter(labels), Counter()
    out = []
    for label, action in zip(labels, actions, strict=True):
        if counts[label] > 1 and (action.WhichOneof("kind") in COPIES
                                  or action.WhichOneof("kind") in declared("copies")):
            seen[label] += 1
            label = f"{label} (the {ordinal(seen[label])})"
        out.append(label)
    return out


def _label(view: pb.View, me: int, action: pb.Action) -> str:
    kind = action.WhichOneof("kind")
    body = getattr(action, kind) if kind else None
    mode_label = declared("action_labels").get(kind)
    if mode_label is not None:
        return mode_label(view, body)
    if kind == "rotate":
        level = f" {level_name(body.level)}" if body.level else ""
        return prompts.rotate_label(view, body) + level
    if kind == "cube":
        return prompts.cube_label(view, body.colour)
    if kind == "pass":
        return prompts.pass_label(view)
    if kind == "select":
        return prompts.select_label(view, me, body.tile)
    return _words(action)


# -- events -------------------------------------------------------------------------------
def describe_event(event: pb.Event) -> str:
    """One past-tense line for an event, seats as {seat:N}."""
    kind = event.WhichOneof("kind")
    e = getattr(event, kind) if kind else None
    words = _SIMPLE.get(kind) or declared("event_words").get(kind)
    return words(e) if words is not None else "nothing happened"


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
    "passed": lambda e: f"{seat(e.seat)} {_passed(e.frame)}",
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
    "gondola": lambda e: "an empty gondola of the Ferris Wheel was refilled",
    "ended": _ended,
}


def _passed(frame: int) -> str:
    """What a pass was, by the decision it ended."""
    return PASSED.get(frame) or declared("passed").get(frame, "passed")


# -- the table ----------------------------------------------------------------------------
def describe_view(view: pb.View, me: int | None) -> TableText:
    """The View as the table: the round, your hand, the players' Evidence Boards, the castle
    floor by floor, the Ferris Wheel, Holmes and his decks, then the active modes' sections."""
    return table(
        section("The game", _game_lines(view)),
        section("Your hand", [item(card_name(c), card_text(c)) for c in view.hand]),
        section("Players", _players(view)),
        *(section(f"The castle: {floor}", _rooms(view, level))
          for level, (floor, _) in floors().items()),
        section("The Ferris Wheel", _wheel(view)),
        section("Holmes", _holmes(view)),
        *(section(title, items) for mode in MODES.on(view.options)
          for title, items in mode.table(view, me)),
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
        parts += [w for mode in MODES.on(view.options) for w in mode.player_words(p)]
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
    modes = [mode.holmes_lines(view) for mode in MODES.on(view.options)]
    lines += [line for before, _ in modes for line in before]
    lines.append(f"Evidence Bag: {cubes(view.bag, 'empty')}")
    return lines + [line for _, after in modes for line in after]
