"""Every address behind a rules target: 'host:port' where host is an IP or a DNS name.

A name resolves to all its addresses (a Kubernetes headless Service gives one per ready
pod), through the system resolver, or through the DNS server at PARLOUR_DNS_SERVER
('ip:port') when set. The router re-resolves every PARLOUR_DISCOVERY_SECONDS.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket

import dns.asyncresolver
import dns.exception
import dns.resolver

log = logging.getLogger("parlour.gateway.discovery")


def split_target(target: str) -> tuple[str, int]:
    """'host:port' or '[v6]:port' -> (host, port)."""
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise ValueError(f"rules target {target!r} is not host:port")
    return host.strip("[]"), int(port)


def join_address(ip: str, port: int) -> str:
    """An address as gRPC dials it."""
    return f"[{ip}]:{port}" if ":" in ip else f"{ip}:{port}"


def is_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class Resolver:
    """Resolves rules targets to the sorted list of their addresses."""

    def __init__(self, dns_server: str = "", timeout: float = 2.0) -> None:
        self._dns: dns.asyncresolver.Resolver | None = None
        if dns_server:
            ip, port = split_target(dns_server)
            self._dns = dns.asyncresolver.Resolver(configure=False)
            self._dns.nameservers = [ip]
            self._dns.port = port
            self._dns.lifetime = timeout
        self.timeout = timeout

    async def resolve(self, target: str) -> list[str]:
        """Every address of `target` (an IP literal resolves to itself). Raises OSError when
        the name cannot be resolved now."""
        host, port = split_target(target)
        if is_literal(host):
            return [join_address(host, port)]
        ips = await (self._query(host) if self._dns else self._system(host, port))
        return sorted({join_address(ip, port) for ip in ips})

    async def _system(self, host: str, port: int) -> list[str]:
        loop = asyncio.get_running_loop()
        infos = await asyncio.wait_for(
            loop.getaddrinfo(host, port, type=socket.SOCK_STREAM), self.timeout
        )
        return [info[4][0] for info in infos]

    async def _query(self, host: str) -> list[str]:
        assert self._dns is not None
        ips: list[str] = []
        for kind in ("A", "AAAA"):
            try:
                answer = await self._dns.resolve(host, kind, search=False)
            except (dns.resolver.NoAnswer, dns.resolver.NXDOMAIN):
                continue
            except dns.exception.DNSException as error:
                raise OSError(f"cannot resolve {host}: {error}") from error
            ips += [record.address for record in answer]
        return ips
