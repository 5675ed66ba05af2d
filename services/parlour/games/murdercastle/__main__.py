"""Serve this game's rules service."""

from parlour.rules.server import main

main("murdercastle")
