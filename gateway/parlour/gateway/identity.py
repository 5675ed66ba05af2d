"""Verified identity at the edge (issue 25), optional and off by default.

With PARLOUR_AUTH_JWKS_URL (or PARLOUR_AUTH_JWKS_FILE), PARLOUR_AUTH_ISSUER and
PARLOUR_AUTH_AUDIENCE set, every GatewayService call must carry
`authorization: Bearer <JWT>` signed by the host's identity provider; the seat token then
travels in `x-parlour-seat-token: <token>` instead. The JWT is checked when a call
starts; a stream ends when its JWT expires (expiry.py). Off, nothing changes: the seat
token stays in `authorization`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import functools
import hashlib
import inspect
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import jwt

from parlour.gateway import tokens
from parlour.rpc import context as request_context
from parlour.rpc.errors import ServiceError, refusal_of

log = logging.getLogger("parlour.gateway.identity")

#: Where the seat token travels while identity is on (authorization holds the JWT).
SEAT_HEADER = "x-parlour-seat-token"
#: Signature algorithms accepted: public-key ones only (never "none" nor a shared secret).
ALGORITHMS = frozenset(
    {"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}
)
#: Fewest seconds between two fetches of the key set forced by an unknown key id.
MIN_REFETCH_SECONDS = 10.0
#: Tokens remembered as verified (until their exp), so a client's next calls with the same
#: token skip the signature check.
VERIFIED_CACHE = 10_000

_CURRENT: contextvars.ContextVar[Identity | None] = contextvars.ContextVar("identity", default=None)


@dataclass(frozen=True)
class Identity:
    """A verified caller: the provider's subject, and until when (epoch seconds: the
    token's exp plus the leeway) its token is accepted; None: not known."""

    subject: str
    valid_until: float | None = field(default=None, compare=False)

    @property
    def key(self) -> str:
        """What the store keeps for the subject (a digest, not the claim itself)."""
        return "p" + hashlib.sha256(self.subject.encode()).hexdigest()[:32]


def subject_key(subject: str) -> str:
    """The store's key for a subject named in an invitation."""
    return Identity(subject).key


def current() -> Identity | None:
    """The verified caller of the current call (None: identity is off)."""
    return _CURRENT.get()


def required(what: str) -> Identity:
    """The verified caller of a call that needs one: FAILED_PRECONDITION
    IDENTITY_NOT_ENABLED when identity is off (the request is well formed; the gateway's
    configuration refuses it)."""
    who = current()
    if who is None:
        raise ServiceError(
            grpc.StatusCode.FAILED_PRECONDITION,
            "IDENTITY_NOT_ENABLED",
            f"{what} needs identity on the gateway (PARLOUR_AUTH_JWKS_URL)",
        )
    return who


def refused(reason: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAUTHENTICATED, reason, message)


#: PyJWT's failures -> (reason, message); the first matching class wins.
FAILURES: tuple[tuple[type[Exception], str, str], ...] = (
    (jwt.ExpiredSignatureError, "IDENTITY_EXPIRED", "the identity token has expired"),
    (jwt.ImmatureSignatureError, "IDENTITY_NOT_YET_VALID", "the identity token is not valid yet"),
    (jwt.InvalidIssuerError, "IDENTITY_WRONG_ISSUER", "the identity token's issuer is not trusted"),
    (
        jwt.InvalidAudienceError,
        "IDENTITY_WRONG_AUDIENCE",
        "the identity token is for another audience",
    ),
    (
        jwt.InvalidSignatureError,
        "IDENTITY_BAD_SIGNATURE",
        "the identity token's signature does not verify",
    ),
    (jwt.InvalidTokenError, "IDENTITY_MALFORMED", "the identity token is not a valid JWT"),
)


