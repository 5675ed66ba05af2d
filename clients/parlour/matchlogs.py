"""`parlour replay` and `parlour verify`: fetch, print, save and check match logs."""

from __future__ import annotations

import json

from google.protobuf import json_format

from parlour.engine import versions
from parlour.engine.audit import opens
from parlour.engine.away import date_words
from parlour.engine.game import Game
from parlour.engine.registry import get_game
from parlour.engine.replay import LogEvent, ReplayDiverged, check_events, replay
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc


class VerifyFailed(Exception):
    """The log does not hold up: its seed, an action, an event or the outcome."""


class RulesVersionUnavailable(Exception):
    """The log needs a rules version this installation does not play: it cannot be checked
    here (which says nothing against the log)."""

    def __init__(self, game: str, version: int) -> None:
        super().__init__(
            f"this log needs {game} rules version {version}, which this installation does "
            f"not play (it plays {game} rules version "
            f"{', '.join(map(str, get_game(game).served_versions()))}): verify it where "
            f"version {version} is installed"
        )
        self.version = version


async def fetch_log(channel, match: str, token: str | None, reveal_all: bool) -> gw.MatchLog:
    """GetMatchLog for the holder of `token` (None: a spectator)."""
    metadata = (("authorization", f"Bearer {token}"),) if token else None
    request = gw.GetMatchLogRequest(match=match, reveal_all=reveal_all)
    response = await gw_grpc.GatewayServiceStub(channel).GetMatchLog(request, metadata=metadata)
    return response.log


def to_json(log: gw.MatchLog) -> str:
    """A log as JSON (the game's messages spelled out); its game must be registered."""
    get_game(log.game)  # registers the game's message types for the Any fields
    return json_format.MessageToJson(log, sort_keys=True)


def from_json(text: str) -> gw.MatchLog:
    """A log saved by `parlour replay --save`."""
    try:
        game = json.loads(text)["game"]
        get_game(game)
        return json_format.Parse(text, gw.MatchLog())
    except (KeyError, ValueError, json_format.ParseError) as error:
        raise VerifyFailed(f"not a match log: {error}") from None


def away_words(pause: gw.SeatAway) -> str:
    """A logged pause as `parlour replay` prints it."""
    if not pause.until_unix_ms:
        return "is back"
    return f"is away until {date_words(pause.until_unix_ms)}"


def lines(log: gw.MatchLog) -> list[str]:
    """The log as text: each action, then the events it caused."""
    game = get_game(log.game)
    who = "everything" if log.reveal_all else (
        f"seat {log.seat}" if log.HasField("seat") else "a spectator"
    )
    out = [f"{log.match} ({log.game}, {log.seats} seats) as seen by {who}"]
    out.append(f"rules version {log.rules_version or versions.FIRST} at creation")
    out.append(f"seed commitment {log.audit.commitment.hex()}")
    actions = {a.version: a for a in log.actions}
    shown: set[int] = set()
    for item in log.events:
        event = item.event
        if event.version in actions and event.version not in shown:
            shown.add(event.version)
            logged, action = actions[event.version], game.action_type()
            who = "the platform" if logged.migrated_to else f"seat {event.actor}"
            said = (
                f"moves the match to rules version {logged.migrated_to}"
                if logged.migrated_to
                else away_words(logged.away)
                if logged.HasField("away")
                else f"asks to take back v{logged.undo_requested}"
                if logged.undo_requested
                else f"answers an undo request ({gw.UndoAnswer.Name(logged.undo_answer)})"
                if logged.undo_answer
                else f"takes back v{logged.undoes}"
                if logged.undoes
                else game.describe_action(action)
                if logged.action.Unpack(action)
                else "?"
            )
            out.append(f"v{event.version} {who}: {said}")
        audience = f" [{item.audience}]" if item.audience else ""
        out.append(f"  #{event.sequence} {event.text}{audience}")
    if log.audit.HasField("seed"):
        out.append(f"seed {log.audit.seed}, salt {log.audit.salt.hex()}")
    out.append(f"outcome: {log.outcome.summary or list(log.outcome.scores)}")
    return out


def verify(log: gw.MatchLog, game: Game | None = None) -> str:
    """Check the seed opens the commitment and recompute every shuffle, roll and event, each
    stretch of the log under the rules version it was played with (`game`: the build to
    use, default the installed one); RulesVersionUnavailable if it lacks a version."""
    if not log.audit.HasField("seed"):
        raise VerifyFailed("the log reveals no seed (the match keeps its secrets)")
    if not opens(log.audit.commitment, log.audit.seed, log.audit.salt):
        raise VerifyFailed("the seed and salt do not open the published commitment")
    if not log.reveal_all:
        raise VerifyFailed("only a 'reveal all' log holds every action (replay --all)")
    game = game or get_game(log.game)
    created = log.rules_version or versions.FIRST
    missing = versions.needed(game, created, log.actions)
    if missing:
        raise RulesVersionUnavailable(log.game, missing[0])
    options = game.options_type()
    if not log.options.Unpack(options):
        raise VerifyFailed("the options are not the game's Options")
    for version, logged in enumerate(log.actions, start=2):
        if logged.version != version:
            raise VerifyFailed(f"action {version - 1} is out of order")
    logged_events = [
        LogEvent(
            sequence=e.event.sequence,
            version=e.event.version,
            actor=e.event.actor,
            event=e.event.event.SerializeToString(deterministic=True),
            text=e.event.text,
            audience=e.audience,
        )
        for e in log.events
    ]
    try:
        replayed = replay(game, options, log.seats, log.audit.seed, log.actions, created)
        check_events(replayed.events, logged_events, None, reveal_all=True)
    except ReplayDiverged as error:
        raise VerifyFailed(str(error)) from None
    except ValueError as error:
        raise VerifyFailed(f"the match cannot be set up again: {error}") from None
    outcome = replayed.outcome
    if outcome is None or (list(outcome.scores), list(outcome.winners)) != (
        list(log.outcome.scores),
        list(log.outcome.winners),
    ):
        raise VerifyFailed("the recomputed outcome differs from the logged one")
    played = " then ".join(str(v) for v in versions.versions_of(created, log.actions))
    return (
        f"verified: the seed opens the commitment and {len(log.actions)} actions recompute all "
        f"{len(logged_events)} events and the outcome (rules version {played})"
    )
