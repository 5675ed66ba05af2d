"""Issue 12 item 3: the web endpoint speaks Connect (JSON and binary) and gRPC-Web for
GatewayService, relays refusals with their code and reason, and bounds its bots request."""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import urllib.error
import urllib.request

import pytest
import uvicorn

from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.web.server import web_app
from stack import running_stack

SERVICE = "parlour.gateway.v1.GatewayService"


@pytest.fixture
async def web(redis_url):
    async with running_stack(redis_url, games=("tinycards",)) as (address, _):
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        server = uvicorn.Server(
            uvicorn.Config(web_app(address), log_level="warning", lifespan="on")
        )
        task = asyncio.create_task(server.serve(sockets=[sock]))
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
        server.should_exit = True
        await task


def post(url: str, body: bytes, content_type: str) -> tuple[int, bytes, dict]:
    request = urllib.request.Request(url, body, {"content-type": content_type}, method="POST")
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


async def call(url: str, body: bytes, content_type: str):
    return await asyncio.to_thread(post, url, body, content_type)


async def test_connect_json_and_binary(web):
    """Issue 12 item 3: Connect unary calls in JSON (game messages as typed Any) and binary."""
    status, body, _ = await call(f"{web}/{SERVICE}/ListGames", b"{}", "application/json")
    assert status == 200
    (game,) = json.loads(body)["games"]
    assert game["info"]["catalogue"]["@type"].endswith("parlour.games.tinycards.v1.Catalogue")
    request = gw.CreateMatchRequest(game="tinycards", seats=2, request_id="r1")
    status, body, _ = await call(
        f"{web}/{SERVICE}/CreateMatch", request.SerializeToString(), "application/proto"
    )
    assert status == 200
    assert gw.CreateMatchResponse.FromString(body).match.game == "tinycards"


async def test_refusals_keep_their_code_and_reason(web):
    """Issue 12 item 3: the gateway's NOT_FOUND and its reason reach the browser."""
    status, body, _ = await call(
        f"{web}/{SERVICE}/GetMatch", b'{"match": "matches/abc"}', "application/json"
    )
    assert status == 404
    error = json.loads(body)
    assert error["code"] == "not_found" and error["message"].startswith("MATCH_NOT_FOUND")


async def test_grpc_web(web):
    """Issue 12 item 3: a gRPC-Web call: one framed message, then trailers with status 0."""
    message = gw.ListGamesRequest().SerializeToString()
    frame = struct.pack(">BI", 0, len(message)) + message
    status, body, _ = await call(f"{web}/{SERVICE}/ListGames", frame, "application/grpc-web+proto")
    assert status == 200
    flag, size = struct.unpack(">BI", body[:5])
    assert flag == 0
    assert gw.ListGamesResponse.FromString(body[5 : 5 + size]).games[0].name == "games/tinycards"
    trailer_flag, trailer_size = struct.unpack(">BI", body[5 + size : 10 + size])
    assert trailer_flag == 0x80
    assert b"grpc-status:0" in body[10 + size : 10 + size + trailer_size].replace(b" ", b"")


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"not json", "MALFORMED_JSON"),
        (b'{"match": "matches/zz!", "count": 1}', "BAD_MATCH"),
        (b'{"match": "matches/ab", "count": 9}', "BAD_COUNT"),
        (b'{"match": "matches/ab", "count": 1, "strategy": "cheat"}', "BAD_STRATEGY"),
    ],
)
async def test_bots_request_is_bounded(web, body, reason):
    """Issue 12 item 3: the page's bots request is checked before any process starts."""
    status, answer, _ = await call(f"{web}/api/bots", body, "application/json")
    assert status == 400
    assert json.loads(answer)["reason"] == reason
