"""Issue 12 item 2: the terminal shows the player's own view in words."""

from __future__ import annotations

from parlour.client.words import catalogue_namer, view_lines
from parlour.engine import LocalMatch
from parlour.engine.registry import get_game


def test_enum_values_are_spelled_out_and_empty_parts_left_out():
    """Issue 12 item 2: hand cards by name, phase in words, no empty sections."""
    match = LocalMatch("isayholmes", 3, seed=1)
    lines = view_lines(match.view(0))
    hand = next(line for line in lines if line.startswith("Hand: "))
    assert "CARD_" not in hand and hand != "Hand: none"
    assert "Phase: Turn" in lines
    assert "Effect:" not in lines


def test_catalogue_ids_are_named():
    """Issue 12 item 2: House of Horrors hand shows card names from the game's catalogue."""
    game = get_game("houseofhorrors")
    match = LocalMatch(game, 3, seed=1)
    hand = next(line for line in view_lines(match.view(0), catalogue_namer(game))
                if line.startswith("Hand: "))
    names = {c.name for c in game.catalogue().cards}
    assert all(card in names for card in hand.removeprefix("Hand: ").split(", "))


def test_murder_castle_rooms_are_named_not_numbered():
    """Issue 12 item 2: Murder Castle places (tile * 2 + room) read as room names."""
    game = get_game("murdercastle")
    match = LocalMatch(game, 3, seed=1)
    lines = view_lines(match.view(0), catalogue_namer(game))
    assert "Holmes: Basement #1" in lines
    players = lines[lines.index("Players:") + 1]
    assert "place Pharmacy" in players
    namer = catalogue_namer(game)
    maze = next(r.number for r in game.catalogue().rooms if len(r.halves) > 1)
    assert namer("place", maze * 2).endswith("(north-west)")
    assert namer("to_place", maze * 2 + 1).endswith("(south-east)")
