"""Prometheus metrics shared by the servers, exposed when PARLOUR_METRICS_PORT is set."""

from __future__ import annotations

import os

from prometheus_client import Counter, Gauge, Histogram, start_http_server

_GRPC = ["grpc_service", "grpc_method", "grpc_type"]
GRPC_STARTED = Counter("grpc_server_started_total", "RPCs started on the server.", _GRPC)
GRPC_HANDLED = Counter(
    "grpc_server_handled_total",
    "RPCs completed on the server, by status code.",
    [*_GRPC, "grpc_code"],
)
GRPC_SECONDS = Histogram(
    "grpc_server_handling_seconds",
    "Time from the start of an RPC to its end (streams: their whole life).",
    _GRPC,
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60, 600),
)
OPEN_STREAMS = Gauge(
    "parlour_open_streams", "Streaming RPCs open on this server.", ["grpc_service", "grpc_method"]
)
RULES_REPLICAS = Gauge(
    "parlour_rules_replicas",
    "Rules replicas this gateway knows, by game and by whether their health probe passes.",
    ["game", "state"],
)
RULES_LINK_FAILURES = Counter(
    "parlour_rules_link_failures_total",
    "ActStream links from this gateway to a rules replica that ended with an error.",
)

REQUESTS = Counter(
    "parlour_requests_total",
    "Calls handled, by service method and status code.",
    ["service", "method", "code"],
)
ACTIONS = Counter("parlour_actions_total", "Actions applied, by game.", ["game"])
REFUSALS = Counter(
    "parlour_refusals_total", "Actions and calls refused, by game and reason.", ["game", "reason"]
)
ACT_SECONDS = Histogram(
    "parlour_act_seconds",
    "Time to check, apply and commit one action.",
    ["game"],
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0),
)
COMMIT_RETRIES = Counter(
    "parlour_commit_retries_total", "Commits retried after a version conflict.", ["game"]
)
EVENTS_SENT = Counter("parlour_events_sent_total", "Events pushed to subscribers.")
PLAY_QUEUED = Gauge(
    "parlour_play_queued_messages", "Play messages waiting for clients that have not read them."
)
SUBSCRIBERS_LAGGING = Counter(
    "parlour_subscribers_lagging_total", "Times a slow subscriber fell back to history reads."
)


def expose() -> int | None:
    """Serve /metrics on PARLOUR_METRICS_PORT if set; returns the port."""
    port = os.environ.get("PARLOUR_METRICS_PORT")
    if not port:
        return None
    start_http_server(int(port), addr=os.environ.get("PARLOUR_METRICS_ADDR", "127.0.0.1"))
    return int(port)
