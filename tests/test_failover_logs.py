"""Issue 40: during a Redis fail-over the servers' background steps (timers, ratings, the
matchmaker, the gateway's feeds and listeners, the outbox) meet refusals they expect and
handle: each is logged as one warning line with its stable reason (and the match), and a
traceback is kept for what nobody expected."""

from __future__ import annotations

import json
import logging

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ReadOnlyError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from parlour.rpc.errors import log_failure
from parlour.rpc.logs import JsonFormatter
from parlour.store.replication import NotReplicated

log = logging.getLogger("parlour.test.failover")


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (NotReplicated(0, 1), "NOT_REPLICATED"),
        (ReadOnlyError("You can't write against a read only replica."), "STORAGE_UNAVAILABLE"),
        (ResponseError("NOREPLICAS Not enough good replicas to write."), "STORAGE_UNAVAILABLE"),
        (ResponseError("MASTERDOWN Link with MASTER is down"), "STORAGE_UNAVAILABLE"),
        (RedisConnectionError("The previous master is now a slave"), "STORAGE_UNAVAILABLE"),
        (RedisTimeoutError("Timeout reading from socket"), "STORAGE_UNAVAILABLE"),
        (ConnectionResetError(104, "Connection reset by peer"), "STORAGE_UNAVAILABLE"),
    ],
)
def test_an_expected_storage_failure_is_one_warning_line_with_its_reason(caplog, error, reason):
    """A demoted primary's refusal, a broken connection or a write not replicated: one
    warning, its reason and match as fields, no traceback."""
    with caplog.at_level(logging.WARNING, logger=log.name):
        log_failure(log, "timer poll failed", error, match="m1")
    [record] = caplog.records
    assert (record.levelno, record.exc_info) == (logging.WARNING, None)
    line = JsonFormatter().format(record)
    entry = json.loads(line)
    assert "\n" not in line and "exc" not in entry
    assert (entry["msg"], entry["reason"], entry["match"]) == ("timer poll failed", reason, "m1")
    assert entry["error"] == repr(error)


def test_an_unexpected_failure_keeps_its_traceback(caplog):
    """Anything else is an error with its traceback."""
    try:
        raise ValueError("a bug")
    except ValueError as error:
        with caplog.at_level(logging.WARNING, logger=log.name):
            log_failure(log, "timer poll failed", error, match="m1")
    [record] = caplog.records
    assert record.levelno == logging.ERROR and record.exc_info is not None
    entry = json.loads(JsonFormatter().format(record))
    assert "ValueError: a bug" in entry["exc"] and entry["match"] == "m1"
