"""Issue 42 item 6: a rules deploy never breaks a match. Real processes behind one gateway
against real Redis: Tiny Cards at rules version 1 (the installed game) and throwaway builds
at version 2 (tests/tinycards_v2.py: played cards score double).

A v1 match finishes on v1 while new matches start on v2; with the v1 replicas stopped a v1
match is refused RULES_VERSION_UNAVAILABLE, never played by v2; a replica with migration on
moves it to v2 once (a RulesUpdated event everyone sees) and its log verifies across the
change; finished v1 matches still verify where v1 is loaded.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from edge_helpers import error_info
from tinycards_v2 import TinyCardsV2

from parlour import matchlogs
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from parlour.launcher import LocalStack, Process, wait_serving
from parlour.store.server import free_port

BUILD = str(Path(__file__).with_name("tinycards_v2.py"))
#: Seconds the gateway may take to notice a replica come or go (it probes every 0.2 s).
NOTICE_SECONDS = 30


def start_v2(stack: LocalStack, port: int, **env: str) -> Process:
    """A rules replica of a version-2 build of Tiny Cards, as its own process."""
    extra = {**stack.pki.env_for_rules(), **env}
    proc = stack.spawn("rules:tinycards-v2", [sys.executable, BUILD], extra, port=port)
    tls = stack.rules_client_tls()
    proc.credentials, proc.options = tls.channel_credentials(), tls.channel_options()
    wait_serving(proc)
    return proc


def route(stack: LocalStack, closing: contextlib.ExitStack, addresses: list[str]):
    """(Re)start the gateway in front of these Tiny Cards replicas; a stub to it."""
    stack.gateway.stop()
    stack.gateway = stack.start_gateway(f"tinycards={','.join(addresses)}")
    wait_serving(stack.gateway)
    return gw_grpc.GatewayServiceStub(closing.enter_context(stack.gateway.channel()))


def seat(token: str) -> tuple:
    return (("authorization", f"Bearer {token}"),)


class Players:
    """Both seats of one match, through the gateway."""

    def __init__(self, api: gw_grpc.GatewayServiceStub, match: gw.Match) -> None:
        self.api, self.match = api, match.name
        self.tokens = [
            api.JoinMatch(gw.JoinMatchRequest(match=self.match, seat=s)).seat_token
            for s in range(2)
        ]

    def resource(self) -> gw.Match:
        return self.api.GetMatch(gw.GetMatchRequest(match=self.match)).match

    def act(self) -> gw.SubmitActionResponse:
        """The pending seat plays its first legal action."""
        pending = self.resource().progress.pending[0].seat
        token = seat(self.tokens[pending])
        listed = self.api.ListActions(gw.ListActionsRequest(match=self.match), metadata=token)
        request = gw.SubmitActionRequest(match=self.match, action=listed.actions[0])
        return self.api.SubmitAction(request, metadata=token)

    def finish(self) -> gw.Match:
        while not (match := self.resource()).progress.HasField("outcome"):
            self.act()
        return match

    def log(self) -> gw.MatchLog:
        request = gw.GetMatchLogRequest(match=self.match, reveal_all=True)
        return self.api.GetMatchLog(request, metadata=seat(self.tokens[0])).log


def create(api: gw_grpc.GatewayServiceStub) -> Players:
    request = gw.CreateMatchRequest(game="games/tinycards", seats=2, allow_spectators=True)
    return Players(api, api.CreateMatch(request).match)


def versions(api: gw_grpc.GatewayServiceStub) -> gw.GameInfo:
    """Tiny Cards' GameInfo as ListGames gives it (empty while no replica is live)."""
    games = api.ListGames(gw.ListGamesRequest()).games
    return games[0].info if games else gw.GameInfo()


def wait_for(what: str, check) -> None:
    """Poll `check` until it holds (the gateway notices replicas by probing)."""
    deadline = time.monotonic() + NOTICE_SECONDS
    while not check():
        assert time.monotonic() < deadline, f"the gateway did not notice: {what}"
        time.sleep(0.1)


def refused(call) -> tuple[grpc.StatusCode, str, dict]:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    info = error_info(caught.value)
    return caught.value.code(), info.reason, dict(info.metadata)


