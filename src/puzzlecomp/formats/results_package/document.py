"""The results package: one signed JSON document of a championship's public results
(docs/results-package.md, schema in results-package.schema.json, a copy under docs/).

Pure: it is given the package's body as plain values and a key; it knows nothing of the
database. Every problem names its place in the document, e.g.
`events[0].rounds[1].results[4].code`.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import itertools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import jsonschema_rs
import rfc8785
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from puzzlecomp.formats.interchange import (
    InterchangeError,
    InterchangeProblem,
    field_path,
    json_depth,
    problem,
)
from puzzlecomp.formats.results_package.signing import (
    ALGORITHM,
    fingerprint,
    public_key_text,
    sign,
    signature_valid,
)
from puzzlecomp.rules import limits

FORMAT = "puzzlecomp-results-package"
VERSION = 1
SCHEMA_FILE = "results-package.schema.json"
LIST_STATUSES = ("provisional", "final", "correction")


class PackageError(InterchangeError):
    """A package that cannot be read, is not valid or does not verify: every problem found."""


@functools.cache
def package_schema() -> dict[str, Any]:
    """The published JSON Schema of the package (the file docs/ carries a copy of)."""
    text = (resources.files("puzzlecomp.formats.results_package") / SCHEMA_FILE).read_text()
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator() -> jsonschema_rs.Draft202012Validator:
    return jsonschema_rs.Draft202012Validator(package_schema())


def canonical(value: Any) -> bytes:
    """The value as canonical JSON (RFC 8785): the exact bytes a signature covers.

    Without floats and with ASCII keys (every package the schema admits, unless a number was
    written as 1.0), RFC 8785's form is what the compiled `json` encoder writes with sorted
    keys, no spaces and UTF-8 text: the same escapes, the same integers, keys in the same
    order. `rfc8785` serialises anything else, and a test pins the two to the same bytes.
    """
    if _plain(value):
        return json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False,
                          separators=(",", ":")).encode()
    return rfc8785.dumps(value)


def _plain(value: Any) -> bool:
    """Whether a value holds no float and only ASCII keys, at any depth."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if not all(key.isascii() for key in item):
                return False
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, float):
            return False
    return True


def package_hash(document: dict[str, Any]) -> str:
    """The package's name in a chain of corrections: SHA-256 of its signed bytes."""
    return "sha256:" + hashlib.sha256(_signed_bytes(document)).hexdigest()


def _signed_bytes(document: dict[str, Any]) -> bytes:
    return canonical({k: v for k, v in document.items() if k != "signature"})


def result_code(championship: str, event: str, round_code: str, result: dict[str, Any]) -> str:
    """A result's code (a certificate carries it): SHA-256 of the result as published, with
    the championship, event and round it belongs to. Its validation status is left out: a
    result checked, then validated after the dispute window, is still the same result (the
    signature covers the status)."""
    fields = {k: v for k, v in result.items() if k not in ("code", "validation")}
    return hashlib.sha256(canonical({"championship": championship, "event": event,
                                     "round": round_code, "result": fields})).hexdigest()


@dataclass(frozen=True)
class PublishedResult:
    """One result of a package, found by its code."""

    code: str
    event: str
    round: str
    entry: int
    result: dict[str, Any]


def package_results(document: dict[str, Any]) -> list[PublishedResult]:
    """Every result of a (verified) package with the event and round it belongs to."""
    return [PublishedResult(r["code"], e["code"], rnd["code"], r["entry"], r)
            for e in document["events"] for rnd in e["rounds"] for r in rnd["results"]]


