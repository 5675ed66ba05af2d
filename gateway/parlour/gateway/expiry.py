"""Streams end when the caller's identity token does (issue 34).

With identity on, a StreamEvents or Play stream ends UNAUTHENTICATED `IDENTITY_EXPIRED` at
the moment the token it was opened with stops being accepted (its `exp` plus the
verifier's leeway): the subscription ends then, so no event reaches the stream after
that moment, and a Play session forwards no action from then on. To go on, the client
re-opens the stream with a fresh token and resumes where it was (StreamEvents
`after_sequence`, Play `open.after_sequence`): nothing is missed. Identity off: nothing
ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import grpc

from parlour.gateway.fanout import Subscription
from parlour.gateway.identity import Identity
from parlour.rpc.errors import ServiceError

T = TypeVar("T")
R = TypeVar("R")


def expired() -> ServiceError:
    """How a stream ends, or an action is refused, once the identity token expired."""
    return ServiceError(
        grpc.StatusCode.UNAUTHENTICATED,
        "IDENTITY_EXPIRED",
        "the identity token has expired; re-open the stream with a fresh one and resume",
    )


@contextlib.contextmanager
def until_expiry(sub: Subscription, who: Identity | None):
    """End `sub` with IDENTITY_EXPIRED when the caller's token expires, while the block
    runs (a per-stream timer on the loop; nothing without identity)."""
    if who is None or who.valid_until is None:
        yield
        return
    loop = asyncio.get_running_loop()
    at = loop.time() + max(0.0, who.valid_until - time.time())
    timer = loop.call_at(at, sub.end, expired())
    try:
        yield
    finally:
        timer.cancel()


def acting(who: Identity | None, act: Callable[[T], Awaitable[R]]) -> Callable[[T], Awaitable[R]]:
    """`act`, refusing IDENTITY_EXPIRED once the caller's token has expired."""
    if who is None or who.valid_until is None:
        return act

    async def checked(action: T) -> R:
        if time.time() >= who.valid_until:
            raise expired()
        return await act(action)

    return checked
