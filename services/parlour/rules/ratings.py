"""Players' ratings from finished rated matches, updated exactly once per match (issue 36).

The replica that finishes a match notes it in the game's due set *before* the finishing
commit, rates it right after the commit (before the final action is acknowledged), and
clears the note. If it dies in between, any replica's sweeper rates the match once the note
is `grace` seconds old. Rating twice is harmless: store/ratings.lua applies a match once
(its `rated` marker) and only over the ratings it was computed from (else it is computed
again). The model is openskill's Plackett-Luce with its defaults; the game says who played
against whom (Game.rating_sides) and in which variant (Game.rated_variant).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re

from google.protobuf import any_pb2
from openskill.models import PlackettLuce

from parlour.engine.game import Game, Outcome
from parlour.engine.text import bot_name
from parlour.rpc.errors import log_failure
from parlour.rules.clocks import now_ms
from parlour.rules.v1 import rules_pb2 as pb
from parlour.store import meta as field
from parlour.store.ratingstore import RatingStore, Recorded, Standing, Update

log = logging.getLogger("parlour.rules.ratings")
MODEL = PlackettLuce()
#: Seconds a due note waits before a sweeper rates it (the finishing replica's own turn).
GRACE_SECONDS = 5.0
#: A note whose match is still not finished after this long came from a commit that did
#: not happen (lost to a race): dropped.
STALE_SECONDS = 600.0
#: Times a match's update is recomputed when a player's rating moved meanwhile.
ATTEMPTS = 16
#: Failpoint for the kill drill: "pause-before-rating" stops the finishing replica between
#: its finishing commit and the rating, until it is killed (tests/test_ratings_kill.py).
FAILPOINT = "PARLOUR_FAILPOINT"


def new_standing() -> Standing:
    """A newcomer: the model's default rating."""
    rating = MODEL.rating()
    return Standing(rating.mu, rating.sigma, 0, 0, "")


def rules_player(name: str) -> str:
    """The record key of an opponent the rules play ("Automa" -> "game:automa")."""
    return "game:" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def display_name(key: str, seat_name: str) -> str:
    """The name a record shows: a bot strategy's, as its seats read without their number
    ("Clever bot"), else the seat's."""
    return bot_name(key[4:]) if key.startswith("bot:") else seat_name


def rate(sides: list[list[Standing]], places: tuple[int, ...]) -> list[list[Standing]]:
    """Every side's standings after a match with these places (1 = first)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    rated = MODEL.rate(teams, ranks=list(places))
    won = [p == 1 and any(q > 1 for q in places) for p in places]
    return [
        [
            Standing(new.mu, new.sigma, old.matches + 1, old.wins + won[i], old.name)
            for old, new in zip(side, rated[i], strict=True)
        ]
        for i, side in enumerate(sides)
    ]


class KeyLocks:
    """A lock per key, made when first wanted and dropped when nobody holds or awaits it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    @contextlib.asynccontextmanager
    async def held(self, names: list[str]):
        """Hold every named lock (take them in sorted order: no deadlock)."""
        entries = []
        for name in names:
            entry = self._locks.setdefault(name, (asyncio.Lock(), [0]))
            entry[1][0] += 1
            entries.append((name, entry))
        taken = []
        try:
            for _, (lock, _) in entries:
                await lock.acquire()
                taken.append(lock)
            yield
        finally:
            for lock in taken:
                lock.release()
            for name, (_, users) in entries:
                users[0] -= 1
                if not users[0]:
                    del self._locks[name]


