"""Issue 9 item 17: the gateway's rules links survive a quiet period. Both ends take their
keepalive from PARLOUR_KEEPALIVE_SECONDS and the servers accept pings at that rate, so no
link is dropped for "too many pings".

The fast test scales the interval down (1 s pings, 12 s quiet: more pings than a 3-minute
quiet link gets at the default 20 s); the slow one waits 3 minutes at the defaults."""

from __future__ import annotations

import asyncio

import pytest

from parlour.client import GatewayClient
from parlour.launcher import LocalStack


async def quiet_link_survives(env: dict[str, str], quiet_seconds: float) -> None:
    with LocalStack(["tinycards"], env=env) as stack:
        async with GatewayClient(stack.address) as client:
            match = await client.create_match("tinycards", 2, seed=9)
            players = [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
            response = await players[0].submit((await players[0].actions()).actions[0])
            # The subject of the test is time passing on an idle link, so it sleeps.
            await asyncio.sleep(quiet_seconds)
            mover = players[response.result.progress.pending[0].seat]
            after = await mover.submit((await mover.actions()).actions[0])
        assert after.result.progress.version == response.result.progress.version + 1
        assert stack.gateway.metric("parlour_rules_link_failures_total") == 0


async def test_item17_quiet_link_survives_scaled_keepalive():
    """1 s keepalive on every process, 12 s without a call: the ActStream link stays up."""
    await quiet_link_survives({"PARLOUR_KEEPALIVE_SECONDS": "1"}, 12)


@pytest.mark.slow
async def test_item17_quiet_link_survives_three_minutes_at_default_keepalive():
    """The default 20 s keepalive, 3 minutes without a call (`pytest -m slow`)."""
    await quiet_link_survives({}, 185)
