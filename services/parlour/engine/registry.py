"""Finds every game under the `parlour.games` namespace: a game folder exports `GAME`."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from parlour.engine.game import Game


def game_modules() -> list[str]:
    """Names of the game packages in the tree (each must export GAME)."""
    import parlour.games

    return sorted(info.name for info in pkgutil.iter_modules(parlour.games.__path__) if info.ispkg)


@cache
def load_game(module_name: str) -> Game:
    """Import one game folder and check its GAME."""
    module = importlib.import_module(f"parlour.games.{module_name}")
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        raise TypeError(f"parlour.games.{module_name} does not export GAME (a Game)")
    if game.name != module_name:
        raise ValueError(f"game {game.name!r} lives in folder {module_name!r}")
    return game


def games() -> dict[str, Game]:
    """Every registered game by name."""
    return {name: load_game(name) for name in game_modules()}


def get_game(name: str) -> Game:
    """The registered game called `name` (importing only that game); KeyError if none."""
    if name not in game_modules():
        raise KeyError(f"no game named {name!r}; known: {game_modules()}")
    return load_game(name)


def playable_games() -> list[Game]:
    """Real games, or the test games while no real game exists."""
    real = [g for g in games().values() if not g.for_tests]
    return real or list(games().values())


class UnknownGame(LookupError):
    """A game name that no game folder answers to."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown game {name!r}; known: {', '.join(game_modules())}")


def known_game(name: str) -> Game:
    """The registered game called `name`, or UnknownGame (whose message lists the known)."""
    try:
        return get_game(name)
    except KeyError:
        raise UnknownGame(name) from None
