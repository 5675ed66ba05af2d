"""What each decision is for, in words (issue 43): the prompt above a seat's choices, the
doorways a room's rotation gives, what "pass" means where it is offered, and the effects
of the special rooms, all from the seat's View alone."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.murdercastle.board import Castle
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.hooks import declared
from parlour.games.murdercastle.names import (
    SIDE_NAMES,
    action_tile_name,
    card_name,
    evidence,
    room,
    tile_name,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

#: A special room's effect, shortened from the rulebooks (RULES.md, "Rooms"; with the modes'
#: `room_effects`).
ROOM_EFFECTS = {
    "maze": "two rooms, each with its own safe of 2; explore only from your side",
    "black_closet": "end the round here to draw an extra Event Card",
    "blind_room": "two Collect Evidence actions for one cube",
    "asphyxiation": "no Keep cards may be played here, not even to defend",
    "whitechapel": "when Holmes comes, everyone here hides secretly under the bed or in the "
                   "bathroom; he strikes those he finds",
}

#: What the Action Tiles do, for the prompt of the seat performing one.
TILE_PROMPTS = {
    pb.ACTION_TILE_EXPLORE: "Explore the Castle: choose a doorway of your room to reveal the "
                            "room beyond it",
    pb.ACTION_TILE_MOVE_ONE: "Move: choose a room next to yours to move into",
    pb.ACTION_TILE_MOVE_TWO: "Move: choose a room next to yours to move into",
    pb.ACTION_TILE_MOVE_ONE_CROWD: "Move: choose a room next to yours to move into",
    pb.ACTION_TILE_COLLECT: "Collect Evidence: choose a cube from your room's safe for your "
                            "Evidence Board",
    pb.ACTION_TILE_DRAW: "Draw an Event Card",
    pb.ACTION_TILE_MOVE_HOLMES: "Move Holmes: reveal a Holmes' Movement Card",
}


def room_effect(place: int) -> str:
    """A room's special effect ("" for an ordinary room)."""
    found = catalogue().rooms.get(place // 2)
    return _effect(found.special) if found else ""


def _effect(special: str) -> str:
    return ROOM_EFFECTS.get(special) or declared("room_effects").get(special, "")


def doorways(tile: int, rotation: int) -> str:
    """The doorways a room tile has on the board when turned by `rotation` quarter turns:
    "north, east and west" (and its stairs, if any)."""
    printed = catalogue().rooms[tile]
    sides = sorted((d + rotation) % 4 for d in printed.doors)
    words = [SIDE_NAMES[s] for s in sides]
    listed = ", ".join(words[:-1]) + f" and {words[-1]}" if len(words) > 1 else words[0]
    if printed.stairs >= 0:
        listed += f" (stairs {SIDE_NAMES[(printed.stairs + rotation) % 4]})"
    return listed


def _top(view: pb.View) -> pb.FrameView | None:
    return view.frames[-1] if view.frames else None


def rotate_label(view: pb.View, rotate: pb.Rotate) -> str:
    """A rotation choice naming the doorways it gives the revealed room."""
    top = _top(view)
    tile = top.tile if top is not None and top.kind == pb.FRAME_KIND_PLACE_ROOM else 0
    turned = f"{rotate.rotation * 90}°"
    if not tile or tile not in catalogue().rooms:
        return f"turn the new room {turned}"
    return f"place {tile_name(tile)} with doorways {doorways(tile, rotate.rotation)} ({turned})"


def cube_label(view: pb.View, colour: int) -> str:
    """A cube choice saying where the cube goes."""
    top = _top(view)
    kind = top.kind if top is not None else 0
    if kind == pb.FRAME_KIND_FILL_SAFE:
        return f"put {evidence(colour)} in the safe of {room(top.place)}"
    if kind == pb.FRAME_KIND_DROP_EVIDENCE:
        return f"drop {evidence(colour)} into the safe of {room(top.place)}"
    if kind == pb.FRAME_KIND_ACT:
        return f"put {evidence(colour)} in your room's safe"
    return f"choose {evidence(colour)}"


def select_label(view: pb.View, me: int, tile: int) -> str:
    """An Action Tile choice; Explore the Castle, offered only as the last tile left when
    the seat's room has no doorway to explore, says so."""
    label = f"select {action_tile_name(tile)}"
    if tile != pb.ACTION_TILE_EXPLORE or view.explore_flipped or me >= len(view.players):
        return label
    if view.room_pile_size and Castle(view).explorable(view.players[me].place):
        return label
    return f"{label} (your room has no doorway to explore)"


#: What passing means, by the decision it ends (with the modes' `pass_labels`).
PASS_LABELS = {
    pb.FRAME_KIND_EVENT_WINDOW: "play nothing now",
    pb.FRAME_KIND_DEFEND: "do not defend",
    pb.FRAME_KIND_BLACK_CLOSET: "draw no extra card",
    pb.FRAME_KIND_ESCAPE: "stay where you are",
    pb.FRAME_KIND_EVENT_MOVE: "stop moving here",
}


def pass_label(view: pb.View) -> str:
    """"pass", said as what it does here."""
    top = _top(view)
    if top is None:
        return "pass"
    if top.kind == pb.FRAME_KIND_ACT:
        return f"pass: skip {action_tile_name(top.action)}" if top.action else "pass"
    return PASS_LABELS.get(top.kind) or declared("pass_labels").get(top.kind, "pass")


def _card(top: pb.FrameView) -> str:
    return card_name(top.card) if top.card else "the effect"


def prompt(view: pb.View, me: int, actions: Sequence[pb.Action]) -> str:
    """What the seat's decision is for, one sentence."""
    top = _top(view)
    if top is None:
        return ""
    kinds = {a.WhichOneof("kind") for a in actions}
    passing = " Pass: " + pass_label(view).removeprefix("pass: ") + "." if "pass" in kinds else ""
    kind = top.kind
    if kind == pb.FRAME_KIND_SELECT_TILE:
        return "Select the Action Tile you will perform this round."
    if kind == pb.FRAME_KIND_ACT:
        doing = TILE_PROMPTS.get(top.action, f"Perform {action_tile_name(top.action)}")
        if "cube" in kinds:
            doing = "Explore the Room: choose a cube from the Ferris Wheel for your room's safe"
        extra = " You may play an Event Card first." if "play" in kinds else ""
        wheel = " Or advance the Ferris Wheel (the selector's bonus)." if (
            "turn_wheel" in kinds) else ""
        return f"{doing}.{extra}{wheel}{passing}"
    if kind == pb.FRAME_KIND_PLACE_ROOM:
        name = tile_name(top.tile) if top.tile in catalogue().rooms else "the new room"
        effect = _effect(catalogue().rooms[top.tile].special) if (
            top.tile in catalogue().rooms) else ""
        return (f"You revealed {name}: choose how to turn it; each choice names the doorways "
                "it will have." + (f" ({name}: {effect}.)" if effect else ""))
    if kind == pb.FRAME_KIND_FILL_SAFE:
        return (f"Fill the safe of the new room, {room(top.place)}: choose a cube from the "
                f"Ferris Wheel ({top.count} to place).")
    if kind == pb.FRAME_KIND_DROP_EVIDENCE:
        return (f"Holmes struck you: choose a cube from your Evidence Board to drop into the "
                f"safe of {room(top.place)} ({top.count} to drop).")
    if kind == pb.FRAME_KIND_EVENT_WINDOW:
        return f"Play an Event Card now?{passing}"
    if kind == pb.FRAME_KIND_DEFEND:
        return f"{_card(top)} is aimed at you: defend with a card?{passing}"
    if kind == pb.FRAME_KIND_ESCAPE:
        return f"Holmes is coming: move out of his way?{passing}"
    if kind == pb.FRAME_KIND_BLACK_CLOSET:
        return f"You end the round in the Black Closet: draw an extra Event Card?{passing}"
    simple = {
        pb.FRAME_KIND_HOLMES_ROOM: "Choose which of these rooms Holmes moves to.",
        pb.FRAME_KIND_HAND_LIMIT: "You hold more Keep cards than you may: play or discard one.",
        pb.FRAME_KIND_CHOOSE_PLACE: f"Choose a room for {_card(top)}.",
        pb.FRAME_KIND_CHOOSE_SEAT: f"Choose a player for {_card(top)}.",
        pb.FRAME_KIND_HIDE: "The Whitechapel Suite: choose secretly where to hide; Holmes "
                            "strikes whoever hides where he looks.",
        pb.FRAME_KIND_CHOOSE_COLOUR: f"Choose a cube colour for {_card(top)}.",
        pb.FRAME_KIND_EVENT_MOVE: f"Move for {_card(top)}: choose a room.",
        pb.FRAME_KIND_PICK_ROOM_TILE: "Choose which of the room tiles you peeked at comes next.",
        pb.FRAME_KIND_CHOOSE_DOOR: f"Choose a doorway of {room(top.place)}.",
        pb.FRAME_KIND_GIVE_CARD: "Choose which of your Event Cards to give away.",
    }
    found = simple.get(kind) or declared("prompts").get(kind, "")
    return found + passing if found else ""
