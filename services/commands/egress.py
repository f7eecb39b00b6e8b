"""Where the notifications' requests may go (webhooks, push services): public addresses, and the
private networks an operator names (``TAVERN_NOTIFY_NETWORKS``). A player names the URL, so
without this a webhook could make the workers POST into the deployment's own network (its Redis,
an admin port, a cloud's metadata service at 169.254.169.254): server-side request forgery.

The check is made on the connection: the host's name is resolved, each address checked, and the
connection made to an address that passed, never to the name again. So a name that resolved to a
public address when it was added and resolves to a private one when sent (DNS rebinding) is
refused all the same, and no packet reaches a refused address. Behind an egress proxy, the
proxy's own address is what is checked: name its network."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NameResolutionError, NewConnectionError

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(cidrs: Iterable[str]) -> tuple[Network, ...]:
    """``TAVERN_NOTIFY_NETWORKS``' CIDRs (ValueError for one that is not)."""
    return tuple(ipaddress.ip_network(cidr.strip(), strict=False) for cidr in cidrs if cidr.strip())


def allowed(address: str, extra: tuple[Network, ...]) -> bool:
    """Whether a request may go to ``address``: a public one (not private, loopback, link-local,
    shared, reserved or multicast), or one inside the networks the operator named."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 zone index is no part of the address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # ::ffff:127.0.0.1 is 127.0.0.1
    return any(ip in network for network in extra) or (ip.is_global and not ip.is_multicast)


def literal_refused(host: str, extra: tuple[Network, ...]) -> bool:
    """Whether a URL's host is refused as written (an address that is not allowed, or localhost),
    told when the URL is given; a name is checked when each request is sent."""
    if host.rstrip(".").lower() == "localhost" or host.lower().endswith(".localhost"):
        return not allowed("127.0.0.1", extra)
    try:
        return not allowed(host, extra)
    except ValueError:  # a name
        return False


class AddressRefused(NewConnectionError):
    """The host's addresses are all refused: nothing was sent."""


class _Checked(HTTPConnection):
    extra: tuple[Network, ...] = ()

    def _new_conn(self) -> socket.socket:
        named = self._dns_host
        try:
            found = [info[4][0] for info in socket.getaddrinfo(named, self.port, type=socket.SOCK_STREAM)]
        except socket.gaierror as problem:
            raise NameResolutionError(self.host, self, problem) from problem
        passed = [address for address in found if allowed(str(address), self.extra)]
        if not passed:
            raise AddressRefused(self, f"{self.host} is at {found[0]}, not a public address: refused "
                                "(TAVERN_NOTIFY_NETWORKS names the private networks allowed)")
        self._dns_host = str(passed[0])  # connected to the address checked, not to the name again
        try:
            return super()._new_conn()
        finally:
            self._dns_host = named


class _CheckedHTTPS(_Checked, HTTPSConnection):
    pass


def session(extra: tuple[Network, ...]) -> requests.Session:
    """A requests session whose every connection goes only where ``allowed`` says."""
    checked = type("Checked", (_Checked,), {"extra": extra})
    checked_tls = type("CheckedHTTPS", (_CheckedHTTPS,), {"extra": extra})
    pools = {
        "http": type("Pool", (HTTPConnectionPool,), {"ConnectionCls": checked}),
        "https": type("TLSPool", (HTTPSConnectionPool,), {"ConnectionCls": checked_tls}),
    }

    class Adapter(HTTPAdapter):
        def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
            super().init_poolmanager(*args, **kwargs)
            self.poolmanager.pool_classes_by_scheme = pools

        def proxy_manager_for(self, *args: Any, **kwargs: Any) -> Any:
            manager = super().proxy_manager_for(*args, **kwargs)
            manager.pool_classes_by_scheme = pools
            return manager

    made = requests.Session()
    made.mount("http://", Adapter())
    made.mount("https://", Adapter())
    return made


def refusal(problem: BaseException) -> AddressRefused | None:
    """The refusal behind a request's failure, if that is what it was (requests wraps urllib3's
    error in its own, through a retry error)."""
    seen: BaseException | None = problem
    for _ in range(6):
        if seen is None or isinstance(seen, AddressRefused):
            return seen
        inner = getattr(seen, "reason", None)
        if inner is None and seen.args and isinstance(seen.args[0], BaseException):
            inner = seen.args[0]
        seen = inner if isinstance(inner, BaseException) else seen.__cause__
    return None
