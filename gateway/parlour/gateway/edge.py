"""The edge: who is calling about which match (seat token or spectator; with identity on,
the verified subject too: identity.py), whose quota and request ids a call counts against
(scope), what a request may carry (names, Any sizes, request ids), and the
stream-revocation watch on a seat token.

Every service of the gateway (service.py lists them) resolves its callers here first
(Callers); Edge holds the parts the services are made of.
"""

from __future__ import annotations

import contextlib
import dataclasses
import ipaddress
import uuid

import grpc

from parlour.gateway import identity, tokens
from parlour.gateway.config import Matchmaking
from parlour.gateway.fanout import EventHub, Subscription
from parlour.gateway.lobby import Lobby
from parlour.gateway.quotas import Quotas
from parlour.gateway.revocation import Revocations, revoked
from parlour.gateway.routing import Router
from parlour.rpc import context as request_context
from parlour.rpc.errors import ServiceError, invalid_argument, not_found
from parlour.store import keys
from parlour.store import meta as field
from parlour.store.matchstore import MatchStore
from parlour.store.ratingstore import RatingStore

#: Longest type URL accepted in an Any ("type.googleapis.com/" + a full message name).
MAX_TYPE_URL = 256


def match_id_of(name: str) -> str:
    """'matches/{id}' or a bare id -> id."""
    match = name.removeprefix("matches/")
    if not match or "/" in match or "{" in match or "}" in match:
        raise invalid_argument("match", f"{name!r} is not a match name like 'matches/<id>'")
    return match


def unauthenticated(reason: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAUTHENTICATED, reason, message)


def check_any(packed, field: str, max_bytes: int, reason: str) -> None:
    """Refuse an Any whose type URL or size is over its bound (INVALID_ARGUMENT)."""
    if len(packed.type_url) > MAX_TYPE_URL:
        message = f"the type URL is over {MAX_TYPE_URL} characters"
        raise invalid_argument(f"{field}.type_url", message, "TYPE_URL_TOO_LONG")
    if packed.ByteSize() > max_bytes:
        raise invalid_argument(field, f"{field} is over {max_bytes} bytes", reason)


def request_id_reused() -> ServiceError:
    return invalid_argument(
        "request_id",
        "this request_id was already used for a different request",
        "REQUEST_ID_REUSED",
    )


def client_request_id(request) -> str:
    """A caller's request id (a fresh one when empty); the platform's prefix is refused."""
    if request.request_id.startswith(keys.PLATFORM_REQUEST_PREFIX):
        raise invalid_argument(
            "request_id",
            f"request ids starting {keys.PLATFORM_REQUEST_PREFIX!r} are the platform's",
            "RESERVED_REQUEST_ID",
        )
    return request.request_id or uuid.uuid4().hex


#: The header a trusted proxy names the caller's address in.
FORWARDED_HEADER = "x-forwarded-for"


def peer_address(context, trusted: tuple = ()) -> str:
    """The caller's network address without its port (grpc peer 'ipv4:1.2.3.4:5678' ->
    'ipv4:1.2.3.4'). Through proxies in `trusted`, the nearest untrusted address their
    x-forwarded-for names, in the same form; from anyone else the header is ignored."""
    address = context.peer().rpartition(":")[0]
    if not trusted or not _trusted(address.partition(":")[2].strip("[]"), trusted):
        return address
    hops = [
        hop.strip()
        for key, value in context.invocation_metadata() or ()
        if key.lower() == FORWARDED_HEADER
        for hop in (value.decode() if isinstance(value, bytes) else value).split(",")
    ]
    for hop in reversed(hops):
        try:
            ip = ipaddress.ip_address(hop)
        except ValueError:
            break
        address = f"ipv4:{ip}" if ip.version == 4 else f"ipv6:[{ip}]"
        if not _trusted(str(ip), trusted):
            break
    return address


def _trusted(text: str, trusted: tuple) -> bool:
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def scope(context, trusted: tuple = ()) -> str:
    """Whom request ids and quotas count against: the verified subject when identity is on,
    else the caller's address (peer_address), so two clients picking the same request id
    never meet."""
    who = identity.current()
    return f"sub:{who.key}" if who is not None else peer_address(context, trusted)


class Viewer:
    """Who is calling about a match: its game, the caller's seat (None: spectator), the
    hash of the seat token it authenticated with, and the match's rules version."""

    __slots__ = ("match", "game", "seat", "token_hash", "seat_version", "rules")

    def __init__(
        self,
        match: str,
        game: str,
        seat: int | None,
        token_hash: str | None = None,
        seat_version: int = 0,
        rules: int = 1,
    ) -> None:
        self.match = match
        self.game = game
        self.seat = seat
        self.token_hash = token_hash
        #: The match's seat version (revoked tokens) when the token was last checked.
        self.seat_version = seat_version
        #: The rules version the match was played under when read (routing: issue 42).
        self.rules = rules


