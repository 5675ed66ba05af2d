"""Issue 11 item 2: every error reason and decision kind is declared with a description and
published in docs/reference.md, generated from the code; Play acks carry the BadRequest
field violations that unary errors carry."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import grpc
import pytest
from grpc_status import rpc_status

from parlour import reference
from parlour.client import GatewayClient
from parlour.engine import runtime
from parlour.engine.registry import game_modules, get_game
from parlour.engine.rng import Rng
from parlour.games.tinycards.v1 import tinycards_pb2 as tc
from parlour.rpc.reasons import PLATFORM_REASONS
from stack import running_stack

ROOT = Path(__file__).resolve().parent.parent
REASON = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^[A-Z]{4,}$")
GAMES = game_modules()


DECLARATIONS = {"reference.py", "reasons.py"}


def sources(root: Path) -> list[Path]:
    """Source files that may raise reasons (not tests, generated code or the declarations)."""
    return [
        p
        for p in root.rglob("*.py")
        if "tests" not in p.parts and "_pb2" not in p.name and p.name not in DECLARATIONS
    ]


def _literal(node) -> list[str]:
    if isinstance(node, ast.IfExp):
        return _literal(node.body) + _literal(node.orelse)
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and REASON.match(node.value):
        return [node.value]
    return []


def reason_positions(trees) -> dict[str, int]:
    """Callable name -> position of its `reason` parameter (classes by their __init__)."""
    found = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                        names = [a.arg for a in item.args.args][1:]
                        if "reason" in names:
                            found[node.name] = names.index("reason")
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names = [a.arg for a in node.args.args]
                if "reason" in names and node.name != "__init__":
                    found.setdefault(node.name, names.index("reason"))
    return found


def raised_reasons(paths: list[Path], positions: dict[str, int]) -> dict[str, str]:
    """Reasons the code can raise -> where: literals passed as a `reason` argument or given
    to a `reason` variable or default, (REASON, message) refusal pairs, and values of
    *REASONS* tables."""
    out: dict[str, str] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            hits = []
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name in positions and len(node.args) > positions[name]:
                    hits.append(node.args[positions[name]])
                hits += [k.value for k in node.keywords if k.arg == "reason"]
            elif isinstance(node, ast.Tuple) and len(node.elts) == 2:
                if isinstance(node.elts[1], ast.Constant | ast.JoinedStr):
                    hits.append(node.elts[0])
            elif isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
                if "reason" in names:
                    hits.append(node.value)
                if isinstance(node.value, ast.Dict) and any("REASON" in n for n in names):
                    hits += node.value.values
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                args = node.args.args
                named = [a.arg for a in args[len(args) - len(node.args.defaults) :]]
                hits += [d for a, d in zip(named, node.args.defaults, strict=True) if a == "reason"]
            for hit in hits:
                for value in _literal(hit):
                    out.setdefault(value, f"{path.relative_to(ROOT)}:{hit.lineno}")
    return out


ALL_SOURCES = sources(ROOT / "services") + sources(ROOT / "gateway") + sources(ROOT / "clients")
POSITIONS = reason_positions([ast.parse(p.read_text()) for p in ALL_SOURCES])


def test_the_scanner_sees_the_known_ways_of_raising():
    """The scan finds reasons raised directly, through helpers and through tables."""
    assert POSITIONS["IllegalAction"] == 0 and POSITIONS["ServiceError"] == 1
    found = raised_reasons(ALL_SOURCES, POSITIONS)
    for reason in ("NOT_YOUR_TURN", "SEAT_TAKEN", "MATCH_FULL", "VERSION_MISMATCH"):
        assert reason in found


def test_every_platform_reason_is_declared():
    """Issue 11 item 2: a reason raised outside the games is in PLATFORM_REASONS."""
    platform = [p for p in ALL_SOURCES if "parlour/games/" not in p.as_posix()]
    undeclared = {
        r: where
        for r, where in raised_reasons(platform, POSITIONS).items()
        if r not in PLATFORM_REASONS
    }
    assert not undeclared, f"declare these in parlour/rpc/reasons.py: {undeclared}"
    for reason, (code, text) in PLATFORM_REASONS.items():
        assert code in grpc.StatusCode.__members__ and text, reason


@pytest.mark.parametrize("name", GAMES)
def test_every_game_reason_is_declared_with_a_description(name):
    """Issue 11 item 2: a reason a game's code can raise is in its reasons (or the platform's),
    and every declared reason has a description."""
    game = get_game(name)
    folder = ROOT / "services" / "parlour" / "games" / name
    undeclared = {
        r: where
        for r, where in raised_reasons(sources(folder), POSITIONS).items()
        if r not in game.reasons and r not in PLATFORM_REASONS
    }
    assert not undeclared, f"declare these in {name}'s reasons: {undeclared}"
    assert all(text.strip() for text in game.reasons.values())
    assert all(text.strip() for text in game.decision_kinds.values())


@pytest.mark.parametrize("name", GAMES)
def test_reasons_and_decisions_met_in_play_are_declared(name):
    """Issue 11 item 2: in random playouts, every decision kind owed and every reason a stale
    action is refused with is declared."""
    game = get_game(name)
    seen_kinds, seen_reasons = set(), set()
    for config, (options, seats) in enumerate(game.test_configurations()[:3]):
        rng = Rng.from_seed(config)
        state = game.new_state(options, seats, 40 + config)
        stale = []
        for _ in range(min(game.max_actions, 400)):
            pending = runtime.pending(game, state)
            if not pending:
                break
            seen_kinds |= {d.kind for d in pending}
            seat = pending[rng.below(len(pending))].seat
            for action in stale[:3]:
                try:
                    runtime.apply(game, state, seat, action)
                except runtime.IllegalAction as error:
                    seen_reasons.add(error.reason)
            stale = runtime.legal_actions(game, state, seat)
            state, _ = runtime.apply(game, state, seat, stale[rng.below(len(stale))])
    assert seen_kinds and seen_kinds <= set(game.decision_kinds)
    assert seen_reasons <= set(game.reasons) | set(PLATFORM_REASONS)


def test_reference_document_is_generated_from_the_code():
    """Issue 11 "done when": docs/reference.md is what `python -m parlour.reference` writes,
    and README's API section links it."""
    assert reference.DOC.read_text() == reference.render(), "run: python -m parlour.reference"
    text = reference.DOC.read_text()
    for name in GAMES:
        game = get_game(name)
        assert all(f"`{r}`" in text for r in game.reasons)
        assert all(f"`{k}`" in text for k in game.decision_kinds)
    api = (ROOT / "README.md").read_text().split("## The API", 1)[1].split("\n## ", 1)[0]
    assert "docs/reference.md" in api


async def test_play_acks_carry_field_violations_like_unary_errors(redis_url):
    """Issue 11 item 2: a refused action on Play carries the BadRequest field violations and
    reason that the same action refused by unary SubmitAction carries."""
    async with running_stack(redis_url, heartbeat_seconds=0.2) as (address, _):
        async with GatewayClient(address) as client:
            match = await client.create_match("tinycards", 2, seed=1)
            player = await client.join(match.name, "p0", seat=0)
            wrong = tc.View()
            with pytest.raises(grpc.aio.AioRpcError) as unary:
                await player.submit(wrong)
            status = rpc_status.from_call(unary.value)
            session = player.session()
            session.send(wrong, request_id="bad")
            while not (message := await session.receive()).HasField("ack"):
                pass
            session.cancel()
    ack = message.ack
    assert ack.code == status.code and ack.reason == "WRONG_MESSAGE_TYPE"
    assert [(v.field, v.reason) for v in ack.field_violations] == [("action", ack.reason)]
    assert "action" in status.details[1].value.decode(errors="ignore")
