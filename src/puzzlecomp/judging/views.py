"""Judges' phones under /judge/<slug>/: pairing, the table cards' QR codes, the judge's screen.

The device token lives in an HttpOnly cookie scoped to /judge/ and is also handed to the page,
whose script sends it to the device API as a Bearer token.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from puzzlecomp.championships.messages import message_of
from puzzlecomp.championships.models import Championship, JudgeDevice, Role, Round
from puzzlecomp.championships.roles import role_of
from puzzlecomp.championships.schemas import me_out
from puzzlecomp.championships.services.device_overview import device_overview
from puzzlecomp.championships.services.devices import (
    DeviceError,
    DeviceRefused,
    Section,
    device_for_pairing,
    device_for_token,
    device_pair,
    device_pair_for_row,
    device_seen,
    row_section,
    section_of,
)
from puzzlecomp.judging.labels import screen_labels, unpaired_labels
from puzzlecomp.judging.offline_app import RELEASE_HEADER, manifest_of, release

# The live ASGI app's clock endpoint (see docs/live.md).
SERVER_TIME_URL = "/live/time"


def cookie_name(championship: Championship) -> str:
    return f"judge-{championship.slug}"


def _paired(request: HttpRequest, championship: Championship,
            ) -> tuple[JudgeDevice | None, str, DeviceRefused | None]:
    """The device whose token this phone holds (or why it does not work), and the token."""
    token = request.COOKIES.get(cookie_name(championship), "")
    if not token:
        return None, "", None
    try:
        device = device_for_token(token)
    except DeviceRefused as refusal:
        return None, "", refusal
    if device.championship_id != championship.pk:
        return None, "", None
    return device, token, None


def _unpublished_to(request: HttpRequest, championship: Championship,
                    device: JudgeDevice | None) -> None:
    """An unpublished championship exists only for its members and its paired phones: to
    everyone else its judges' pages answer 404, naming nothing."""
    if not championship.published and device is None and role_of(request.user,
                                                                   championship) is None:
        raise Http404


def _with_cookie(response: HttpResponse, request: HttpRequest, device: JudgeDevice,
                 token: str) -> HttpResponse:
    seconds = max(0, int((device.expires_at - timezone.now()).total_seconds()))
    response.set_cookie(cookie_name(device.championship), token, max_age=seconds,
                        path="/judge/", httponly=True, samesite="Lax",
                        secure=request.is_secure())
    return response


def _screen_url(championship: Championship, rnd: Round | None = None,
                table: int | None = None) -> str:
    url = reverse("judging:home", args=[championship.slug])
    if rnd is not None:
        url += f"?round={rnd.pk}"
    return url + (f"#table-{table}" if table is not None else "")


def _refusal_text(refusal: DeviceError | None) -> str:
    return message_of(refusal.code, refusal.message, refusal.params) if refusal else ""


@never_cache
def home(request: HttpRequest, slug: str) -> HttpResponse:
    """The judge's screen: the section's tables in the live rounds (needs a paired phone)."""
    championship = get_object_or_404(Championship, slug=slug)
    device, token, refusal = _paired(request, championship)
    _unpublished_to(request, championship, device)
    if device is None:
        return render(request, "judging/how_to_pair.html", {
            "championship": championship, "refusal": _refusal_text(refusal),
            "unpaired_labels": unpaired_labels(),
        }, status=401 if refusal else 200)
    device_seen(device)
    me = me_out(device_overview(device)).model_dump(mode="json")
    current = release()
    response = render(request, "judging/screen.html", {
        "championship": championship, "device": device, "token": token, "me": me,
        "labels": screen_labels(), "time_url": SERVER_TIME_URL, "release": current,
    })
    # The service worker keeps a screen only of its own release (offline_app.py).
    response[RELEASE_HEADER] = current
    return response


@require_http_methods(["GET"])
def manifest(request: HttpRequest, slug: str) -> JsonResponse:
    """The screen's web app manifest (a judge adds the screen to the home screen)."""
    championship = get_object_or_404(Championship, slug=slug)
    device, _token, _refusal = _paired(request, championship)
    _unpublished_to(request, championship, device)
    response = JsonResponse(manifest_of(championship),
                            content_type="application/manifest+json",
                            json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-cache"
    return response


@require_http_methods(["GET", "POST"])
def pair(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    """The pairing QR code's page: one tap pairs this phone (a GET alone changes nothing, so a
    link preview cannot use up the single-use code)."""
    championship = get_object_or_404(Championship, slug=slug)
    if request.method == "POST":
        try:
            device, token = device_pair(championship=championship, code=code)
        except DeviceRefused as refusal:
            _unpublished_to(request, championship, None)
            return render(request, "judging/pair.html", {
                "championship": championship, "refusal": _refusal_text(refusal),
            }, status=404)
        return _with_cookie(redirect(_screen_url(championship)), request, device, token)
    pairing = device_for_pairing(championship, code)
    if pairing is None:
        _unpublished_to(request, championship, None)
    return render(request, "judging/pair.html", {
        "championship": championship, "device": pairing,
        "refusal": "" if pairing else _refusal_text(DeviceRefused(
            "device.pairing_invalid", "this pairing code does not work")),
    }, status=200 if pairing else 404)


@require_http_methods(["GET", "POST"])
def table(request: HttpRequest, slug: str, round_id: int, table: int) -> HttpResponse:
    """A table card's QR code: a phone paired for the table opens it; a signed-in judge may
    pair this phone for the table's row; anyone else learns how to pair."""
    championship = get_object_or_404(Championship, slug=slug)
    rnd = get_object_or_404(Round, pk=round_id, event__championship=championship)
    device, _token, refusal = _paired(request, championship)
    _unpublished_to(request, championship, device)
    if device is not None and table in section_of(device):
        return redirect(_screen_url(championship, rnd, table))
    row: Section | None = None
    row_problem = ""
    judge = role_of(request.user, championship)
    if device is None and judge is not None and judge <= Role.JUDGE:
        try:
            row = row_section(championship, table)
        except DeviceError as error:
            row_problem = _refusal_text(error)
    if request.method == "POST":
        if row is None:
            return HttpResponse(status=403)
        device, token = device_pair_for_row(championship=championship, table=table,
                                            user=request.user)
        return _with_cookie(redirect(_screen_url(championship, rnd, table)), request, device,
                            token)
    return render(request, "judging/how_to_pair.html", {
        "championship": championship, "round": rnd, "table": table, "device": device,
        "refusal": _refusal_text(refusal), "row": row, "row_problem": row_problem,
        "login_url": f"{reverse('login')}?{urlencode({'next': request.get_full_path()})}",
        "unpaired_labels": unpaired_labels(),
    }, status=401 if refusal else 200)
