"""Issue 34 item 2: a person signs in on the web page with OpenID Connect (authorization
code + PKCE) against a real provider the test starts (`oidc-provider-mock`: discovery,
JWKS, the code flow, refresh tokens), and plays; the gateway verifies the ID tokens with
the provider's JWKS. The ID token lives 70 s: the page renews it before it expires (with
the refresh token) and, past the first token's expiry, still plays and follows the match
(its stream re-opened with the new token). Debian's chromium driven by Playwright."""

from __future__ import annotations

import asyncio
import shutil
import socket
import threading
import time
import urllib.parse
from datetime import timedelta
from pathlib import Path

import flask
import httpx
import pytest
import uvicorn
import werkzeug.serving
from test_table_browser import LEGAL

from parlour.client import GatewayClient
from parlour.web.server import web_app
from parlour.web.signin import SigninSettings
from stack import running_stack

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--no-first-run"]
CLIENT_ID = "parlour-web"
#: Seconds an ID token lives; oidc-client-ts renews 60 s before the end.
LIFETIME = 70
WAIT_S = 60

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium"),
    # the mock provider imports authlib modules authlib itself deprecates
    pytest.mark.filterwarnings("ignore::DeprecationWarning:authlib"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:oidc_provider_mock"),
]


def same_auth_time(mock):
    """The mock's ID tokens, whose auth_time stays the sign-in's in refreshed ones."""

    class SameAuthTime(mock.OpenIDCode):
        signed_in: dict[str, int] = {}

        def get_compatible_claims(self, request):
            claims = super().get_compatible_claims(request)
            claims["auth_time"] = self.signed_in.setdefault(request.user.sub, claims["auth_time"])
            return claims

    return SameAuthTime


class Provider:
    """oidc-provider-mock on loopback, in a thread. Two things a browser client needs
    that real providers do and the mock does not: CORS on its endpoints, public clients
    (no secret: token_endpoint_auth_method "none"), and a fresh ID token in a refresh
    answer, with the sign-in's auth_time (OpenID Connect Core 12.2; Keycloak, Auth0,
    Google do)."""

    def __init__(self) -> None:
        import oidc_provider_mock
        from oidc_provider_mock import _app as mock

        app = oidc_provider_mock.app(access_token_max_age=timedelta(seconds=LIFETIME))
        SameAuthTime = same_auth_time(mock)  # noqa: N806 - a class

        public = ["client_secret_basic", "client_secret_post", "none"]
        code = type("PublicCode", (mock.AuthorizationCodeGrant,), {
            "TOKEN_ENDPOINT_AUTH_METHODS": public})
        refresh = type("PublicRefresh", (mock.RefreshTokenGrant,), {
            "TOKEN_ENDPOINT_AUTH_METHODS": public})

        @app.before_request
        def public_client_and_refresh_with_id_token() -> None:
            server = flask.g._authlib_authorization_server
            if not getattr(server, "parlour_grants", False):
                server._authorization_grants, server._token_grants = [], []
                openid = SameAuthTime(False, timedelta(seconds=LIFETIME))
                server.register_grant(code, [openid])
                server.register_grant(refresh, [openid])
                server.parlour_grants = True

        @app.after_request
        def cors(response):
            response.headers["Access-Control-Allow-Origin"] = "*"
            return response

        self.server = werkzeug.serving.make_server("127.0.0.1", 0, app, threaded=True)
        self.issuer = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.refreshes = 0

    def close(self) -> None:
        self.server.shutdown()

    def id_token(self, subject: str) -> str:
        """An ID token for `subject` through the code flow over HTTP (the other player)."""
        back = "http://127.0.0.1/back"
        query = urllib.parse.urlencode({"client_id": CLIENT_ID, "redirect_uri": back,
                                        "response_type": "code", "scope": "openid",
                                        "state": "s"})
        with httpx.Client(base_url=self.issuer) as http:
            answer = http.post(f"/oauth2/authorize?{query}", data={"sub": subject})
            code = urllib.parse.parse_qs(urllib.parse.urlsplit(answer.headers["location"]).query)
            token = http.post("/oauth2/token", data={
                "grant_type": "authorization_code", "code": code["code"][0],
                "redirect_uri": back, "client_id": CLIENT_ID,
            })
            return token.json()["id_token"]


class Person:
    """Someone whose ID token is fetched again once half its life is gone."""

    def __init__(self, provider: Provider, subject: str) -> None:
        self.provider, self.subject = provider, subject
        self.at, self.current = 0.0, ""

    def token(self) -> str:
        if time.monotonic() - self.at > LIFETIME / 2:
            self.current, self.at = self.provider.id_token(self.subject), time.monotonic()
        return self.current


