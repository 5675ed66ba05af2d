"""Every setting, read from PARLOUR_* environment variables and checked at start.

Nothing else in parlour reads the environment: each part loads the model it needs
(`load`), and a bad value stops the process before it serves, with one line naming the
variable (`BadSetting`); the README's settings table lists the same variables.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Annotated, Literal, TypeVar

from pydantic import Field, FilePath, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PREFIX = "PARLOUR_"
Seconds = Annotated[float, Field(gt=0)]
Port = Annotated[int, Field(ge=0, le=65535)]
#: A lower-case DNS-1123 name, labels separated by dots.
#: The name in the rules services' certificate unless PARLOUR_INTERNAL_TLS_SERVER_NAME says.
RULES_SERVER_NAME = "parlour-rules"
DNS_NAME = r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$"


class BadSetting(SystemExit):
    """A setting that cannot be used; its message names the variable."""

    def __init__(self, message: str) -> None:
        super().__init__(f"parlour: bad setting: {message}")


def address_ok(value: str) -> str:
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"{value!r} is not host:port")
    return value


class Settings(BaseSettings):
    """PARLOUR_<FIELD> variables; empty ones count as unset."""

    model_config = SettingsConfigDict(
        env_prefix=PREFIX, extra="ignore", frozen=True, env_ignore_empty=True
    )


S = TypeVar("S", bound=Settings)


class ChannelSettings(Settings):
    """What every process that keeps gRPC connections reads."""

    keepalive_seconds: Seconds = 20.0


class RetentionSettings(Settings):
    """How long Redis keeps matches (parlour.store.retention)."""

    finished_retention_seconds: Annotated[int, Field(ge=0)] = 86_400
    abandoned_after_seconds: Annotated[int, Field(ge=0)] = 7 * 86_400
    request_retry_seconds: Annotated[int, Field(ge=0)] = 600


class ReplicationSettings(Settings):
    """How many Redis replicas confirm a write before a client hears of it
    (parlour.store.replication): unset = 1 through Sentinel or Cluster, 0 on one server."""

    redis_replicas_ack: Annotated[int, Field(ge=0)] | None = None
    redis_replication_timeout_ms: Annotated[int, Field(gt=0)] = 2000
    redis_replicas_fsync: bool = False


class ServerNameSettings(Settings):
    """The name in the rules services' certificate, which gateways check."""

    internal_tls_server_name: str = Field(RULES_SERVER_NAME, max_length=253, pattern=DNS_NAME)


class InternalTlsSettings(ServerNameSettings):
    """Mutual TLS on the internal hop (gateway -> rules): all three files, or none."""

    internal_tls_ca: FilePath | None = None
    internal_tls_cert: FilePath | None = None
    internal_tls_key: FilePath | None = None

    @model_validator(mode="after")
    def _internal_tls_complete(self) -> InternalTlsSettings:
        parts = (self.internal_tls_ca, self.internal_tls_cert, self.internal_tls_key)
        if any(parts) and not all(parts):
            raise ValueError(
                "internal TLS needs all of PARLOUR_INTERNAL_TLS_CA, PARLOUR_INTERNAL_TLS_CERT "
                "and PARLOUR_INTERNAL_TLS_KEY"
            )
        return self


class HealthSettings(Settings):
    """Where a server listens, as its container healthcheck (parlour.rpc.probe) needs it."""

    address: str = "127.0.0.1:0"
    health_port: Port | None = None
    health_addr: str = Field("127.0.0.1", min_length=1, pattern=r"^\S+$")

    @field_validator("address")
    @classmethod
    def _address(cls, value: str) -> str:
        return address_ok(value)


class HostSettings(ServerNameSettings):
    """What the host's tools read (`parlour match`, `parlour up`, `parlour certs`, and the
    client commands' gateway)."""

    redis_url: str = ""
    gateway: str = ""
    #: `parlour bots`: the join code of a private table (how a matched match's bots sit)
    join_code: str = ""


class ServerSettings(HealthSettings, ChannelSettings, RetentionSettings, InternalTlsSettings):
    """What every server reads."""

    redis_url: str = Field(min_length=1)
    metrics_port: Port | None = None
    metrics_addr: str = "127.0.0.1"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    drain_seconds: Annotated[float, Field(ge=0)] = 5.0

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _health_port_apart(self) -> ServerSettings:
        port = int(self.address.rpartition(":")[2])
        if self.health_port and self.health_port in (port, self.metrics_port):
            raise ValueError(
                f"PARLOUR_HEALTH_PORT {self.health_port} is already the gRPC or metrics port "
                "(the health port serves only grpc.health.v1, in plaintext)"
            )
        return self


class RulesSettings(ServerSettings):
    """A rules service's settings."""

    state_cache: Annotated[int, Field(ge=0)] = 10_000
    event_history: Annotated[int, Field(ge=0)] = 0
    timer_poll_seconds: Seconds = 0.1
    #: Move matches of an older rules version this build can migrate (Game.migrates_from)
    #: to its newest when they are met (issue 42; off: they wait for a replica of theirs).
    migrate_rules: bool = False


@functools.cache
def _only_given(kind: type[S]) -> type[S]:
    """`kind`, reading nothing but the values it is given (not the process environment)."""

    class Given(kind):  # type: ignore[valid-type,misc]
        @classmethod
        def settings_customise_sources(cls, settings_cls, init_settings, **others):
            return (init_settings,)

    return Given


def load(kind: type[S], environ: Mapping[str, str] | None = None) -> S:
    """The settings from the environment (or from `environ`, e.g. a child process's),
    or BadSetting naming each bad variable."""
    try:
        if environ is None:
            return kind()
        given = {name: environ.get(PREFIX + name.upper()) for name in kind.model_fields}
        return _only_given(kind)(**{name: value for name, value in given.items() if value})
    except ValidationError as error:
        problems = []
        for item in error.errors():
            where = "_".join(str(p) for p in item["loc"]).upper()
            message = item["msg"].removeprefix("Value error, ")
            problems.append(f"{PREFIX}{where}: {message}" if where else message)
        raise BadSetting("; ".join(problems)) from None
