"""Certificates for the internal hop: a CA, the rules services' server certificate and the
gateways' client certificate (`parlour certs`, `parlour up`, the tests), as PEM files or as
Kubernetes TLS Secrets in the shape cert-manager writes (ca.crt, tls.crt, tls.key).

Not trustme: its leaves carry both client and server use (ours are one role each), its CA
lasts until the year 3000 (a throwaway one here lasts `days`), and `parlour certs` needs
this Authority anyway (a kept CA, rotation), so it would be a second certificate maker."""

from __future__ import annotations

import base64
import datetime
import ipaddress
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from parlour.rpc.tls import RULES_SERVER_NAME, InternalTls

#: The Secrets the manifests mount (deploy/k8s/base): one per role.
RULES_SECRET = "parlour-rules-tls"
GATEWAY_SECRET = "parlour-gateway-tls"
GATEWAY_NAME = "parlour-gateway"
SERVER, CLIENT = ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH


@dataclass(frozen=True)
class Pem:
    """One certificate and its private key, PEM encoded."""

    cert: bytes
    key: bytes


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _usage(*, signs: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=True,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=signs,
        crl_sign=signs,
        encipher_only=False,
        decipher_only=False,
    )


def _span(days: int) -> tuple[datetime.datetime, datetime.datetime]:
    now = datetime.datetime.now(datetime.UTC)
    return now - datetime.timedelta(minutes=5), now + datetime.timedelta(days=days)