async def web_server(address: str, signin: SigninSettings):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    app = web_app(address, signin)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    return server, task, f"http://127.0.0.1:{sock.getsockname()[1]}/"


async def my_turn(page, deadline: float) -> bool:
    """Wait until the page offers choices (True) or the game is over (False)."""
    choices = page.locator(LEGAL)
    while time.monotonic() < deadline:
        if "Game over." in await page.locator("body").inner_text():
            return False
        shown = await choices.evaluate_all("bs => bs.map(b => b.disabled)")
        if shown and not any(shown):
            return True
        await asyncio.sleep(0.05)
    raise TimeoutError("the page never offered a choice")


async def play(page, seat, count: int) -> int:
    """Play on (Bob by the SDK, Ada by the page's first choice) until Ada made `count`
    moves or the match is over; Ada's moves."""
    moves = 0
    while moves < count:
        progress = (await seat.get_view()).progress
        if progress.HasField("outcome"):
            break
        if progress.pending[0].seat == seat.seat:
            await seat.submit((await seat.actions()).actions[0])
            continue
        if not await my_turn(page, time.monotonic() + WAIT_S):
            break
        await page.locator(LEGAL).first.click()  # a card or the deck, on the board
        moves += 1
        deadline = time.monotonic() + WAIT_S
        while (await seat.get_view()).progress.version == progress.version:
            assert time.monotonic() < deadline, "Ada's move was not committed"
            await asyncio.sleep(0.05)
    return moves


async def expires_at(page) -> int:
    return int(await page.evaluate("document.body.dataset.identityExpires || 0"))


async def test_a_person_signs_in_with_openid_connect_and_plays(redis_url):
    """Ada signs in at the provider (code + PKCE), creates a match and plays it against
    Bob (SDK, his own ID token); her token is renewed before it expires, and after the
    first token's expiry she still plays and sees Bob's moves."""
    from playwright.async_api import async_playwright

    provider = Provider()
    auth = {"auth_jwks_url": f"{provider.issuer}/jwks", "auth_issuer": provider.issuer,
            "auth_audience": CLIENT_ID, "auth_leeway_seconds": 0}
    signin = SigninSettings(oidc_issuer=provider.issuer, oidc_client_id=CLIENT_ID)
    bob = Person(provider, "bob@example.com")
    try:
        async with (
            running_stack(redis_url, heartbeat_seconds=0.5, **auth) as (address, _),
            GatewayClient(address, identity_token=bob.token) as bob_client,
        ):
            server, task, url = await web_server(address, signin)
            pw = await async_playwright().start()
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            try:
                page = await browser.new_page()
                logs: list[str] = []
                page.on("console", lambda m: logs.append(m.text))
                await page.goto(url)
                await page.get_by_role("heading", name="Authorize Client").wait_for()
                assert page.url.startswith(provider.issuer)
                assert "code_challenge_method=S256" in page.url
                await page.get_by_placeholder("sub").fill("ada@example.com")
                await page.get_by_role("button", name="Authorize").click()
                await page.get_by_text("Signed in as ada@example.com").wait_for()
                first_expiry = await expires_at(page)
                assert first_expiry > time.time()

                await page.get_by_role("heading", name="New match").wait_for()
                game = page.get_by_label("Game", exact=True)
                await game.select_option(label="Tiny Cards (test game)")
                await page.get_by_label("Bots", exact=True).fill("0")
                await page.get_by_label("Your name").fill("Ada")
                await page.get_by_role("button", name="Create and sit down").click()
                await page.wait_for_url("**#join=matches/*")
                match = page.url.split("#join=")[1]
                seat = await bob_client.join(match, "Bob")

                moves = await play(page, seat, 1)
                deadline = time.monotonic() + WAIT_S
                while await expires_at(page) <= first_expiry:
                    assert time.monotonic() < deadline, f"the token was never renewed: {logs}"
                    await asyncio.sleep(0.2)
                await asyncio.sleep(max(0.0, first_expiry + 2 - time.time()))
                after = await play(page, seat, 2)
                assert moves == 1, logs
                assert after >= 1, f"no move after the first token's expiry: {logs}"
                assert "IDENTITY" not in await page.locator("body").inner_text()
            finally:
                await browser.close()
                await pw.stop()
                server.should_exit = True
                await task
    finally:
        provider.close()
