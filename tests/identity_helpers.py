"""Issue 25's test identity provider: a key pair the test makes, its JWKS served over
loopback HTTP, tokens signed with it (or deliberately wrong), and a gateway stack that
verifies them."""

from __future__ import annotations

import contextlib
import http.server
import json
import threading
import time
import uuid

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from stack import running_stack

ISSUER = "https://idp.test.invalid/realms/parlour"
AUDIENCE = "parlour-gateway"
KID = "test-key-1"


def new_key():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


class Provider:
    """A provider: signs tokens, publishes its public key as a JWKS on loopback HTTP."""

    def __init__(self) -> None:
        self.key = new_key()
        self.impostor = new_key()
        jwk = json.loads(RSAAlgorithm.to_jwk(self.key.public_key()))
        jwk.update(kid=KID, use="sig", alg="RS256")
        self.jwks = json.dumps({"keys": [jwk]}).encode()
        self.fetches = 0
        #: Subjects are unique to this provider, so tests sharing Redis never meet.
        self.run = uuid.uuid4().hex[:8]
        provider = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                provider.fetches += 1
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(provider.jwks)))
                self.end_headers()
                self.wfile.write(provider.jwks)

            def log_message(self, *args) -> None:
                pass

        self.http = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/certs"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()

    def subject(self, name: str) -> str:
        """The subject claim of the person called `name`."""
        return f"{name}@{self.run}"

    def token(self, name: str, *, key=None, **claims) -> str:
        """A token for `name`, valid for 5 minutes unless `claims` say otherwise."""
        now = int(time.time())
        body = {
            "sub": self.subject(name),
            "iss": ISSUER,
            "aud": AUDIENCE,
            "iat": now,
            "exp": now + 300,
        }
        body.update(claims)
        return jwt.encode(body, key or self.key, algorithm="RS256", headers={"kid": KID})

    def bad_tokens(self, subject: str) -> dict[str, tuple[str | None, str]]:
        """Case -> (token or None, the reason the gateway must answer)."""
        now = int(time.time())
        return {
            "no token": (None, "IDENTITY_MISSING"),
            "expired": (
                self.token(subject, iat=now - 900, exp=now - 600),
                "IDENTITY_EXPIRED",
            ),
            "wrong issuer": (
                self.token(subject, iss="https://elsewhere.invalid/"),
                "IDENTITY_WRONG_ISSUER",
            ),
            "wrong audience": (self.token(subject, aud="someone-else"), "IDENTITY_WRONG_AUDIENCE"),
            "bad signature": (self.token(subject, key=self.impostor), "IDENTITY_BAD_SIGNATURE"),
        }


def metadata(jwt_token: str | None, seat_token: str | None = None) -> tuple:
    """Call metadata with identity on: the JWT in authorization, the seat token beside it."""
    pairs = []
    if jwt_token is not None:
        pairs.append(("authorization", f"Bearer {jwt_token}"))
    if seat_token is not None:
        pairs.append(("x-parlour-seat-token", seat_token))
    return tuple(pairs)


@contextlib.asynccontextmanager
async def identity_stack(redis_url: str, provider: Provider, **options):
    """A gateway verifying the provider's tokens, and a rules service (real gRPC, Redis)."""
    async with running_stack(
        redis_url,
        auth_jwks_url=provider.url,
        auth_issuer=ISSUER,
        auth_audience=AUDIENCE,
        **options,
    ) as running:
        yield running


async def snapshot(redis) -> dict[bytes, bytes]:
    """Every parlour key and its serialized value: equal snapshots, no state change."""
    keys = sorted(await redis.keys("parlour:*"))
    return {key: await redis.dump(key) for key in keys}
