"""Clash of Minds: Holmes vs Moriarty, a two-player card game (seat 0 Holmes, seat 1 Moriarty)."""

from parlour.games.clashofminds.game import GAME

__all__ = ["GAME"]