class Ratings:
    """Rates one game's finished matches."""

    def __init__(self, game: Game, store: RatingStore, poll_seconds: float = 1.0) -> None:
        self.game = game
        self.store = store
        self.poll_seconds = poll_seconds
        self.grace_ms = int(GRACE_SECONDS * 1000)
        #: One update at a time per player in this process: matches finishing together
        #: with a player in common queue here instead of racing in Redis and recomputing.
        self.players = KeyLocks()
        #: The kill drill's failpoint, read once: stop between commit and rating.
        self.pause_before_rating = os.environ.get(FAILPOINT) == "pause-before-rating"

    async def note(self, match: str, now_ms: int) -> None:
        """Before the finishing commit."""
        await self.store.mark_due(self.game.name, match, now_ms)

    async def after_commit(self, match: str, now_ms: int) -> None:
        """After the finishing commit: rate at once; a failure is left to the sweepers."""
        if self.pause_before_rating:
            await asyncio.Event().wait()
        try:
            if await self.settle(match, now_ms) != "unfinished":
                await self.store.settled(self.game.name, match)
        except Exception as error:  # noqa: BLE001 - the due note stays: a sweeper retries
            log_failure(log, "rating failed", error, match=match)

    async def run(self) -> None:
        """Rate the due matches whose finishing replica did not, until cancelled."""
        while True:
            try:
                await self.sweep(now_ms())
            except Exception as error:  # noqa: BLE001 - Redis away: keep polling (health says)
                log_failure(log, "ratings sweep failed", error, game=self.game.name)
            await asyncio.sleep(self.poll_seconds)

    async def sweep(self, now_ms: int) -> int:
        """Rate every note older than the grace; returns how many were settled."""
        settled = 0
        for match, noted in await self.store.due(self.game.name, now_ms - self.grace_ms, 64):
            outcome = await self.settle(match, noted)
            if outcome != "unfinished" or now_ms - noted > STALE_SECONDS * 1000:
                await self.store.settled(self.game.name, match)
                settled += 1
        return settled

    async def settle(self, match: str, finished_ms: int) -> str:
        """Put a finished match into the ratings: 'applied', 'already', 'unrated' (a
        friendly match, a variant not rated, or nobody with a record), 'gone' or
        'unfinished'."""
        found = await self._finished(match)
        if isinstance(found, str):
            return found
        variant, sides, members, private = found
        stored = list(dict.fromkeys(key for side in members for _, key, _ in side if key))
        async with self.players.held(sorted(stored)):
            return await self._update(match, finished_ms, variant, sides, members, private, stored)

    async def _update(self, match, finished_ms, variant, sides, members, private, stored) -> str:
        """Read, rate and apply (again while a rating moved meanwhile, on another replica)."""
        # A record seated twice (two bots of one strategy) keeps its best-placed seat's result.
        best_first = sorted(range(len(members)), key=lambda i: sides.places[i])
        for _ in range(ATTEMPTS):
            values = await self.store.read(self.game.name, variant, stored)
            before = dict(zip(stored, values, strict=True))
            olds = [[Standing.decode(before[key]) if before.get(key) else new_standing()
                     for _, key, _ in side] for side in members]
            news = rate(olds, sides.places)
            updates: dict[str, Update] = {}
            for i in best_first:
                for (seat, key, name), old, new in zip(members[i], olds[i], news[i],
                                                       strict=True):
                    if key and key not in updates:
                        updates[key] = Update(
                            key, before[key],
                            Standing(new.mu, new.sigma, new.matches, new.wins,
                                     display_name(key, name) or old.name),
                            Recorded(match, finished_ms, seat, sides.places[i],
                                     len(sides.sides), new.display - old.display, private))
            done = await self.store.apply(self.game.name, variant, match, [*updates.values()])
            if done >= 0:
                return "applied" if done else "already"
        raise RuntimeError(f"ratings of match {match} kept changing")

    async def _finished(self, match: str):
        """(variant, Sides, members of each side as (seat, record key, name), private) of a
        finished rated match, else why not ('gone', 'unfinished', 'unrated')."""
        packed, progress_bytes, meta = await self.store.finished_facts(match)
        if progress_bytes is None or field.SEATS not in meta:
            return "gone"
        progress = pb.MatchProgress.FromString(progress_bytes)
        if not progress.HasField("outcome"):
            return "unfinished"
        count = int(meta[field.SEATS])
        holders = [meta.get(field.record(s), "") for s in range(count)]
        names = [meta.get(field.name(s), "") for s in range(count)]
        options = self.game.options_type()
        if not packed or not any_pb2.Any.FromString(packed).Unpack(options):
            options = self.game.default_options(count)
        variant = self.game.rated_variant(options)
        if meta.get(field.UNRATED) == "1" or variant is None or not any(holders):
            return "unrated"
        result = Outcome(tuple(progress.outcome.scores), tuple(progress.outcome.winners))
        sides = self.game.rating_sides(options, result)
        if len(sides.sides) < 2:
            return "unrated"
        members = [
            [(m, holders[m], names[m]) if isinstance(m, int) else (-1, rules_player(m), m)
             for m in side]
            for side in sides.sides
        ]
        return variant, sides, members, meta.get(field.INVITE) == "1"
