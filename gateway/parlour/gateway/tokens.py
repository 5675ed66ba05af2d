"""Seat tokens: random, shown once, stored only as a hash, sent as a Bearer credential."""

from __future__ import annotations

import hashlib
import secrets

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


def token_from_metadata(metadata) -> str | None:
    """The Bearer token in call metadata, if any (empty string if malformed)."""
    for key, value in metadata or ():
        if key.lower() == HEADER:
            text = value.decode() if isinstance(value, bytes) else value
            return text[len(SCHEME) :].strip() if text.lower().startswith(SCHEME) else ""
    return None