def package_sign(body: dict[str, Any], *, key: Ed25519PrivateKey, list_status: str,
                 replaces: str | None, issued_at: dt.datetime,
                 software: tuple[str, str]) -> tuple[dict[str, Any], str]:
    """The signed package of `body` (`championship`, `scope`, `officials`, `events`, the
    results without their codes; the codes are added to it) and its hash: validated against
    the schema, signed."""
    document = body
    for event in document["events"]:
        for rnd in event["rounds"]:
            rnd["result_count"] = len(rnd["results"])
            for result in rnd["results"]:
                result["code"] = result_code(document["championship"]["slug"], event["code"],
                                             rnd["code"], result)
    public = public_key_text(key)
    document = {
        "format": FORMAT, "version": VERSION, "list_status": list_status,
        "replaces": replaces,
        "issued_at": issued_at.astimezone(dt.UTC).isoformat().replace("+00:00", "Z"),
        "software": {"name": software[0], "version": software[1]},
        "issuer": {"public_key": public, "fingerprint": fingerprint(public)},
        **document,
    }
    signed = _signed_bytes(document)
    document["signature"] = {"algorithm": ALGORITHM, "value": sign(key, signed)}
    # Validated on write as on read: the program never hands out a package its schema refuses.
    _raise(schema_problems(document))
    return document, "sha256:" + hashlib.sha256(signed).hexdigest()


# The largest integer a package may hold: the schema's integers are counts, seconds and ranks,
# far below it. A longer number is refused at parse, before anything converts it.
MAX_INTEGER_DIGITS = 15
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class _Object(dict[str, Any]):
    """A decoded JSON object that remembers the names it was given more than once."""

    repeated: tuple[str, ...] = ()


class _TooLong(int):
    """An integer with more digits than a package may hold (kept as its text's length)."""

    digits: int = 0


def _object(pairs: list[tuple[str, Any]]) -> _Object:
    found = _Object()
    repeated = []
    for key, value in pairs:
        if key in found:
            repeated.append(key)
        found[key] = value
    if repeated:
        found.repeated = tuple(repeated)
    return found


def _integer(text: str) -> int:
    if len(text.lstrip("-")) <= MAX_INTEGER_DIGITS:
        return int(text)
    too_long = _TooLong(0)
    too_long.digits = len(text.lstrip("-"))
    return too_long


def package_load(content: str | bytes) -> Any:
    """The decoded JSON of a package file, within the championship file's bounds of size and
    depth, as I-JSON (RFC 7493): no name given twice in an object, no lone surrogate in a
    text, no integer longer than a package can hold; PackageError naming where it breaks."""
    if len(content) > limits.MAX_CHAMPIONSHIP_FILE_BYTES:
        raise PackageError([problem("", f"the file has {len(content):,} bytes; at most "
                                    f"{limits.MAX_CHAMPIONSHIP_FILE_BYTES:,}")])
    try:
        data = json.loads(content, object_pairs_hook=_object, parse_int=_integer)
    except json.JSONDecodeError as exc:
        raise PackageError([problem(
            "", f"not JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}")]) from None
    except UnicodeDecodeError as exc:
        raise PackageError([problem("", f"not UTF-8 text: {exc.reason}")]) from None
    except RecursionError:
        raise PackageError([problem(
            "", f"values are nested more than {limits.MAX_JSON_DEPTH} levels deep")]) from None
    if json_depth(data) > limits.MAX_JSON_DEPTH:
        raise PackageError([problem(
            "", f"values are nested more than {limits.MAX_JSON_DEPTH} levels deep")])
    _raise(_strict_problems(data))
    return data


def _strict_problems(data: Any) -> list[InterchangeProblem]:
    """Where the decoded value breaks I-JSON: a name twice, a lone surrogate, a long integer."""
    problems: list[InterchangeProblem] = []
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack and len(problems) < 20:
        value, path = stack.pop()
        if isinstance(value, dict):
            for key in getattr(value, "repeated", ()):
                problems.append(problem(_safe(_child(path, key)),
                                        "is given more than once in its object; give it once"))
            for key, item in value.items():
                if _LONE_SURROGATE.search(key):
                    problems.append(problem(_safe(_child(path, key)), "the name holds a lone "
                                            "surrogate (\\ud800-\\udfff), which is no text"))
                stack.append((item, _child(path, key)))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value))
        elif isinstance(value, _TooLong):
            problems.append(problem(_safe(path), f"an integer of {value.digits:,} digits; "
                                    f"a package holds at most {MAX_INTEGER_DIGITS}"))
        elif isinstance(value, str) and _LONE_SURROGATE.search(value):
            problems.append(problem(_safe(path), "holds a lone surrogate (\\ud800-\\udfff), "
                                    "which is no text"))
    return sorted(problems, key=lambda p: str(p))


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _safe(path: str) -> str:
    """A path that can be printed even when a name in it holds a lone surrogate."""
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", path)