class Verifier:
    """Checks JWTs against the provider's key set (cached; refreshed in the background
    every `lifespan` seconds, and at once, at most every `min_refetch` seconds, for an
    unknown key id)."""

    def __init__(
        self,
        fetch: Callable[[bool], jwt.PyJWKSet],
        issuer: str,
        audience: str,
        *,
        leeway: float = 30.0,
        lifespan: float = 300.0,
        min_refetch: float = MIN_REFETCH_SECONDS,
    ) -> None:
        self.issuer = issuer
        self.audience = audience
        self.leeway = leeway
        self.lifespan = lifespan
        self.min_refetch = min_refetch
        #: Reads the key set (blocking; run in a thread), PyJWKClient.get_jwk_set's form.
        self.fetch = fetch
        self._keys: jwt.PyJWKSet | None = None
        self._fetched = float("-inf")
        self._lock = asyncio.Lock()
        self._refreshing: asyncio.Task | None = None
        #: token -> (its identity, its exp): verified tokens, the oldest first.
        self._verified: collections.OrderedDict[str, tuple[Identity, float]] = (
            collections.OrderedDict()
        )

    @classmethod
    def from_url(cls, url: str, issuer: str, audience: str, **kwargs) -> Verifier:
        """A provider's published key set (its discovery document's jwks_uri)."""
        client = jwt.PyJWKClient(url, cache_keys=False, timeout=5)
        return cls(client.get_jwk_set, issuer, audience, **kwargs)

    @classmethod
    def from_file(cls, path: Path, issuer: str, audience: str, **kwargs) -> Verifier:
        """A key set in a local file (re-read like a fetched one)."""
        return cls(lambda _refresh: read_key_file(path), issuer, audience, **kwargs)

    async def key_set(self, *, force: bool = False) -> jwt.PyJWKSet:
        """The provider's keys. A stale set is still used while a fresh one is fetched in
        the background; a forced fetch (an unknown key id) waits for it."""
        age = time.monotonic() - self._fetched
        if self._keys is None or (force and age >= self.min_refetch):
            return await self._fetch()
        if age > self.lifespan and self._refreshing is None:
            self._refreshing = asyncio.create_task(self._fetch())
            self._refreshing.add_done_callback(lambda _: setattr(self, "_refreshing", None))
        return self._keys

    async def _fetch(self) -> jwt.PyJWKSet:
        """Fetch the key set (in a thread, one fetch at a time); the last good set is kept
        while the provider does not answer."""
        seen = self._fetched
        async with self._lock:
            if self._keys is not None and self._fetched != seen:
                return self._keys
            try:
                self._keys = await asyncio.to_thread(self.fetch, True)
                self._fetched = time.monotonic()
            except jwt.PyJWKClientError as error:
                log.warning("identity keys not fetched", extra={"error": str(error)})
                if self._keys is None:
                    raise ServiceError(
                        grpc.StatusCode.UNAVAILABLE,
                        "IDENTITY_KEYS_UNAVAILABLE",
                        "the identity provider's keys cannot be fetched now",
                        detail=str(error),
                    ) from None
            return self._keys

    async def signing_key(self, kid: str | None) -> jwt.PyJWK:
        """The published key the token names (its only key when it names none)."""
        for force in (False, True):
            usable = [
                k for k in (await self.key_set(force=force)).keys if k.public_key_use != "enc"
            ]
            if kid is None and len(usable) == 1:
                return usable[0]
            found = [k for k in usable if k.key_id == kid and kid is not None]
            if found:
                return found[0]
        raise refused(
            "IDENTITY_UNKNOWN_KEY", "the identity token names no key the provider publishes"
        )

    async def verify(self, token: str | None) -> Identity:
        """The subject of a valid token, or UNAUTHENTICATED with a stable reason. A token
        verified before is known until its exp (plus the leeway)."""
        if not token:
            raise refused("IDENTITY_MISSING", "send 'authorization: Bearer <identity token>'")
        known = self._verified.get(token)
        if known is not None and time.time() <= known[1] + self.leeway:
            return known[0]
        who, expires = await self._check(token)
        self._verified[token] = (who, expires)
        self._verified.move_to_end(token)
        if len(self._verified) > VERIFIED_CACHE:
            self._verified.popitem(last=False)
        return who

    async def _check(self, token: str) -> tuple[Identity, float]:
        """The signature and claims of a token never verified: its identity and exp."""
        try:
            header = jwt.get_unverified_header(token)
        except jwt.InvalidTokenError:
            raise refused("IDENTITY_MALFORMED", "the identity token is not a valid JWT") from None
        if header.get("alg") not in ALGORITHMS:
            raise refused("IDENTITY_MALFORMED", "the identity token's algorithm is not accepted")
        key = await self.signing_key(header.get("kid"))
        try:
            claims = jwt.decode(
                token,
                key.key,
                algorithms=[key.algorithm_name],
                audience=self.audience,
                issuer=self.issuer,
                leeway=self.leeway,
                options={"require": ["exp", "iss", "aud", "sub"]},
            )
        except jwt.InvalidTokenError as error:
            reason, message = next((r, m) for kind, r, m in FAILURES if isinstance(error, kind))
            raise refused(reason, message) from None
        subject = claims["sub"]
        if not isinstance(subject, str) or not subject:
            raise refused("IDENTITY_MALFORMED", "the identity token has no subject")
        expires = float(claims["exp"])
        return Identity(subject, expires + self.leeway), expires


