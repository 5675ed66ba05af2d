"""Issue 44 item 3, the clients' lists: the SDK's `my_matches` and `parlour matches` show a
signed-in person's matches as "Your turn" and "Waiting for others", with the time left as a
date when it is long."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from identity_helpers import identity_stack

from parlour.client import GatewayClient
from parlour.client.mymatches import split, time_left
from parlour.gateway.v1 import gateway_pb2 as gw

HOUR = 3_600_000


def test_time_left_is_a_date_when_long():
    """Minutes, hours, then days with the date."""
    assert time_left(0) == "no clock"
    assert time_left(5 * 60_000, 0) == "5 min left"
    assert time_left(2 * HOUR + 5 * 60_000, 0) == "2 h 5 min left"
    assert time_left(72 * HOUR, 0) == "3 days left (until Sun 4 Jan 00:00 UTC)"


async def test_sdk_and_terminal_list_your_turn_and_waiting(redis_url, provider, tmp_path):
    """Alice (seat 0, to move) sees the 3-day match under "Your turn"; Bob under "Waiting for
    others"; after Alice moves they swap."""
    async with identity_stack(redis_url, provider) as (address, _):
        alice_jwt, bob_jwt = provider.token("alice"), provider.token("bob")
        async with GatewayClient(address, identity_token=alice_jwt) as alice, \
                GatewayClient(address, identity_token=bob_jwt) as bob:
            lifecycle = gw.LifecycleOptions(correspondence=gw.Correspondence(hours_per_move=72))
            match = (await alice.stub.CreateMatch(gw.CreateMatchRequest(
                game="tinycards", seats=2, lifecycle=lifecycle))).match
            seat0 = await alice.join(match.name, "Alice", seat=0)
            await bob.join(match.name, "Bob", seat=1)
            yours, waiting = split(await alice.my_matches())
            assert [m.match.name for m in yours] == [match.name] and not waiting
            yours, waiting = split(await bob.my_matches())
            assert [m.match.name for m in waiting] == [match.name] and not yours

            token = tmp_path / "alice.jwt"
            token.write_text(alice_jwt)
            shown = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-m", "parlour.cli", "matches", "--gateway", address,
                 "--token-file", str(token)],
                capture_output=True, text=True, timeout=120,
            )
            assert shown.returncode == 0, shown.stderr
            text = shown.stdout
            assert text.index("Your turn:") < text.index(match.name) < text.index("Waiting")
            assert "2 days left (until" in text

            action = (await seat0.legal_actions())[0][0]
            await seat0.submit(action)
            assert [m.match.name for m in split(await bob.my_matches())[0]] == [match.name]
            assert [m.match.name for m in split(await alice.my_matches())[1]] == [match.name]
