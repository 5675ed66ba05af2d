"""Seat tokens: random, shown once, stored only as a hash, sent as a Bearer credential."""

from __future__ import annotations

import hashlib
import secrets

from parlour.store import meta as field

HEADER = "authorization"
SCHEME = "bearer "
#: Every token starts with this, so none starts with "-" (a command line would read it as an
#: option: `parlour replay --token -x…`) and a leaked one is easy to recognise.
PREFIX = "pt_"


def new_token() -> str:
    """A fresh 256-bit token."""
    return PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored in place of a token: 128 bits of its SHA-256, in hex (32 characters,
    so the match's meta hash, which holds it twice per seat, stays a compact listpack)."""
    return hashlib.sha256(token.encode()).hexdigest()[:32]


def stored_hashes(token: str) -> tuple[str, str]:
    """Every hash a live match may hold for `token`: this version's, then the full 256-bit
    hex digest seats taken before the 128-bit change stored (issue 31 item 5)."""
    full = hashlib.sha256(token.encode()).hexdigest()
    return full[:32], full


def held_seat(meta: dict[str, str], token: str) -> tuple[str, str] | None:
    """(the stored hash, the seat) `token` holds in a match's meta fields `t:<hash>`, or None.
    The stored hash is what the seat's later checks (commit, leave, revocation) must name."""
    for stored in stored_hashes(token):
        seat = meta.get(field.holder(stored))
        if seat is not None:
            return stored, seat
    return None


def token_from_metadata(metadata) -> str | None:
    """The Bearer token in call metadata, if any (empty string if malformed)."""
    for key, value in metadata or ():
        if key.lower() == HEADER:
            text = value.decode() if isinstance(value, bytes) else value
            return text[len(SCHEME) :].strip() if text.lower().startswith(SCHEME) else ""
    return None
