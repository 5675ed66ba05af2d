"""A real HTTP webhook receiver for the notification tests: a Starlette app under uvicorn in a
thread, verifying each POST's signature and processing each idempotency key once."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from parlour.notify.notifier import verify
from parlour.store.server import free_port


class Receiver:
    """Records every delivery; with `hang_next`, the next one is processed, then never
    answered."""

    def __init__(self, secret: str) -> None:
        self.secret = secret
        self.received: list[dict] = []  # every delivery: key, body, signature ok
        self.processed: dict[str, dict] = {}  # idempotency key -> the notice, once
        self.duplicates: list[str] = []
        self.hang_next = False
        self.hung: list[str] = []
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/hook"
        app = Starlette(routes=[Route("/hook", self.hook, methods=["POST"])])
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    async def hook(self, request: Request) -> Response:
        body = await request.body()
        key = request.headers.get("idempotency-key", "")
        ok = verify(self.secret, request.headers.get("parlour-signature", ""), body)
        self.received.append({"key": key, "body": body, "ok": ok,
                              "type": request.headers.get("content-type")})
        if not ok:
            return Response(status_code=400)
        if key in self.processed:
            self.duplicates.append(key)
        else:
            self.processed[key] = json.loads(body)
        if self.hang_next:  # processed, never answered: the sender must try again
            self.hang_next = False
            self.hung.append(key)
            await asyncio.sleep(3600)
        return Response(status_code=204)

    def notices(self, kind: str | None = None, match: str | None = None) -> list[dict]:
        return [n for n in self.processed.values()
                if (kind is None or n["type"] == kind) and (match is None or n["match"] == match)]

    def __enter__(self) -> Receiver:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        with contextlib.suppress(Exception):
            self.thread.join(10)
