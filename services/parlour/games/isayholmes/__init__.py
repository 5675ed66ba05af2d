"""I Say, Holmes!: the story-sequence card game of Holmes, Watson and four Villains."""

from parlour.games.isayholmes.game import GAME

__all__ = ["GAME"]
