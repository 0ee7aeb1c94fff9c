"""`puzzlecomp organiser add NAME`: the first account that may create championships, on a fresh
install (the venue laptop) where nobody can sign in yet.

An operator's tool like Django's createsuperuser, without the admin's powers: the account gets
the `championships.add_championship` permission only. It creates a site account, not a write of
any championship, so it has no championship's audit log to go to.
"""

from __future__ import annotations

import argparse
import getpass
import secrets
import sys
from typing import Any

from puzzlecomp.cli.common import CommandError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "organiser", help="create the account of an organiser who may create championships",
        description="Accounts that may create championships (and then give roles in them).")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    added = actions.add_parser(
        "add", help="create an organiser's account",
        description="Create an account that may create championships. The password is asked "
        "for on a terminal; otherwise a new one is made and printed once.")
    added.add_argument("username")
    added.add_argument("--email", default="", help="for password resets")
    added.set_defaults(run=run_add)


def _password() -> tuple[str, bool]:
    """The password typed twice on a terminal, or a new random one (shown once)."""
    if not sys.stdin.isatty():
        return secrets.token_urlsafe(12), True
    first = getpass.getpass("Password: ")
    if first != getpass.getpass("Password again: "):
        raise CommandError("the two passwords differ: nothing was created")
    return first, False


def run_add(args: argparse.Namespace) -> int:
    from puzzlecomp.cli.serve import setup_django

    setup_django()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError
    from django.core.management import call_command
    from django.db import transaction

    call_command("migrate", interactive=False, verbosity=0)
    users = get_user_model().objects
    username = args.username.strip()
    if not username:
        raise CommandError("give a username")
    if users.filter(username__iexact=username).exists():
        raise CommandError(f"an account called {username} exists already: nothing was created")
    password, generated = _password()
    candidate = get_user_model()(username=username, email=args.email)
    try:
        validate_password(password, candidate)
    except ValidationError as exc:
        raise CommandError("password: " + " ".join(exc.messages)) from exc
    with transaction.atomic():
        user = users.create_user(username=username, email=args.email, password=password)
        user.user_permissions.add(Permission.objects.get(
            content_type__app_label="championships", codename="add_championship"))
    print(f"Organiser {username} created: sign in and create the championship.")
    if generated:
        print(f"Password (shown once): {password}")
    return 0
