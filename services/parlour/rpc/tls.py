"""TLS for the two hops: mutual TLS gateway -> rules services, server TLS on the public port.

Internal (both the gateway and the rules services read these):
  PARLOUR_INTERNAL_TLS_CA    PEM file of the CA that signs every internal certificate
  PARLOUR_INTERNAL_TLS_CERT  PEM file of this process's certificate (rules: server, gateway: client)
  PARLOUR_INTERNAL_TLS_KEY   PEM file of its private key
  PARLOUR_INTERNAL_TLS_SERVER_NAME  name the gateway expects in the rules certificates
                             (default "parlour-rules"; replicas are dialled by IP address)
Public (gateway only): PARLOUR_TLS_CERT and PARLOUR_TLS_KEY.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import grpc

RULES_SERVER_NAME = "parlour-rules"


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

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> InternalTls | None:
        """The configured identity; None when none of the three files is set."""
        env = os.environ if env is None else env
        names = ("PARLOUR_INTERNAL_TLS_CA", "PARLOUR_INTERNAL_TLS_CERT", "PARLOUR_INTERNAL_TLS_KEY")
        paths = [env.get(name, "") for name in names]
        if not any(paths):
            return None
        missing = [name for name, path in zip(names, paths, strict=True) if not path]
        if missing:
            raise TlsSettingError(f"internal TLS needs all of {', '.join(names)}; {missing} unset")
        server_name = env.get("PARLOUR_INTERNAL_TLS_SERVER_NAME") or RULES_SERVER_NAME
        return cls.from_paths(*paths, server_name=server_name)

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


# -- throwaway certificates (`parlour up`, the demo and tests) ------------------------------


@dataclass(frozen=True)
class Issued:
    """PEM paths of one certificate and its key."""

    cert: str
    key: str


@dataclass(frozen=True)
class ThrowawayPki:
    """A fresh CA and the certificates of a local stack, written under one directory."""

    ca: str
    rules: Issued
    gateway: Issued
    public: Issued

    def env_for_rules(self) -> dict[str, str]:
        return _env(self.ca, self.rules)

    def env_for_gateway(self) -> dict[str, str]:
        return _env(self.ca, self.gateway)

    def gateway_identity(self) -> InternalTls:
        """What the gateway presents (used by tools that call rules ports directly)."""
        return InternalTls.from_paths(self.ca, self.gateway.cert, self.gateway.key)


def _env(ca: str, issued: Issued) -> dict[str, str]:
    return {
        "PARLOUR_INTERNAL_TLS_CA": ca,
        "PARLOUR_INTERNAL_TLS_CERT": issued.cert,
        "PARLOUR_INTERNAL_TLS_KEY": issued.key,
    }


def make_throwaway_pki(directory: str | Path, days: int = 2) -> ThrowawayPki:
    """A new CA with a rules (server) certificate, a gateway (client) certificate and a
    public-port certificate for localhost, valid for `days`; keys never leave `directory`."""
    from parlour.rpc.pki import SERVER, Authority, internal_certificates, write_private

    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    authority = Authority.create("parlour throwaway CA", days)
    certs = internal_certificates(authority, days, local=True)
    public = authority.issue("localhost", SERVER, ["localhost"], days, ("127.0.0.1",))

    def write(stem: str, pem) -> Issued:
        cert_path, key_path = root / f"{stem}.crt", root / f"{stem}.key"
        cert_path.write_bytes(pem.cert)
        write_private(key_path, pem.key)
        return Issued(str(cert_path), str(key_path))

    (root / "ca.crt").write_bytes(certs.ca)
    return ThrowawayPki(
        ca=str(root / "ca.crt"),
        rules=write("rules", certs.rules),
        gateway=write("gateway", certs.gateway),
        public=write("public", public),
    )
