"""Prometheus metrics of one server process (its own default registry), exposed on
PARLOUR_METRICS_PORT. Per-call metrics come from the server interceptor."""

from __future__ import annotations

import sys

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    start_http_server,
)

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
SUBSCRIBERS = Gauge("parlour_subscribers", "Event subscriptions (StreamEvents and Play) open.")
LIVE_MATCHES = Gauge(
    "parlour_live_matches", "Matches with at least one open event stream on this gateway."
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
EVENTS_REWOUND = Counter(
    "parlour_events_rewound_total",
    "Events this gateway delivered that the store no longer has (a Redis fail-over lost "
    "acknowledged commits; issue 40): each is a lost acknowledgement.",
)
SUBSCRIBERS_LAGGING = Counter(
    "parlour_subscribers_lagging_total", "Times a slow subscriber fell back to history reads."
)


#: Every server's families (the interceptor's), and each role's own, by the module whose code
#: updates them: a process serves the families of the roles it runs, and no zeros of others.
COMMON = (GRPC_STARTED, GRPC_HANDLED, GRPC_SECONDS, OPEN_STREAMS)
ROLES = {
    "parlour.gateway.service": (
        SUBSCRIBERS, LIVE_MATCHES, RULES_REPLICAS, RULES_LINK_FAILURES, EVENTS_SENT,
        PLAY_QUEUED, SUBSCRIBERS_LAGGING, EVENTS_REWOUND,
    ),
    "parlour.rules.core": (ACTIONS, REFUSALS, ACT_SECONDS, COMMIT_RETRIES),
}


def role_registry() -> CollectorRegistry:
    """The families of this process's roles (and the process collectors), in a registry of
    their own; the default registry keeps them all for in-process use."""
    registry = CollectorRegistry()
    own = [m for module, group in ROLES.items() if module in sys.modules for m in group]
    for collector in (*COMMON, *own, PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
        registry.register(collector)
    return registry


def expose(port: int | None, addr: str = "127.0.0.1") -> int | None:
    """Serve this process's role families as /metrics on `port` (None: not at all)."""
    if port is None:
        return None
    start_http_server(port, addr=addr, registry=role_registry())
    return port
