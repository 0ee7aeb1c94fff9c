"""The public verification page (issue 29): a certificate's code or an uploaded package is
valid, replaced by a later correction, or not from this installation; the championship page
shows the installation's public key and fingerprint."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from puzzlecomp.championships.demo import DEMO_SLUG, demo_load
from puzzlecomp.championships.models import Championship, Result
from puzzlecomp.championships.selectors.results_package import installation_public_key
from puzzlecomp.championships.services.results_package import results_package_issue


@pytest.fixture(autouse=True)
def signing_key(settings, tmp_path):
    settings.RESULTS_KEY_FILE = tmp_path / "results-signing-key"


@pytest.fixture
def issued(db):
    demo_load(individuals=30, pairs=10, teams=6)
    championship = Championship.objects.get(slug=DEMO_SLUG)
    return championship, results_package_issue(championship=championship, event_code="teams")


def verdict(response) -> str:
    text = response.content.decode()
    marker = 'data-verdict="'
    return text[text.index(marker) + len(marker):].split('"', 1)[0]


def test_a_certificates_code_shows_the_result_as_published_and_that_it_stands(client, issued):
    _, package = issued
    result = json.loads(package.content)["events"][0]["rounds"][0]["results"][0]
    response = client.get(reverse("public:packages:verify"), {"code": result["code"][:20]})
    assert verdict(response) == "valid"
    text = response.content.decode()
    assert f"#{result['entry']}" in text
    assert " ".join(result["code"][i:i + 4] for i in range(0, 20, 4)) in text


def test_a_changed_result_is_replaced_and_an_unknown_code_is_not_from_here(client, issued):
    championship, package = issued
    result = json.loads(package.content)["events"][0]["rounds"][0]["results"][0]
    Result.objects.filter(round__event__championship=championship, round__event__code="teams",
                          entry__number=result["entry"]).update(status="dsq", puzzles=[])
    results_package_issue(championship=championship, event_code="teams")
    url = reverse("public:packages:verify")
    assert verdict(client.get(url, {"code": result["code"]})) == "replaced"
    assert verdict(client.get(url, {"code": "0" * 20})) == "not_from_here"
    assert verdict(client.get(url, {"code": "not a code"})) == "not_from_here"


def test_an_uploaded_package_is_checked_and_a_tampered_one_is_named(client, issued):
    _, package = issued
    url = reverse("public:packages:verify")
    upload = SimpleUploadedFile("p.json", package.content.encode(), "application/json")
    assert verdict(client.post(url, {"package": upload})) == "valid"
    document = json.loads(package.content)
    document["events"][0]["rounds"][0]["results"][0]["missing"] += 3
    upload = SimpleUploadedFile("p.json", json.dumps(document).encode(), "application/json")
    response = client.post(url, {"package": upload})
    assert verdict(response) == "invalid"
    assert "events[0].rounds[0].results[0]: entry" in response.content.decode()


def test_the_championship_page_shows_the_key_and_its_fingerprint(client, issued):
    championship, _ = issued
    Championship.objects.filter(pk=championship.pk).update(published=True)
    public, fingerprint = installation_public_key()
    text = client.get(reverse("public:championship", args=[DEMO_SLUG])).content.decode()
    assert fingerprint in text
    assert public in text
    assert reverse("public:packages:verify") in text


def test_the_api_serves_the_published_schema(client, db):
    response = client.get("/api/v1/schemas/results-package.schema.json")
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response.json()["$id"] == "https://puzzlecomp.org/schemas/results-package/1"
    assert "/api/v1/schemas/results-package.schema.json" in client.get(
        "/api/v1/openapi.json").json()["paths"]


def test_a_result_corrected_since_its_package_is_no_longer_called_valid(client, issued):
    # Review finding 5: before, the code stayed "Valid ... still standing" until someone
    # issued a new package.
    championship, package = issued
    result = json.loads(package.content)["events"][0]["rounds"][0]["results"][0]
    url = reverse("public:packages:verify")
    assert verdict(client.get(url, {"code": result["code"]})) == "valid"
    Result.objects.filter(round__event__championship=championship, round__event__code="teams",
                          entry__number=result["entry"]).update(status="dsq", puzzles=[])
    response = client.get(url, {"code": result["code"]})
    assert verdict(response) == "replaced"
    assert "Corrected since it was issued" in response.content.decode()


def test_a_provisional_re_issue_is_a_later_version_not_a_correction(client, issued):
    # Review finding 9: a provisional package superseded by another is no correction.
    championship, package = issued
    result = json.loads(package.content)["events"][0]["rounds"][0]["results"][0]
    Result.objects.filter(round__event__championship=championship, round__event__code="teams",
                          entry__number=result["entry"]).update(status="dsq", puzzles=[])
    later = results_package_issue(championship=championship, event_code="teams")
    assert later.list_status == "provisional"
    response = client.get(reverse("public:packages:verify"), {"code": result["code"]})
    text = response.content.decode()
    assert "Replaced by a later version" in text
    assert "correction" not in text.split('data-verdict="', 1)[1].split("</section>")[0]


def test_a_refused_upload_names_the_file_in_the_visitors_language(client, issued):
    # Review finding 9: the frame of the message is translated, the file named (isolated).
    upload = SimpleUploadedFile("\u202evýsledky.json", b'{"a": 1, "a": 2}',
                                content_type="application/json")
    response = client.post(reverse("public:packages:verify"), {"package": upload},
                           HTTP_ACCEPT_LANGUAGE="cs")
    text = response.content.decode()
    assert verdict(response) == "invalid"
    # (Django drops the control character from an upload's name; the page isolates it still.)
    assert 'Soubor <bdi class="file-name">výsledky.json</bdi> byl odmítnut.' in text
    assert "\u202e" not in text
    assert "a: is given more than once" in text


def test_a_package_of_2_mb_is_checked_not_refused_for_its_size(client, issued):
    # Review finding 4 (the view's side; body_limits gives /verify/ the file's bound).
    _, package = issued
    padded = package.content.rstrip("\n") + " " * 2_000_000
    upload = SimpleUploadedFile("teams.json", padded.encode(), content_type="application/json")
    assert verdict(client.post(reverse("public:packages:verify"), {"package": upload})) == "valid"


@pytest.mark.parametrize("content", [
    b'{"a": ' + b"9" * 5000 + b"}",
    b'{"a": "\\ud800"}',
])
def test_a_huge_integer_or_a_lone_surrogate_gets_the_page_not_a_500(client, db, content):
    # Review finding 3.
    upload = SimpleUploadedFile("odd.json", content, content_type="application/json")
    response = client.post(reverse("public:packages:verify"), {"package": upload})
    assert response.status_code == 200
    assert verdict(response) == "invalid"
    assert "odd.json" in response.content.decode()