def schema_problems(document: Any) -> list[InterchangeProblem]:
    """The package's format and version first (a reader refuses a version it does not know
    rather than guess), then every place the schema refuses."""
    if not isinstance(document, dict):
        return [problem("", "expected a JSON object")]
    if document.get("format") != FORMAT:
        return [problem("format", f"expected {FORMAT!r}, found {document.get('format')!r}: "
                        "not a puzzlecomp results package")]
    if document.get("version") != VERSION:
        return [problem("version", f"version {document.get('version')!r} is unknown; this "
                        f"puzzlecomp reads version {VERSION}")]
    errors = itertools.islice(_validator().iter_errors(document), 20)
    return [problem(field_path(e.instance_path), e.message[:300]) for e in errors]


def package_verify(document: Any, *, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    """The package, once its schema, each result's code and count, its chain (the package it
    says it replaces, when given) and its signature hold; PackageError naming the field or
    the broken link otherwise. Whose key signed it is the caller's question (`issuer`)."""
    _raise(schema_problems(document))
    slug = document["championship"]["slug"]
    problems = []
    key = document["issuer"]["public_key"]
    try:
        computed = fingerprint(key)
    except ValueError as exc:
        raise PackageError([problem("issuer.public_key", str(exc))]) from None
    if document["issuer"]["fingerprint"] != computed:
        problems.append(problem("issuer.fingerprint", (
            f"says {document['issuer']['fingerprint']!r}, but the key's fingerprint is "
            f"{computed!r}: the fingerprint was not made from this key")))
    for e, event in enumerate(document["events"]):
        for r, rnd in enumerate(event["rounds"]):
            where = f"events[{e}].rounds[{r}]"
            if rnd["result_count"] != len(rnd["results"]):
                problems.append(problem(
                    f"{where}.result_count", f"says {rnd['result_count']} results; the "
                    f"package holds {len(rnd['results'])}: a result was removed or added"))
            for i, result in enumerate(rnd["results"]):
                if result_code(slug, event["code"], rnd["code"], result) != result["code"]:
                    problems.append(problem(
                        f"{where}.results[{i}]", f"entry {result['entry']}: its fields do "
                        "not match its code: the result was changed after signing"))
    problems += chain_problems(document, previous)
    if not problems and not signature_valid(key, _signed_bytes(document),
                                            document["signature"]["value"]):
        problems.append(problem("signature.value", "does not verify with the issuer's key "
                                f"{computed}: the package was "
                                "changed after signing, or the signature is another's"))
    _raise(problems)
    return dict(document)


def chain_problems(document: dict[str, Any],
                   previous: dict[str, Any] | None) -> list[InterchangeProblem]:
    """A correction names the package it replaces; given that package, the link must hold."""
    replaces = document["replaces"]
    if document["list_status"] == "correction" and replaces is None:
        return [problem("replaces", "a correction names the hash of the package it replaces")]
    if document["list_status"] != "correction" and replaces is not None:
        return [problem("replaces", f"a {document['list_status']} package replaces nothing: "
                        "only a correction names the package it replaces")]
    if previous is None:
        return []
    found = package_hash(previous)
    if replaces is not None and replaces != found:
        return [problem("replaces", f"names {replaces}, but the previous package hashes to "
                        f"{found}: the chain of corrections is broken")]
    if previous["issuer"]["public_key"] != document["issuer"]["public_key"]:
        return [problem("issuer.public_key", "differs from the key of the package it "
                        "replaces: a correction comes from the installation that issued it")]
    if previous["championship"]["slug"] != document["championship"]["slug"]:
        return [problem("championship.slug", "differs from the package it replaces")]
    return []


def _raise(problems: Sequence[InterchangeProblem]) -> None:
    if problems:
        raise PackageError(problems)
