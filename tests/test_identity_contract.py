"""Issue 34: the public protos' comments name each platform refusal with the gRPC code the
code answers (parlour/rpc/reasons.py; DESIGN, Quality bars: INVALID_ARGUMENT is malformed
input, FAILED_PRECONDITION is illegal now, e.g. identity off on this gateway)."""

from __future__ import annotations

import re
from pathlib import Path

import grpc
import pytest

from parlour.rpc.reasons import PLATFORM_REASONS

PROTOS = Path(__file__).resolve().parents[1] / "protos"
CODES = "|".join(grpc.StatusCode.__members__)
#: "<CODE> <REASON>" in a comment, possibly across a line break.
PAIR = re.compile(rf"\b({CODES})\s+(?://\s*)?([A-Z][A-Z0-9_]+)\b")


def test_proto_comments_name_each_reason_with_its_code():
    """Every "<CODE> <REASON>" a proto comment names for a platform reason is the code the
    gateway answers with (inviting subjects without identity: FAILED_PRECONDITION)."""
    named = [
        (path.name, code, reason)
        for path in sorted(PROTOS.rglob("*.proto"))
        for code, reason in PAIR.findall(path.read_text())
        if reason in PLATFORM_REASONS
    ]
    assert ("gateway.proto", "FAILED_PRECONDITION", "IDENTITY_NOT_ENABLED") in named
    wrong = [n for n in named if PLATFORM_REASONS[n[2]][0] != n[1]]
    assert not wrong, f"proto comments disagree with parlour/rpc/reasons.py: {wrong}"


async def served_signin(settings) -> dict:
    """GET /api/signin from a real serve-web app on loopback."""
    import asyncio
    import json
    import socket
    import urllib.request

    import uvicorn

    from parlour.web.server import web_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    server = uvicorn.Server(
        uvicorn.Config(web_app("127.0.0.1:1", settings), log_level="warning", lifespan="on")
    )
    task = asyncio.create_task(server.serve(sockets=[sock]))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/api/signin"
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        body = await asyncio.to_thread(lambda: urllib.request.urlopen(url, timeout=5).read())
        return json.loads(body)
    finally:
        server.should_exit = True
        await task


async def test_the_page_learns_the_provider_from_serve_web_settings():
    """Issue 34 item 2: /api/signin names the provider and client id when both are set
    ({} without: the page works as before); one without the other stops serve-web."""
    from parlour.settings import BadSetting, load
    from parlour.web.signin import SigninSettings

    given = {"PARLOUR_OIDC_ISSUER": "https://id.example", "PARLOUR_OIDC_CLIENT_ID": "web"}
    assert await served_signin(load(SigninSettings, {})) == {}
    assert await served_signin(load(SigninSettings, given)) == {
        "issuer": "https://id.example", "client_id": "web", "scope": "openid profile"
    }
    with pytest.raises(BadSetting, match="PARLOUR_OIDC_CLIENT_ID"):
        load(SigninSettings, {"PARLOUR_OIDC_ISSUER": "https://id.example"})
