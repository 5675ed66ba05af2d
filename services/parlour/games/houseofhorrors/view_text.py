"""A View as the table reads: the House's Room and spoils, the clock, the encounter, your hand
and spoils, the players and the decks, each card's printed face as its detail."""

from __future__ import annotations

from collections.abc import Iterable

from parlour.engine.text import item, seat, section, table
from parlour.engine.v1.table_pb2 import TableItem, TableText
from parlour.games.houseofhorrors.card_text import (
    BATTLE_NAMES,
    SIDE_NAMES,
    detail,
    plural,
    room,
    short,
    with_hourglasses,
)
from parlour.games.houseofhorrors.catalogue import (
    DAWN,
    HAND_SIZE,
    LANTERNS_PER_CARD,
    MAX_HAND_SIZE,
    MIDNIGHT,
    card,
    card_name,
)
from parlour.games.houseofhorrors.effects import COUNTED, item_bonus
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

BATTLE_RULES = {
    pb.BATTLE_PSYCHIC: "Only Psychic values count.",
    pb.BATTLE_STRENGTH: "Only Strength values count.",
    pb.BATTLE_TERROR: "Only Terror values count.",
    pb.BATTLE_BLOODBATH: "Psychic, Strength and Terror all count.",
}


def _names(ids: Iterable[int]) -> str:
    return ", ".join(card_name(c) for c in ids)


def _card(text: str, card_id: int) -> TableItem:
    return item(text, detail(card_id))


def _now(view: pb.View) -> TableItem | str:
    phase = view.phase
    if phase == pb.PHASE_CHOOSE_ROOM:
        return f"Now: {seat(view.butler)} to keep one Room and discard the other"
    if phase == pb.PHASE_DECLARE:
        return f"Now: {seat(view.butler)} to declare the battle"
    if phase == pb.PHASE_PLAY:
        return f"Now: {seat(view.turn)} to play"
    if phase == pb.PHASE_CLAIM:
        claim = f"Now: {seat(view.turn)} to claim a card with {card_name(view.claim_card)}"
        return _card(claim, view.claim_card)
    if phase == pb.PHASE_SPOILS:
        return f"Now: {seat(view.spoils_leader)} to hand out the spoils"
    return "The game is over"


def _house(view: pb.View) -> list[TableItem | str]:
    lines: list[TableItem | str] = [f"Butler: {seat(view.butler)}", _now(view)]
    if view.room:
        lines.append(_card(f"Room: {room(view.room)}", view.room))
    lines += [_card(f"Revealed Room: {room(r)}", r) for r in view.revealed_rooms]
    if len(view.revealed) > len(view.revealed_rooms) and view.phase == pb.PHASE_CHOOSE_ROOM:
        lines.append(f"Revealed this round, in order: {_names(view.revealed)}")
    if view.battle:
        name = BATTLE_NAMES[view.battle]
        lines.append(item(f"Battle: {name}", BATTLE_RULES[view.battle]))
    lines += [_card(f"On the table: {short(c, view.battle)}", c) for c in view.table]
    tied = "From tied rounds: the side that wins here also gets these as spoils."
    for side, under in (("Mortals", view.under_mortal), ("Horrors", view.under_horror)):
        if under:
            lines.append(item(f"Under the Room, the {side}' cards: {_names(under)}", tied))
    return lines


def _clock(view: pb.View) -> list[TableItem]:
    if view.midnight:
        midnight = "Midnight is on the table: two Mortals or two Horrors each this round"
    elif view.midnight_drawn:
        midnight = "Midnight has struck"
    else:
        midnight = "Midnight is still in the Room deck (shuffled into its top third)"
    dawn = ("Dawn is on the table: this is the final round" if view.final_round
            else "Dawn is still in the Room deck (shuffled into its bottom third)")
    return [_card(midnight, MIDNIGHT), _card(dawn, DAWN)]


def _so_far(shown: pb.Showing, battle: int) -> tuple[int, int]:
    """A showing's fixed total and its dice in the battle declared (dice roll at the end)."""
    counted = COUNTED[battle]
    fixed = sum(card(c).values[i][0] for c in shown.characters for i in counted)
    dice = sum(card(c).values[i][1] for c in shown.characters for i in counted)
    mage = any(card(c).mage for c in shown.characters)
    return fixed + sum(item_bonus(card(c), counted, mage) for c in shown.items), dice


