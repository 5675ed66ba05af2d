"""Issue 11 item 1, "self-describing contracts": the public API imports nothing internal, its
type URLs are complete, and a gateway process that never imports game code serves every
game's messages by reflection (v1 and v1alpha), so `buf curl` works with no local schema."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
from pathlib import Path

import grpc
import pytest
import yaml
from google.protobuf import any_pb2, descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection_pb2 as alpha

from parlour.engine.registry import game_modules, get_game
from parlour.gateway import public
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2
from parlour.launcher import LocalStack
from parlour.rules.v1 import rules_pb2 as rules

ROOT = Path(__file__).resolve().parent.parent
# loaded by path: a top-level `buf` package (protovalidate's generated code) may be imported
_spec = importlib.util.spec_from_file_location("buf_tool", ROOT / "tools" / "buf.py")
buf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(buf)

GAMES = game_modules()
SERVICE = "parlour.gateway.v1.GatewayService"


def test_public_protos_import_nothing_internal():
    """Issue 11 item 1: parlour.gateway.v1 imports only its own files and well-known types
    (no parlour.rules, no googleapis), so loading it needs no other file."""
    for file in (gw.DESCRIPTOR, gateway_service_pb2.DESCRIPTOR):
        for dependency in file.dependencies:
            name = dependency.name
            assert name.startswith(("google/protobuf/", "parlour/gateway/v1/", "buf/validate/")), (
                f"{file.name} imports {name}"
            )


#: Internal fields only the store holds: `LoggedAction.request_id_hex` (an SDK request id as
#: 16 bytes) is turned back into `request_id` by rules/records.py before a log leaves the
#: rules service (tests/test_store_finished_bytes.py).
STORED_ONLY = {("LoggedAction", "request_id_hex")}


def layout(descriptor) -> list[tuple]:
    """What the wire and JSON forms of a message depend on, field by field."""
    return [(f.name, f.number, f.type, f.is_repeated) for f in descriptor.fields]


@pytest.mark.parametrize(
    "name",
    [
        "Decision",
        "Outcome",
        "MatchProgress",
        "ActResult",
        "SeedAudit",
        "LoggedAction",
        "SeatClock",
        "UndoRequest",
    ],
)
def test_public_messages_keep_the_internal_wire_layout(name):
    """Issue 11 item 1: the public copies convert by bytes, so every field must agree (but
    a stored-only field, which the store's readers clear before anything converts)."""
    internal = [f for f in layout(getattr(rules, name).DESCRIPTOR)
                if (name, f[0]) not in STORED_ONLY]
    assert layout(getattr(gw, name).DESCRIPTOR) == internal
    progress = rules.MatchProgress(version=3, last_sequence=9)
    progress.pending.add(seat=1, kind="turn", deadline_unix_ms=7)
    progress.outcome.scores[:] = [4, 2]
    assert public.progress(progress).pending[0].kind == "turn"
    assert public.progress(progress).pending[0].deadline_unix_ms == 7
    assert public.progress(progress).outcome.scores == [4, 2]


@pytest.mark.parametrize("name", ["Variant", "TableText", "TableSection", "TableItem"])
def test_public_words_keep_the_engine_wire_layout(name):
    """Issue 24 / 28 item 6: the table's words and the variants convert by bytes from the
    engine's messages (parlour.engine.v1), which the public API does not import."""
    engine = descriptor_pool.Default().FindMessageTypeByName(f"parlour.engine.v1.{name}")
    assert layout(getattr(gw, name).DESCRIPTOR) == layout(engine)


def test_public_game_info_extends_the_internal_one():
    """Issue 11 item 1: GameInfo keeps every internal field (old clients read the same bytes)
    and adds complete type URLs."""
    internal = layout(rules.GameInfo.DESCRIPTOR)
    assert set(internal) <= set(layout(gw.GameInfo.DESCRIPTOR))
    info = public.game_info(rules.GameInfo(game="x", options_type="p.v1.Options"))
    assert (info.options_type, info.options_type_url) == (
        "p.v1.Options", "type.googleapis.com/p.v1.Options"
    )


def test_accepted_breaks_keep_the_wire_form():
    """Issue 11 / DESIGN "buf breaking": every break accepted in breaking-accepted.yaml moves
    a field to a public message with the old one's fields (numbers, names, types), so old
    clients read and write the same bytes and JSON."""
    pool = descriptor_pool.Default()
    accepted = yaml.safe_load((ROOT / buf.ACCEPTED).read_text())["accepted"]
    assert accepted
    for entry in accepted:
        assert entry["rule"] == "FIELD_SAME_TYPE" and entry["reason"].strip()
        old, new = re.search(r'from "(.+)" to "(.+)"', entry["message"]).groups()
        assert new.startswith("parlour.gateway.v1."), entry["message"]
        old_fields = layout(pool.FindMessageTypeByName(old))
        assert set(old_fields) <= set(layout(pool.FindMessageTypeByName(new)))


@pytest.fixture(scope="module")
def stack():
    """Every game's rules service and a gateway, each its own process."""
    with LocalStack(GAMES) as running:
        yield running


def reflect(address: str, method: str, request: alpha.ServerReflectionRequest):
    with grpc.insecure_channel(address) as channel:
        call = channel.stream_stream(
            method,
            request_serializer=alpha.ServerReflectionRequest.SerializeToString,
            response_deserializer=alpha.ServerReflectionResponse.FromString,
        )
        return next(iter(call(iter([request]), timeout=10)))


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
def test_reflection_serves_the_platform_events(stack, version):
    """Issue 11 item 1: the events the platform streams beside a game's (a turn timer ran
    out, an undo, an abandoned seat) resolve by reflection too."""
    method = f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo"
    for name in ("TimedOut", "Undone", "Abandoned"):
        symbol = f"parlour.engine.v1.{name}"
        answer = reflect(
            stack.address, method, alpha.ServerReflectionRequest(file_containing_symbol=symbol)
        )
        assert answer.HasField("file_descriptor_response"), symbol


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
def test_reflection_serves_every_games_messages(stack, version):
    """Issue 11 item 1: reflection (v1 and v1alpha) of the gateway describes the public API
    and every game's Options, Action, Event, View and Catalogue."""
    method = f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo"
    listed = reflect(stack.address, method, alpha.ServerReflectionRequest(list_services=""))
    names = {s.name for s in listed.list_services_response.service}
    assert {SERVICE, f"grpc.reflection.{version}.ServerReflection"} <= names
    for game in GAMES:
        package = get_game(game).action_type.DESCRIPTOR.file.package
        for message in ("Options", "Action", "Event", "View", "Catalogue"):
            symbol = f"{package}.{message}"
            answer = reflect(
                stack.address, method, alpha.ServerReflectionRequest(file_containing_symbol=symbol)
            )
            assert answer.HasField("file_descriptor_response"), symbol
            files = [
                descriptor_pb2.FileDescriptorProto.FromString(raw)
                for raw in answer.file_descriptor_response.file_descriptor_proto
            ]
            assert any(
                f.package == package and message in {m.name for m in f.message_type}
                for f in files
            ), symbol


def buf_curl(address: str, method: str, body: dict, *extra: str) -> dict:
    """`buf curl` with reflection only (no --schema), as a newcomer would call it."""
    command = [
        str(buf.buf_binary()), "curl", "--protocol", "grpc", "--http2-prior-knowledge",
        *extra, "-d", json.dumps(body), f"http://{address}/{SERVICE}/{method}",
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_buf_curl_plays_with_no_schema(stack):
    """Issue 11 "done when": buf curl lists and calls the methods with no --schema, type URLs
    are complete, and it decodes a game's catalogue and View."""
    listing = subprocess.run(
        [str(buf.buf_binary()), "curl", "--protocol", "grpc", "--http2-prior-knowledge",
         "--list-methods", f"http://{stack.address}"],
        capture_output=True, text=True, timeout=60,
    )
    assert listing.returncode == 0, listing.stderr
    assert f"{SERVICE}/Play" in listing.stdout and f"{SERVICE}/ListGames" in listing.stdout
    games = buf_curl(stack.address, "ListGames", {})["games"]
    assert sorted(g["info"]["game"] for g in games) == GAMES
    for entry in games:
        info, game = entry["info"], get_game(entry["info"]["game"])
        for field, message in [
            ("optionsTypeUrl", game.options_type), ("actionTypeUrl", game.action_type),
            ("eventTypeUrl", game.event_type), ("viewTypeUrl", game.view_type),
        ]:
            packed = any_pb2.Any()
            packed.Pack(message())
            assert info[field] == packed.type_url
        assert info["catalogue"]["@type"].endswith(".Catalogue") and len(info["catalogue"]) > 1
    for name in ("isayholmes", "tinycards"):
        match = buf_curl(
            stack.address, "CreateMatch", {"game": name, "seats": 3, "allowSpectators": True}
        )["match"]
        joined = buf_curl(stack.address, "JoinMatch", {"match": match["name"], "displayName": "a"})
        for protocol in ("grpc-v1", "grpc-v1alpha"):
            view = buf_curl(
                stack.address, "GetView", {"match": match["name"]},
                "-H", f"authorization: Bearer {joined['seatToken']}",
                "--reflect-protocol", protocol,
            )
            assert view["view"]["@type"] == f"type.googleapis.com/parlour.games.{name}.v1.View"
            assert view.get("seat", 0) == joined.get("seat", 0)
