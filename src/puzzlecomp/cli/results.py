"""`puzzlecomp results`: signed results packages for the federation, and checking them
(docs/results-package.md).

`package` and `key` use the web app's database and key (DATABASE_URL, else ./var, as
`puzzlecomp serve`); `verify` needs neither: anyone can run it on a package they received.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from puzzlecomp.cli.common import CommandError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "results", help="write and verify signed results packages",
        description="The open results package: a championship's public results as one JSON "
        "document, signed by this installation (docs/results-package.md).")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    package = actions.add_parser(
        "package", help="write a championship's signed results package",
        description="Write the signed results package of a championship (or one event); when "
        "results changed since the last package, the new one names the hash of the one it "
        "replaces.")
    package.add_argument("slug", metavar="SLUG")
    package.add_argument("--event", default=None, help="one event's code (default: every event)")
    package.add_argument("--output", default=None, metavar="FILE",
                         help="write to FILE (default: standard output)")
    package.set_defaults(run=run_package)
    verify = actions.add_parser(
        "verify", help="check a results package: schema, results, signature and chain",
        description="Check each package against the published schema, each result against its "
        "code, and the signature; given several files, oldest first, each must name the one "
        "before it. Any problem: one line naming the file and field, exit status 2.")
    verify.add_argument("files", nargs="+", metavar="FILE")
    verify.set_defaults(run=run_verify)
    key = actions.add_parser(
        "key", help="show this installation's public key and fingerprint",
        description="The public key that verifies this installation's packages (made at first "
        "use), to give to whoever imports them.")
    key.set_defaults(run=run_key)
    trust = actions.add_parser(
        "trust", help="trust another installation's key for `archive import PACKAGE.json`",
        description="Add another installation's public key (compare its fingerprint with "
        "theirs first): the archive imports packages signed with it.")
    trust.add_argument("public_key", metavar="PUBLIC_KEY")
    trust.add_argument("--name", required=True, help="whose key it is, e.g. 'WJPF server'")
    trust.set_defaults(run=run_trust)
    keys = actions.add_parser(
        "keys", help="list the keys trusted for `archive import PACKAGE.json`",
        description="Every trusted key: its fingerprint, whose it is and its public key.")
    keys.set_defaults(run=run_keys)
    untrust = actions.add_parser(
        "untrust", help="stop trusting a key (by its fingerprint, as `results keys` lists it)",
        description="Remove a trusted key: the archive no longer imports packages signed with "
        "it (championships imported already stay).")
    untrust.add_argument("fingerprint", nargs="+", metavar="FINGERPRINT",
                         help="the fingerprint, with or without its spaces")
    untrust.set_defaults(run=run_untrust)


def run_package(args: argparse.Namespace) -> int:
    from puzzlecomp.cli.championship import database_setup

    database_setup()
    from puzzlecomp.championships.models import Championship
    from puzzlecomp.championships.services.results_package import results_package_issue

    championship = Championship.objects.filter(slug=args.slug).first()
    if championship is None:
        raise CommandError(f"no championship {args.slug!r}")
    if args.event is not None and not championship.events.filter(code=args.event).exists():
        raise CommandError(f"--event {args.event!r}: {args.slug} has no such event")
    issued = results_package_issue(championship=championship, event_code=args.event)
    if args.output is None:
        sys.stdout.write(issued.content)
        return 0
    try:
        Path(args.output).write_text(issued.content, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"{args.output}: {exc.strerror}") from None
    print(f"wrote {args.output}: {issued.list_status}, {issued.hash}", file=sys.stderr)
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from puzzlecomp.formats.results_package.document import (
        PackageError,
        package_hash,
        package_load,
        package_verify,
    )
    from puzzlecomp.formats.results_package.signing import fingerprint

    previous = None
    for name in args.files:
        try:
            content = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
        except OSError as exc:
            raise CommandError(f"{name}: {exc.strerror}") from None
        try:
            document = package_verify(package_load(content), previous=previous)
        except PackageError as error:
            for problem in error.problems:
                print(f"error: {name}: {problem}", file=sys.stderr)
            return 2
        print(f"{name}: valid {document['list_status']} package of "
              f"{document['championship']['slug']}, signed by key "
              f"{fingerprint(document['issuer']['public_key'])}; {package_hash(document)}"
              + (f", replaces {document['replaces']}" if document["replaces"] else ""))
        previous = document
    return 0


def run_key(args: argparse.Namespace) -> int:
    from puzzlecomp.cli.championship import database_setup

    database_setup()
    from puzzlecomp.championships.selectors.results_package import installation_public_key

    public, fingerprint = installation_public_key()
    print(f"public key:  {public}\nfingerprint: {fingerprint}")
    return 0


def run_trust(args: argparse.Namespace) -> int:
    from puzzlecomp.cli.championship import database_setup

    database_setup()
    from puzzlecomp.championships.services.results_package import trusted_key_add
    from puzzlecomp.formats.results_package.document import PackageError

    try:
        key, created = trusted_key_add(public_key=args.public_key, name=args.name)
    except PackageError as error:
        for problem in error.problems:
            print(f"error: {problem}", file=sys.stderr)
        return 2
    if created:
        print(f"trusted {key.name}: {key.fingerprint}")
    else:
        print(f"already trusted, as {key.name}: {key.fingerprint}")
    return 0


def run_keys(args: argparse.Namespace) -> int:
    from puzzlecomp.cli.championship import database_setup

    database_setup()
    from puzzlecomp.championships.models import TrustedKey

    keys = list(TrustedKey.objects.order_by("name", "pk"))
    if not keys:
        print("no trusted keys; add one with `puzzlecomp results trust PUBLIC_KEY --name NAME`")
    for key in keys:
        print(f"{key.fingerprint}  {key.name}  {key.public_key}")
    return 0


def run_untrust(args: argparse.Namespace) -> int:
    from puzzlecomp.cli.championship import database_setup

    database_setup()
    from puzzlecomp.championships.services.results_package import trusted_key_remove
    from puzzlecomp.formats.results_package.document import PackageError

    try:
        key = trusted_key_remove(key_fingerprint=" ".join(args.fingerprint))
    except PackageError as error:
        for problem in error.problems:
            print(f"error: {problem}", file=sys.stderr)
        return 2
    print(f"no longer trusted: {key.name} ({key.fingerprint})")
    return 0
