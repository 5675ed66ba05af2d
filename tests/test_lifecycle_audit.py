"""Issue 17 item 3, auditable randomness: a seed commitment at creation, the seed and salt
revealed at the end, and `parlour verify` recomputing every shuffle from the saved log."""

from __future__ import annotations

import json

import grpc
import pytest
from lifecycle_support import (
    cli,
    client_fixture,
    new_match,
    play_out,
    reason,
    stack_fixture,
)

from parlour.engine.audit import commitment, opens
from parlour.gateway.v1 import gateway_pb2 as gw

stack = stack_fixture()
client = client_fixture()


async def finished_match(client, seed=None, **lifecycle):
    match, players = await new_match(client, seed=seed, **lifecycle)
    await play_out(players, seed=3)
    return match, players


async def test_commitment_published_at_creation_seed_revealed_at_end(client):
    """Item 3: the commitment is public from creation; seed and salt only once it is over."""
    match, players = await new_match(client)
    assert len(match.audit.commitment) == 32
    assert not match.audit.HasField("seed") and not match.audit.salt
    await play_out(players, seed=1)
    final = await client.match(match.name)
    assert final.status == gw.MATCH_STATUS_FINISHED
    assert final.audit.commitment == match.audit.commitment
    assert opens(final.audit.commitment, final.audit.seed, final.audit.salt)


async def test_commitment_hides_a_chosen_seed(client):
    """Item 3: two matches with the same seed publish different commitments (salted)."""
    first, _ = await new_match(client, seed=42)
    second, _ = await new_match(client, seed=42)
    assert first.audit.commitment != second.audit.commitment
    assert first.audit.commitment != commitment(42, b"")


async def test_log_refused_before_the_end(client):
    """Item 2/3: no log (so no seed) while the match is being played."""
    match, players = await new_match(client)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await client.stub.GetMatchLog(
            gw.GetMatchLogRequest(match=match.name, reveal_all=True), metadata=players[0].metadata
        )
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert reason(refused.value) == "MATCH_NOT_FINISHED"


async def test_secret_after_end_reveals_nothing(client):
    """Item 3 + 2: a match that keeps its secrets never shows its seed nor a full log."""
    match, players = await finished_match(client, secret_after_end=True)
    final = await client.match(match.name)
    assert final.status == gw.MATCH_STATUS_FINISHED
    assert len(final.audit.commitment) == 32 and not final.audit.HasField("seed")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await client.stub.GetMatchLog(gw.GetMatchLogRequest(match=match.name, reveal_all=True))
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert reason(refused.value) == "REVEAL_NOT_ALLOWED"
    own = await client.stub.GetMatchLog(
        gw.GetMatchLogRequest(match=match.name), metadata=players[1].metadata
    )
    assert not own.log.audit.HasField("seed") and own.log.seat == 1


def saved_log(stack, match, path) -> dict:
    done = cli("replay", match.name, "--gateway", stack.address, "--all", "--save", str(path))
    assert done.returncode == 0, done.stderr
    assert "as seen by everything" in done.stdout
    return json.loads(path.read_text())


async def test_verify_passes_on_a_real_finished_match(client, stack, tmp_path):
    """Item 3: `parlour verify` accepts the saved log of a match played through the gateway."""
    match, _ = await finished_match(client)
    path = tmp_path / "match.json"
    saved_log(stack, match, path)
    done = cli("verify", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("verified: the seed opens the commitment")


def tamper_seed(log):
    log["audit"]["seed"] = str(int(log["audit"]["seed"]) + 1)


def tamper_salt(log):
    log["audit"]["salt"] = "AAAAAAAAAAAAAAAAAAAAAA=="


def tamper_text(log):
    log["events"][0]["event"]["text"] = "Seat 1 wins everything"


def tamper_event(log):
    log["events"].pop(1)


def tamper_action(log):
    log["actions"][0], log["actions"][1] = log["actions"][1], log["actions"][0]


def tamper_action_seat(log):
    log["actions"][0]["seat"] = 1 - log["actions"][0].get("seat", 0)


def tamper_outcome(log):
    log["outcome"]["scores"] = [str(int(s) + 1) for s in log["outcome"]["scores"]]


@pytest.mark.parametrize(
    ("tamper", "says"),
    [
        (tamper_seed, "do not open the published commitment"),
        (tamper_salt, "do not open the published commitment"),
        (tamper_text, "differs from the recomputed event"),
        (tamper_event, "differs from the recomputed event"),
        (tamper_action, "out of order"),
        (tamper_action_seat, "is refused"),
        (tamper_outcome, "outcome differs"),
    ],
)
async def test_verify_fails_on_a_tampered_log(client, stack, tmp_path, tamper, says):
    """Item 3: changing the seed, salt, an event, an action or the outcome fails verify."""
    match, _ = await finished_match(client)
    path = tmp_path / "match.json"
    log = saved_log(stack, match, path)
    tamper(log)
    path.write_text(json.dumps(log))
    done = cli("verify", str(path))
    assert done.returncode == 1
    assert "FAILED" in done.stderr and says in done.stderr, done.stderr
