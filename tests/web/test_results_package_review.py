"""What an independent review of the results package found (issue 29): a fingerprint copied
into a forger's package, names given twice, integers too long to convert, lone surrogates,
and `replaces` on a package that is no correction, each refused naming the field."""

from __future__ import annotations

import json
import re

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from puzzlecomp.championships.demo import DEMO_SLUG, demo_load
from puzzlecomp.championships.models import Championship
from puzzlecomp.championships.services.results_package import results_package_issue
from puzzlecomp.formats.results_package.document import (
    PackageError,
    _signed_bytes,
    package_load,
    package_verify,
)
from puzzlecomp.formats.results_package.signing import fingerprint, public_key_text, sign


@pytest.fixture(autouse=True)
def signing_key(settings, tmp_path):
    settings.RESULTS_KEY_FILE = tmp_path / "data" / "results-signing-key"


@pytest.fixture
def package(db) -> dict:
    demo_load(individuals=12, pairs=4, teams=4)
    return json.loads(results_package_issue(
        championship=Championship.objects.get(slug=DEMO_SLUG), event_code="teams").content)


def resigned(document: dict, key: Ed25519PrivateKey, *, keep_fingerprint: bool) -> dict:
    """The package signed again with `key`, its stated fingerprint kept or made from the key."""
    forged = {k: v for k, v in document.items() if k != "signature"}
    public = public_key_text(key)
    stated = document["issuer"]["fingerprint"] if keep_fingerprint else fingerprint(public)
    forged["issuer"] = {"public_key": public, "fingerprint": stated}
    forged["signature"] = {"algorithm": "Ed25519", "value": sign(key, _signed_bytes(forged))}
    return forged


def problems(content: str | bytes | dict) -> list[str]:
    with pytest.raises(PackageError) as caught:
        package_verify(content if isinstance(content, dict) else package_load(content))
    return [str(p) for p in caught.value.problems]


def test_a_fingerprint_not_made_from_the_key_is_refused_naming_it(package):
    # Review finding 1: a forger's key with the installation's fingerprint copied in.
    forged = resigned(package, Ed25519PrivateKey.generate(), keep_fingerprint=True)
    [problem] = problems(forged)
    assert problem.startswith(f"issuer.fingerprint: says '{package['issuer']['fingerprint']}', "
                              "but the key's fingerprint is ")
    honest = resigned(package, Ed25519PrivateKey.generate(), keep_fingerprint=False)
    assert package_verify(honest)


def test_a_name_given_twice_is_refused_naming_its_place(package):
    # Review finding 2: json.loads keeps the later of two names; I-JSON refuses both.
    text = json.dumps(package)
    doubled = text.replace('"time_seconds": ', '"time_seconds": 1000, "time_seconds": ', 1)
    found = problems(doubled)
    assert found[0].startswith("events[0].rounds[0].results[")
    assert found[0].endswith(".time_seconds: is given more than once in its object; give it once")
    same = text.replace('"format": ', '"format": "puzzlecomp-results-package", "format": ', 1)
    assert problems(same) == ["format: is given more than once in its object; give it once"]


def test_a_5000_digit_integer_is_refused_not_converted(package):
    # Review finding 3: int() of 5,000 digits raises ValueError past Python's 4,300 digits.
    text = re.sub(r'"result_count": \d+', '"result_count": ' + "9" * 5000, json.dumps(package),
                  count=1)
    [problem] = problems(text)
    assert problem == ("events[0].rounds[0].result_count: an integer of 5,000 digits; a package "
                       "holds at most 15")
    assert problems('{"a": -' + "1" * 5000 + "}")[0].startswith("a: an integer of 5,000 digits")


def test_a_lone_surrogate_is_refused_at_parse(package):
    # Review finding 3: "\ud800" decodes to a str no encoder can write.
    text = json.dumps(package).replace('"venue": "', '"venue": "\\ud800', 1)
    [problem] = problems(text)
    assert problem.startswith("championship.venue: holds a lone surrogate")
    assert problems('{"\\udc00x": 1}') == [
        "\\udc00x: the name holds a lone surrogate (\\ud800-\\udfff), which is no text"]


def test_replaces_is_only_for_a_correction(package):
    # Review finding 11: a provisional or final package naming a package it replaces.
    assert package["list_status"] == "provisional"
    assert package["replaces"] is None
    found = problems({**package, "replaces": "sha256:" + "0" * 64})
    assert found[0].startswith("replaces: ")


def test_a_certificate_drops_bidi_controls_from_names():
    # Review finding 9: U+202E in a name would print the rest of the line reversed.
    from puzzlecomp.championships.printing.ceremony import without_bidi_controls

    name = "Ann \u202eecnarF\u202c \u2066x\u2069 \u202a\u202b\u202d\u2067\u2068"
    assert without_bidi_controls(name) == "Ann ecnarF x "
    assert without_bidi_controls("Řehoř Ødegård") == "Řehoř Ødegård"
