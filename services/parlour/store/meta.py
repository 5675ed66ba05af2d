"""A match's metadata hash (keys.meta): its field names, once, and what the gateway and the
rules service read of it, by meaning. Only the Lua scripts write it (create.lua, seat.lua,
commit.lua, platform.lua)."""

from __future__ import annotations

import secrets
from importlib import resources

from parlour.store import keys

GAME, SEATS, STATUS, SPECTATORS = "game", "seats", "status", "spectators"
#: The rules version the match is played under now, and the one it was created under.
RULES, RULES_CREATED = "rules", "rules_created"
#: The seat version: up by one each time a seat token is revoked (seat.lua).
SEAT_VERSION = "sv"
#: The fingerprint of the CreateMatch request that made the match.
FINGERPRINT = "fp"
#: "1": a private table; "2": a match matchmaking made (not private in the records).
INVITE = "invite"
#: The join code; the lobby member while the match is listed; "1" when not rated.
CODE, LISTED, UNRATED = "code", "listed", "unrated"
#: The seed audit: commitment, salt, seed (secret until the end, or for good).
COMMITMENT, SALT, SEED, SECRET_AFTER_END = "commitment", "salt", "seed", "secret_after_end"
ALLOW_UNDO, UNDO_AGREEMENT = "allow_undo", "undo_agreement"
ABANDON_AFTER, ON_ABANDON = "abandon_after", "on_abandon"
#: The turn-timer options: budget, time bank, bank increment (ms; missing: 0).
TURN_TIMER, TIME_BANK = "turn_timer_ms", "time_bank_ms"
TIME_BANK_INCREMENT = "time_bank_increment_ms"
CLOCK_FIELDS = (TURN_TIMER, TIME_BANK, TIME_BANK_INCREMENT)
#: A correspondence clock: its timeout policy, and the longest pause and the pauses' total a
#: seat may take (ms).
CORRESPONDENCE, PAUSE_MAX, PAUSE_TOTAL = "corr", "pause_max_ms", "pause_total_ms"
#: STATUS of a finished match.
FINISHED = "finished"


def holder(token_hash: str) -> str:
    """The field naming the seat a token holds."""
    return f"t:{token_hash}"


def proof_of(key: str) -> str:
    """The field naming the seat a proof (a join secret's hash, or a subject) took."""
    return f"proof:{key}"


def invited(proof: str) -> str:
    """The field marking a subject invited to a private table."""
    return f"inv:{proof}"


def platform(seat: int) -> str:
    """The field marking a seat the platform plays (it abandoned the match)."""
    return f"bot:{seat}"


def record(seat: int) -> str:
    """The field naming the record a seat's results count toward."""
    return f"rk:{seat}"


def name(seat: int) -> str:
    """The field holding a seat's display name."""
    return f"name:{seat}"


def token(seat: int) -> str:
    """The field holding a taken seat's token hash."""
    return f"token:{seat}"


class MatchMeta:
    """Reads of a match's metadata hash, and platform.lua, its one write outside a commit."""

    def __init__(self, client) -> None:
        self.redis = client
        source = resources.files("parlour.store").joinpath("platform.lua").read_text()
        self._platform = client.register_script(source)

    async def _get(self, match: str, fields: list[str]) -> dict[str, str] | None:
        """The fields present, decoded; None when the match (its first field) is not there."""
        values = await self.redis.hmget(keys.meta(match), fields)
        if values[0] is None:
            return None
        return {k: v.decode() for k, v in zip(fields, values, strict=True) if v is not None}

    async def viewer(
        self, match: str, token_hashes: list[str], subject: str | None
    ) -> dict[str, str] | None:
        """What resolving a viewer needs: game, spectators, seat version, rules version, the
        seats the token's stored hashes hold, and the seat the subject's proof holds; None
        when there is no match."""
        fields = [GAME, SPECTATORS, SEAT_VERSION, RULES, *map(holder, token_hashes)]
        fields += [proof_of(subject)] if subject is not None else []
        return await self._get(match, fields)

    async def fingerprint(self, match: str) -> str | None:
        """The fingerprint of the request that created the match."""
        value = await self.redis.hget(keys.meta(match), FINGERPRINT)
        return None if value is None else value.decode()

    async def admits(self, match: str, proof: str, join_code: str) -> bool:
        """Whether a private table admits the caller: it is seated (re-opening), invited, or
        holds the join code. A public table, or no match, admits everyone."""
        fields = [INVITE, CODE] + ([proof_of(proof), invited(proof)] if proof else [])
        found = dict(zip(fields, await self.redis.hmget(keys.meta(match), fields), strict=True))
        if found[INVITE] is None:
            return True
        if proof and (found[proof_of(proof)] or found[invited(proof)]):
            return True
        code = found[CODE]
        return code is not None and secrets.compare_digest(code, join_code.encode())

    async def rules_version(self, match: str) -> int:
        """The rules version the match is played under (1 when none is recorded)."""
        return int(await self.redis.hget(keys.meta(match), RULES) or 1)

    async def open_code(self, match: str) -> str | None:
        """The match's join code while it is there and not finished; else None."""
        code, status = await self.redis.hmget(keys.meta(match), CODE, STATUS)
        if code is None or status == FINISHED.encode():
            return None
        return code.decode()

    async def clock_options(self, match: str) -> tuple[int, int, int]:
        """The turn-timer budget, time bank and bank increment (ms; 0 when unset)."""
        values = await self.redis.hmget(keys.meta(match), CLOCK_FIELDS)
        budget, bank, increment = (int(v or 0) for v in values)
        return budget, bank, increment

    async def platform_seats(self, match: str) -> frozenset[int]:
        """Seats that abandoned the match and that the platform now plays."""
        seats = int(await self.redis.hget(keys.meta(match), SEATS) or 0)
        if not seats:
            return frozenset()
        marks = await self.redis.hmget(keys.meta(match), [platform(s) for s in range(seats)])
        return frozenset(s for s, mark in enumerate(marks) if mark)

    async def abandon_policy(self, match: str, seat: int) -> tuple[int, str, bool]:
        """(timeouts in a row that abandon a seat, 0: never; the policy then, 'end' or
        'platform'; whether the platform plays `seat` already)."""
        limit, policy, marked = await self.redis.hmget(
            keys.meta(match), ABANDON_AFTER, ON_ABANDON, platform(seat)
        )
        return int(limit or 0), (policy or b"").decode(), bool(marked)

    async def play_for(self, match: str, seat: int) -> bool:
        """Mark `seat` as played by the platform from now on (platform.lua); False when the
        match is gone."""
        return bool(await self._platform(keys=[keys.meta(match)], args=[platform(seat)]))
