"""Crimes in History: H. H. Holmes' Murder Castle (standard game) as a parlour game."""

from parlour.games.murdercastle.game import GAME

__all__ = ["GAME"]
