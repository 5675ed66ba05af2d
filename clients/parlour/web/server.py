"""`parlour serve-web`: the browser client and the Connect endpoint, beside a gateway.

    /parlour.gateway.v1.GatewayService/*   Connect, gRPC-Web and gRPC, relayed to the gateway
    POST /api/bots {match, count, strategy} seats bots (a `parlour bots` process) in a match
    GET /api/signin                         the OIDC provider the page signs in with ({}: none)
    /                                       the web client (clients/web/dist)
"""

from __future__ import annotations

import contextlib
import re
import subprocess
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from parlour.client.strategies import STRATEGIES
from parlour.client.table import start_bots
from parlour.web.connect import PATH, GatewayConnectApp, GatewayRelay
from parlour.web.signin import SigninSettings

#: The web client's bundle: in the package when installed from a wheel, else the tree's.
_PACKAGED = Path(__file__).resolve().parent / "dist"
DIST = _PACKAGED if _PACKAGED.is_dir() else Path(__file__).resolve().parents[2] / "web" / "dist"
MATCH_NAME = re.compile(r"^matches/[0-9a-f]{1,64}$")
MAX_BOT_PROCESSES = 32


class BotKeeper:
    """The `parlour bots` processes started on request; finished ones are reaped."""

    def __init__(self, gateway: str) -> None:
        self.gateway = gateway
        self.running: list[subprocess.Popen] = []

    def start(self, match: str, count: int, strategy: str) -> None:
        self.running = [p for p in self.running if p.poll() is None]
        if len(self.running) >= MAX_BOT_PROCESSES:
            raise OverflowError("too many bot processes")
        self.running.append(start_bots(self.gateway, match, count, strategy))

    def stop(self) -> None:
        for process in self.running:
            process.terminate()
        for process in self.running:
            process.wait()


def bad(reason: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"reason": reason, "message": message}, status_code=status)


def web_app(gateway: str, signin: SigninSettings | None = None):
    """The ASGI app: Connect relay, bots endpoint, sign-in settings and static client."""
    page_signin = signin.page_settings() if signin is not None else {}
    relay = GatewayRelay(gateway)
    connect = GatewayConnectApp(relay)
    bots = BotKeeper(gateway)

    async def add_bots(request: Request) -> JSONResponse:
        try:
            body = await request.json()
        except ValueError:
            return bad("MALFORMED_JSON", "the body is not JSON")
        if not isinstance(body, dict):
            return bad("MALFORMED_JSON", "the body must be an object")
        match, count = body.get("match"), body.get("count")
        strategy = body.get("strategy", "ismcts")
        if not isinstance(match, str) or not MATCH_NAME.match(match):
            return bad("BAD_MATCH", "match must look like matches/<id>")
        if not isinstance(count, int) or not 1 <= count <= 7:
            return bad("BAD_COUNT", "count must be 1 to 7")
        if strategy not in STRATEGIES:
            return bad("BAD_STRATEGY", f"strategy must be one of {', '.join(STRATEGIES)}")
        try:
            bots.start(match, count, strategy)
        except OverflowError as error:
            return bad("TOO_MANY_BOTS", str(error), 429)
        return JSONResponse({"match": match, "count": count, "strategy": strategy})

    async def signin_settings(_request: Request) -> JSONResponse:
        return JSONResponse(page_signin)

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        try:
            yield
        finally:
            bots.stop()
            await relay.close()

    site = Starlette(
        routes=[
            Route("/api/bots", add_bots, methods=["POST"]),
            Route("/api/signin", signin_settings, methods=["GET"]),
            Mount("/", StaticFiles(directory=DIST, html=True)),
        ],
        lifespan=lifespan,
    )

    async def app(scope, receive, send):
        if scope["type"] == "http" and scope["path"].startswith(PATH + "/"):
            await connect(scope, receive, send)
        else:
            await site(scope, receive, send)

    return app


def serve(gateway: str, host: str, port: int, on_ready=None,
          signin: SigninSettings | None = None) -> None:
    """Serve until interrupted; `on_ready(url)` once listening."""
    config = uvicorn.Config(web_app(gateway, signin), host=host, port=port,
                            log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    if on_ready is not None:
        original = server.startup

        async def startup(sockets=None):
            await original(sockets)
            bound = server.servers[0].sockets[0].getsockname()[1]
            on_ready(f"http://{host}:{bound}/")

        server.startup = startup
    server.run()
