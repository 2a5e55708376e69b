"""Which webhook URLs and addresses the service may call (the SSRF rules).

A URL must be https, and every address its host resolves to must be global:
loopback, private, link-local (cloud metadata), shared, reserved, multicast,
NAT64 and IPv4-mapped forms are refused, and so are the odd literal spellings
of IPv4 that resolvers accept (`127.1`, `2130706433`, `0x7f.1`, `0177.0.0.1`), IPv4
embedded in IPv6 (`::ffff:127.0.0.1`, `::127.0.0.1`), and hosts that only become one
of those after IDNA mapping (`①②⑦.0.0.1`, `127。0。0。1`).
The same check runs again at each delivery against the address connected to.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from urllib.parse import urlsplit

_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
_CANONICAL_IPV4 = re.compile(
    r"^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$"
)
_NUMERIC_HOST = re.compile(r"^(0x[0-9a-f]+|[0-9]+)(\.(0x[0-9a-f]*|[0-9]+))*\.?$", re.IGNORECASE)
MAX_URL_LENGTH = 2048


class TargetRefused(ValueError):
    """The URL or address may not be called; the message says why."""


def address_allowed(address: str, allow_private: bool) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return address_allowed(str(ip.ipv4_mapped), allow_private)
        if int(ip) >> 32 == 0 and int(ip) > 1:  # IPv4-compatible (::a.b.c.d, RFC 4291)
            return address_allowed(str(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)), allow_private)
        if ip in _NAT64 or ip in _NAT64_LOCAL or ip.sixtofour is not None or ip.teredo is not None:
            return allow_private
    if allow_private:
        return not ip.is_multicast and not ip.is_unspecified
    return ip.is_global and not ip.is_multicast


def normalise_url(url: str) -> str:
    """The URL with its host as a resolver will see it: IDNA ASCII, lower case.

    Resolvers map compatibility characters (`①②⑦` is `127`, `。` is a dot), so the
    rules must judge the mapped host, and the mapped URL is what is stored and called.
    """
    if len(url) > MAX_URL_LENGTH:
        raise TargetRefused(f"the URL is longer than {MAX_URL_LENGTH} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise TargetRefused(f"the URL is not valid: {exc}") from exc
    host = parts.hostname or ""
    if host.isascii() or host.startswith("["):
        return url
    try:
        ascii_host = host.encode("idna").decode("ascii").lower()
    except UnicodeError as exc:
        raise TargetRefused(f"the host {host!r} is not a valid domain name") from exc
    netloc = ascii_host if port is None else f"{ascii_host}:{port}"
    return parts._replace(netloc=netloc).geturl()


def check_url(url: str, allow_private: bool) -> tuple[str, int]:
    """(host, port) of an acceptable URL; raises TargetRefused otherwise. Does not resolve.

    A host that is not plain ASCII is refused: store `normalise_url(url)` instead.
    """
    if len(url) > MAX_URL_LENGTH:
        raise TargetRefused(f"the URL is longer than {MAX_URL_LENGTH} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise TargetRefused(f"the URL is not valid: {exc}") from exc
    if not (parts.hostname or "").isascii():
        raise TargetRefused("the host must be given in its IDNA (ASCII) form")
    schemes = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in schemes:
        raise TargetRefused("the URL must use https")
    if parts.username or parts.password:
        raise TargetRefused("the URL must not carry credentials")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise TargetRefused("the URL has no host")
    literal = _literal_address(host)
    if literal is not None and not address_allowed(literal, allow_private):
        raise TargetRefused(f"the address {host} is not a public address")
    if (host == "localhost" or host.endswith(".localhost")) and not allow_private:
        raise TargetRefused("localhost is not a public address")
    return host, port or (443 if parts.scheme == "https" else 80)


def _literal_address(host: str) -> str | None:
    """The address an IP literal means, refusing non-canonical IPv4 spellings."""
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    if _NUMERIC_HOST.match(host) and not _CANONICAL_IPV4.match(host):
        try:
            packed = socket.inet_aton(host.rstrip("."))
        except OSError as exc:
            raise TargetRefused(f"{host} is not a valid host") from exc
        raise TargetRefused(
            f"{host} is a non-canonical spelling of {socket.inet_ntoa(packed)}; not allowed"
        )
    return None