class Authority:
    """A CA that signs the internal certificates."""

    def __init__(self, cert: x509.Certificate, key: ec.EllipticCurvePrivateKey) -> None:
        self.cert, self.key = cert, key

    @classmethod
    def create(cls, common: str, days: int) -> Authority:
        key = ec.generate_private_key(ec.SECP256R1())
        start, end = _span(days)
        cert = (
            x509.CertificateBuilder()
            .subject_name(_name(common))
            .issuer_name(_name(common))
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(start)
            .not_valid_after(end)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(_usage(signs=True), critical=True)
            .sign(key, hashes.SHA256())
        )
        return cls(cert, key)

    @classmethod
    def load(cls, pem: Pem) -> Authority:
        key = serialization.load_pem_private_key(pem.key, password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey):
            raise ValueError("the CA key is not an EC private key")
        return cls(x509.load_pem_x509_certificate(pem.cert), key)

    @property
    def pem(self) -> Pem:
        return Pem(self.cert.public_bytes(serialization.Encoding.PEM), _key_pem(self.key))

    @property
    def expires(self) -> datetime.datetime:
        return self.cert.not_valid_after_utc

    def issue(
        self, common: str, usage, dns: list[str], days: int, ips: tuple[str, ...] = ()
    ) -> Pem:
        """A leaf certificate for `dns` names (and `ips`), for server or client use."""
        start, end = _span(days)
        if end - self.expires > datetime.timedelta(hours=1):
            raise ValueError(
                f"the CA expires on {self.expires:%Y-%m-%d}, before {days} days from now"
            )
        end = min(end, self.expires)
        key = ec.generate_private_key(ec.SECP256R1())
        sans = [x509.DNSName(d) for d in dns]
        sans += [x509.IPAddress(ipaddress.ip_address(i)) for i in ips]
        cert = (
            x509.CertificateBuilder()
            .subject_name(_name(common))
            .issuer_name(self.cert.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(start)
            .not_valid_after(end)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(_usage(signs=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
            .add_extension(x509.SubjectAlternativeName(sans), critical=False)
            .sign(self.key, hashes.SHA256())
        )
        return Pem(cert.public_bytes(serialization.Encoding.PEM), _key_pem(key))


@dataclass(frozen=True)
class InternalCertificates:
    """What the two roles mount: the CA certificate and each role's own pair."""

    ca: bytes
    rules: Pem
    gateway: Pem
    expires: datetime.datetime

    def roles(self) -> dict[str, Pem]:
        return {"rules": self.rules, "gateway": self.gateway}


def internal_certificates(
    authority: Authority,
    days: int,
    server_name: str = RULES_SERVER_NAME,
    local: bool = False,
) -> InternalCertificates:
    """A rules server certificate for `server_name` (the name gateways check) and a gateway
    client certificate, signed by `authority`; `local` adds localhost and 127.0.0.1."""
    dns, ips = ([server_name, "localhost"], ("127.0.0.1",)) if local else ([server_name], ())
    rules = authority.issue(server_name, SERVER, dns, days, ips)
    gateway = authority.issue(GATEWAY_NAME, CLIENT, [GATEWAY_NAME], days)
    expires = x509.load_pem_x509_certificate(rules.cert).not_valid_after_utc
    return InternalCertificates(authority.pem.cert, rules, gateway, expires)


def write_private(path: Path, data: bytes) -> None:
    """Write a key readable by its owner only (created so, never widened afterwards)."""
    path.unlink(missing_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(data)


def write_role_dirs(certs: InternalCertificates, directory: Path) -> list[Path]:
    """DIR/rules/ and DIR/gateway/, each with ca.crt, tls.crt and tls.key: the files a pod
    sees where its Secret is mounted. Returns the directories."""
    made = []
    for role, pem in certs.roles().items():
        folder = directory / role
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "ca.crt").write_bytes(certs.ca)
        (folder / "tls.crt").write_bytes(pem.cert)
        write_private(folder / "tls.key", pem.key)
        made.append(folder)
    return made


def tls_secrets(certs: InternalCertificates, namespace: str) -> list[dict]:
    """The two kubernetes.io/tls Secrets (names as the manifests mount them)."""

    def secret(name: str, role: str, pem: Pem) -> dict:
        data = {"ca.crt": certs.ca, "tls.crt": pem.cert, "tls.key": pem.key}
        return {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {
                "name": name,
                "namespace": namespace,
                "labels": {
                    "app.kubernetes.io/name": "parlour",
                    "app.kubernetes.io/component": role,
                },
                "annotations": {"parlour.dev/not-after": certs.expires.isoformat()},
            },
            "type": "kubernetes.io/tls",
            "data": {k: base64.b64encode(v).decode() for k, v in data.items()},
        }

    return [
        secret(RULES_SECRET, "rules", certs.rules),
        secret(GATEWAY_SECRET, "gateway", certs.gateway),
    ]


PLAIN_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_./-]*")
YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def to_yaml(objects: list[dict]) -> str:
    """A YAML stream of the objects (nested maps of strings; every value double-quoted, so
    no YAML library is needed and nothing is read as another type)."""

    def key_text(key: str) -> str:
        plain = PLAIN_KEY.fullmatch(key) and key.lower() not in YAML_WORDS
        return key if plain else json.dumps(key)

    def lines(value: dict, indent: int) -> list[str]:
        out = []
        for key, item in value.items():
            head = " " * indent + key_text(key) + ":"
            if isinstance(item, dict):
                out += [head, *lines(item, indent + 2)]
            else:
                out.append(f"{head} {json.dumps(item)}")
        return out

    return "".join("---\n" + "\n".join(lines(obj, 0)) + "\n" for obj in objects)


def kept_authority(directory: Path, days: int = 3650) -> Authority:
    """The CA kept in DIR/ca.crt + DIR/ca.key (made there, valid `days`, when neither
    exists): re-issuing the leaves from the same CA rotates them without a moment in which
    old and new pods distrust each other."""
    cert, key = directory / "ca.crt", directory / "ca.key"
    if cert.exists() and key.exists():
        return Authority.load(Pem(cert.read_bytes(), key.read_bytes()))
    if cert.exists() or key.exists():
        raise ValueError(f"{directory} holds only one of ca.crt and ca.key")
    authority = Authority.create("parlour internal CA", days)
    directory.mkdir(parents=True, exist_ok=True)
    cert.write_bytes(authority.pem.cert)
    write_private(key, authority.pem.key)
    return authority


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
