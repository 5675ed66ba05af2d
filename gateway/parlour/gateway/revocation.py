"""End every stream a seat token opened once the token is revoked, on every gateway.

LeaveMatch publishes the revoked token's hash on a Redis channel (store/seat.lua);
each gateway listens and ends the streams it authenticated with that token. After
each (re)subscription the gateway re-checks every watched token against Redis, so a
revocation published while its subscription was down is not missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import grpc

from parlour.rpc.errors import ServiceError, log_failure
from parlour.store import keys
from parlour.store.matchstore import MatchStore

log = logging.getLogger("parlour.gateway.revocation")

OnRevoke = Callable[[ServiceError], None]


def revoked() -> ServiceError:
    """The status a stream ends with once its seat token is revoked."""
    return ServiceError(
        grpc.StatusCode.UNAUTHENTICATED,
        "SEAT_TOKEN_REVOKED",
        "the seat token was revoked (the seat was left)",
    )


class Revocations:
    """Token hash -> the callbacks that end the streams it authenticated."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store
        self.watched: dict[str, tuple[str, set[OnRevoke]]] = {}
        self._task: asyncio.Task | None = None
        self._closing = False

    @contextlib.contextmanager
    def watch(self, match: str, token_hash: str, on_revoke: OnRevoke):
        """Call `on_revoke` if the token is revoked while the block runs."""
        _, callbacks = self.watched.setdefault(token_hash, (match, set()))
        callbacks.add(on_revoke)
        try:
            yield
        finally:
            callbacks.discard(on_revoke)
            if not callbacks:
                self.watched.pop(token_hash, None)

    def start(self) -> None:
        """Start listening (once)."""
        if self._task is None:
            self._task = asyncio.create_task(self._listen_forever())

    def revoke(self, token_hash: str) -> None:
        """End every stream of this gateway that authenticated with the token."""
        _, callbacks = self.watched.get(token_hash, ("", set()))
        for callback in list(callbacks):
            callback(revoked())

    async def _listen_forever(self) -> None:
        while not self._closing:
            try:
                async with self.store.subscribed(keys.REVOKED) as revocations:
                    await self._recheck()
                    while not self._closing:
                        if (token_hash := await revocations.next(0.5)) is not None:
                            self.revoke(token_hash)
            except Exception as error:  # noqa: BLE001 - resubscribe; the re-check covers the gap
                log_failure(log, "revocation listener failed", error)
                await asyncio.sleep(0.5)

    async def _recheck(self) -> None:
        """Revoke watched tokens that Redis no longer knows."""
        for token_hash, (match, _) in list(self.watched.items()):
            if await self.store.seat_of(match, token_hash) is None:
                self.revoke(token_hash)

    async def close(self) -> None:
        """Stop listening."""
        self._closing = True
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(self._task, 2)