def test_a_rules_deploy_never_breaks_a_match(tmp_path):
    env = {"PARLOUR_PROBE_SECONDS": "0.2", "PARLOUR_DISCOVERY_SECONDS": "0.2"}
    with LocalStack(["tinycards"], env=env) as stack:
        (v1,) = stack.rules["tinycards"]
        ports = {name: free_port() for name in ("v2", "migrating", "both")}
        later = [f"127.0.0.1:{p}" for p in ports.values()]
        with contextlib.ExitStack() as closing:
            api = route(stack, closing, [v1.address, *later])
            wait_for("v1 serving", lambda: versions(api).served_rules_versions == [1])
            finishing, stranded = create(api), create(api)
            assert finishing.resource().rules_version == stranded.resource().rules_version == 1
            finishing.act(), stranded.act()

            # a v2 build joins: new matches start on v2, the v1 match finishes on v1
            stack.rules["tinycards"].append(start_v2(stack, ports["v2"]))
            wait_for("v2 serving", lambda: versions(api).rules_version == 2)
            assert versions(api).served_rules_versions == [1, 2]
            fresh = create(api)
            assert fresh.resource().rules_version == 2
            ended = fresh.finish()
            assert all(score % 2 == 0 for score in ended.progress.outcome.scores)
            assert finishing.finish().rules_version == 1
            old_log = finishing.log()
            assert old_log.rules_version == 1
            assert "(rules version 1)" in matchlogs.verify(old_log)
            with pytest.raises(matchlogs.RulesVersionUnavailable, match="version 2"):
                matchlogs.verify(fresh.log())  # the installed Tiny Cards is version 1
            saved = tmp_path / "v2.json"
            saved.write_text(matchlogs.to_json(fresh.log()))
            checked = subprocess.run(
                [sys.executable, "-m", "parlour.cli", "verify", str(saved)],
                capture_output=True, text=True, timeout=120,
            )
            assert checked.returncode == 3 and "CANNOT CHECK HERE" in checked.stderr
            assert "needs tinycards rules version 2" in checked.stderr
            assert "(rules version 2)" in matchlogs.verify(fresh.log(), TinyCardsV2())

            # the v1 replicas stop: the v1 match is refused, not played by v2
            before = stranded.resource().progress.version
            v1.stop()
            stack.rules["tinycards"].remove(v1)
            api = route(stack, closing, later)  # as the v1 Deployment's pods leave its Service
            for players in (finishing, stranded, fresh):
                players.api = api
            code, reason, details = refused(stranded.act)
            assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "RULES_VERSION_UNAVAILABLE")
            assert details["rules_version"] == "1"
            assert stranded.resource().progress.version == before
            _, reason, _ = refused(finishing.log)
            assert reason == "RULES_VERSION_UNAVAILABLE"

            # the host turns migration on: the match moves to v2 once and plays on
            migrating = start_v2(stack, ports["migrating"], PARLOUR_MIGRATE_RULES="1")
            stack.rules["tinycards"].append(migrating)
            wait_for("migration", lambda: versions(api).migrates_from_rules_versions == [1])
            stranded.act()
            assert stranded.resource().rules_version == 2
            assert stranded.finish().rules_version == 2
            _, reason, details = refused(stranded.log)  # needs v1 for its first stretch
            assert (reason, details["rules_version"]) == ("RULES_VERSION_UNAVAILABLE", "1")

            # a build keeping v1 behind the recorded version replays both stretches
            both = start_v2(stack, ports["both"], PARLOUR_TEST_TINYCARDS_SERVES="1,2")
            stack.rules["tinycards"].append(both)
            wait_for("v1 and v2", lambda: versions(api).served_rules_versions == [1, 2])
            log = stranded.log()
            moved = [a for a in log.actions if a.migrated_to]
            assert [(a.migrated_to, a.seat) for a in moved] == [(2, -1)]
            notices = [e.event.text for e in log.events if e.event.version == moved[0].version]
            assert notices == ["The rules were updated to version 2 (from 1)."]
            shown = "\n".join(matchlogs.lines(log))
            assert "rules version 1 at creation" in shown
            assert f"v{moved[0].version} the platform: moves the match to rules version 2" in shown
            patched = TinyCardsV2(keeps_version_1=True)
            assert "(rules version 1 then 2)" in matchlogs.verify(log, patched)
            with pytest.raises(matchlogs.RulesVersionUnavailable):
                matchlogs.verify(log, TinyCardsV2())
            assert "(rules version 1)" in matchlogs.verify(finishing.log())
