"""`puzzlecomp serve`: migrate the database and start the web app (ASGI, uvicorn)."""

from __future__ import annotations

import argparse
import os
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve", help="migrate and start the web app",
        description="Migrate the database (SQLite in ./var by default, DATABASE_URL for "
        "PostgreSQL) and serve the web app with uvicorn.",
    )
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    parser.add_argument("--demo", action="store_true",
                        help="load the demo championship (a WJPC-2025-style edition) if absent")
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


def run(args: argparse.Namespace) -> int:
    setup_django()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    if args.demo:
        from puzzlecomp.championships.demo import demo_load

        print(demo_load())
    if args.no_serve:
        return 0
    import uvicorn

    print(f"puzzlecomp at http://{args.host}:{args.port}/")
    # Spectators' streams never end by themselves: give them 5 s on shutdown, then close.
    uvicorn.run("puzzlecomp.web.asgi:application", host=args.host, port=args.port,
                workers=args.workers, log_level="info", timeout_graceful_shutdown=5)
    return 0