def _total(fixed: int, dice: int) -> str:
    return f"{fixed} + {'1 die' if dice == 1 else f'{dice} dice'}" if dice else str(fixed)


def _encounter(view: pb.View) -> list[TableItem]:
    if not view.battle:
        return []
    lines: list[TableItem] = []
    sides = {pb.SIDE_MORTAL: [0, 0], pb.SIDE_HORROR: [0, 0]}
    for step in range(len(view.showings)):
        s = (view.butler + step) % len(view.showings)
        shown = view.showings[s]
        cards = [*shown.characters, *shown.items]
        if not cards:
            continue
        fixed, dice = _so_far(shown, view.battle)
        sides[shown.side][0] += fixed
        sides[shown.side][1] += dice
        played = ", ".join(short(c, view.battle) for c in cards)
        lines.append(item(f"{seat(s)} for {SIDE_NAMES[shown.side]}: {played}",
                          "\n".join(detail(c) for c in cards)))
    if lines:
        totals = [f"{name} {_total(*sides[side])}" for side, name in
                  ((pb.SIDE_MORTAL, "Mortals"), (pb.SIDE_HORROR, "Horrors"))]
        lines.append(item("So far: " + ", ".join(totals),
                          "Dice for ? values are rolled after everyone has played."))
    return lines


def _spoils_to_hand_out(view: pb.View) -> list[TableItem | str]:
    if view.phase != pb.PHASE_SPOILS:
        return []
    lines: list[TableItem | str] = [_card(with_hourglasses(c), c) for c in view.spoils_pool]
    if view.spoils_owed:
        owed = " and ".join(seat(s) for s in view.spoils_owed)
        lines.append(f"Owed one before the leader takes another: {owed}")
    return lines


def _own_spoils(view: pb.View) -> list[TableItem | str]:
    if not view.spoils:
        return []
    points = sum(card(c).hourglasses for c in view.spoils)
    lanterns = sum(card(c).lanterns for c in view.spoils)
    rule = (f"Every {LANTERNS_PER_CARD} lanterns raise your hand size by one "
            f"(from {HAND_SIZE}, at most {MAX_HAND_SIZE}).")
    head = item(f"{plural(points, 'hourglass')}, {plural(lanterns, 'lantern')}", rule)
    return [head, *(_card(with_hourglasses(c), c) for c in view.spoils)]


def _players(view: pb.View) -> list[str]:
    if view.final_spoils:
        points = [sum(card(c).hourglasses for c in p.cards) for p in view.final_spoils]
        return [
            f"{seat(s)}: {plural(n, 'hourglass')}" + (" (most)" if n == max(points) else "")
            + (f" from {_names(p.cards)}" if p.cards else "")
            for s, (n, p) in enumerate(zip(points, view.final_spoils, strict=True))
        ]
    return [
        f"{seat(s)}: {plural(view.hand_sizes[s], 'card')} in hand, "
        f"{plural(view.spoils_sizes[s], 'spoil')} face down"
        + (", the Butler" if s == view.butler else "")
        for s in range(len(view.hand_sizes))
    ]


def _decks(view: pb.View) -> list[str]:
    lines = [f"Room deck: {plural(view.room_deck_size, 'card')}",
             f"House of Horrors deck: {plural(view.house_deck_size, 'card')}"]
    if view.room_discard:
        lines.append(f"Room discard pile: {_names(view.room_discard)}")
    if view.house_discard:
        count = plural(len(view.house_discard), "card")
        lines.append(f"House of Horrors discard pile, {count}: {_names(view.house_discard)}")
    return lines


def describe_view(view: pb.View, viewer: int | None) -> TableText:
    """The table in the rulebook's words, for `viewer` (None: a spectator)."""
    mine = viewer is not None
    hand_title = f"Your hand: {plural(len(view.hand), 'card')}, hand size {view.hand_limit}"
    return table(
        section("The House", _house(view)),
        section("The clock", _clock(view)),
        section("The encounter", _encounter(view)),
        section("Spoils to hand out", _spoils_to_hand_out(view)),
        section(hand_title, [_card(short(c, view.battle), c) for c in view.hand] if mine else []),
        section("Your spoils, face down", _own_spoils(view) if mine else []),
        section("Players", _players(view)),
        section("Decks", _decks(view)),
    )