def read_key_file(path: Path) -> jwt.PyJWKSet:
    """A JWKS file; unreadable or malformed fails like a provider that does not answer."""
    try:
        return jwt.PyJWKSet.from_json(path.read_text())
    except (OSError, ValueError, jwt.PyJWTError) as error:
        raise jwt.PyJWKClientError(f"{path}: {error}") from error


def seat_token(metadata) -> str | None:
    """The seat token of a call while identity is on (x-parlour-seat-token)."""
    for key, value in metadata or ():
        if key.lower() == SEAT_HEADER:
            return (value.decode() if isinstance(value, bytes) else value).strip()
    return None


def identified(servicer, verifier: Verifier, methods) -> object:
    """The servicer with every method in `methods` verifying the caller first; the
    identity is then `current()` for the rest of the call."""
    wrapped = {name: _wrap(name, getattr(servicer, name), verifier) for name in methods}
    return type("Identified", (), wrapped)()


#: Seconds a refused client-streaming call (Play) waits for the client's first message
#: before the refusal goes out (see `_first_message`).
FIRST_MESSAGE_SECONDS = 1.0


async def _first_message(requests) -> None:
    """Let a refused stream's first message arrive (up to FIRST_MESSAGE_SECONDS): a client
    still writing it when the refusal comes would get grpc.aio's own INTERNAL in place of
    the refusal (grpc/grpc#36066; issue 40 item 4), as the gateway does once identity is
    known (Play reads `open` before checking the seat token)."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(FIRST_MESSAGE_SECONDS):
            await anext(requests, None)


def _wrap(name: str, method, verifier: Verifier):
    async def identify(request, context) -> None:
        """Note the verified caller, or end the call with the refusal."""
        try:
            token = tokens.token_from_metadata(context.invocation_metadata())
            _CURRENT.set(await verifier.verify(token))
        except Exception as error:  # noqa: BLE001 - answered with its status
            refusal = refusal_of(error, name)
            request_context.note(reason=refusal.reason)
            if hasattr(request, "__anext__"):  # the client streams its requests
                await _first_message(request)
            await context.abort_with_status(refusal.grpc_status())

    if inspect.isasyncgenfunction(method):

        @functools.wraps(method)
        async def stream(request, context):
            await identify(request, context)
            async for item in method(request, context):
                yield item

        return staticmethod(stream)

    @functools.wraps(method)
    async def unary(request, context):
        await identify(request, context)
        return await method(request, context)

    return staticmethod(unary)
