"""The seed commitment a match publishes at creation and anyone can check after the end."""

from __future__ import annotations

import hashlib
import hmac
import secrets

DOMAIN = b"parlour.seed.v1\x00"
SALT_BYTES = 16


def new_salt() -> bytes:
    """Fresh random salt, so the commitment does not let anyone search small seeds."""
    return secrets.token_bytes(SALT_BYTES)


def commitment(seed: int, salt: bytes) -> bytes:
    """SHA-256 over the domain tag, the salt and the seed as 8 big-endian bytes."""
    return hashlib.sha256(DOMAIN + salt + seed.to_bytes(8, "big")).digest()


def opens(commitment_bytes: bytes, seed: int, salt: bytes) -> bool:
    """Whether (seed, salt) is what `commitment_bytes` committed to."""
    return hmac.compare_digest(commitment_bytes, commitment(seed, salt))
