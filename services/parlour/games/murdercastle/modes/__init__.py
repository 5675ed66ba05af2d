"""Murder Castle's modes as plugins (parlour.engine.modes), above the standard rules: the
Extended Version, The 2nd Story, Automa, Play as Holmes and the Castle Junction Cards (with
Holmes' Ability Cards). Each mode module holds the mode's rules and its plugin, which replaces
the rule points of `hooks` it changes and adds its decisions, steps, setup and words; the
standard modules ask `hooks.rules(state)` and never import a mode. Importing this package
installs the plugins, in the order their setup draws from the RNG and their variants are
listed (`game` imports it)."""

from parlour.games.murdercastle.hooks import MODES
from parlour.games.murdercastle.modes.automa import Automa
from parlour.games.murdercastle.modes.castle_junction import CastleJunction
from parlour.games.murdercastle.modes.extended import Extended
from parlour.games.murdercastle.modes.play_as_holmes import PlayAsHolmes
from parlour.games.murdercastle.modes.second_story import SecondStory

MODES.install([Extended(), SecondStory(), Automa(), PlayAsHolmes(), CastleJunction()])

__all__ = ["MODES"]
