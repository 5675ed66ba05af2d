"""The words: labels, event text, the table (Rulebook's names for rooms, cards, cubes)."""

from __future__ import annotations

from parlour.games.murdercastle import automa, castle_junction, holmes_abilities, play_as_holmes
from parlour.games.murdercastle.board import place_name
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import colour_name
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb


def tile_name(tile: int) -> str:
    """A room tile's (or Brick Wall's) name."""
    room = catalogue().rooms.get(tile)
    return room.name if room else "a Brick Wall"


def card_name(card: int) -> str:
    """An Event Card's name."""
    return catalogue().event(card).name if card else "a card"


def movement_name(card: int) -> str:
    """A Holmes' Movement card as text."""
    move = catalogue().movement[card]
    if move.special:
        return "Lights Out!" if move.special == "lights_out" else "Holmes Goes on a Rampage"
    return " / ".join(tile_name(r) for r in move.rooms)


def objective_name(objective: int) -> str:
    """A Castle Junction objective's text."""
    return castle_junction.TEXTS.get(objective, "none")


def automa_name(card: int) -> str:
    """An Automa card's name."""
    return automa.data().cards[card].name


def slot_name(slot: int) -> str:
    """A Control Panel placeholder's printed name ("1a" …)."""
    return play_as_holmes.panel().names[slot - 1]


def action_tile_name(tile: int) -> str:
    """An Action Tile's name."""
    for raw in catalogue().rules["action_tiles"]:
        if raw["tile"] == tile:
            return raw["name"]
    return "no tile"


SIDE_NAMES = ("north", "east", "south", "west")
POTION_NAMES = {pb.POTION_TONIC: "a Tonic", pb.POTION_H2O: "H2O",
                pb.POTION_SNAKE_OIL: "Snake Oil", pb.POTION_POISON: "Poison"}
SPOT_NAMES = {pb.HIDING_SPOT_BED: "under the bed", pb.HIDING_SPOT_BATHROOM: "in the bathroom"}


def describe_action(action: pb.Action) -> str:
    """One line for an action."""
    kind = action.WhichOneof("kind")
    if kind is None:
        return "does nothing"
    body = getattr(action, kind)
    text = {
        "select": lambda: f"selects {action_tile_name(body.tile)}",
        "pass": lambda: "passes",
        "explore": lambda: f"explores through the {SIDE_NAMES[body.side]} doorway",
        "rotate": lambda: f"turns the new room {body.rotation * 90}°",
        "cube": lambda: f"chooses a {colour_name(body.colour)} cube",
        "collect": lambda: (f"collects a {colour_name(body.colour)} cube" if body.colour
                            else "searches the Blind Room"),
        "move": lambda: f"moves to {place_name(body.place)}",
        "draw": lambda: "draws an Event Card",
        "reveal": lambda: "reveals a Holmes' Movement card",
        "place": lambda: f"chooses {place_name(body.place)}",
        "target": lambda: f"chooses seat {body.seat}",
        "play": lambda: f"plays {card_name(body.card)}",
        "discard": lambda: f"discards {card_name(body.card)}",
        "hide": lambda: "hides",
        "ability": lambda: "uses their character ability",
        "pick": lambda: f"picks {tile_name(body.tile)}",
        "turn_wheel": lambda: "advances the Ferris Wheel",
        "give": lambda: f"gives {card_name(body.card)}",
        "potion": lambda: f"turns over the potion in spot {body.spot + 1}",
        "panel": lambda: f"puts a cube on placeholder {slot_name(body.slot)}",
        "assign": lambda: (f"puts {automa_name(body.card)} face down on "
                           f"{action_tile_name(body.tile)}"),
        "junction": lambda: f"plays Castle Junction Card {body.card}",
        "propose": lambda: f"proposes discarding Castle Junction objective {body.slot + 1}",
        "vote": lambda: "votes",
        "choose_ability": lambda: "chooses a Holmes' Ability Card",
        "holmes_ability": lambda: "plays Holmes' Ability Card",
        "junction_target": lambda: (f"removes the cube on placeholder {body.slot}" if body.slot
                                    else f"clears {action_tile_name(body.tile)}"),
    }[kind]
    return text()


