"""Prometheus metrics shared by the servers, exposed when PARLOUR_METRICS_PORT is set."""

from __future__ import annotations

import os

from prometheus_client import Counter, Gauge, Histogram, start_http_server

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
