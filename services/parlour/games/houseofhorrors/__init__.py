"""House of Horrors: Mortals and Horrors battle room by room until Dawn, for hourglasses."""

from parlour.games.houseofhorrors.game import GAME

__all__ = ["GAME"]
