"""The client address as Earshot counts it: one helper for every count per address.

Password throttles (:mod:`common.throttles`), the crowd's new ids per address and hour
and its stopped-device rule (:func:`crowd.worker_session.device_of`) all count clients
by address. Which address is the client's is DRF's ``get_ident`` with ``NUM_PROXIES``
(``EARSHOT_NUM_PROXIES``: 0 = the socket's own, ``X-Forwarded-For`` ignored; behind N
proxies the N-th from the right).

An IPv4 address is one client. An IPv6 client, though, is usually given a whole ``/64``
network (RFC 6177; SLAAC and privacy addresses pick any of its 2⁶⁴ addresses at will),
so counting single IPv6 addresses gave one machine as many fresh counts as it cared to
make (issue 28, item 2). Here an IPv6 address counts as its network of
``EARSHOT_IPV6_PREFIX`` bits (64 by default; 128 counts single addresses, 48 a whole
site); an IPv4 address written in IPv6 (``::ffff:192.0.2.7``) counts as that IPv4
address. Anything that is no address (what a misconfigured proxy forwarded) is counted
as written.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from rest_framework.throttling import BaseThrottle

DEFAULT_IPV6_PREFIX = 64


def address_counted(address: str | None, *, ipv6_prefix: int = DEFAULT_IPV6_PREFIX) -> str:
    """The text an address is counted as.

    >>> address_counted("2001:db8:1:2:aaaa::1")
    '2001:db8:1:2::/64'
    >>> address_counted("2001:db8:1:2:bbbb::9") == address_counted("2001:db8:1:2:aaaa::1")
    True
    >>> address_counted("::ffff:192.0.2.7"), address_counted("192.0.2.7")
    ('192.0.2.7', '192.0.2.7')
    >>> address_counted("2001:db8::1", ipv6_prefix=128)
    '2001:db8::1/128'
    """
    text = (address or "").strip()
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return text
    if isinstance(ip, ipaddress.IPv4Address):
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip.packed, ipv6_prefix), strict=False))  # no zone id


def client_address(request) -> str:
    """The address ``request`` is counted as (``""`` when it has none)."""
    return address_counted(
        BaseThrottle().get_ident(request),
        ipv6_prefix=getattr(settings, "EARSHOT_IPV6_PREFIX", DEFAULT_IPV6_PREFIX),
    )