def resolve_viewer(match: str, meta: dict[str, str], token: str | None, seated: bool) -> Viewer:
    """The caller's seat from its token (None: spectator), checked against the metadata."""
    rules = int(meta.get(field.RULES) or 1)  # 1: a match stored before versions were recorded
    if token is not None:
        held = tokens.held_seat(meta, token) if token else None
        if held is None:
            raise unauthenticated(
                "INVALID_SEAT_TOKEN", "the seat token is not valid for this match"
            )
        version = int(meta.get(field.SEAT_VERSION, 0))
        return Viewer(match, meta[field.GAME], int(held[1]), held[0], version, rules)
    if seated:
        raise unauthenticated("MISSING_SEAT_TOKEN", "send 'authorization: Bearer <seat token>'")
    if meta.get(field.SPECTATORS) != "1":
        raise ServiceError(
            grpc.StatusCode.PERMISSION_DENIED,
            "SPECTATORS_NOT_ALLOWED",
            "this match does not allow spectators",
        )
    return Viewer(match, meta[field.GAME], None, rules=rules)


@dataclasses.dataclass
class Edge:
    """The gateway's shared parts, made once by server.py; GatewayService hands each of its
    services only the parts it needs."""

    store: MatchStore
    router: Router
    hub: EventHub
    heartbeat: float
    revocations: Revocations
    play_queue: int = 1024
    quotas: Quotas = dataclasses.field(default_factory=lambda: Quotas(0, 0))
    #: Whether calls carry a verified identity (the seat token then in SEAT_HEADER).
    identity_on: bool = False
    trusted_proxies: tuple = ()
    #: Subjects whose bot seats count toward their strategy's record (issue 36).
    bot_runners: frozenset[str] = frozenset()
    matchmaking: Matchmaking = dataclasses.field(default_factory=Matchmaking)
    lobby: Lobby = dataclasses.field(init=False)
    ratings: RatingStore = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        self.lobby = Lobby(self.store)
        self.ratings = self.store.ratings()


class Callers:
    """The caller checks every service starts with: whom a call counts against, its seat
    token, and its viewer of a match."""

    def __init__(
        self,
        store: MatchStore,
        revocations: Revocations,
        identity_on: bool = False,
        trusted_proxies: tuple = (),
    ) -> None:
        self.store = store
        self.revocations = revocations
        self.identity_on = identity_on
        self.trusted_proxies = trusted_proxies

    def scope(self, context) -> str:
        """Whom the call's request ids and quotas count against (see scope)."""
        return scope(context, self.trusted_proxies)

    def seat_token(self, context) -> str | None:
        """The call's seat token: in `authorization`, or in SEAT_HEADER with identity on."""
        metadata = context.invocation_metadata()
        if self.identity_on:
            return identity.seat_token(metadata)
        return tokens.token_from_metadata(metadata)

    def resolve(self, match: str, meta: dict[str, str], token: str | None, seated: bool) -> Viewer:
        """resolve_viewer, and with identity on the seat must be the caller's own."""
        if token is None and seated and self.identity_on:
            raise unauthenticated(
                "MISSING_SEAT_TOKEN", f"send '{identity.SEAT_HEADER}: <seat token>'"
            )
        viewer = resolve_viewer(match, meta, token, seated)
        who = identity.current()
        if who is not None and viewer.seat is not None:
            if meta.get(field.proof_of(who.key)) != str(viewer.seat):
                raise ServiceError(
                    grpc.StatusCode.PERMISSION_DENIED,
                    "SEAT_NOT_YOURS",
                    "the seat token is for a seat another person holds",
                )
        return viewer

    async def viewer(self, match_name: str, context, *, seated: bool) -> Viewer:
        """Resolve match and seat token; spectators only where allowed."""
        match = match_id_of(match_name)
        token = self.seat_token(context)
        hashes = tokens.stored_hashes(token) if token else []
        who = identity.current()
        meta = await self.store.meta.viewer(match, hashes, who.key if who and token else None)
        if meta is None:
            raise not_found("match", match_name)
        viewer = self.resolve(match, meta, token, seated)
        request_context.note(match=match, game=viewer.game, seat=viewer.seat)
        return viewer

    async def still_seated(self, viewer: Viewer, sub: Subscription | None = None) -> None:
        """Refuse (SEAT_TOKEN_REVOKED) once the viewer's token no longer holds its seat;
        else note the match's seat version (on the subscription too)."""
        seat, version = await self.store.seat_and_version(viewer.match, viewer.token_hash)
        if seat != viewer.seat:
            raise revoked()
        viewer.seat_version = version
        if sub is not None:
            sub.seat_version = version

    @contextlib.contextmanager
    def revocable(self, viewer: Viewer, sub: Subscription):
        """End the subscription when the viewer's seat token is revoked, on any gateway
        (pushed: revocation.py), and re-check the token before a private event committed
        after some revocation in the match (Subscription.guard)."""
        if viewer.token_hash is None:
            yield
            return
        sub.seat_version = viewer.seat_version
        sub.guard = lambda: self.still_seated(viewer, sub)
        with self.revocations.watch(viewer.match, viewer.token_hash, sub.end):
            yield
