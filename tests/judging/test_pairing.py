"""Pairing a judge's phone: the head judge's devices, single-use pairing codes, the device
cookie, expiry after the championship, revocation, and the table cards' QR codes."""

from __future__ import annotations

import datetime as dt
import io
import re

import pypdf
import pytest
from django.test import Client
from django.utils import timezone

from puzzlecomp.championships.models import AuditEntry, JudgeDevice, Role, Round
from puzzlecomp.championships.services.devices import (
    DeviceRefused,
    device_create,
    device_expiry,
    device_for_token,
    device_pair,
    device_revoke,
    secret_hash,
)
from tests.judging.support import ME_URL, pair_device

pytestmark = pytest.mark.django_db


def create(client: Client, championship, **fields) -> object:
    data = {"label": "North", "table_from": 1, "table_to": 10} | fields
    return client.post(f"/control/{championship.slug}/judges/new/", data)


def pairing_path(response) -> str:
    """The pairing link shown on the sheet (its path)."""
    url = re.search(r'id="pairing-link"[^>]*>([^<]+)<', response.content.decode()).group(1)
    return url[url.index("/judge/"):]


def cookie(client: Client, championship) -> str:
    return client.cookies[f"judge-{championship.slug}"].value


# ------------------------------------------------------------------ the head judge's screen
def test_the_head_judge_creates_a_device_and_sees_its_pairing_qr_code(championship,
                                                                     client_as):
    head = client_as(championship, Role.HEAD_JUDGE)
    response = create(head, championship, label="Rows 1-2", table_from=1, table_to=14)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<svg" in html
    path = pairing_path(response)
    code = path.rsplit("/", 1)[1]
    device = JudgeDevice.objects.get()
    assert (device.label, device.table_from, device.table_to) == ("Rows 1-2", 1, 14)
    # Only the hash is kept: the code is in this answer and nowhere else.
    assert device.pairing_hash == secret_hash(code)
    assert code not in str(AuditEntry.objects.values_list("data", flat=True))
    listing = head.get(f"/control/{championship.slug}/judges/").content.decode()
    assert "Rows 1-2" in listing
    assert code not in listing


def test_a_judge_may_not_manage_devices(championship, client_as):
    judge = client_as(championship, Role.JUDGE)
    assert judge.get(f"/control/{championship.slug}/judges/").status_code == 403
    assert create(judge, championship).status_code == 403
    assert not JudgeDevice.objects.exists()


@pytest.mark.parametrize(("first", "last", "field"), [(5, 4, "table_to"), (1, 500, "table_to")])
def test_a_section_outside_the_hall_or_backwards_is_refused(championship, client_as, first,
                                                            last, field):
    """wjpc-2025.txt's hall (the ruleset's floor plan) has 108 tables."""
    response = create(client_as(championship, Role.HEAD_JUDGE), championship,
                      table_from=first, table_to=last)
    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert not JudgeDevice.objects.exists()


def test_the_device_list_shows_pairing_state_and_last_seen(championship, client_as,
                                                           live_round):
    device, token = pair_device(championship, 1, 2, label="Paired one")
    device_create(championship=championship, label="Waiting one", table_from=3, table_to=4,
                  user=None)
    Client(HTTP_AUTHORIZATION=f"Bearer {token}").get(ME_URL)
    device.refresh_from_db()
    html = client_as(championship, Role.HEAD_JUDGE).get(
        f"/control/{championship.slug}/judges/").content.decode()
    row = html[html.index(f'id="device-{device.pk}"'):]
    row = row[:row.index("</tr>")]
    assert "paired" in row
    assert "never" not in row
    assert "waiting for its phone" in html


def test_revoking_stops_the_token_at_once(championship, client_as):
    device, token = pair_device(championship, 1, 2)
    head = client_as(championship, Role.HEAD_JUDGE)
    response = head.post(f"/control/{championship.slug}/judges/{device.pk}/revoke/")
    assert response.status_code == 302
    with pytest.raises(DeviceRefused) as refused:
        device_for_token(token)
    assert refused.value.code == "device.revoked"
    page = Client()
    page.cookies[f"judge-{championship.slug}"] = token
    answer = page.get(f"/judge/{championship.slug}/")
    assert answer.status_code == 401
    assert "revoked" in answer.content.decode()


