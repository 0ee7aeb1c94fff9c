"""`puzzlecomp serve`: migrate the database and start the web app (ASGI, uvicorn)."""

from __future__ import annotations

import argparse
import contextlib
import os
import ssl
import sys
from pathlib import Path
from typing import Any

from puzzlecomp.cli.common import CommandError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve", help="migrate and start the web app",
        description="Migrate the database (SQLite in ./var by default, DATABASE_URL for "
        "PostgreSQL) and serve the web app with uvicorn.",
    )
    parser.add_argument("--host", default=os.environ.get("HOST"),
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 with --venue)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    parser.add_argument("--demo", action="store_true",
                        help="load the demo championship (a WJPC-2025-style edition) if absent")
    parser.add_argument("--venue", action="store_true",
                        help="one laptop in the hall: DEBUG off, a secret key kept in the data "
                        "directory, reachable on this machine's network addresses")
    parser.add_argument("--host-name", default=None,
                        help="with --venue: the name the hall's network gives this laptop")
    parser.add_argument("--tls-cert", default=None, metavar="PEM",
                        help="serve HTTPS with this certificate (PEM, with its chain), e.g. one "
                        "for --host-name: judges' phones then keep their screen for use "
                        "without the network; needs --tls-key")
    parser.add_argument("--tls-key", default=None, metavar="PEM",
                        help="the private key of --tls-cert (PEM, not encrypted)")
    parser.add_argument("--no-serve", action="store_true",
                        help="migrate (and load the demo) but do not start the server")
    parser.set_defaults(run=run)


def setup_django() -> None:
    """Configure Django from the environment (dev settings unless told otherwise)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puzzlecomp.settings.dev")
    import django
    from django.conf import settings

    django.setup()
    settings.DATA_DIR.mkdir(parents=True, exist_ok=True)
    settings.STATIC_ROOT.mkdir(parents=True, exist_ok=True)


def tls_files(cert: str | None, key: str | None) -> tuple[str, str] | None:
    """The certificate and key to serve HTTPS with, checked before anything starts: both or
    neither, readable, PEM, and the key the certificate's."""
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise CommandError("--tls-cert and --tls-key go together: give both, or neither for "
                           "plain HTTP")
    for option, path in (("--tls-cert", cert), ("--tls-key", key)):
        if not Path(path).is_file():
            raise CommandError(f"{option} {path}: no such file")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(cert, key, password=lambda: b"")
    except ssl.SSLError as error:
        raise CommandError(f"--tls-cert {cert} and --tls-key {key}: not a PEM certificate and "
                           f"its unencrypted private key ({error.reason or error})") from None
    except OSError as error:
        raise CommandError(f"--tls-cert {cert} / --tls-key {key}: {error.strerror}") from None
    return cert, key


def site_url_of(*, scheme: str, host: str, port: int) -> str:
    """The address links, QR codes and certificates point at when SITE_URL is not set: the
    host and port served (a wildcard host as this machine's loopback)."""
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}"


def run(args: argparse.Namespace) -> int:
    host = args.host or ("0.0.0.0" if args.venue else "127.0.0.1")
    tls = tls_files(args.tls_cert, args.tls_key)
    scheme = "https" if tls else "http"
    addresses: list[str] = []
    if args.venue:
        from puzzlecomp.cli.venue import lan_addresses, venue_environment

        addresses = lan_addresses()
        os.environ.update(venue_environment(port=args.port, host_name=args.host_name,
                                            addresses=addresses, tls=tls is not None))
    else:
        os.environ.setdefault("SITE_URL", site_url_of(scheme=scheme, host=host, port=args.port))
    raise_open_files_limit()
    setup_django()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    if args.demo:
        from puzzlecomp.championships.demo import demo_load

        print(demo_load())
    if args.no_serve:
        return 0
    import uvicorn

    if args.venue:
        from django.conf import settings

        from puzzlecomp.cli.venue import print_qr, venue_banner

        print(venue_banner(site_url=settings.SITE_URL, addresses=addresses, port=args.port,
                           data_dir=settings.DATA_DIR.resolve(), tls=tls is not None,
                           host_name=args.host_name))
        print_qr(f"{settings.SITE_URL}/")
    else:
        print(f"puzzlecomp at {scheme}://{host}:{args.port}/")
    from django.conf import settings

    from puzzlecomp.cli.first_run import first_organiser_hint, organiser_missing

    if organiser_missing():
        print(first_organiser_hint(settings.DATA_DIR.resolve()))
    sys.stdout.flush()
    # Spectators' streams never end by themselves: give them 5 s on shutdown, then close.
    # A request head must arrive within a deadline (web/slow_clients.py).
    uvicorn.run("puzzlecomp.web.asgi:application", host=host, port=args.port,
                workers=args.workers, log_level="info", timeout_graceful_shutdown=5,
                http="puzzlecomp.web.slow_clients:HeadDeadlineProtocol",
                ssl_certfile=tls[0] if tls else None, ssl_keyfile=tls[1] if tls else None)
    return 0


def raise_open_files_limit() -> None:
    """Every connection is a file descriptor: use what the system allows, not the default
    soft limit (1,024 on Linux, 256 on macOS)."""
    try:
        import resource
    except ImportError:  # Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 65_536 if hard == resource.RLIM_INFINITY else min(hard, 65_536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):  # the system refuses: keep its limit
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
