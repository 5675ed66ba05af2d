"""Tiny Cards: a minimal hidden-hand card game that exists to test the platform."""

from parlour.games.tinycards.game import GAME

__all__ = ["GAME"]