def test_a_new_pairing_code_moves_the_device_to_another_phone(championship, client_as):
    """A lost or broken phone: the head judge pairs a replacement; the old phone stops."""
    device, old_token = pair_device(championship, 1, 2)
    head = client_as(championship, Role.HEAD_JUDGE)
    sheet = head.post(f"/control/{championship.slug}/judges/{device.pk}/code/")
    assert sheet.status_code == 200
    phone = Client()
    assert phone.post(pairing_path(sheet)).status_code == 302
    assert device_for_token(cookie(phone, championship)) == device
    with pytest.raises(DeviceRefused):
        device_for_token(old_token)


def test_the_pairing_sheets_pdf_gives_new_codes_to_waiting_devices(championship, client_as):
    _device, code = device_create(championship=championship, label="North", table_from=1,
                                 table_to=2, user=None)
    head = client_as(championship, Role.HEAD_JUDGE)
    response = head.post(f"/control/{championship.slug}/judges/sheets.pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "no-store"
    assert response.content.startswith(b"%PDF")
    # The printed code replaces the one shown before.
    assert Client().get(f"/judge/{championship.slug}/pair/{code}").status_code == 404


def test_pairing_links_and_sheets_carry_the_halls_address_not_the_laptops_own(
        championship, client_as, settings):
    """Venue mode: the head judge opens the laptop's own 127.0.0.1, the phones reach SITE_URL;
    the QR code on the screen and on the printed sheet must carry the hall's address."""
    settings.SITE_URL = "http://192.168.1.20:8000"
    head = client_as(championship, Role.HEAD_JUDGE)
    sheet = create(head, championship).content.decode()
    link = re.search(r'id="pairing-link"[^>]*>([^<]+)<', sheet).group(1)
    assert link.startswith(f"http://192.168.1.20:8000/judge/{championship.slug}/pair/")
    device_create(championship=championship, label="South", table_from=11, table_to=12,
                  user=None)
    pdf = head.post(f"/control/{championship.slug}/judges/sheets.pdf").content
    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert "http://192.168.1.20:8000/judge/" in text.replace("\n", "")
    assert "testserver" not in text


# ------------------------------------------------------------------ the phone
def test_the_pairing_link_asks_first_then_pairs_with_an_httponly_cookie_for_judge_pages(
        championship):
    device, code = device_create(championship=championship, label="North", table_from=1,
                                 table_to=2, user=None)
    phone = Client()
    url = f"/judge/{championship.slug}/pair/{code}"
    page = phone.get(url)
    assert page.status_code == 200
    assert "North" in page.content.decode()
    device.refresh_from_db()
    assert device.paired_at is None
    assert device.token_hash is None
    response = phone.post(url)
    assert response.status_code == 302
    assert response["Location"] == f"/judge/{championship.slug}/"
    jar = response.cookies[f"judge-{championship.slug}"]
    assert jar["httponly"]
    assert jar["path"] == "/judge/"
    assert jar["samesite"] == "Lax"
    device.refresh_from_db()
    assert device.paired_at is not None
    assert device.token_hash == secret_hash(jar.value)
    screen = phone.get(f"/judge/{championship.slug}/")
    assert screen.status_code == 200
    # The page hands the token to its script, which sends it as a Bearer token.
    assert f'data-token="{jar.value}"' in screen.content.decode()


def test_a_pairing_code_works_once(championship):
    _device, code = device_create(championship=championship, label="North", table_from=1,
                                  table_to=2, user=None)
    device_pair(championship=championship, code=code)
    second = Client().post(f"/judge/{championship.slug}/pair/{code}")
    assert second.status_code == 404
    assert "does not work" in second.content.decode()
    assert not second.cookies


def test_a_pairing_code_of_another_championship_does_not_work(championship,
                                                             make_championship):
    other = make_championship("wjpc-2025", name="Other")
    _device, code = device_create(championship=other, label="North", table_from=1, table_to=2,
                                  user=None)
    assert Client().post(f"/judge/{championship.slug}/pair/{code}").status_code == 404


def test_a_token_works_in_its_own_championship_only(championship, make_championship):
    _device, token = pair_device(championship, 1, 2)
    other = make_championship("wjpc-2025", name="Other")
    page = Client()
    page.cookies[f"judge-{other.slug}"] = token
    response = page.get(f"/judge/{other.slug}/")
    assert "data-token" not in response.content.decode()


def test_tokens_expire_the_day_after_the_championship(championship):
    """The issue: a device token expires after the event (ends_on + 1 day)."""
    championship.ends_on = (championship.starts_at + dt.timedelta(days=3)).date()
    championship.save()
    device, token = pair_device(championship, 1, 2)
    end_of_next_day = dt.datetime.combine(championship.ends_on + dt.timedelta(days=2),
                                          dt.time.min, tzinfo=timezone.get_current_timezone())
    assert device.expires_at == end_of_next_day
    assert device_for_token(token, now=end_of_next_day - dt.timedelta(seconds=1)) == device
    with pytest.raises(DeviceRefused) as refused:
        device_for_token(token, now=end_of_next_day)
    assert refused.value.code == "device.expired"


def test_without_a_last_day_tokens_last_a_week_from_the_start(championship):
    assert championship.ends_on is None
    assert device_expiry(championship) == championship.starts_at + dt.timedelta(days=7)


def test_an_expired_phone_gets_a_clear_page(championship):
    device, token = pair_device(championship, 1, 2)
    JudgeDevice.objects.filter(pk=device.pk).update(expires_at=timezone.now())
    page = Client()
    page.cookies[f"judge-{championship.slug}"] = token
    response = page.get(f"/judge/{championship.slug}/")
    assert response.status_code == 401
    assert "expired" in response.content.decode()


def test_an_unpaired_phone_is_told_how_to_pair(championship):
    response = Client().get(f"/judge/{championship.slug}/")
    assert response.status_code == 200
    assert "How to pair" in response.content.decode()


def test_a_revoked_device_cannot_be_paired_again_with_its_code(championship):
    device, code = device_create(championship=championship, label="North", table_from=1,
                                 table_to=2, user=None)
    device_revoke(device=device, user=None)
    assert Client().post(f"/judge/{championship.slug}/pair/{code}").status_code == 404


# ------------------------------------------------------------------ table cards
def table_url(rnd, table: int) -> str:
    return f"/judge/{rnd.event.championship.slug}/table/{rnd.pk}/{table}"


def test_a_table_card_opens_the_judge_screen_on_that_table(championship, live_round):
    _device, token = pair_device(championship, 1, 2)
    phone = Client()
    phone.cookies[f"judge-{championship.slug}"] = token
    response = phone.get(table_url(live_round, 2))
    assert response.status_code == 302
    assert response["Location"] == (f"/judge/{championship.slug}/?round={live_round.pk}"
                                    "#table-2")


def test_a_table_card_outside_the_section_says_so(championship, live_round):
    _device, token = pair_device(championship, 1, 2)
    phone = Client()
    phone.cookies[f"judge-{championship.slug}"] = token
    response = phone.get(table_url(live_round, 3))
    assert response.status_code == 200
    assert "Table 3 is not in this phone" in response.content.decode()


def test_a_signed_in_judge_pairs_a_phone_for_the_row_of_the_scanned_table(championship,
                                                                          client_as,
                                                                          live_round):
    """WJPC's hall (ruleset floor plan) has rows of 6, 8, 10... tables: table 10 is in the
    second row, tables 7 to 14."""
    judge = client_as(championship, Role.JUDGE)
    page = judge.get(table_url(live_round, 10))
    assert "tables 7 to 14" in page.content.decode()
    response = judge.post(table_url(live_round, 10))
    assert response.status_code == 302
    assert response["Location"].endswith(f"?round={live_round.pk}#table-10")
    device = JudgeDevice.objects.get()
    assert (device.table_from, device.table_to) == (7, 14)
    assert device_for_token(cookie(judge, championship)) == device


def test_a_competitor_cannot_pair_from_a_table_card(championship, client_as, live_round):
    competitor = client_as(championship, Role.COMPETITOR)
    page = competitor.get(table_url(live_round, 3))
    assert "How to pair" in page.content.decode()
    assert competitor.post(table_url(live_round, 3)).status_code == 403
    assert not JudgeDevice.objects.exists()


def test_a_table_card_of_another_championships_round_is_404(championship, make_championship,
                                                            live_round):
    other = make_championship("wjpc-2025", name="Other")
    url = f"/judge/{other.slug}/table/{live_round.pk}/1"
    assert Client().get(url).status_code == 404


def test_without_a_floor_plan_a_judge_is_told_to_ask_for_a_pairing_code(make_championship,
                                                                        client_as):
    """norway-nm-2025.toml sets no hall: there is no row to pair for."""
    norway = make_championship("norway-nm-2025")
    rnd = Round.objects.filter(event__championship=norway).first()
    judge = client_as(norway, Role.JUDGE)
    page = judge.get(table_url(rnd, 3))
    assert page.status_code == 200
    assert "floor plan does not show table 3" in page.content.decode()
    assert judge.post(table_url(rnd, 3)).status_code == 403
    assert not JudgeDevice.objects.exists()
