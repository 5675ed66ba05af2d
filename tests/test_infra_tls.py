"""Issue 9 item 14: the rules port trusts only the gateway (mutual TLS); TLS on the public port.

Every certificate here comes from a throwaway CA generated at test time.
"""

from __future__ import annotations

import os
import subprocess
import sys

import grpc
import pytest

from parlour.client import GatewayClient
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from parlour.launcher import LocalStack, redacted
from parlour.rpc.pki import make_throwaway_pki
from parlour.rpc.tls import RULES_SERVER_NAME
from parlour.rules.v1 import rules_pb2, rules_service_pb2_grpc

NAME = [("grpc.ssl_target_name_override", RULES_SERVER_NAME)]


def describe(channel: grpc.Channel) -> rules_pb2.DescribeGameResponse:
    stub = rules_service_pb2_grpc.RulesServiceStub(channel)
    return stub.DescribeGame(rules_pb2.DescribeGameRequest(), timeout=5)


def read(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


@pytest.fixture(scope="module")
def stack():
    with LocalStack(["tinycards"], public_tls=True) as running:
        yield running


def test_item14_rules_port_refuses_plaintext_callers(stack):
    """A caller that does not speak TLS gets nothing from a rules port."""
    rules = stack.rules["tinycards"][0]
    with grpc.insecure_channel(rules.address) as channel, pytest.raises(grpc.RpcError) as refused:
        describe(channel)
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE


def test_item14_rules_port_refuses_tls_callers_without_client_certificate(stack):
    """Trusting the CA is not enough: without the client certificate the handshake fails."""
    rules = stack.rules["tinycards"][0]
    credentials = grpc.ssl_channel_credentials(root_certificates=read(stack.pki.ca))
    with grpc.secure_channel(rules.address, credentials, options=NAME) as channel:
        with pytest.raises(grpc.RpcError) as refused:
            describe(channel)
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE


def test_item14_rules_port_refuses_certificates_from_another_ca(stack, tmp_path):
    """A client certificate signed by any other CA is refused."""
    rules = stack.rules["tinycards"][0]
    other = make_throwaway_pki(tmp_path)
    credentials = grpc.ssl_channel_credentials(
        root_certificates=read(stack.pki.ca),
        private_key=read(other.gateway.key),
        certificate_chain=read(other.gateway.cert),
    )
    with grpc.secure_channel(rules.address, credentials, options=NAME) as channel:
        with pytest.raises(grpc.RpcError) as refused:
            describe(channel)
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE


def test_item14_rules_port_serves_the_gateway_certificate(stack):
    """The gateway's certificate (the one the stack gives the gateway) is accepted."""
    with stack.rules["tinycards"][0].channel() as channel:
        assert describe(channel).game.game == "tinycards"


async def test_item14_public_port_speaks_tls_and_matches_play_through_mutual_tls(stack):
    """With PARLOUR_TLS_CERT/KEY the public port is TLS-only; a match played through it with
    the SDK's TLS credentials (issue 11 item 5) reaches the rules service over mutual TLS."""
    with grpc.insecure_channel(stack.address) as channel, pytest.raises(grpc.RpcError) as plain:
        gw_grpc.GatewayServiceStub(channel).ListGames(gw.ListGamesRequest(), timeout=5)
    assert plain.value.code() == grpc.StatusCode.UNAVAILABLE
    credentials = grpc.ssl_channel_credentials(root_certificates=read(stack.pki.ca))
    async with GatewayClient(stack.address, credentials=credentials) as client:
        match = await client.create_match("tinycards", 2, seed=3)
        player = await client.join(match.name, "p0")
        response = await player.submit((await player.actions()).actions[0])
    assert response.result.progress.version == 2


def test_item14_incomplete_tls_settings_stop_the_rules_service_with_a_message(redis_url):
    """Half a TLS configuration is refused at start, naming what is missing."""
    env = {"PARLOUR_REDIS_URL": redis_url, "PARLOUR_INTERNAL_TLS_CA": "/nonexistent/ca.pem"}
    proc = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "serve-rules", "tinycards"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode != 0
    assert "PARLOUR_INTERNAL_TLS_CA" in proc.stderr and "Traceback" not in proc.stderr


def test_item14_printed_redis_url_hides_the_password():
    """`parlour up` prints the Redis URL with the password masked."""
    assert redacted("redis://:s3cret@db:6379/0") == "redis://:***@db:6379/0"
    assert redacted("redis://app:s3cret@db/0") == "redis://app:***@db/0"
    assert redacted("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
