"""Issue 25, item 1: the gateway's token check against a provider's key set served over
loopback HTTP (or a file): keys cached and refreshed on rotation, unknown key ids not a
way to make the gateway fetch on every call, a provider that is down, algorithm
confusion refused, and the settings that turn it on checked."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import time

import grpc
import jwt
import pytest
from edge_helpers import error_info
from identity_helpers import AUDIENCE, ISSUER, KID, metadata, new_key
from jwt.algorithms import RSAAlgorithm

from parlour.gateway.config import GatewaySettings
from parlour.gateway.identity import Verifier
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from parlour.rpc.errors import ServiceError
from parlour.settings import BadSetting, load
from stack import running_stack


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


async def reason_of(verifier: Verifier, token: str) -> str:
    with pytest.raises(ServiceError) as refused:
        await verifier.verify(token)
    return refused.value.reason


async def test_keys_are_cached_and_a_rotated_key_is_fetched(provider):
    """Many calls fetch the key set once; after the provider rotates to a new key id, a
    token signed with it makes the verifier fetch again and passes."""
    verifier = Verifier.from_url(provider.url, ISSUER, AUDIENCE, min_refetch=0)
    for _ in range(5):
        assert (await verifier.verify(provider.token("alice"))).subject == provider.subject("alice")
    assert provider.fetches == 1
    rotated = new_key()
    jwk = json.loads(RSAAlgorithm.to_jwk(rotated.public_key()))
    jwk.update(kid="test-key-2", use="sig", alg="RS256")
    provider.jwks = json.dumps({"keys": [jwk]}).encode()
    body = {"sub": "bob", "iss": ISSUER, "aud": AUDIENCE, "exp": 2**40}
    token = jwt.encode(body, rotated, algorithm="RS256", headers={"kid": "test-key-2"})
    assert (await verifier.verify(token)).subject == "bob"
    assert provider.fetches == 2


async def test_unknown_key_ids_do_not_make_a_fetch_per_call(provider):
    """Tokens naming keys nobody publishes are IDENTITY_UNKNOWN_KEY, and within the
    refetch interval they cause no further fetch."""
    verifier = Verifier.from_url(provider.url, ISSUER, AUDIENCE, min_refetch=60)
    await verifier.verify(provider.token("alice"))
    for n in range(5):
        body = {"sub": "x", "iss": ISSUER, "aud": AUDIENCE, "exp": 2**40}
        token = jwt.encode(body, provider.key, algorithm="RS256", headers={"kid": f"nope-{n}"})
        assert await reason_of(verifier, token) == "IDENTITY_UNKNOWN_KEY"
    assert provider.fetches == 1


async def test_a_provider_that_is_down(provider):
    """Never fetched: UNAVAILABLE IDENTITY_KEYS_UNAVAILABLE (retryable); fetched once, the
    set is kept while the provider is down."""
    token = provider.token("alice")
    cached = Verifier.from_url(provider.url, ISSUER, AUDIENCE, lifespan=0.01)
    await cached.verify(token)
    url = provider.url
    provider.close()
    never = Verifier.from_url(url, ISSUER, AUDIENCE)
    with pytest.raises(ServiceError) as refused:
        await never.verify(token)
    assert refused.value.code == grpc.StatusCode.UNAVAILABLE
    assert refused.value.reason == "IDENTITY_KEYS_UNAVAILABLE"
    assert (await cached.verify(token)).subject == provider.subject("alice")


async def test_a_key_set_in_a_file(provider, tmp_path):
    """PARLOUR_AUTH_JWKS_FILE: the same checks from a mounted file."""
    path = tmp_path / "jwks.json"
    path.write_bytes(provider.jwks)
    verifier = Verifier.from_file(path, ISSUER, AUDIENCE)
    assert (await verifier.verify(provider.token("alice"))).subject == provider.subject("alice")
    assert await reason_of(verifier, provider.token("a", aud="x")) == "IDENTITY_WRONG_AUDIENCE"


async def test_algorithm_confusion_and_unsigned_tokens_are_refused(provider):
    """A token 'signed' HS256 with the public key as the secret, or with alg none, or
    without a subject, is IDENTITY_MALFORMED; a token valid soon is not valid yet."""
    verifier = Verifier.from_url(provider.url, ISSUER, AUDIENCE, leeway=5)
    body = {"sub": "mallory", "iss": ISSUER, "aud": AUDIENCE, "exp": 2**40}
    public = RSAAlgorithm.to_jwk(provider.key.public_key()).encode()
    header = {"kid": KID, "alg": "HS256", "typ": "JWT"}
    signing = f"{b64(json.dumps(header).encode())}.{b64(json.dumps(body).encode())}"
    mac = hmac.new(public, signing.encode(), hashlib.sha256).digest()
    assert await reason_of(verifier, f"{signing}.{b64(mac)}") == "IDENTITY_MALFORMED"
    unsigned = jwt.encode(body, None, algorithm="none", headers={"kid": KID})
    assert await reason_of(verifier, unsigned) == "IDENTITY_MALFORMED"
    no_subject = {k: v for k, v in body.items() if k != "sub"}
    token = jwt.encode(no_subject, provider.key, algorithm="RS256", headers={"kid": KID})
    assert await reason_of(verifier, token) == "IDENTITY_MALFORMED"
    soon = provider.token("alice", nbf=int(time.time()) + 60)
    assert await reason_of(verifier, soon) == "IDENTITY_NOT_YET_VALID"
    assert await reason_of(verifier, "not-a-jwt") == "IDENTITY_MALFORMED"


@pytest.mark.parametrize(
    "settings",
    [
        {"PARLOUR_AUTH_JWKS_URL": "https://idp.invalid/certs"},
        {"PARLOUR_AUTH_ISSUER": ISSUER, "PARLOUR_AUTH_AUDIENCE": AUDIENCE},
        {
            "PARLOUR_AUTH_JWKS_URL": "ftp://idp.invalid/certs",
            "PARLOUR_AUTH_ISSUER": ISSUER,
            "PARLOUR_AUTH_AUDIENCE": AUDIENCE,
        },
        {"PARLOUR_TRUSTED_PROXIES": "10.0.0.0/33"},
    ],
)
def test_incomplete_identity_settings_are_refused(settings):
    """A key set without issuer and audience (or the reverse), a key set URL that is not
    HTTP(S), a CIDR that is not one: the gateway does not start."""
    with pytest.raises(BadSetting):
        load(GatewaySettings, {"PARLOUR_REDIS_URL": "redis://127.0.0.1:1", **settings})


async def test_a_gateway_with_a_key_file_checks_tokens(redis_url, provider, tmp_path):
    """A gateway configured with PARLOUR_AUTH_JWKS_FILE's form answers a call with a
    valid token and refuses one without (IDENTITY_MISSING)."""
    path = tmp_path / "jwks.json"
    path.write_bytes(provider.jwks)
    options = {"auth_jwks_file": str(path), "auth_issuer": ISSUER, "auth_audience": AUDIENCE}
    async with running_stack(redis_url, **options) as (address, _):
        async with grpc.aio.insecure_channel(address) as channel:
            stub = gw_grpc.GatewayServiceStub(channel)
            games = await stub.ListGames(
                gw.ListGamesRequest(), metadata=metadata(provider.token("a"))
            )
            assert [g.name for g in games.games] == ["games/tinycards"]
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.ListGames(gw.ListGamesRequest())
            assert error_info(refused.value).reason == "IDENTITY_MISSING"


async def test_a_stale_key_set_is_refreshed_in_the_background(provider):
    """Past its lifespan the set is still used for the call at hand while a fresh one is
    fetched beside it (no call waits on the provider)."""
    verifier = Verifier.from_url(provider.url, ISSUER, AUDIENCE, lifespan=0.05)
    await verifier.verify(provider.token("alice"))
    await asyncio.sleep(0.1)
    await verifier.verify(provider.token("bob"))
    async with asyncio.timeout(5):
        while provider.fetches < 2:
            await asyncio.sleep(0.01)
    assert provider.fetches == 2


async def test_a_remembered_token_still_expires(provider):
    """A verified token is remembered (its next calls skip the signature check) only until
    its exp: then it is IDENTITY_EXPIRED like any other."""
    verifier = Verifier.from_url(provider.url, ISSUER, AUDIENCE, leeway=0)
    token = provider.token("alice", exp=int(time.time()) + 2)
    assert (await verifier.verify(token)).subject == provider.subject("alice")
    assert (await verifier.verify(token)).subject == provider.subject("alice")
    await asyncio.sleep(3.1)
    assert await reason_of(verifier, token) == "IDENTITY_EXPIRED"
