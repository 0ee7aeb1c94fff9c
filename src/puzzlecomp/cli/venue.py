"""`puzzlecomp serve --venue`: the machine's own addresses, the settings they give, and what the
organiser sees in the terminal (the addresses, a QR code, the data directory)."""

from __future__ import annotations

import ipaddress
import os
import sys
from pathlib import Path

import ifaddr
import segno

VENUE_SETTINGS = "puzzlecomp.settings.venue"


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback and link-local, in a stable order."""
    found = {
        ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
        if isinstance(ip.ip, str)
    }
    usable = [a for a in found if not (ipaddress.ip_address(a).is_loopback
                                       or ipaddress.ip_address(a).is_link_local)]
    return sorted(usable, key=ipaddress.ip_address)


def venue_environment(*, port: int, host_name: str | None, addresses: list[str],
                      tls: bool = False) -> dict[str, str]:
    """The settings `serve --venue` hands Django: hosts this machine answers to, SITE_URL (the
    host name when the hall has one, else the first LAN address) for QR codes and links, and
    with a certificate HTTPS (secure cookies)."""
    hosts = ["localhost", "127.0.0.1", *addresses, *([host_name] if host_name else [])]
    public = host_name or (addresses[0] if addresses else "127.0.0.1")
    return {
        "DJANGO_SETTINGS_MODULE": VENUE_SETTINGS,
        "ALLOWED_HOSTS": ",".join(hosts),
        "SITE_URL": f"{'https' if tls else 'http'}://{public}:{port}",
        "PUZZLECOMP_VENUE_TLS": "1" if tls else "0",
    }


def data_directory() -> Path:
    """The data directory the settings will use (PUZZLECOMP_DATA_DIR, else ./var)."""
    return Path(os.environ.get("PUZZLECOMP_DATA_DIR", Path.cwd() / "var")).resolve()


def venue_banner(*, site_url: str, addresses: list[str], port: int, data_dir: Path,
                 tls: bool = False, host_name: str | None = None) -> str:
    """What the organiser reads: where phones and the projector connect, and where data lives."""
    scheme = "https" if tls else "http"
    lines = ["puzzlecomp venue mode: DEBUG off, this laptop's own secret key.",
             f"Open on phones and the projector: {site_url}/"]
    # With a certificate, phones must use the name it was made for: no bare addresses.
    if not tls:
        lines += [f"  also: {scheme}://{address}:{port}/" for address in addresses
                  if f"{scheme}://{address}:{port}" != site_url]
    if not addresses:
        lines.append("  (no network address found: only this laptop can connect)")
    if tls and not host_name:
        lines.append("  HTTPS: give the name the certificate was made for with --host-name, "
                     "or phones refuse the address")
    if not tls:
        lines.append("  Plain HTTP: judges' phones cannot reopen their screen without the "
                     "network (see --tls-cert in the README)")
    lines.append(f"Data directory (database, secret key): {data_dir}")
    return "\n".join(lines)


def print_qr(url: str) -> None:
    """The address as a QR code in the terminal, for the first phone to scan."""
    try:
        segno.make(url, error="m").terminal(out=sys.stdout, compact=True)
    except UnicodeEncodeError:  # a terminal without block characters
        segno.make(url, error="m").terminal(out=sys.stdout)
