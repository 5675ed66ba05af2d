"""TLS for the two hops: mutual TLS gateway -> rules services, server TLS on the public port.

Internal: every internal certificate is signed by one CA; the rules services present a
server certificate, the gateways a client one, and the gateway checks the rules
certificate against a configured name (replicas are dialled by IP address). Configured by
PARLOUR_INTERNAL_TLS_* (parlour.settings.InternalTlsSettings); certificates are made by
parlour.rpc.pki.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import grpc

from parlour.settings import RULES_SERVER_NAME, InternalTlsSettings


class TlsSettingError(ValueError):
    """A TLS setting is incomplete or names an unreadable file."""


def _read(variable: str, path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise TlsSettingError(f"{variable}: cannot read {path!r} ({error.strerror})") from None


@dataclass(frozen=True)
class InternalTls:
    """This process's identity on the internal hop and the CA it trusts."""

    ca: bytes
    cert: bytes
    key: bytes
    server_name: str = RULES_SERVER_NAME

    @classmethod
    def from_paths(
        cls, ca: str, cert: str, key: str, server_name: str = RULES_SERVER_NAME
    ) -> InternalTls:
        return cls(
            _read("PARLOUR_INTERNAL_TLS_CA", ca),
            _read("PARLOUR_INTERNAL_TLS_CERT", cert),
            _read("PARLOUR_INTERNAL_TLS_KEY", key),
            server_name,
        )

    def server_credentials(self) -> grpc.ServerCredentials:
        """A rules port that refuses any caller without a certificate signed by the CA."""
        return grpc.ssl_server_credentials(
            [(self.key, self.cert)], root_certificates=self.ca, require_client_auth=True
        )

    def channel_credentials(self) -> grpc.ChannelCredentials:
        """The gateway's side: present our certificate, trust only the CA."""
        return grpc.ssl_channel_credentials(
            root_certificates=self.ca, private_key=self.key, certificate_chain=self.cert
        )

    def channel_options(self) -> list[tuple[str, str]]:
        """Check the rules certificate against the configured name, not the dialled address."""
        return [("grpc.ssl_target_name_override", self.server_name)]


def rules_channel(address: str, tls: InternalTls | None, options: list) -> grpc.aio.Channel:
    """An aio channel to a rules replica: mutual TLS when configured."""
    if tls is None:
        return grpc.aio.insecure_channel(address, options=options)
    return grpc.aio.secure_channel(
        address, tls.channel_credentials(), options=[*options, *tls.channel_options()]
    )


def from_settings(settings: InternalTlsSettings) -> InternalTls | None:
    """The mutual TLS identity PARLOUR_INTERNAL_TLS_* configure (None: plaintext)."""
    if settings.internal_tls_ca is None:
        return None
    return InternalTls.from_paths(
        str(settings.internal_tls_ca),
        str(settings.internal_tls_cert),
        str(settings.internal_tls_key),
        settings.internal_tls_server_name,
    )