def describe_event(event: pb.Event) -> str:
    """One line for an event."""
    kind = event.WhichOneof("kind")
    e = getattr(event, kind) if kind else None
    if kind == "selected":
        return f"seat {e.seat} selected {action_tile_name(e.tile)}"
    if kind == "passed":
        return f"seat {e.seat} passed"
    if kind == "revealed":
        return f"seat {e.seat} revealed {tile_name(e.tile)}"
    if kind == "room":
        return f"seat {e.seat} placed {tile_name(e.tile.tile)} at ({e.tile.x}, {e.tile.y})"
    if kind == "cube":
        return f"a {colour_name(e.colour)} cube went from the {e.source} into {place_name(e.place)}"
    if kind == "collected":
        if not e.colour:
            return f"seat {e.seat} searched {place_name(e.place)}"
        return f"seat {e.seat} collected a {colour_name(e.colour)} cube"
    if kind == "moved":
        return f"seat {e.seat} moved ({e.how}) to {place_name(e.to_place)}"
    if kind == "wheel":
        return f"the Ferris Wheel turned to gondola {e.unloading}"
    if kind == "drawn":
        return f"seat {e.seat} drew {card_name(e.card)}"
    if kind == "played":
        how = "mimicked" if e.mimic else "played"
        return f"seat {e.seat} {how} {card_name(e.card)}"
    if kind == "discarded":
        return f"seat {e.seat} discarded {card_name(e.card)}"
    if kind == "cancelled":
        return f"seat {e.seat} cancelled {card_name(e.card) if e.card else 'a Trapdoor'}"
    if kind == "holmes_card":
        return f"seat {e.seat} revealed Holmes' card: {movement_name(e.card)}"
    if kind == "holmes_moved":
        return f"Holmes moved to {place_name(e.to_place)}"
    if kind == "reshuffled":
        return f"the Holmes' Movement deck was reshuffled ({e.size} cards)"
    if kind == "struck":
        return f"Holmes Strikes! seat {e.seat} (strike {e.strikes}, drops {e.drop})"
    if kind == "spared":
        return f"seat {e.seat} avoided Holmes ({e.reason})"
    if kind == "hiding":
        return f"Holmes looked {SPOT_NAMES.get(e.holmes, '?')}"
    if kind == "hid":
        return f"seat {e.seat} hid {SPOT_NAMES.get(e.spot, 'somewhere')}"
    if kind == "flipped":
        return "Explore the Castle flipped to Explore the Room"
    if kind == "trapdoor":
        verb = "placed" if e.placed else "removed"
        return f"a Trapdoor in {place_name(e.trapdoor.room)} was {verb}"
    if kind == "pathway":
        return (f"a Hidden Bookcase Pathway joins {place_name(e.pathway.a)} and "
                f"{place_name(e.pathway.b)}")
    if kind == "brick_wall":
        return f"seat {e.seat} {'built' if e.built else 'destroyed'} a Brick Wall"
    if kind == "ability":
        return f"seat {e.seat} used their character ability"
    if kind == "traded":
        return f"seat {e.from_seat} gave {e.count} Event Card(s) to seat {e.to_seat}"
    if kind == "top_hats":
        return f"seat {e.seat} placed the Top Hats (seat {e.target} gets -1)"
    if kind == "peeked":
        return f"seat {e.seat} peeked at the room tiles"
    if kind == "round_ended":
        return f"round {e.round} ended; seat {e.key} takes the Skeleton Key"
    if kind == "potion":
        return f"seat {e.seat} drew {POTION_NAMES.get(e.potion, 'a potion')} from the shelf"
    if kind == "shelf":
        return "the potions went back face down on the Laboratory Shelf"
    if kind == "gondola":
        return f"gondola {e.gondola} was refilled"
    if kind == "automa":
        return f"Holmes revealed {automa_name(e.card)}"
    if kind == "destruction":
        colours = ", ".join(colour_name(c) for c in automa.data().destruction[e.card])
        return f"Holmes revealed an Evidence Destruction card: {colours}"
    if kind == "destroyed":
        return f"Holmes destroyed a {colour_name(e.colour)} cube in {place_name(e.place)}"
    if kind == "planted":
        return f"Holmes planted {e.count} Fake Evidence cubes in the Evidence Bag"
    if kind == "sealed":
        return "Holmes sealed every Hidden Bookcase Pathway"
    if kind == "locked":
        return f"Holmes padlocked the {SIDE_NAMES[e.side]} doorway of {place_name(e.place)}"
    if kind == "tracker":
        return f"the Holmes Tracker moved to {e.tracker} ({e.reason}, seat {e.seat})"
    if kind == "panel":
        unlocked = f", unlocking {automa_name(e.unlocked)}" if e.unlocked else ""
        return f"Holmes put a cube on placeholder {slot_name(e.slot)}{unlocked}"
    if kind == "assigned":
        what = automa_name(e.card) if e.card else "a Holmes' Action Card"
        return f"Holmes put {what} face down on {action_tile_name(e.tile)}"
    if kind == "tile_card":
        return f"Holmes turned over {automa_name(e.card)} on {action_tile_name(e.tile)}"
    if kind == "returned":
        return f"{automa_name(e.card)} went back to Holmes' supply ({e.reason})"
    if kind == "ended":
        return f"game over: winners {list(e.winners)} ({e.reason})"
    return _describe_junction(kind, e)


def _describe_junction(kind: str | None, e) -> str:
    """One line for a Castle Junction or Holmes' Ability Card event."""
    if kind == "junction_completed":
        return f"seat {e.seat} keeps Castle Junction Card {e.card} (objective completed)"
    if kind == "junction_dealt":
        return f"a Castle Junction objective was turned face up: {objective_name(e.objective)}"
    if kind == "junction_played":
        return f"seat {e.seat} played Castle Junction Card {e.card}"
    if kind == "proposed":
        return f"seat {e.seat} proposed discarding Castle Junction objective {e.slot + 1}"
    if kind == "voted":
        return f"seat {e.seat} voted"
    if kind == "counted":
        verdict = "discarded" if e.discarded else "kept"
        return f"{len(e.yes)} to {len(e.no)}: the Castle Junction objective is {verdict}"
    if kind == "ability_chosen":
        return "Holmes chose his Ability Card"
    if kind == "holmes_ability":
        return f"Holmes played {holmes_abilities.abilities()[e.ability].name}"
    if kind == "junction_removed":
        return f"a Castle Junction Card removed {'a cube' if e.slot else 'a card'} from Holmes"
    return "nothing happened"
