"""A blocking facade over the async client, for scripts: the same calls without await.

The async client runs on a private event loop in a background thread.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

from parlour.client.client import GatewayClient, Seat


class SyncClient:
    """GatewayClient's calls, blocking: `with SyncClient(address) as client: ...`."""

    def __init__(self, address: str, **options: Any) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self.aio: GatewayClient = self._run(self._connect(address, options))

    @staticmethod
    async def _connect(address: str, options: dict) -> GatewayClient:
        return GatewayClient(address, **options)

    def _run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def _iterate(self, items: AsyncIterator) -> Iterator:
        while True:
            try:
                yield self._run(anext(items))
            except StopAsyncIteration:
                return

    def close(self) -> None:
        """Close the channel and stop the loop."""
        self._run(self.aio.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def __enter__(self) -> SyncClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def games(self):
        """The games served."""
        return self._run(self.aio.games())

    def create_match(self, game: str, seats: int, **options: Any):
        """Create a match (see GatewayClient.create_match)."""
        return self._run(self.aio.create_match(game, seats, **options))

    def join(self, match: str, name: str, seat: int | None = None, **options: Any) -> SyncSeat:
        """Take a seat."""
        return SyncSeat(self, self._run(self.aio.join(match, name, seat, **options)))

    def matches(self, game: str = "", statuses: tuple[int, ...] = (), **options: Any):
        """One page of the lobby."""
        return self._run(self.aio.matches(game, statuses, **options))

    def join_or_create(self, game: str, name: str, **options: Any) -> tuple[SyncSeat, bool]:
        """A seat in an open listed match of the game, or in a new one."""
        seat, created = self._run(self.aio.join_or_create(game, name, **options))
        return SyncSeat(self, seat), created

    def match(self, match: str):
        """A match's public facts."""
        return self._run(self.aio.match(match))

    def player_record(self, player: str, game: str = "", variant: str = ""):
        """A player's record (see GatewayClient.player_record)."""
        return self._run(self.aio.player_record(player, game, variant))

    def leaderboard(self, game: str, **options: Any):
        """A game and variant's leaderboard (see GatewayClient.leaderboard)."""
        return self._run(self.aio.leaderboard(game, **options))

    def watch(self, match: str, after: int = 0) -> Iterator:
        """The public feed, unpacked, ending when the match ends."""
        return self._iterate(self.aio.watch(match, after))


class SyncSeat:
    """Seat's calls, blocking."""

    def __init__(self, client: SyncClient, seat: Seat) -> None:
        self.client = client
        self.aio = seat
        self.seat = seat.seat
        self.match = seat.match
        self.player = seat.player

    def view(self):
        """The game's View message for this seat."""
        return self.client._run(self.aio.view())

    def progress(self):
        """Version, pending decisions and outcome."""
        return self.client._run(self.aio.progress())

    def actions(self):
        """The legal actions (packed), their labels and the progress."""
        return self.client._run(self.aio.actions())

    def legal_actions(self):
        """The legal actions as the game's Action messages, each with its label."""
        return self.client._run(self.aio.legal_actions())

    def submit(self, action, **options: Any):
        """Submit one action."""
        return self.client._run(self.aio.submit(action, **options))

    def undo(self, **options: Any):
        """Take back this seat's last action, or ask the others to agree."""
        return self.client._run(self.aio.undo(**options))

    def answer_undo(self, accept: bool, **options: Any):
        """Accept or refuse another seat's open undo request."""
        return self.client._run(self.aio.answer_undo(accept, **options))

    def feed(self, after: int = 0) -> Iterator:
        """This seat's events, unpacked, ending when the match ends."""
        return self.client._iterate(self.aio.feed(after))

    def leave(self):
        """Free the seat."""
        return self.client._run(self.aio.leave())
