"""The head judge's devices screen under /control/<slug>/judges/: create, pair, print, revoke.

A pairing code exists only in the response that issues it (the database keeps its hash), so
the sheet with its QR code is the answer to the POST that creates the device or asks for a
new code.
"""

from __future__ import annotations

import segno
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from puzzlecomp.championships.messages import message_of
from puzzlecomp.championships.models import Championship, JudgeDevice, Role
from puzzlecomp.championships.roles import requires_role
from puzzlecomp.championships.services.devices import (
    DeviceError,
    device_create,
    device_is_expired,
    device_revoke,
    pairing_code_issue,
)
from puzzlecomp.judging.forms import DeviceForm
from puzzlecomp.judging.pairing_sheet import PairingSheet, pairing_sheets_pdf


def pairing_url(championship: Championship, code: str) -> str:
    # The hall's address (SITE_URL), not the one this browser used: on the venue laptop that is
    # 127.0.0.1, which no phone reaches.
    return settings.SITE_URL.rstrip("/") + reverse("judging:pair", args=[championship.slug, code])


def qr_svg(url: str) -> str:
    return mark_safe(segno.make(url, error="m").svg_inline(scale=6, title=url))


def _device(championship: Championship, device_id: int) -> JudgeDevice:
    return get_object_or_404(JudgeDevice, pk=device_id, championship=championship)


def _index(request: HttpRequest, championship: Championship, form: DeviceForm,
           status: int = 200) -> HttpResponse:
    now = timezone.now()
    devices = [(device, device_is_expired(device, now=now))
               for device in JudgeDevice.objects.filter(championship=championship)]
    return render(request, "judging/control/index.html", {
        "championship": championship, "devices": devices, "form": form,
    }, status=status)


def _sheet(request: HttpRequest, championship: Championship, device: JudgeDevice,
           code: str) -> HttpResponse:
    url = pairing_url(championship, code)
    return render(request, "judging/control/sheet.html", {
        "championship": championship, "device": device, "url": url, "qr": qr_svg(url),
    })


@requires_role(Role.HEAD_JUDGE)
def index(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Every device with its tables, pairing state and last contact; a form for a new one."""
    return _index(request, championship, DeviceForm())


@requires_role(Role.HEAD_JUDGE)
@require_POST
def create(request: HttpRequest, championship: Championship) -> HttpResponse:
    form = DeviceForm(request.POST)
    if not form.is_valid():
        return _index(request, championship, form, status=400)
    data = form.cleaned_data
    try:
        device, code = device_create(championship=championship, label=data["label"],
                                     table_from=data["table_from"], table_to=data["table_to"],
                                     user=request.user)
    except DeviceError as error:
        form.add_error(error.field or None, message_of(error.code, error.message, error.params))
        return _index(request, championship, form, status=400)
    return _sheet(request, championship, device, code)


@requires_role(Role.HEAD_JUDGE)
@require_POST
def new_code(request: HttpRequest, championship: Championship, device_id: int) -> HttpResponse:
    """A fresh pairing code for the device (to pair it, or to move it to another phone)."""
    device = _device(championship, device_id)
    try:
        code = pairing_code_issue(device=device, user=request.user)
    except DeviceError as error:
        messages.error(request, message_of(error.code, error.message, error.params))
        return redirect("control:judges:index", championship.slug)
    return _sheet(request, championship, device, code)


@requires_role(Role.HEAD_JUDGE)
@require_POST
def revoke(request: HttpRequest, championship: Championship, device_id: int) -> HttpResponse:
    device = device_revoke(device=_device(championship, device_id), user=request.user)
    messages.success(request, _("%(label)s can no longer record results.")
                     % {"label": device.label})
    return redirect("control:judges:index", championship.slug)


@requires_role(Role.HEAD_JUDGE)
@require_POST
def sheets_pdf(request: HttpRequest, championship: Championship) -> HttpResponse:
    """One printed pairing sheet per device still waiting for its phone, each with a new code
    (codes shown or printed before stop working)."""
    now = timezone.now()
    waiting = [d for d in JudgeDevice.objects.filter(championship=championship,
                                                     revoked_at__isnull=True,
                                                     paired_at__isnull=True)
               if not device_is_expired(d, now=now)]
    if not waiting:
        messages.error(request, _("No device is waiting for its phone."))
        return redirect("control:judges:index", championship.slug)
    sheets = [PairingSheet(championship=championship.name, label=device.label,
                           table_from=device.table_from, table_to=device.table_to,
                           url=pairing_url(championship,
                                           pairing_code_issue(device=device, user=request.user)))
              for device in waiting]
    response = HttpResponse(pairing_sheets_pdf(sheets), content_type="application/pdf")
    response["Content-Disposition"] = (
        f'attachment; filename="pairing-sheets-{championship.slug}.pdf"')
    # The codes are in the document: no cache may keep it.
    response["Cache-Control"] = "no-store"
    return response
