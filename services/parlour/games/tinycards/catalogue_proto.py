"""Tiny Cards' Catalogue message: twelve cards numbered 1 to 12."""

from parlour.games.tinycards.catalogue import DECK
from parlour.games.tinycards.v1 import tinycards_pb2 as pb


def catalogue_message() -> pb.Catalogue:
    """Every card of the deck."""
    return pb.Catalogue(cards=[pb.CardInfo(card=card) for card in DECK])
